"""Decoding dataset rows: the state item or puzzle a row (``puzzle``, ``inputs``, ``outputs``) stands for.

Prompts, scoring, loops, baselines and reports all decode rows here; results are cached per row content.
"""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from .engine import StateItem, get_engine


@lru_cache(maxsize=4096)
def _item(puzzle: str, inputs: str, outputs: str) -> StateItem:
    return get_engine(puzzle).item_from_official({"inputs": json.loads(inputs), "outputs": json.loads(outputs)})


@lru_cache(maxsize=4096)
def _puzzle(puzzle: str, inputs: str, outputs: str) -> Any:
    return get_engine(puzzle).puzzle_from_official({"inputs": json.loads(inputs), "outputs": json.loads(outputs)})


def row_item(row: dict) -> StateItem:
    """The state item of a state-checking or state-transition row (cached)."""
    return _item(row["puzzle"], row["inputs"], row["outputs"])


def row_puzzle(row: dict) -> Any:
    """The puzzle of any row (cached)."""
    return _puzzle(row["puzzle"], row["inputs"], row["outputs"])


__all__ = ["row_item", "row_puzzle"]
