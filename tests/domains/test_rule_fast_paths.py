"""The C-speed shortcuts of the Sudoku and graph colouring rule checks give exactly the reasons of the
plain checks they bypass (written out here cell by cell), on solved, mutated, partial and odd grids; the
fast read of a colouring list gives exactly what the general literal reader and ``parse_state`` give."""
from __future__ import annotations

import random

import pytest

from finereason.common.verdict import ParseError, StateError
from finereason.core.literals import parse_literal
from finereason.core.engine import Engine
from finereason.domains.graph_coloring.engine import GraphColoringEngine, _shape_error, digit_list
from finereason.domains.graph_coloring.puzzle import GraphColoringPuzzle
from finereason.domains.graph_coloring.solver import _conflicts
from finereason.domains.sudoku.engine import grid_violations, solve
from finereason.domains.sudoku.payload import UNITS, units_to_check

WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
GIVENS = (5, 3, 0, 0, 7, 0, 0, 0, 0, 6, 0, 0, 1, 9, 5, 0, 0, 0, 0, 9, 8, 0, 0, 0, 0, 6, 0, 8, 0, 0, 0, 6, 0, 0, 0, 3, 4, 0,
          0, 8, 0, 3, 0, 0, 1, 7, 0, 0, 0, 2, 0, 0, 0, 6, 0, 6, 0, 0, 0, 0, 2, 8, 0, 0, 0, 0, 4, 1, 9, 0, 0, 5, 0, 0, 0,
          0, 8, 0, 0, 7, 9)


def _units() -> list[tuple[str, int, list[int]]]:
    rows = [("row", r + 1, [r * 9 + c for c in range(9)]) for r in range(9)]
    cols = [("column", c + 1, [r * 9 + c for r in range(9)]) for c in range(9)]
    boxes = [("box", b + 1, [(3 * (b // 3) + r) * 9 + 3 * (b % 3) + c for r in range(3) for c in range(3)])
             for b in range(9)]
    return rows + cols + boxes


def _reference(givens, grid) -> list[str]:
    out = [f"cell ({i // 9 + 1}, {i % 9 + 1}) overwrites the given {g}" for i, g in enumerate(givens) if g and grid[i] != g]
    for name, number, cells in _units():
        for d in range(1, 10):
            n = sum(grid[i] == d for i in cells)
            if n > 1:
                out.append(f"{name} {number} has {WORDS[n]} {d}s")
    return out


def _grids(seed: int, n: int):
    rng = random.Random(seed)
    solved = solve(GIVENS)
    assert solved is not None
    for _ in range(n):
        grid = list(solved)
        for _ in range(rng.choice([0, 0, 1, 2, 5, 30])):
            op = rng.randrange(3)
            i, j = rng.randrange(81), rng.randrange(81)
            if op == 0:
                grid[i], grid[j] = grid[j], grid[i]
            elif op == 1:
                grid[i] = 0
            else:
                grid[i] = rng.randint(1, 9)
        yield tuple(grid)


def test_sudoku_violations_match_the_cell_by_cell_check():
    kinds = set()
    for grid in _grids(0, 3000):
        reasons = grid_violations(GIVENS, grid)
        assert reasons == _reference(GIVENS, grid), grid
        assert grid_violations((0,) * 81, grid) == _reference((0,) * 81, grid)
        kinds.add(bool(reasons))
    assert kinds == {True, False}


def test_units_to_check_are_the_units_not_holding_one_to_nine():
    for grid in _grids(1, 2000):
        expected = [u for u, cells in enumerate(UNITS) if sorted(grid[i] for i in cells) != list(range(1, 10))]
        assert list(units_to_check(grid)) == expected
    assert [c for _, _, c in _units()] == [list(u) for u in UNITS]


def test_colouring_shape_check_matches_the_entry_by_entry_check():
    puzzle = GraphColoringPuzzle(((1,), (0, 2), (1, 3), (2, 4), (3,)), 3)

    def reference(value):
        if len(value) != puzzle.n:
            return f"coloring has {len(value)} entries, expected {puzzle.n} vertices"
        for v, c in enumerate(value):
            if not (isinstance(c, int) and not isinstance(c, bool)):
                return f"vertex {v} has color {c!r}, which is not an integer"
            if not 0 <= c <= puzzle.k:
                return f"vertex {v} has color {c}, but only colors 1..{puzzle.k} exist (0 = uncolored)"
        return None

    rng = random.Random(2)
    pool = [0, 1, 2, 3, 4, -1, True, 2.0, "1", None]
    seen = set()
    for _ in range(3000):
        value = [rng.choice(pool[:4]) if rng.random() < 0.85 else rng.choice(pool) for _ in range(rng.choice([5, 5, 5, 4, 0]))]
        got = _shape_error(puzzle, value)
        assert got == reference(value), value
        seen.add(got is None)
    assert seen == {True, False}


def _random_graph(rng: random.Random, n: int) -> GraphColoringPuzzle:
    edges = {(u, v) for u in range(n) for v in range(u + 1, n) if rng.random() < 0.35}
    return GraphColoringPuzzle(tuple(tuple(sorted({v for e in edges if u in e for v in e} - {u})) for u in range(n)), 3)


def test_colouring_conflicts_match_the_edge_by_edge_check():
    rng = random.Random(3)
    seen = set()
    for _ in range(2000):
        n = rng.randint(1, 12)
        puzzle = _random_graph(rng, n)
        colors = [rng.randint(0, 3) for _ in range(n)]
        if rng.random() < 0.5:  # a proper colouring, greedily, then maybe one vertex recoloured
            for u in range(n):
                used = {colors[v] for v in puzzle.adjacency[u] if v < u}
                colors[u] = min({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13} - used)
            if rng.random() < 0.5:
                colors[rng.randrange(n)] = rng.randint(0, 3)
        expected = [(u, v) for u in range(n) for v in puzzle.adjacency[u] if u < v and colors[u] and colors[u] == colors[v]]
        got = _conflicts(puzzle.masks, tuple(colors))
        assert got == expected, (puzzle.adjacency, colors)
        seen.add(bool(got))
    assert seen == {True, False}


def _outcome(parse, *args):
    try:
        return parse(*args)
    except (ParseError, StateError) as err:
        return type(err).__name__, str(err)


@pytest.mark.parametrize("seed", range(3))
def test_fast_colouring_read_matches_the_general_reader(seed):
    """The engine's read of a colouring answer (single digits at C speed) against the every-engine read
    (``Engine.parse_solution_text``: the literal reader, then ``parse_state``): same state or same error."""
    rng = random.Random(seed)
    engine = GraphColoringEngine()
    noise = ["[", "]", ",", " ", "\n", "\t", "\r", "\x0b", "\xa0", "0", "1", "7", "-", "'", ".", "x", "12", "٣"]
    fast_reads = set()
    for _ in range(3000):
        n, k = rng.randint(1, 6), rng.randint(1, 9)
        puzzle = GraphColoringPuzzle(tuple(() for _ in range(n)), k)
        values = [rng.randint(0, min(9, k + 1)) for _ in range(rng.choice([n, n, n, n - 1, n + 1]))]
        payload = "[" + "".join(str(v) + rng.choice([", ", ",", " ,", "\n, ", ",\t"]) for v in values)
        payload = (payload[:-1].rstrip(" ,\n\t") if values and rng.random() < 0.9 else payload) + "]"
        if rng.random() < 0.3:
            at = rng.randrange(len(payload) + 1)
            payload = payload[:at] + rng.choice(noise) + payload[at:]
        text = f"Answer: {payload}"
        got = _outcome(engine.parse_solution_text, puzzle, text)
        assert got == _outcome(Engine.parse_solution_text, engine, puzzle, text), payload
        digits = digit_list(payload)
        if digits is not None:
            assert list(digits) == parse_literal(payload)
        fast_reads.add((digits is not None, isinstance(got, tuple) and isinstance(got[0], str)))
    assert fast_reads == {(True, True), (True, False), (False, True), (False, False)}  # every path, right and wrong
