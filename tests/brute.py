"""Small, independent solvers for the tests: written from the rules alone, sharing no code with
``finereason.core.engine``, so that a test can check the engines against a second opinion.

They are slow (plain backtracking) and only meant for the small cases the tests give them.
"""
from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from typing import Iterator, Sequence

Grid = tuple[int, ...]  # 81 cells, row by row, 0 = empty


def sudoku_peers(i: int) -> set[int]:
    """The other cells sharing a row, column or 3x3 box with cell ``i``."""
    r, c = divmod(i, 9)
    box = {(r // 3 * 3 + dr) * 9 + c // 3 * 3 + dc for dr in range(3) for dc in range(3)}
    return ({r * 9 + k for k in range(9)} | {k * 9 + c for k in range(9)} | box) - {i}


PEERS = [sudoku_peers(i) for i in range(81)]


def sudoku_candidates(grid: Sequence[int], i: int) -> list[int]:
    """Digits that cell ``i`` may take without repeating one of its peers."""
    used = {grid[j] for j in PEERS[i]}
    return [d for d in range(1, 10) if d not in used]


def sudoku_consistent(grid: Sequence[int]) -> bool:
    """No digit repeats in a row, column or box."""
    return all(not grid[i] or grid[i] not in {grid[j] for j in PEERS[i]} for i in range(81))


def sudoku_solutions(grid: Sequence[int], limit: int = 2) -> list[Grid]:
    """Up to ``limit`` ways to fill the empty cells, in search order."""
    if not sudoku_consistent(grid):
        return []
    cells, found = list(grid), []

    def search() -> None:
        best, best_options = -1, None
        for i in range(81):
            if not cells[i]:
                options = sudoku_candidates(cells, i)
                if best_options is None or len(options) < len(best_options):
                    best, best_options = i, options
                    if len(options) <= 1:
                        break
        if best_options is None:
            found.append(tuple(cells))
            return
        for d in best_options:
            cells[best] = d
            search()
            cells[best] = 0
            if len(found) >= limit:
                return

    search()
    return found


def sudoku_completions(grid: Sequence[int], limit: int = 2) -> int:
    """How many ways the empty cells can be filled (counting stops at ``limit``)."""
    return len(sudoku_solutions(grid, limit))


def sudoku_moves(grid: Sequence[int]) -> Iterator[Grid]:
    """Every rule-valid single fill of an empty cell."""
    for i in range(81):
        if not grid[i]:
            for d in sudoku_candidates(grid, i):
                yield tuple(grid[:i]) + (d,) + tuple(grid[i + 1:])


def reaches_24(values: Sequence[Fraction], target: Fraction = Fraction(24)) -> bool:
    """Whether the numbers can be combined with + - * / (each used once) into ``target``."""
    if len(values) == 1:
        return values[0] == target
    for i, j in combinations(range(len(values)), 2):
        a, b = values[i], values[j]
        rest = [v for k, v in enumerate(values) if k not in (i, j)]
        results = {a + b, a - b, b - a, a * b}
        if b:
            results.add(a / b)
        if a:
            results.add(b / a)
        if any(reaches_24(rest + [r], target) for r in results):
            return True
    return False


def proper_coloring(edges: Sequence[tuple[int, int]], colors: Sequence[int], k: int) -> bool:
    """Every vertex has a color in 1..k and no edge joins two vertices of the same color."""
    return all(1 <= c <= k for c in colors) and all(colors[u] != colors[v] for u, v in edges)


def coloring_completable(adjacency: Sequence[Sequence[int]], k: int, state: Sequence[int]) -> bool:
    """Lowest-index-first backtracking with colors tried 1..k: no heuristics, no propagation."""
    colors = list(state)
    if any(c and colors[u] == c for v, c in enumerate(colors) for u in adjacency[v]):
        return False
    blanks = [v for v, c in enumerate(colors) if c == 0]

    def go(i: int) -> bool:
        if i == len(blanks):
            return True
        v = blanks[i]
        taken = {colors[u] for u in adjacency[v]}
        for c in range(1, k + 1):
            if c not in taken:
                colors[v] = c
                if go(i + 1):
                    return True
        colors[v] = 0
        return False

    return go(0)
