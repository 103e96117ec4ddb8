"""Sudoku: 9x9 grids, the exact solvability oracle and FineReason's minimal moves.

Glossary:
- *cell*: an index ``i`` in ``0..80``, row-major; shown to people as 1-based ``(row, column)``.
- *digit*: ``1..9``; ``0`` marks an empty cell.
- *grid* / *state*: a ``tuple`` of 81 digits. The puzzle's *givens* are its initial grid.
- *unit*: a row, column or 3x3 box (27 in all); boxes are numbered 1..9 row-major.
- *peers*: the 20 other cells sharing a unit with a cell.
- *bit*: digit ``d`` as the mask ``1 << (d - 1)``; a set of digits is an int below 512.
- *candidates*: the digits an empty cell may still take (a mask).
- *naked single*: an empty cell with one candidate. *hidden single*: a digit with one possible
  cell left in a unit.
- *minimal move*: filling exactly one empty cell with a digit no peer holds (forward), or clearing
  exactly one filled non-given cell (backward).

The oracle (:func:`count_solutions`) propagates naked and hidden singles over int bitmasks and
branches on the empty cell with the fewest candidates (MRV). It is exact: a state is solvable iff
it breaks no rule and the search finds a completion.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import chain, compress
from operator import itemgetter, ne
from typing import Any, Iterator, Sequence

from ...common.verdict import StateError
from ...common.vocabulary import END_TO_END, MRV, PAPER, STATE_TRANSITION
from ...core.engine import Engine, StateItem, Step, StepKind, official_label
from ...core.literals import parse_literal
from ...reading.region import answer_region
from .payload import digit_grid, units_to_check

Grid = tuple[int, ...]

# ---------------------------------------------------------------- constant tables
ALL = 0x1FF                                   # all nine digit bits
CELLS = range(81)
ROWS = tuple(tuple(r * 9 + c for c in range(9)) for r in range(9))
COLS = tuple(tuple(r * 9 + c for r in range(9)) for c in range(9))
BOXES = tuple(tuple((br * 3 + r) * 9 + bc * 3 + c for r in range(3) for c in range(3)) for br in range(3) for bc in range(3))
UNITS = ROWS + COLS + BOXES                   # unit u: rows 0-8, columns 9-17, boxes 18-26
UNIT_NAMES = ("row",) * 9 + ("column",) * 9 + ("box",) * 9
CELL_UNITS = tuple((i // 9, 9 + i % 9, 18 + (i // 27) * 3 + (i % 9) // 3) for i in CELLS)
PEERS = tuple(tuple(sorted({j for u in CELL_UNITS[i] for j in UNITS[u]} - {i})) for i in CELLS)
PEER_DIGITS = tuple(itemgetter(*peers) for peers in PEERS)  # PEER_DIGITS[i](grid): the peers' digits, at C speed
BIT = (0,) + tuple(1 << (d - 1) for d in range(1, 10))        # BIT[d]
DIGIT = tuple((b.bit_length() if b & (b - 1) == 0 else 0) for b in range(257))  # DIGIT[bit]
_COUNT_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def cell_name(i: int) -> str:
    """The 1-based ``(row, column)`` of cell ``i``."""
    return f"({i // 9 + 1}, {i % 9 + 1})"


# ---------------------------------------------------------------- parsing
def parse_grid(value: Any) -> Grid:
    """A grid from an 81-character string ('.' or '0' blank), a 9x9 list or 81 ints.

    Raises :class:`StateError` naming the first problem (shape, type or range).
    """
    if isinstance(value, str):
        return _grid_from_string(value)
    if not isinstance(value, (list, tuple)):
        raise StateError(f"grid must be a 9x9 list or an 81-character string, not {type(value).__name__}")
    if len(value) == 81 and all(type(v) is int for v in value):
        return _checked(tuple(value), lambda i: f"cell {cell_name(i)}")
    if len(value) != 9:
        raise StateError(f"grid has {len(value)} rows, expected 9")
    if set(map(type, value)) <= _ROW_TYPES and set(map(len, value)) == _NINE:  # the common case, at C speed
        return _checked(tuple(chain.from_iterable(value)), lambda i: f"cell {cell_name(i)}")
    flat: list[Any] = []
    for r, row in enumerate(value, 1):
        if not isinstance(row, (list, tuple)):
            raise StateError(f"row {r} is not a list")
        if len(row) != 9:
            raise StateError(f"row {r} has {len(row)} cells, expected 9")
        flat.extend(row)
    return _checked(tuple(flat), lambda i: f"cell {cell_name(i)}")


_INT_ONLY = {int}
_DIGITS = frozenset(range(10))
_ROW_TYPES = {list, tuple}
_NINE = {9}


def _grid_from_string(text: str) -> Grid:
    text = text.strip()
    if len(text) != 81:
        raise StateError(f"grid string has {len(text)} characters, expected 81")
    cells = []
    for i, ch in enumerate(text):
        if ch in ".0":
            cells.append(0)
        elif ch in "123456789":
            cells.append(int(ch))
        else:
            raise StateError(f"cell {cell_name(i)} is {ch!r}; use 1-9, '.' or '0'")
    return tuple(cells)


def _checked(cells: tuple[Any, ...], where: Any) -> Grid:
    if set(map(type, cells)) == _INT_ONLY and _DIGITS.issuperset(cells):
        return cells  # the common case, checked at C speed; the loop below names the first problem
    for i, v in enumerate(cells):
        if type(v) is not int:  # bool is not a digit
            raise StateError(f"{where(i)} is {v!r}, not an integer")
        if not 0 <= v <= 9:
            raise StateError(f"{where(i)} is {v}, outside 0..9")
    return cells


@dataclass(frozen=True)
class SudokuPuzzle:
    """A 9x9 puzzle: its 81 givens (0 = empty), row-major."""

    givens: Grid

    def __post_init__(self) -> None:
        object.__setattr__(self, "givens", parse_grid(self.givens))

    @classmethod
    def from_grid(cls, value: Any) -> "SudokuPuzzle":
        """A puzzle from anything :func:`parse_grid` reads."""
        return cls(parse_grid(value))


# ---------------------------------------------------------------- rules
def repeat_sentence(u: int, digit: int, times: int) -> str:
    """"row 3 has two 7s": unit ``u`` holds ``digit`` ``times`` times."""
    return f"{UNIT_NAMES[u]} {u % 9 + 1} has {_COUNT_WORDS[times] if times < 10 else times} {digit}s"


# a wrong grid's reasons, made once (another puzzle's grid overwrites dozens of givens): by (cell, given), (unit, digit, times)
_OVERWRITES = tuple(tuple(f"cell {cell_name(i)} overwrites the given {g}" for g in range(10)) for i in CELLS)
_REPEATS = tuple(tuple(tuple(repeat_sentence(u, d, n) for n in range(10)) for d in range(10)) for u in range(27))


def unit_duplicates(grid: Sequence[int], u: int) -> list[str]:
    """Sentences for the digits repeated in unit ``u``, smallest digit first."""
    counts = [0] * 10
    for d in map(grid.__getitem__, UNITS[u]):
        counts[d] += 1
    return [_REPEATS[u][d][n] for d, n in enumerate(counts) if d and n > 1]


def overwritten_givens(givens: Sequence[int], grid: Sequence[int]) -> list[str]:
    """Sentences for the given cells that ``grid`` changes or clears."""
    if not any(map(ne, compress(grid, givens), filter(None, givens))):
        return []  # every given kept (the common case, at C speed)
    return [_OVERWRITES[i][givens[i]] for i in compress(CELLS, map(ne, grid, givens)) if givens[i]]


def grid_violations(givens: Sequence[int], grid: Sequence[int]) -> list[str]:
    """Changed givens, then repeated digits by rows, columns and boxes."""
    reasons = overwritten_givens(givens, grid)
    for u in units_to_check(grid):  # the other units hold 1..9 once: they repeat nothing
        reasons.extend(unit_duplicates(grid, u))
    return reasons


def unit_masks(grid: Sequence[int]) -> list[int] | None:
    """The digit bits placed in each of the 27 units, or ``None`` when a unit repeats a digit."""
    used = [0] * 27
    for i in CELLS:
        d = grid[i]
        if d:
            bit = BIT[d]
            for u in CELL_UNITS[i]:
                if used[u] & bit:
                    return None
                used[u] |= bit
    return used


def allowed(grid: Sequence[int], i: int) -> int:
    """The digit bits no peer of cell ``i`` holds."""
    taken = 0
    for j in PEERS[i]:
        taken |= BIT[grid[j]]
    return ALL & ~taken


# ---------------------------------------------------------------- the oracle
def _propagate(grid: list[int], used: list[int]) -> list[int] | None:
    """Place naked and hidden singles until none is left.

    Mutates ``grid`` and ``used``; returns the candidates of every cell (0 when filled), or
    ``None`` on a contradiction (an empty cell without candidates, a digit without a place).
    """
    cell_units, units, digit, cells_range = CELL_UNITS, UNITS, DIGIT, CELLS
    while True:
        cands = [0] * 81
        placed = False
        for i in cells_range:
            if grid[i]:
                continue
            r, c, b = cell_units[i]
            cand = ALL & ~(used[r] | used[c] | used[b])
            if not cand:
                return None
            if cand & (cand - 1):
                cands[i] = cand
            else:                                   # naked single
                grid[i] = digit[cand]
                used[r] |= cand
                used[c] |= cand
                used[b] |= cand
                placed = True
        if placed:
            continue
        for u, cells in enumerate(units):
            once = twice = 0
            for i in cells:
                cand = cands[i]
                twice |= once & cand
                once |= cand
            if (once | used[u]) != ALL:
                return None                         # some digit has no place in the unit
            singles = once & ~twice
            if not singles:
                continue
            for i in cells:
                bit = cands[i] & singles
                if not bit:
                    continue
                if bit & (bit - 1):
                    return None                     # one cell is the only place of two digits
                if grid[i]:
                    if grid[i] != digit[bit]:
                        return None
                    continue
                r, c, b = cell_units[i]
                if (used[r] | used[c] | used[b]) & bit:
                    return None                     # a peer took the digit earlier in this pass
                grid[i] = digit[bit]
                used[r] |= bit
                used[c] |= bit
                used[b] |= bit
                placed = True
        if not placed:
            return cands


def _search(grid: list[int], used: list[int], limit: int, found: list[Grid]) -> int:
    """Count completions of ``grid`` (at most ``limit``), appending each to ``found``."""
    cands = _propagate(grid, used)
    if cands is None:
        return 0
    best, fewest = -1, 10
    for i in CELLS:
        cand = cands[i]
        if cand:
            n = cand.bit_count()
            if n < fewest:
                best, fewest = i, n
                if n == 2:
                    break
    if best < 0:
        found.append(tuple(grid))
        return 1
    r, c, b = CELL_UNITS[best]
    cand = cands[best]
    count = 0
    while cand:
        bit = cand & -cand
        cand ^= bit
        g = grid[:]
        u = used[:]
        g[best] = DIGIT[bit]
        u[r] |= bit
        u[c] |= bit
        u[b] |= bit
        count += _search(g, u, limit - count, found)
        if count >= limit:
            break
    return count


def _grid_of(puzzle_or_state: Any) -> Grid:
    if isinstance(puzzle_or_state, SudokuPuzzle):
        return puzzle_or_state.givens
    return parse_grid(puzzle_or_state)


def _completions(grid: Sequence[int], limit: int, found: list[Grid]) -> int:
    """Count completions of a well-formed grid, up to ``limit``."""
    used = unit_masks(grid)
    if used is None or limit <= 0:
        return 0
    return _search(list(grid), used, limit, found)


def solutions(puzzle_or_state: Any, limit: int = 2) -> list[Grid]:
    """Up to ``limit`` completions of a puzzle or state (none when a unit repeats a digit)."""
    found: list[Grid] = []
    _completions(_grid_of(puzzle_or_state), limit, found)
    return found


def count_solutions(puzzle_or_state: Any, limit: int = 2) -> int:
    """The number of completions, counted up to ``limit`` (``limit=2`` decides uniqueness).

    Accepts a :class:`SudokuPuzzle` (its givens) or anything :func:`parse_grid` reads.
    """
    return _completions(_grid_of(puzzle_or_state), limit, [])


def solve(puzzle_or_state: Any) -> Grid | None:
    """One completion of a puzzle or state, or ``None`` when there is none."""
    found = solutions(puzzle_or_state, 1)
    return found[0] if found else None


def keeps_givens(givens: Sequence[int], grid: Sequence[int]) -> bool:
    """Whether ``grid`` holds every given of the puzzle."""
    return all(g == d for g, d in zip(givens, grid) if g)


# ---------------------------------------------------------------- moves
def fills(grid: Grid, i: int) -> Iterator[Grid]:
    """The grids filling empty cell ``i`` with each digit no peer holds."""
    cand = allowed(grid, i)
    for d in range(1, 10):
        if cand & BIT[d]:
            yield grid[:i] + (d,) + grid[i + 1:]


def first_empty(grid: Grid) -> int | None:
    """The first empty cell in row-major order, or ``None`` when the grid is full."""
    try:
        return grid.index(0)
    except ValueError:
        return None


def children_first_empty(puzzle: SudokuPuzzle, state: Grid) -> Iterator[Grid]:
    """FineReason's official tree: every rule-valid fill of the first empty cell only.

    :meth:`SudokuEngine.children` instead fills any empty cell, which is what a model's single
    move may do; the official trees (and their ``unsolvable_child``) branch on the first cell.
    """
    i = first_empty(state)
    if i is not None:
        yield from fills(state, i)


# ---------------------------------------------------------------- the engine
class SudokuEngine(Engine[SudokuPuzzle, Grid]):
    """Sudoku states are 81-tuples; a minimal move fills or clears one non-given cell."""

    name = "sudoku"
    official_name = "sudoku"

    # -------------------------------------------------------------- official formats
    def puzzle_from_official(self, record: dict) -> SudokuPuzzle:
        try:
            initial = record["inputs"]["initial"]
        except (KeyError, TypeError):
            raise StateError("record has no inputs.initial grid") from None
        return SudokuPuzzle(parse_grid(initial))

    def item_from_official(self, record: dict) -> StateItem[SudokuPuzzle, Grid]:
        puzzle = self.puzzle_from_official(record)
        inputs = record["inputs"]
        solvable = official_label(record)
        return self.record_item(puzzle, self.parse_state(puzzle, inputs.get("current", inputs["initial"])), inputs, solvable)

    def from_input(self, obj: Any) -> tuple[SudokuPuzzle, Grid]:
        """An 81-character string, a 9x9 (or flat) list, or an official record.

        A bare grid is its own puzzle: its filled cells are taken as the givens.
        """
        if isinstance(obj, dict):
            return super().from_input(obj)
        grid = parse_grid(obj)
        return SudokuPuzzle(grid), grid

    def to_official(self, puzzle: SudokuPuzzle, state: Grid) -> list[list[int]]:
        return [list(state[r * 9:r * 9 + 9]) for r in range(9)]

    def parse_state(self, puzzle: SudokuPuzzle, value: Any) -> Grid:
        return parse_grid(value)

    def parse_state_text(self, puzzle: SudokuPuzzle, text: str, task: str = STATE_TRANSITION) -> Grid:
        """As every engine's; a 9x9 list of single digits is read at C speed (:func:`digit_grid`)."""
        grid = digit_grid(payload := self.answer(answer_region(text), task))
        return self.parse_state(puzzle, parse_literal(payload)) if grid is None else grid

    def parse_solution_text(self, puzzle: SudokuPuzzle, text: str) -> Grid:
        """As every engine's, with :meth:`parse_state_text`'s fast read of the list."""
        return self.parse_state_text(puzzle, text, END_TO_END)

    # -------------------------------------------------------------- rules and oracle
    def violations(self, puzzle: SudokuPuzzle, state: Grid) -> list[str]:
        return grid_violations(puzzle.givens, state)

    def is_solvable(self, puzzle: SudokuPuzzle, state: Grid) -> bool:
        return keeps_givens(puzzle.givens, state) and _completions(state, 1, []) == 1

    def solve(self, puzzle: SudokuPuzzle, state: Grid | None = None) -> Grid | None:
        """A completion of ``state`` (default: the givens) that keeps the givens, or ``None``."""
        grid = puzzle.givens if state is None else state
        return solve(grid) if self.is_solvable(puzzle, grid) else None

    # -------------------------------------------------------------- moves
    def children(self, puzzle: SudokuPuzzle, state: Grid) -> Iterator[Grid]:
        """Every rule-valid fill of every empty cell (see :func:`children_first_empty`)."""
        for i in CELLS:
            if not state[i]:
                yield from fills(state, i)

    def initial(self, puzzle: SudokuPuzzle) -> Grid:
        return puzzle.givens

    def branch(self, puzzle: SudokuPuzzle, state: Grid, order: str = PAPER) -> Iterator[Grid]:
        """``paper``: fills of the first empty cell; ``mrv``: fills of the cell with fewest candidates."""
        if order == PAPER:
            return children_first_empty(puzzle, state)
        if order != MRV:
            return super().branch(puzzle, state, order)
        empty = [i for i in CELLS if not state[i]]
        if not empty:
            return iter(())
        best = min(empty, key=lambda i: allowed(state, i).bit_count())
        return fills(state, best)

    def item_to_official(self, item: StateItem[SudokuPuzzle, Grid], record: dict) -> dict:
        def grid(state: Grid | None) -> list[list[int]] | None:
            return None if state is None else self.to_official(item.puzzle, state)

        outputs = {"final": (record.get("outputs") or {}).get("final") or grid(solve(item.puzzle.givens))}
        outputs["current_status"] = self.status(item.solvable)
        return {
            "inputs": {
                "initial": grid(item.puzzle.givens),
                "grandparent": grid(item.grandparent),
                "parent": grid(item.parent),
                "current": grid(item.current),
                "unsolvable_child": grid(item.unsolvable_child),
            },
            "outputs": outputs,
        }

    def undo_moves(self, puzzle: SudokuPuzzle, state: Grid) -> Iterator[Grid]:
        """Every state clearing one filled cell that is not a given."""
        for i in CELLS:
            if state[i] and not puzzle.givens[i]:
                yield state[:i] + (0,) + state[i + 1:]

    def step(self, puzzle: SudokuPuzzle, current: Grid, proposed: Grid) -> Step:
        """Classify ``proposed`` against ``current``, cell by cell.

        - no cell changed: NONE;
        - a changed cell is a given: INVALID ("cell (r, c) overwrites the given d");
        - two or more cells changed: MULTIPLE ("k cells changed: (r, c), ...");
        - one empty cell filled: INVALID with the repeats it creates ("row 3 has two 7s"),
          else FORWARD;
        - one filled cell cleared: BACKWARD;
        - one filled cell given another digit: INVALID ("cell (r, c) changes 5 to 7; ...").
        """
        changed = list(compress(CELLS, map(ne, current, proposed)))
        if not changed:
            return Step(StepKind.NONE, ("no cell changed",))
        givens = puzzle.givens
        broken = [
            f"cell {cell_name(i)} overwrites the given {givens[i]}"
            for i in changed if givens[i] and proposed[i] != givens[i]
        ]
        if broken:
            return Step(StepKind.INVALID, tuple(broken))
        if len(changed) > 1:
            cells = ", ".join(map(cell_name, changed))
            return Step(StepKind.MULTIPLE, (f"{len(changed)} cells changed: {cells}",))
        i = changed[0]
        before, after = current[i], proposed[i]
        if not after:
            return Step(StepKind.BACKWARD)
        if before:
            why = f"cell {cell_name(i)} changes {before} to {after}; a move fills one empty cell"
            return Step(StepKind.INVALID, (why,))
        if after not in PEER_DIGITS[i](proposed):  # allowed(proposed, i) & BIT[after], at C speed
            return Step(StepKind.FORWARD)
        times = [(u, sum(proposed[j] == after for j in UNITS[u])) for u in CELL_UNITS[i]]
        return Step(StepKind.INVALID, tuple(repeat_sentence(u, after, n) for u, n in times if n > 1))

    def check_solution(self, puzzle: SudokuPuzzle, state: Grid) -> list[str]:
        """Empty cells first, then changed givens and repeated digits."""
        empty = state.count(0)
        reasons = []
        if empty:
            reasons.append(f"{empty} cell{'s are' if empty > 1 else ' is'} still empty")
        return reasons + self.violations(puzzle, state)


__all__ = ["SudokuEngine", "SudokuPuzzle", "children_first_empty", "count_solutions", "first_empty",
           "grid_violations", "parse_grid", "solutions", "solve"]
