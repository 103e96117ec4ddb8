"""A demo puzzle domain that lives in the tests alone: a 4x4 Latin square.

It proves that a domain plugs in without editing any file of the package: the engine
(:mod:`.engine`), its description and seeded source (:mod:`.domain`) and one ``register`` call
(:func:`registered`) are all it takes. Tests register it only for their own duration.
"""
from __future__ import annotations

import contextlib
from typing import Iterator

from finereason.core.engine import register, unregister

from .domain import LatinDomain
from .engine import LatinEngine, LatinPuzzle

DEMO = LatinDomain()


@contextlib.contextmanager
def registered() -> Iterator[LatinDomain]:
    """The demo domain, registered for the block (under its name, official name and alias)."""
    register(DEMO, "latin4")
    try:
        yield DEMO
    finally:
        unregister(DEMO.name)


__all__ = ["DEMO", "LatinDomain", "LatinEngine", "LatinPuzzle", "registered"]
