"""Logic grid puzzle values: a :class:`GridPuzzle` (header, row keys, column domains, clues) and a
:class:`GridState` (cells plus applied clues), with the helpers that evaluate clues on a table."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Sequence

from ...common.verdict import StateError
from .conditions import ConditionError, Node, compile_condition, referenced_categories, referenced_keys, referenced_values

Value = Any  # int | float | str
Cells = tuple[tuple[Value | None, ...], ...]  # cells[row][column - 1]; None = empty

MAX_ENTRIES = 10        # rows (values per category) per puzzle; the official release has 3-5
MAX_CATEGORIES = 8      # columns, the key category included
MAX_CLUES = 200         # clues per puzzle


@dataclass(frozen=True)
class Clue:
    id: str
    text: str
    condition: str
    tree: Node = field(compare=False, repr=False)


@dataclass(frozen=True)
class GridPuzzle:
    """A logic grid puzzle: header, row keys, the domain of each other column, and clues."""

    header: tuple[str, ...]
    keys: tuple[Value, ...]
    domains: tuple[tuple[Value, ...], ...]  # one per column after the first
    clues: tuple[Clue, ...]
    question: str = field(default="", compare=False)
    categories: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        for what, count, limit in (("entries", len(self.keys), MAX_ENTRIES), ("categories", len(self.header), MAX_CATEGORIES),
                                   ("clues", len(self.clues), MAX_CLUES)):
            if count > limit:
                raise StateError(f"a grid puzzle has at most {limit} {what}, got {count}")
        seen: dict[Any, str] = {}
        for name, values in zip(self.header, (self.keys, *self.domains)):
            if len(values) != len(self.keys):
                raise StateError(f"category {name!r} has {len(values)} values, expected {len(self.keys)}")
            for v in values:
                if v in seen:
                    raise StateError(f"value {v!r} appears in both {seen[v]!r} and {name!r}")
                seen[v] = name
        for clue in self.clues:
            for cat in referenced_categories(clue.tree):
                if cat not in self.header:
                    raise ConditionError(f"clue {clue.id}: unknown category {cat!r} (known: {', '.join(self.header)})")
            for v in referenced_keys(clue.tree):
                if self.column_of_value(v) is None:
                    raise ConditionError(f"clue {clue.id}: r({v!r}) names no value of the table")

    # ---------------------------------------------------------------- lookups
    @cached_property
    def _value_column(self) -> dict[Any, int]:
        out = {k: 0 for k in self.keys}
        for j, values in enumerate(self.domains, start=1):
            out.update({v: j for v in values})
        return out

    def column_of_value(self, value: Value) -> int | None:
        return self._value_column.get(value)

    def column_of(self, category: str) -> int:
        return self.header.index(category)

    @cached_property
    def compiled(self) -> tuple[Any, ...]:
        """Each clue's condition as a closure over ``(row_of, full_rows)``."""
        return tuple(compile_condition(c.tree, self.column_of, self.column_of_value) for c in self.clues)

    @cached_property
    def clues_by_column(self) -> tuple[tuple[int, ...], ...]:
        """For each non-key column, the clues whose truth can change when a value lands in it."""
        out: list[list[int]] = [[] for _ in self.domains]
        for i, clue in enumerate(self.clues):
            cols = {self.column_of(c) for c in referenced_categories(clue.tree)}
            cols |= {self.column_of_value(v) for v in referenced_values(clue.tree)}
            for j in range(len(self.domains)):
                if j + 1 in cols:
                    out[j].append(i)
        return tuple(tuple(c) for c in out)

    @cached_property
    def clue_entities(self) -> tuple[tuple[tuple[int, Value], ...], ...]:
        """For each clue, the (column, value) entities it names (keys excluded)."""
        out = []
        for clue in self.clues:
            ents = []
            for v in referenced_values(clue.tree):
                col = self.column_of_value(v)
                if col:
                    ents.append((col, self.domains[col - 1][self.domains[col - 1].index(v)] if v in self.domains[col - 1] else v))
            out.append(tuple(dict.fromkeys(ents)))
        return tuple(out)

    def clue_index(self, clue_id: str) -> int:
        for i, clue in enumerate(self.clues):
            if clue.id == str(clue_id):
                return i
        raise StateError(f"unknown clue {clue_id!r}")

    @property
    def empty(self) -> "GridState":
        return GridState(tuple((None,) * len(self.domains) for _ in self.keys))


@dataclass(frozen=True)
class GridState:
    """Cells plus the applied clues; equality and hashing look at the cells only."""

    cells: Cells
    applied: tuple[str, ...] = field(default=(), compare=False)
    trail: tuple[Cells, ...] = field(default=(), compare=False, repr=False)  # tables before each applied clue


# ------------------------------------------------------------------ context for conditions
def _context(puzzle: GridPuzzle, cells: Cells) -> tuple[dict, list]:
    row_of: dict[Any, int] = {}
    rows = []
    for i, (key, row) in enumerate(zip(puzzle.keys, cells)):
        row_of[key] = i
        full = (key, *row)
        rows.append(full)
        for v in row:
            if v is not None:
                row_of[v] = i
    return row_of, rows


def _clue_values(puzzle: GridPuzzle, cells: Cells, indices: Sequence[int] | None = None) -> list[Any]:
    ctx = _context(puzzle, cells)
    fns = puzzle.compiled
    return [fns[i](ctx) for i in (range(len(fns)) if indices is None else indices)]


def _duplicates(puzzle: GridPuzzle, cells: Cells) -> list[str]:
    reasons = []
    for j, name in enumerate(puzzle.header[1:]):
        seen: dict[Any, Any] = {}
        for key, row in zip(puzzle.keys, cells):
            v = row[j]
            if v is None:
                continue
            if v in seen:
                reasons.append(f"{v!r} appears twice in column {name!r} (rows {seen[v]!r} and {key!r})")
            else:
                seen[v] = key
    return reasons


__all__ = ["MAX_CATEGORIES", "MAX_CLUES", "MAX_ENTRIES", "Cells", "Clue", "GridPuzzle", "GridState", "Value"]
