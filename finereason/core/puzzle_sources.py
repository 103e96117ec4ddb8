"""Seeded puzzle sources: generators and readers that feed trees, samplers and dataset builders.

Every source returns :class:`SourcePuzzle` values. Items are seeded per index
(``rng_for(seed, puzzle, index)``), so any item can be rebuilt alone and builds parallelise.
"""
from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class SourcePuzzle:
    """One puzzle instance from a source.

    - ``puzzle``: the engine's puzzle object (e.g. ``SudokuPuzzle``).
    - ``key``: a stable identity used to prove train/test disjointness (same instance, same key).
    - ``difficulty``: JSON-ready difficulty fields (``empty_cells``; ``vertices``, ``edges``, ``k``;
      ``human_rank``; ``categories``, ``entries``, ``clues``).
    - ``record``: the instance in the official ``*_questions`` schema (``{"inputs": ..., "outputs": ...}``).
    """

    puzzle: Any
    key: str
    difficulty: dict = field(compare=False)
    record: dict = field(compare=False)


def rng_for(seed: int, *parts: Any) -> random.Random:
    """A private, platform-independent random stream for one item: same inputs, same numbers."""
    text = "\x1f".join(str(p) for p in (seed, *parts))
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def split_stream(seed: int, split: str) -> int:
    """The generator seed of ``split`` (``test`` or ``train``) in a build seeded with ``seed``: two
    disjoint streams per build seed, so no test instance is drawn for train."""
    return seed * 4 + (1 if split == "test" else 2)


def stable_key(*parts: Any) -> str:
    """A short content hash for puzzle identities."""
    text = "\x1f".join(str(p) for p in parts)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
