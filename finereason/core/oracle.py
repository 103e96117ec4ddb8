"""The exact oracle, memoised: is a state of a puzzle still solvable?

Sampling, trees, state labels, baselines and the verifiers all ask it through :func:`is_solvable`,
so one answer is computed once per process (puzzles and states are hashable values).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from .engine import Engine, get_engine

_ORACLE_CACHE = 65_536


@lru_cache(maxsize=_ORACLE_CACHE)
def _cached_solvable(engine_name: str, puzzle: Any, state: Any) -> bool:
    return get_engine(engine_name).is_solvable(puzzle, state)


def is_solvable(engine: Engine, puzzle: Any, state: Any) -> bool:
    """The oracle's verdict, memoised (puzzles and states are hashable values)."""
    try:
        return _cached_solvable(engine.name, puzzle, state)
    except TypeError:  # an unhashable state from a third-party engine
        return engine.is_solvable(puzzle, state)


__all__ = ["is_solvable"]
