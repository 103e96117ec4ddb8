"""A 4x4 Latin square: the rules, minimal moves, exact oracle and official-format I/O of the demo domain.

Glossary:
- *cell*: an index ``i`` in ``0..15``, row-major; shown to people as 1-based ``(row, column)``.
- *grid* / *state*: a ``tuple`` of 16 digits in ``0..4``; ``0`` marks an empty cell. The puzzle's
  *givens* are its initial grid and can never change.
- *minimal move*: filling one empty cell with a digit its row and column do not hold yet (forward),
  or clearing one filled cell that is not a given (backward).

The official format is a 4x4 Python list of rows, like the built-in Sudoku's. The oracle is a plain
backtracking search (16 cells, at most 4 digits each: exact and instant).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Sequence

from finereason.core.engine import Engine, StateItem, Step, StepKind
from finereason.common.verdict import SOLVABLE, StateError

N = 4
CELLS = range(N * N)
Grid = tuple[int, ...]
LINES = tuple(tuple(r * N + c for c in range(N)) for r in range(N)) + \
    tuple(tuple(r * N + c for r in range(N)) for c in range(N))
LINE_NAMES = ("row",) * N + ("column",) * N


def cell_name(i: int) -> str:
    """The 1-based ``(row, column)`` of cell ``i``."""
    return f"({i // N + 1}, {i % N + 1})"


def parse_grid(value: Any) -> Grid:
    """A grid from a 4x4 list of integers in 0..4; :class:`StateError` naming the first problem."""
    if not isinstance(value, (list, tuple)) or len(value) != N:
        raise StateError(f"a state is a list of {N} rows")
    cells: list[int] = []
    for r, row in enumerate(value, 1):
        if not isinstance(row, (list, tuple)) or len(row) != N:
            raise StateError(f"row {r} is not a list of {N} cells")
        for v in row:
            if type(v) is not int or not 0 <= v <= N:
                raise StateError(f"row {r} holds {v!r}; cells are integers 0..{N}")
            cells.append(v)
    return tuple(cells)


@dataclass(frozen=True)
class LatinPuzzle:
    """A 4x4 Latin square puzzle: its 16 givens (0 = empty), row-major."""

    givens: Grid


def peers_hold(grid: Sequence[int], i: int, digit: int) -> bool:
    """Whether another cell in the row or column of ``i`` holds ``digit``."""
    return any(grid[j] == digit for line in LINES if i in line for j in line if j != i)


def repeats(grid: Sequence[int]) -> list[str]:
    """"row 2 has two 3s" for every digit repeated in a row, then in a column."""
    out = []
    for k, (line, name) in enumerate(zip(LINES, LINE_NAMES)):
        number = k % N + 1
        for d in range(1, N + 1):
            times = sum(grid[j] == d for j in line)
            if times > 1:
                out.append(f"{name} {number} has {times} {d}s")
    return out


def completions(grid: Grid) -> Iterator[Grid]:
    """Every completion of a grid that breaks no rule, in search order."""
    if repeats(grid):
        return
    try:
        i = grid.index(0)
    except ValueError:
        yield grid
        return
    for d in range(1, N + 1):
        if not peers_hold(grid, i, d):
            yield from completions(grid[:i] + (d,) + grid[i + 1:])


class LatinEngine(Engine[LatinPuzzle, Grid]):
    """Latin-square states are 16-tuples; a minimal move fills or clears one non-given cell."""

    name = "demo_latin"
    official_name = "demolatin"

    # -------------------------------------------------------------- official formats
    def puzzle_from_official(self, record: dict) -> LatinPuzzle:
        try:
            return LatinPuzzle(parse_grid(record["inputs"]["initial"]))
        except (KeyError, TypeError):
            raise StateError("record has no inputs.initial grid") from None

    def item_from_official(self, record: dict) -> StateItem[LatinPuzzle, Grid]:
        puzzle = self.puzzle_from_official(record)
        inputs = record["inputs"]

        def state(key: str) -> Grid | None:
            return None if inputs.get(key) is None else parse_grid(inputs[key])

        status = (record.get("outputs") or {}).get("current_status")
        return StateItem(puzzle, parse_grid(inputs.get("current", inputs["initial"])), state("parent"),
                         state("grandparent"), state("unsolvable_child"),
                         None if status is None else status == SOLVABLE)

    def item_to_official(self, item: StateItem[LatinPuzzle, Grid], record: dict) -> dict:
        def grid(state: Grid | None) -> list[list[int]] | None:
            return None if state is None else self.to_official(item.puzzle, state)

        final = (record.get("outputs") or {}).get("final") or grid(self.solve(item.puzzle))
        return {
            "inputs": {"initial": grid(item.puzzle.givens), "grandparent": grid(item.grandparent),
                       "parent": grid(item.parent), "current": grid(item.current),
                       "unsolvable_child": grid(item.unsolvable_child)},
            "outputs": {"final": final, "current_status": self.status(item.solvable)},
        }

    def to_official(self, puzzle: LatinPuzzle, state: Grid) -> list[list[int]]:
        return [list(state[r * N:r * N + N]) for r in range(N)]

    def parse_state(self, puzzle: LatinPuzzle, value: Any) -> Grid:
        return parse_grid(value)

    # -------------------------------------------------------------- rules and oracle
    def violations(self, puzzle: LatinPuzzle, state: Grid) -> list[str]:
        changed = [f"cell {cell_name(i)} overwrites the given {g}"
                   for i, g in enumerate(puzzle.givens) if g and state[i] != g]
        return changed + repeats(state)

    def is_solvable(self, puzzle: LatinPuzzle, state: Grid) -> bool:
        return not self.violations(puzzle, state) and next(completions(state), None) is not None

    def solve(self, puzzle: LatinPuzzle, state: Grid | None = None) -> Grid | None:
        state = puzzle.givens if state is None else state
        return next(completions(state), None) if not self.violations(puzzle, state) else None

    def check_solution(self, puzzle: LatinPuzzle, state: Grid) -> list[str]:
        empty = state.count(0)
        return ([f"{empty} cells are still empty"] if empty else []) + self.violations(puzzle, state)

    # -------------------------------------------------------------- moves
    def initial(self, puzzle: LatinPuzzle) -> Grid:
        return puzzle.givens

    def children(self, puzzle: LatinPuzzle, state: Grid) -> Iterator[Grid]:
        for i in CELLS:
            if not state[i]:
                for d in range(1, N + 1):
                    if not peers_hold(state, i, d):
                        yield state[:i] + (d,) + state[i + 1:]

    def undo_moves(self, puzzle: LatinPuzzle, state: Grid) -> Iterator[Grid]:
        for i in CELLS:
            if state[i] and not puzzle.givens[i]:
                yield state[:i] + (0,) + state[i + 1:]

    def step(self, puzzle: LatinPuzzle, current: Grid, proposed: Grid) -> Step:
        changed = [i for i in CELLS if current[i] != proposed[i]]
        if not changed:
            return Step(StepKind.NONE, ("no cell changed",))
        given = [f"cell {cell_name(i)} overwrites the given {puzzle.givens[i]}" for i in changed if puzzle.givens[i]]
        if given:
            return Step(StepKind.INVALID, tuple(given))
        if len(changed) > 1:
            return Step(StepKind.MULTIPLE, (f"{len(changed)} cells changed",))
        i = changed[0]
        if not proposed[i]:
            return Step(StepKind.BACKWARD)
        if current[i]:
            return Step(StepKind.INVALID, (f"cell {cell_name(i)} changes {current[i]} to {proposed[i]}",))
        if peers_hold(proposed, i, proposed[i]):
            return Step(StepKind.INVALID, tuple(repeats(proposed)) or ("the digit repeats",))
        return Step(StepKind.FORWARD)
