"""Seeded puzzle sources: generators and readers that feed trees, samplers and dataset builders.

Every source returns :class:`SourcePuzzle` values. Items are seeded per index
(``rng_for(seed, puzzle, index)``), so any item can be rebuilt alone and builds parallelise.
"""
from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class SourcePuzzle:
    """One puzzle instance from a source.

    - ``puzzle``: the engine's puzzle object (e.g. ``SudokuPuzzle``).
    - ``key``: the source's own stable key; the train/test split compares :func:`source_identity`, which
      is this key only for a domain that declares no ``identity_fields``.
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


def puzzle_identity(engine: Any, inputs: Any) -> str | None:
    """The puzzle instance that official ``inputs`` stand for: the domain's name and the canonical values
    (``engine.identity_value``) of its ``identity_fields``, as one JSON string. The one identity behind the
    build's train/test split (:func:`source_identity`) and GRPO's disjointness check
    (:func:`finereason.core.rows.row_identity`). ``None`` when the domain declares no identity fields or
    ``inputs`` holds none of them."""
    fields = engine.identity_fields
    if not fields or not isinstance(inputs, Mapping) or not any(f in inputs for f in fields):
        return None
    key = [engine.name] + [engine.identity_value(f, inputs.get(f)) for f in fields]
    return json.dumps(key, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def source_identity(engine: Any, source: SourcePuzzle) -> str:
    """The identity the train/test split compares for a source puzzle: :func:`puzzle_identity` of its
    record's ``inputs``, or the source's ``key`` for a domain that declares no ``identity_fields``."""
    return puzzle_identity(engine, (source.record or {}).get("inputs")) or source.key
