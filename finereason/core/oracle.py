"""The exact oracle, memoised: is a state of a puzzle still solvable?

Sampling, trees, state labels, scoring, baselines and the verifiers all ask it through :func:`oracle_solvable`,
so one answer is computed once per process (puzzles and states are hashable values). A domain's own
:meth:`~finereason.core.engine.Engine.is_solvable` is the unmemoised primitive this calls; only the
domain itself calls that directly.
"""
from __future__ import annotations

import warnings
from functools import lru_cache
from typing import Any

from .engine import Engine, get_engine

_ORACLE_CACHE = 65_536


@lru_cache(maxsize=_ORACLE_CACHE)
def _cached_solvable(engine_name: str, puzzle: Any, state: Any) -> bool:
    return get_engine(engine_name).is_solvable(puzzle, state)


def oracle_solvable(engine: Engine, puzzle: Any, state: Any) -> bool:
    """The oracle's verdict on ``state``, memoised (puzzles and states are hashable values); raises
    :class:`~finereason.common.verdict.Undecided` when the domain's work budget runs out."""
    try:
        return _cached_solvable(engine.name, puzzle, state)
    except TypeError:  # an unhashable state from a third-party engine
        return engine.is_solvable(puzzle, state)


def __getattr__(name: str) -> Any:
    if name == "is_solvable":  # the old name, easily mistaken for the engine's unmemoised method
        warnings.warn("finereason.core.oracle.is_solvable is deprecated; use finereason.core.oracle.oracle_solvable",
                      DeprecationWarning, stacklevel=2)
        return oracle_solvable
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["oracle_solvable"]
