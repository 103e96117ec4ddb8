"""Game of 24 puzzle sources: the 1362 solvable multisets, their human ranks, and a seeded order.

Glossary:
- *multiset*: four numbers from 1..13, sorted ascending; 1362 of the 1820 can make 24, as decided
  by the engine's exact oracle (:func:`finereason.domains.game_of_24.solver.solvable_multisets`).
- *human rank*: the Tree-of-Thoughts ``24.csv`` rank (1 = fastest solved by people, 1362 = slowest);
  FineReason's 98 questions come from ranks 901-1000.
- *record*: the official ``game24_questions`` schema, ``{"inputs": {"initial_state": ["1", "2", "4", "7"]}}``:
  the numbers as strings, ascending, as every official question lists them.
- *key*: ``"24:"`` and the numbers joined by spaces, e.g. ``"24:1 2 4 7"``.
"""
from __future__ import annotations

import csv
import os
from functools import lru_cache
from pathlib import Path

from ...core.puzzle_sources import SourcePuzzle, rng_for
from .puzzle import Game24Puzzle
from .solver import solvable_multisets as _oracle_multisets

Numbers = tuple[int, int, int, int]
Ranks = dict[tuple[int, ...], int]


@lru_cache(maxsize=1)
def _multisets() -> tuple[Numbers, ...]:
    return tuple(_oracle_multisets(1, 13, 4, 24))  # type: ignore[arg-type]


def solvable_multisets() -> list[Numbers]:
    """The 1362 sorted multisets of four numbers 1..13 that make 24, in ascending order (cached)."""
    return list(_multisets())


def read_tot_ranks(path: str | os.PathLike[str]) -> Ranks:
    """Rank by sorted numbers from the Tree-of-Thoughts ``24.csv`` (columns ``Rank``, ``Puzzles``, ...).

    Raises :class:`ValueError` naming ``file:line`` for a missing column, a malformed row or a
    repeated puzzle.
    """
    path = Path(path)
    ranks: Ranks = {}
    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        missing = {"Rank", "Puzzles"} - set(reader.fieldnames or ())
        if missing:
            raise ValueError(f"{path}:1: missing column(s) {', '.join(sorted(missing))}")
        for row in reader:
            where = f"{path}:{reader.line_num}"
            rank_text, puzzle_text = (row.get("Rank") or "").strip(), (row.get("Puzzles") or "").strip()
            if not rank_text and not puzzle_text:
                continue
            if not rank_text.isdigit():
                raise ValueError(f"{where}: rank {rank_text!r} is not a positive integer")
            parts = puzzle_text.split()
            if not parts or not all(p.isascii() and p.isdigit() for p in parts):
                raise ValueError(f"{where}: puzzle {puzzle_text!r} is not a list of numbers")
            numbers = tuple(sorted(int(p) for p in parts))
            if numbers in ranks:
                raise ValueError(f"{where}: puzzle {puzzle_text!r} is listed twice")
            ranks[numbers] = int(rank_text)
    return ranks


def make_source(numbers: tuple[int, ...], rank: int | None = None) -> SourcePuzzle:
    """A :class:`SourcePuzzle` for sorted ``numbers`` in the official ``game24_questions`` schema."""
    numbers = tuple(sorted(numbers))
    return SourcePuzzle(
        puzzle=Game24Puzzle(numbers),
        key="24:" + " ".join(map(str, numbers)),
        difficulty={"human_rank": rank},
        record={"inputs": {"initial_state": [str(n) for n in numbers]}},
    )


def puzzles(ranks: Ranks | None = None) -> list[SourcePuzzle]:
    """All 1362 solvable puzzles in ascending multiset order, with ``human_rank`` from ``ranks`` (or ``None``)."""
    ranks = ranks or {}
    return [make_source(m, ranks.get(m)) for m in _multisets()]


@lru_cache(maxsize=16)
def _order(seed: int) -> tuple[int, ...]:
    order = list(range(len(_multisets())))
    rng_for(seed, "game24-order").shuffle(order)
    return tuple(order)


def generate(seed: int, index: int, *, ranks: Ranks | None = None) -> SourcePuzzle:
    """The ``(index % 1362)``-th puzzle of a ``seed``-shuffled order of the 1362 (indices cycle)."""
    numbers = _multisets()[_order(seed)[index % len(_multisets())]]
    return make_source(numbers, (ranks or {}).get(numbers))


__all__ = ["generate", "make_source", "puzzles", "read_tot_ranks", "solvable_multisets"]
