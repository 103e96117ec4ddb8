"""Sudoku puzzle sources: a seeded generator with a unique-solution guarantee and file readers.

Glossary:
- *full grid*: a solved 9x9 grid (81 digits, no 0), made by a randomised search on the empty grid.
- *digging*: emptying the cells of a full grid one at a time, in random order, keeping an emptied
  cell only while the puzzle still has exactly one solution (``count_solutions(..., limit=2) == 1``).
- *target*: the number of empty cells asked for; *achieved*: the number reached, reported as
  ``difficulty["empty_cells"]``. Digging stops at the target or when no cell can be emptied (the
  puzzle is then *minimal*: every given is needed for uniqueness).
- *key*: the puzzle's 81-character givens string with ``.`` for blanks (same puzzle, same key).

Reachable targets: greedy digging always reaches 55 empty cells in our runs; the minimal
puzzles it stops at usually have 56-59 empty cells. When the target is missed the generator digs
up to :data:`ATTEMPTS` full grids, then runs a local search (:func:`improve`) on the best one.
Both budgets are fixed counts, not times, so the output never depends on machine speed. With the
defaults 58 is reached in all our runs, 60 in most (17 of 20), 61 now and then; 64 (17 givens, the
proven minimum) essentially never. Missed targets cost about 1-2 s per puzzle.
"""
from __future__ import annotations

import csv
import os
import random
from pathlib import Path
from typing import Iterator, TextIO

from ...common.verdict import StateError
from ...core.puzzle_sources import SourcePuzzle, rng_for
from .engine import ALL, BIT, CELL_UNITS, Grid, SudokuPuzzle, count_solutions, parse_grid, solutions

PUZZLE = "sudoku"
MIN_TARGET, MAX_TARGET = 30, 64      # default range of targets drawn when none is given
ATTEMPTS = 4                         # full grids dug at most when a target is not reached
SEARCH_STEPS = 100                   # default moves of the local search after that
_DIGITS_OF = tuple(tuple(d for d in range(1, 10) if mask & BIT[d]) for mask in range(512))
_SOLUTION_COLUMNS = ("solution", "first_solution")


# ---------------------------------------------------------------- generation
def generate(seed: int, index: int, *, empty_cells: int | None = None,
             search_steps: int = SEARCH_STEPS) -> SourcePuzzle:
    """The ``index``-th puzzle of ``seed``: a unique-solution Sudoku dug from a random full grid.

    ``empty_cells`` is the target (0..64); when ``None`` it is drawn from 30..64. Digging tries up
    to :data:`ATTEMPTS` full grids, then up to ``search_steps`` moves of :func:`improve` on the
    best one (0 disables it). The achieved count is ``difficulty["empty_cells"]``: the target when
    reached, else the most empty cells found.
    """
    if empty_cells is not None and (
        isinstance(empty_cells, bool) or not isinstance(empty_cells, int) or not 0 <= empty_cells <= MAX_TARGET
    ):
        raise ValueError(f"empty_cells must be an integer in 0..{MAX_TARGET}, got {empty_cells!r}")
    rng = rng_for(seed, PUZZLE, index)
    target = rng.randint(MIN_TARGET, MAX_TARGET) if empty_cells is None else empty_cells
    full = random_full_grid(rng)
    givens = dig(full, target, rng)
    for _ in range(ATTEMPTS - 1):
        if givens.count(0) >= target:
            break
        other_full = random_full_grid(rng)
        other = dig(other_full, target, rng)
        if other.count(0) > givens.count(0):
            full, givens = other_full, other
    if givens.count(0) < target:
        givens = improve(givens, full, target, rng, search_steps)
    return make_source(givens, full)


def random_full_grid(rng: random.Random) -> Grid:
    """A solved grid from a depth-first search with random digit order (fewest candidates first)."""
    grid = [0] * 81
    used = [0] * 27
    if not _fill(grid, used, rng):  # the empty grid always has completions
        raise RuntimeError("no full grid found")
    return tuple(grid)


def _fill(grid: list[int], used: list[int], rng: random.Random) -> bool:
    best, best_cand, fewest = -1, 0, 10
    for i in range(81):
        if grid[i]:
            continue
        r, c, b = CELL_UNITS[i]
        cand = ALL & ~(used[r] | used[c] | used[b])
        n = cand.bit_count()
        if n < fewest:
            best, best_cand, fewest = i, cand, n
            if n <= 1:
                break
    if best < 0:
        return True
    if not best_cand:
        return False
    r, c, b = CELL_UNITS[best]
    digits = list(_DIGITS_OF[best_cand])
    rng.shuffle(digits)
    for d in digits:
        bit = BIT[d]
        grid[best] = d
        used[r] |= bit
        used[c] |= bit
        used[b] |= bit
        if _fill(grid, used, rng):
            return True
        used[r] &= ~bit
        used[c] &= ~bit
        used[b] &= ~bit
    grid[best] = 0
    return False


def dig(full: Grid, target: int, rng: random.Random) -> Grid:
    """Empty cells of ``full`` in random order while the solution stays unique, up to ``target`` empty."""
    grid = list(full)
    empty = 0
    for i in rng.sample(range(81), 81):
        if empty >= target:
            break
        grid[i] = 0
        if count_solutions(tuple(grid), limit=2) == 1:
            empty += 1
        else:
            grid[i] = full[i]
    return tuple(grid)


def improve(givens: Grid, full: Grid, target: int, rng: random.Random, steps: int) -> Grid:
    """Local search past a minimal puzzle: give back one emptied cell, then dig the rest again.

    Each of at most ``steps`` moves re-fills one random empty cell from ``full`` and tries to empty
    every other given (random order); the result is kept when it has at least as many empty cells
    (sideways moves let the search drift). Stops at ``target``. The solution stays ``full``.
    """
    grid = list(givens)
    empty = grid.count(0)
    for _ in range(steps):
        if empty >= target:
            break
        holes = [i for i in range(81) if not grid[i]]
        if not holes:
            break
        back = rng.choice(holes)
        trial = grid[:]
        trial[back] = full[back]
        trial_empty = empty - 1
        for i in rng.sample(range(81), 81):
            if trial_empty >= target:
                break
            if i == back or not trial[i]:
                continue
            trial[i] = 0
            if count_solutions(tuple(trial), limit=2) == 1:
                trial_empty += 1
            else:
                trial[i] = full[i]
        if trial_empty >= empty:
            grid, empty = trial, trial_empty
    return tuple(grid)


def givens_string(grid: Grid) -> str:
    """The 81-character form of a grid, ``.`` for blanks (the source key)."""
    return "".join(str(d) if d else "." for d in grid)


def make_source(givens: Grid, solution: Grid, extra: dict | None = None) -> SourcePuzzle:
    """A :class:`SourcePuzzle` in the official ``sudoku_questions`` schema."""
    rows = lambda g: [list(g[r * 9:r * 9 + 9]) for r in range(9)]  # noqa: E731
    difficulty = {"empty_cells": givens.count(0), **(extra or {})}
    return SourcePuzzle(
        puzzle=SudokuPuzzle(givens),
        key=givens_string(givens),
        difficulty=difficulty,
        record={"inputs": {"initial": rows(givens)}, "outputs": {"final": rows(solution)}},
    )


# ---------------------------------------------------------------- reading files
def read_puzzles(path: str | os.PathLike[str], limit: int | None = None, *,
                 skip_invalid: bool = False) -> list[SourcePuzzle]:
    """The puzzles of a Sudoku file, each checked to have exactly one solution.

    Formats (chosen per file):
    - one puzzle per line, 81 characters, ``.`` or ``0`` for blanks; ``#`` comment lines and blank
      lines are ignored (Norvig's ``easy50``/``top95``, the tdoku sets);
    - a CSV whose header has a ``puzzle`` column, optionally ``solution`` (or ``first_solution``)
      and ``difficulty`` (Kaggle sample, ``derived_solutions``). A listed solution must equal the
      computed one; a ``difficulty`` value is kept as ``difficulty["rating"]``.

    Malformed lines, and puzzles with no or several solutions, raise :class:`ValueError` naming
    ``file:line``; with ``skip_invalid=True`` puzzles with no or several solutions are skipped
    instead (malformed lines still raise). ``limit`` stops after that many puzzles.
    """
    path = Path(path)
    if limit is not None and limit < 0:
        raise ValueError(f"limit must be non-negative, got {limit}")
    out: list[SourcePuzzle] = []
    with open(path, encoding="utf-8", newline="") as fh:
        rows = _csv_rows(path, fh) if _is_csv(path) else _line_rows(path, fh)
        for line, text, listed, rating in rows:
            if limit is not None and len(out) >= limit:
                break
            where = f"{path}:{line}"
            try:
                givens = parse_grid(text)
            except StateError as err:
                raise ValueError(f"{where}: {err}") from None
            found = solutions(givens, limit=2)
            if len(found) != 1:
                if skip_invalid:
                    continue
                what = "no solution" if not found else "more than one solution"
                raise ValueError(f"{where}: the puzzle has {what}")
            if listed and _checked_solution(listed, where) != found[0]:
                raise ValueError(f"{where}: the listed solution is not the puzzle's solution")
            out.append(make_source(givens, found[0], None if rating is None else {"rating": rating}))
    return out


def _is_csv(path: Path) -> bool:
    with open(path, encoding="utf-8") as fh:
        first = fh.readline()
    return "," in first and "puzzle" in [c.strip().lower() for c in first.split(",")]


_Row = tuple[int, str, str | None, float | None]   # line, puzzle text, listed solution, rating


def _line_rows(path: Path, fh: TextIO) -> Iterator[_Row]:
    for line, raw in enumerate(fh, start=1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        if len(text) != 81:
            raise ValueError(f"{path}:{line}: expected 81 characters, got {len(text)}")
        yield line, text, None, None


def _csv_rows(path: Path, fh: TextIO) -> Iterator[_Row]:
    reader = csv.reader(fh)
    header = [c.strip().lower() for c in next(reader)]
    col = header.index("puzzle")
    sol = next((header.index(name) for name in _SOLUTION_COLUMNS if name in header), None)
    rate = header.index("difficulty") if "difficulty" in header else None
    for row in reader:
        line = reader.line_num
        if not row or not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            raise ValueError(f"{path}:{line}: expected {len(header)} columns, got {len(row)}")
        rating: float | None = None
        if rate is not None and row[rate].strip():
            try:
                rating = float(row[rate])
            except ValueError:
                raise ValueError(f"{path}:{line}: difficulty {row[rate]!r} is not a number") from None
        yield line, row[col].strip(), (row[sol].strip() or None) if sol is not None else None, rating


def _checked_solution(text: str, where: str) -> Grid:
    try:
        grid = parse_grid(text)
    except StateError as err:
        raise ValueError(f"{where}: solution: {err}") from None
    if 0 in grid:
        raise ValueError(f"{where}: the listed solution has empty cells")
    return grid


__all__ = ["ATTEMPTS", "SEARCH_STEPS", "dig", "generate", "givens_string", "improve", "make_source", "random_full_grid", "read_puzzles"]
