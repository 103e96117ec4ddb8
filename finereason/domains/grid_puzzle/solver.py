"""The exact logic grid search (:func:`complete_table`): fill a table, fewest candidate rows first,
with three-valued clue pruning."""
from __future__ import annotations

from ...common.verdict import Undecided
from .puzzle import GridPuzzle, Value, _context


def complete_table(puzzle: GridPuzzle, cells: list[list[Value | None]], found: list | None = None, limit: int = 1,
            budget: int | None = None) -> bool:
    """Exact completion search: place values (fewest candidate rows first) with three-valued
    pruning, re-evaluating only the clues that read the column just changed.

    Completions are appended to ``found`` (when given) until ``limit`` of them are found. With a
    ``budget``, testing more candidate placements than that raises :class:`Undecided`.
    """
    spent = [0]
    fns = puzzle.compiled
    deps = puzzle.clues_by_column
    width = len(puzzle.domains)
    row_of, rows = _context(puzzle, tuple(tuple(r) for r in cells))
    rows = [list(r) for r in rows]
    ctx = (row_of, rows)
    if any(fn(ctx) is False for fn in fns):
        return False
    todo = [(j, v) for j in range(width) for v in puzzle.domains[j] if v not in row_of]

    def fits(j: int, v: Value, r: int) -> bool:
        if budget is not None:
            spent[0] += 1
            if spent[0] > budget:
                raise Undecided(f"the grid puzzle oracle gave up after {budget} candidate placements: too hard to decide exactly")
        rows[r][j + 1] = v
        row_of[v] = r
        ok = all(fns[i](ctx) is not False for i in deps[j])
        rows[r][j + 1] = None
        del row_of[v]
        return ok

    def recurse(todo: list[tuple[int, Value]]) -> bool:
        if not todo:
            if found is None:
                return True
            if all(fn(ctx) is True for fn in fns):
                found.append(tuple(tuple(r[1:]) for r in rows))
            return len(found) >= limit
        best: tuple[int, list[int]] | None = None
        for n, (j, v) in enumerate(todo):
            options = [r for r in range(len(rows)) if rows[r][j + 1] is None and fits(j, v, r)]
            if best is None or len(options) < len(best[1]):
                best = (n, options)
                if len(options) <= 1:
                    break
        n, options = best
        j, v = todo[n]
        rest = todo[:n] + todo[n + 1:]
        for r in options:
            rows[r][j + 1] = v
            row_of[v] = r
            if recurse(rest):
                return True
            rows[r][j + 1] = None
            del row_of[v]
        return False

    return recurse(todo)


__all__ = ["complete_table"]
