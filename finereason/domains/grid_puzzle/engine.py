"""Logic grid puzzles as a FineReason domain: the engine (moves, steps, official formats). A puzzle is a
table whose first column fixes the rows and whose other columns are permutations of their categories'
values, constrained by clues; the values live in :mod:`.puzzle`, the exact search in :mod:`.solver`.

Glossary:
- *key*: a value of the first category; each row is named by its key.
- *entity*: a value of any other category; it is *placed* once it sits in some row.
- *clue*: a natural-language sentence plus a structured condition (see :mod:`.conditions`).
- *applying a clue* (the minimal move, as in the paper): place every not-yet-placed entity the
  clue names, in empty cells of their columns, so that the clue's condition holds. A clue whose
  entities are all placed already is applied without changing the table.
- *state*: the table's cells plus the ordered ids of applied clues (and the tables before them,
  so a move can be undone). Two states are the same node when their cells are equal.
"""
from __future__ import annotations

import itertools
from typing import Any, Iterator, Sequence

from ...common.verdict import StateError
from ...common.vocabulary import MRV, PAPER
from ...core.engine import Engine, StateItem, Step, StepKind, official_label
from .conditions import UNKNOWN, parse_condition
from .puzzle import Cells, Clue, GridPuzzle, GridState, Value, _clue_values, _duplicates
from .solver import complete_table

ORACLE_WORK = 100_000   # candidate placements one oracle call may test before it answers undecided


class GridPuzzleEngine(Engine[GridPuzzle, GridState]):
    """Logic grid puzzles with clue application as the minimal move."""

    name = "grid_puzzle"
    official_name = "gridpuzzle"

    # ---------------------------------------------------------------- official formats
    def puzzle_from_official(self, record: dict) -> GridPuzzle:
        inputs = record.get("inputs", record)
        try:
            initial = inputs["initial"]
            header = tuple(str(h) for h in initial[0])
            keys = tuple(row[0] for row in initial[1:])
            domains = _domains(inputs, header, keys, record.get("outputs", {}).get("solution"))
            clues = tuple(
                Clue(str(cid), str(c.get("text", "")), str(c["conditions"]), parse_condition(str(c["conditions"])))
                for cid, c in sorted(inputs["clues"].items(), key=lambda kv: _clue_sort_key(kv[0]))
            )
        except (KeyError, IndexError, TypeError) as err:
            raise StateError(f"not an official grid-puzzle record: missing or malformed {err}") from None
        return GridPuzzle(header, keys, domains, clues, str(inputs.get("question", "")), str(inputs.get("categories", "")))

    def item_from_official(self, record: dict) -> StateItem[GridPuzzle, GridState]:
        puzzle = self.puzzle_from_official(record)
        inputs = record["inputs"]
        tables = [self.parse_state(puzzle, t).cells for t in inputs.get("initial_to_current") or [inputs["current"]]]
        applied = tuple(str(c) for c in inputs.get("applied_clues", ()))
        if len(tables) != len(applied) + 1:
            tables = [puzzle.empty.cells] * (len(applied)) + [self.parse_state(puzzle, inputs["current"]).cells]
        path = [GridState(tables[i], applied[:i], tuple(tables[:i])) for i in range(len(tables))]
        current = GridState(self.parse_state(puzzle, inputs["current"]).cells, applied, tuple(tables[:-1]))
        child = None
        if inputs.get("unsolvable_child") is not None:
            clue = str(inputs.get("clue_applied_to_unsolvable_child", ""))
            child = GridState(self.parse_state(puzzle, inputs["unsolvable_child"]).cells, applied + (clue,), tuple(tables))
        return StateItem(
            puzzle,
            current,
            parent=path[-2] if len(path) >= 2 else None,
            grandparent=path[-3] if len(path) >= 3 else None,
            unsolvable_child=child,
            solvable=official_label(record),
        )

    def item_to_official(self, item: StateItem[GridPuzzle, GridState], record: dict) -> dict:
        puzzle, current = item.puzzle, item.current
        inputs = dict(record.get("inputs", {}))
        child = item.unsolvable_child
        inputs.update({
            "current": self.to_official(puzzle, current),
            "applied_clues": list(current.applied),
            "initial_to_current": [self.to_official(puzzle, GridState(c)) for c in (*current.trail, current.cells)],
            "unsolvable_child": None if child is None else self.to_official(puzzle, child),
            "clue_applied_to_unsolvable_child": child.applied[-1] if child is not None and child.applied else None,
        })
        outputs = {"solution": (record.get("outputs") or {}).get("solution"), "current_status": self.status(item.solvable)}
        if outputs["solution"] is None:
            solved = self.solve(puzzle)
            outputs["solution"] = None if solved is None else self.to_official(puzzle, solved)
        return {"inputs": inputs, "outputs": outputs}

    def to_official(self, puzzle: GridPuzzle, state: GridState) -> list[list[Value]]:
        rows = [list(puzzle.header)]
        for key, row in zip(puzzle.keys, state.cells):
            rows.append([key, *("" if v is None else v for v in row)])
        return rows

    def parse_state(self, puzzle: GridPuzzle, value: Any) -> GridState:
        if not isinstance(value, list) or not all(isinstance(r, list) for r in value):
            raise StateError("the table must be a list of rows")
        rows = value
        if rows and [str(h).strip().lower() for h in rows[0]] == [h.lower() for h in puzzle.header]:
            rows = rows[1:]
        width = len(puzzle.header)
        if len(rows) != len(puzzle.keys):
            raise StateError(f"table has {len(rows)} rows, expected {len(puzzle.keys)}")
        by_key: dict[Any, tuple] = {}
        for row in rows:
            if len(row) != width:
                raise StateError(f"row {row[:1]!r} has {len(row)} cells, expected {width}")
            key = _match(row[0], puzzle.keys)
            if key is _NO_MATCH:
                raise StateError(f"row key {row[0]!r} is not one of {', '.join(map(str, puzzle.keys))}")
            if key in by_key:
                raise StateError(f"row {key!r} appears twice")
            cells = []
            for j, v in enumerate(row[1:]):
                if v is None or (isinstance(v, str) and v.strip() == ""):
                    cells.append(None)
                    continue
                match = _match(v, puzzle.domains[j])
                if match is _NO_MATCH:
                    raise StateError(f"row {key!r}, column {puzzle.header[j + 1]!r}: {v!r} is not one of {', '.join(map(str, puzzle.domains[j]))}")
                cells.append(match)
            by_key[key] = tuple(cells)
        return GridState(tuple(by_key[k] for k in puzzle.keys))

    # ---------------------------------------------------------------- rules
    def violations(self, puzzle: GridPuzzle, state: GridState) -> list[str]:
        reasons = _duplicates(puzzle, state.cells)
        if reasons:
            return reasons
        for clue, value in zip(puzzle.clues, _clue_values(puzzle, state.cells)):
            if value is False:
                reasons.append(f"clue {clue.id} is violated")
        return reasons

    def is_solvable(self, puzzle: GridPuzzle, state: GridState) -> bool:
        if _duplicates(puzzle, state.cells):
            return False
        return complete_table(puzzle, [list(r) for r in state.cells], budget=ORACLE_WORK)

    def solve(self, puzzle: GridPuzzle, state: GridState | None = None) -> GridState | None:
        """One completion of ``state`` (default: the empty table) satisfying every clue."""
        cells = [list(r) for r in (state or puzzle.empty).cells]
        found: list[Cells] = []
        complete_table(puzzle, cells, found)
        return GridState(found[0]) if found else None

    def count_solutions(self, puzzle: GridPuzzle, state: GridState | None = None, limit: int = 2) -> int:
        """How many full tables extend ``state`` and satisfy every clue, counting up to ``limit``."""
        found: list[Cells] = []
        complete_table(puzzle, [list(r) for r in (state or puzzle.empty).cells], found, limit)
        return len(found)

    def check_solution(self, puzzle: GridPuzzle, state: GridState) -> list[str]:
        reasons = []
        empty = sum(v is None for row in state.cells for v in row)
        if empty:
            reasons.append(f"{empty} cells are still empty")
        reasons += _duplicates(puzzle, state.cells)
        for clue, value in zip(puzzle.clues, _clue_values(puzzle, state.cells)):
            if value is not True and not (value is UNKNOWN and empty):
                reasons.append(f"clue {clue.id} is violated")
        return reasons

    # ---------------------------------------------------------------- moves
    def unplaced(self, puzzle: GridPuzzle, state: GridState, clue: int) -> list[tuple[int, Value]]:
        """Entities clue ``clue`` names that are not yet in the table, as (column, value)."""
        placed = {v for row in state.cells for v in row if v is not None}
        return [(col, v) for col, v in puzzle.clue_entities[clue] if v not in placed]

    def apply(self, puzzle: GridPuzzle, state: GridState, clue_id: str) -> Iterator[GridState]:
        """Every way of applying one unapplied clue: place all the values it names that are not
        placed yet, then every value left with a single free cell; the clue must not be violated."""
        i = puzzle.clue_index(clue_id)
        if puzzle.clues[i].id in state.applied:
            return
        todo = self.unplaced(puzzle, state, i)
        free = [[r for r, row in enumerate(state.cells) if row[col - 1] is None] for col, _ in todo]
        for rows in itertools.product(*free):
            slots = list(zip(rows, (c for c, _ in todo)))
            if len(set(slots)) != len(slots):
                continue
            cells = [list(r) for r in state.cells]
            for (row, col), (_, v) in zip(slots, todo):
                cells[row][col - 1] = v
            _fill_forced(puzzle, cells)
            new = tuple(tuple(r) for r in cells)
            if _clue_values(puzzle, new, [i])[0] is not False and not _duplicates(puzzle, new):
                yield GridState(new, state.applied + (puzzle.clues[i].id,), state.trail + (state.cells,))

    def children(self, puzzle: GridPuzzle, state: GridState) -> Iterator[GridState]:
        for clue in puzzle.clues:
            yield from self.apply(puzzle, state, clue.id)

    def initial(self, puzzle: GridPuzzle) -> GridState:
        return puzzle.empty

    def branch(self, puzzle: GridPuzzle, state: GridState, order: str = PAPER) -> Iterator[GridState]:
        """``paper``: applications of every unapplied clue in clue order; ``mrv``: those of the
        unapplied clue with the fewest applications that fill a cell (an unchanged table is no move)."""
        if order != MRV:
            return super().branch(puzzle, state, order)
        options = [[k for k in self.apply(puzzle, state, c.id) if k.cells != state.cells]
                   for c in puzzle.clues if c.id not in state.applied]
        options = [o for o in options if o]
        return iter(min(options, key=len) if options else ())

    def undo_moves(self, puzzle: GridPuzzle, state: GridState) -> Iterator[GridState]:
        if state.applied and state.trail:
            yield GridState(state.trail[-1], state.applied[:-1], state.trail[:-1])

    def step(self, puzzle: GridPuzzle, current: GridState, proposed: GridState) -> Step:
        """A forward move fills cells with values one unapplied clue names (all or some of them,
        as the official trees do) plus values left with a single free cell, without violating that
        clue. An unchanged table is no move, even where a clue could be applied without filling a cell.
        """
        changed, added = [], []
        for r, (key, old, new) in enumerate(zip(puzzle.keys, current.cells, proposed.cells)):
            for j, (a, b) in enumerate(zip(old, new)):
                where = f"row {key!r}, column {puzzle.header[j + 1]!r}"
                if a is not None and a != b:
                    changed.append(f"{where} changes {a!r} to {b!r}" if b is not None else f"{where} clears {a!r}")
                elif a is None and b is not None:
                    added.append((r, j, b))
        if changed:
            if current.trail and proposed.cells == current.trail[-1]:
                return Step(StepKind.BACKWARD)
            return Step(StepKind.INVALID, tuple(changed[:5]) + ("a move only fills empty cells",))
        if not added:
            return Step(StepKind.NONE, ("the table is unchanged",))
        dups = _duplicates(puzzle, proposed.cells)
        if dups:
            return Step(StepKind.INVALID, tuple(dups))
        unapplied = [i for i, c in enumerate(puzzle.clues) if c.id not in current.applied]
        violated, union = [], set()
        for i in unapplied:
            named = {v for _, v in puzzle.clue_entities[i]}
            union |= named
            if _explained(puzzle, current.cells, added, named):
                if _clue_values(puzzle, proposed.cells, [i])[0] is not False:
                    return Step(StepKind.FORWARD)
                violated.append(puzzle.clues[i].id)
        if violated:
            return Step(StepKind.INVALID, tuple(f"clue {c} is violated" for c in violated))
        if _explained(puzzle, current.cells, added, union):
            return Step(StepKind.MULTIPLE, (f"fills {len(added)} cells with values that no single unapplied clue names: more than one clue applied",))
        stray = sorted({repr(v) for _, _, v in added if v not in union})
        return Step(StepKind.INVALID, (f"{', '.join(stray[:3]) or 'the new values'} named by no unapplied clue",))


def _fill_forced(puzzle: GridPuzzle, cells: list[list[Value | None]]) -> set[tuple[int, int, Value]]:
    """Fill every column that has one empty cell with its one remaining value; return the fills."""
    filled: set[tuple[int, int, Value]] = set()
    progress = True
    while progress:
        progress = False
        for j, domain in enumerate(puzzle.domains):
            empty = [r for r, row in enumerate(cells) if row[j] is None]
            if len(empty) == 1:
                used = {row[j] for row in cells}
                left = [v for v in domain if v not in used]
                if len(left) == 1:
                    cells[empty[0]][j] = left[0]
                    filled.add((empty[0], j, left[0]))
                    progress = True
    return filled


def _explained(puzzle: GridPuzzle, cells: Cells, added: list[tuple[int, int, Value]], named: set) -> bool:
    """Whether ``added`` = some values from ``named`` plus values then left with a single cell."""
    direct = [a for a in added if a[2] in named]
    rest = [a for a in added if a[2] not in named]
    if not rest:
        return True
    grid = [list(r) for r in cells]
    for r, j, v in direct:
        grid[r][j] = v
    return set(rest) <= _fill_forced(puzzle, grid)


# ------------------------------------------------------------------ helpers
class _NoMatch:
    pass


_NO_MATCH: Any = _NoMatch()


def _match(value: Any, domain: Sequence[Value]) -> Any:
    """The domain value ``value`` denotes (exact, numeric, or case-insensitive text)."""
    if isinstance(value, bool):
        return _NO_MATCH
    for v in domain:
        if v == value and type(v) is not str or v == value:
            return v
    text = str(value).strip().lower()
    for v in domain:
        if str(v).strip().lower() == text:
            return v
    return _NO_MATCH


def _coerce(text: str) -> Value:
    text = text.strip()
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text


def _domains(inputs: dict, header: tuple[str, ...], keys: tuple, solution: Any) -> tuple[tuple[Value, ...], ...]:
    """Each non-key column's values: from the solution table when given, else from ``categories``."""
    if isinstance(solution, list) and len(solution) == len(keys) + 1:
        return tuple(tuple(row[j] for row in solution[1:]) for j in range(1, len(header)))
    lines = [ln for ln in str(inputs.get("categories", "")).strip().splitlines() if ln.strip()]
    if len(lines) != len(header):
        raise StateError(f"categories list {len(lines)} categories but the table has {len(header)} columns")
    out = []
    for line in lines[1:]:
        _, _, values = line.partition(":")
        out.append(tuple(_coerce(v) for v in values.strip().rstrip(".").split(",")))
    return tuple(out)


def _clue_sort_key(cid: Any) -> tuple:
    text = str(cid)
    return (0, int(text), "") if text.isdigit() else (1, 0, text)



__all__ = ["ORACLE_WORK", "GridPuzzleEngine"]
