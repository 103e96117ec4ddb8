"""End-to-end verdicts on solutions that do not come from the engines' own ``solve()``: published
solutions in ../shared, solutions found by the small solvers of ``tests/brute.py``, and hand-written
ones; and the reasons of wrong solutions checked by their content.
"""
from __future__ import annotations

import csv
import json
from fractions import Fraction

import pytest

from brute import proper_coloring, reaches_24, sudoku_completions, sudoku_solutions
from conftest import read_jsonl, shared_path
from finereason.domains.graph_coloring.dimacs import read_dimacs
from finereason.core.engine import get_engine
from finereason.domains.game_of_24.puzzle import Game24Puzzle
from finereason.domains.graph_coloring.puzzle import GraphColoringPuzzle
from finereason.domains.sudoku.engine import SudokuPuzzle
from finereason.verification.verifiers import verify_end_to_end

SUDOKU, GRAPH, GAME24, GRID = (get_engine(n) for n in ("sudoku", "graph_coloring", "game_of_24", "grid_puzzle"))


def flat(rows: list[list[int]]) -> tuple[int, ...]:
    return tuple(v for row in rows for v in row)


def as_rows(cells) -> list[list[int]]:
    return [list(cells[r * 9:r * 9 + 9]) for r in range(9)]


def questions(name: str) -> list[dict]:
    return read_jsonl(shared_path("finereason_official", f"{name}_questions.jsonl"))


# ------------------------------------------------------------------ Sudoku
def test_published_sudoku_solutions_pass():
    records = questions("sudoku")
    assert len(records) == 51
    for record in records:
        puzzle = SUDOKU.puzzle_from_official(record)
        verdict = verify_end_to_end(SUDOKU, puzzle, "Final answer: " + json.dumps(record["outputs"]["final"]))
        assert (verdict.correct, verdict.category, verdict.reasons) == (True, "correct", ()), record["inputs"]["initial"][0]


def test_every_solution_of_a_sudoku_with_several_counts():
    """Givens removed from an official puzzle until it has several solutions; each one the brute-force
    solver finds is accepted, and each names the same puzzle's givens (nothing else is asked)."""
    record = questions("sudoku")[0]
    grid = list(flat(record["inputs"]["initial"]))
    for i in reversed(range(81)):  # drop givens from the bottom right until there are at least 3 solutions
        if sudoku_completions(grid, 3) >= 3:
            break
        grid[i] = 0
    found = sudoku_solutions(grid, 3)
    assert len(set(found)) == 3
    puzzle = SudokuPuzzle(tuple(grid))
    for solution in found:
        verdict = verify_end_to_end(SUDOKU, puzzle, "Answer: " + json.dumps(as_rows(solution)))
        assert verdict.correct, verdict.reasons


def test_sudoku_reasons_name_each_broken_rule():
    record = questions("sudoku")[0]
    puzzle = SUDOKU.puzzle_from_official(record)
    final = flat(record["outputs"]["final"])
    # the givens alone: only the empty cells are wrong, counted by hand from the file
    initial = flat(record["inputs"]["initial"])
    verdict = verify_end_to_end(SUDOKU, puzzle, "Answer: " + json.dumps(as_rows(initial)))
    assert verdict.category == "invalid_solution"
    assert verdict.reasons == (f"{initial.count(0)} cells are still empty",)
    # two non-given cells of row 1 in the same box swapped: row 1 and the box keep their digits, so
    # exactly columns c1 and c2 repeat a digit
    c1, c2 = next((a, b) for a in range(9) for b in range(a + 1, 9)
                  if not initial[a] and not initial[b] and a // 3 == b // 3)
    swapped = list(final)
    swapped[c1], swapped[c2] = final[c2], final[c1]
    verdict = verify_end_to_end(SUDOKU, puzzle, "Answer: " + json.dumps(as_rows(swapped)))
    assert verdict.category == "invalid_solution"
    assert [r.split(" has two ")[0] for r in verdict.reasons] == [f"column {c1 + 1}", f"column {c2 + 1}"]
    assert f"column {c1 + 1} has two {final[c2]}s" in verdict.reasons[0]
    # another puzzle's solution breaks this puzzle's givens: every reason is about a given
    other = questions("sudoku")[1]["outputs"]["final"]
    verdict = verify_end_to_end(SUDOKU, puzzle, "Answer: " + json.dumps(other))
    changed = sum(g and g != v for g, v in zip(initial, flat(other)))
    assert verdict.category == "invalid_solution" and changed > 0
    assert len(verdict.reasons) >= 1 and all("given" in r for r in verdict.reasons), verdict.reasons


# ------------------------------------------------------------------ graph coloring
def witness(name: str) -> tuple[GraphColoringPuzzle, tuple[int, ...], list[tuple[int, int]]]:
    """A DIMACS graph, the published witness coloring with chi colors, and its edge list."""
    with open(shared_path("graph_coloring", "chromatic_numbers.csv"), encoding="utf-8") as fh:
        row = next(r for r in csv.DictReader(fh) if r["instance"] == name)
    adjacency = read_dimacs(shared_path("graph_coloring", row["file"]))
    colors = tuple(int(x) for x in shared_path("graph_coloring", row["witness_coloring"]).read_text().split())
    k = int(row["chromatic_number"])
    edges = [(u, v) for u, near in enumerate(adjacency) for v in near if u < v]
    return GraphColoringPuzzle(adjacency, k), colors, edges


@pytest.mark.parametrize("name", ["anna", "david", "myciel5", "queen6_6"])
def test_published_witness_colorings_and_relabelled_ones_pass(name):
    puzzle, colors, edges = witness(name)
    assert proper_coloring(edges, colors, puzzle.k)                   # the second opinion agrees
    relabelled = tuple(puzzle.k + 1 - c for c in colors)               # colors renamed k+1-c: still proper
    assert relabelled != colors
    for coloring in (colors, relabelled):
        verdict = verify_end_to_end(GRAPH, puzzle, f"Answer: {list(coloring)}")
        assert verdict.correct, verdict.reasons[:3]


def test_graph_coloring_reasons_name_each_clash():
    puzzle, colors, edges = witness("anna")
    u, v = edges[0]
    x, y = next(e for e in reversed(edges) if not {u, v} & set(e))
    clashing = list(colors)
    clashing[v] = clashing[u]          # edge u-v now monochrome
    clashing[y] = clashing[x]          # and edge x-y
    clashes = sorted((a, b) for a, b in edges if clashing[a] == clashing[b])
    assert not proper_coloring(edges, clashing, puzzle.k)
    verdict = verify_end_to_end(GRAPH, puzzle, f"Answer: {clashing}")
    assert verdict.category == "invalid_solution"
    assert len(verdict.reasons) == len(clashes)
    for (a, b), reason in zip(clashes, verdict.reasons):
        assert f"vertices {a} and {b} share color {clashing[a]}" in reason, (reason, a, b)
    blank = list(colors)
    blank[3] = 0
    verdict = verify_end_to_end(GRAPH, puzzle, f"Answer: {blank}")
    assert verdict.reasons == ("vertex 3 is uncolored",)


# ------------------------------------------------------------------ Game of 24
@pytest.mark.parametrize("answer", [
    "Answer: (1 + 2 + 3) * 4 = 24",
    "Answer: 1 * 2 * 3 * 4 = 24",
    "Answer: (1 + 3) * (2 + 4) = 24",
    "Answer: 4 * (3 + 2 + 1)",
    "Answer: 4 * 3 * 2 * 1",
])
def test_hand_written_game24_solutions_pass(answer):
    verdict = verify_end_to_end(GAME24, Game24Puzzle((1, 2, 3, 4)), answer)
    assert (verdict.correct, verdict.category) == (True, "correct"), verdict.reasons


@pytest.mark.parametrize("answer, why", [
    ("Answer: (1 + 2) * 3 * 4 = 36", "36"),      # the value is not 24
    ("Answer: 4 * 3 * 2 * 4 = 96", "4"),         # 4 used twice, 1 unused
    ("Answer: (4 + 4) * 3 = 24", "4"),           # 4 twice, 1 and 2 unused
])
def test_wrong_game24_solutions_fail_with_their_reason(answer, why):
    verdict = verify_end_to_end(GAME24, Game24Puzzle((1, 2, 3, 4)), answer)
    assert not verdict.correct and verdict.category in ("invalid_solution", "parse_error")
    assert verdict.reasons and any(why in r for r in verdict.reasons), verdict.reasons


def test_game24_oracle_agrees_with_a_second_solver_on_every_official_question():
    records = questions("game24")
    assert len(records) == 98
    for record in records:
        numbers = [int(x) for x in record["inputs"]["initial_state"]]
        puzzle = GAME24.puzzle_from_official(record)
        expected = reaches_24([Fraction(n) for n in numbers])
        assert GAME24.is_solvable(puzzle, GAME24.initial(puzzle)) == expected, numbers
        assert expected, "every official Game-of-24 question can make 24"


# ------------------------------------------------------------------ logic grid
def test_published_grid_solutions_pass_and_a_swap_fails():
    records = questions("gridpuzzle")
    assert len(records) == 46
    for record in records:
        puzzle = GRID.puzzle_from_official(record)
        solution = record["outputs"]["solution"]
        table = json.loads(solution.replace("'", '"')) if isinstance(solution, str) else solution
        verdict = verify_end_to_end(GRID, puzzle, "Answer: " + json.dumps(table))
        assert verdict.correct, verdict.reasons
        # swap the second column's values of the first two rows: some clue or rule must now fail
        swapped = [list(r) for r in table]
        swapped[1][1], swapped[2][1] = swapped[2][1], swapped[1][1]
        wrong = verify_end_to_end(GRID, puzzle, "Answer: " + json.dumps(swapped))
        assert wrong.category == "invalid_solution" and wrong.reasons
        assert all("clue" in r for r in wrong.reasons), wrong.reasons
