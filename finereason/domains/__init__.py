"""Puzzle domains: one package each, owning everything about its puzzle.

A domain package holds its engine (rules, minimal moves, exact oracle, official-format I/O) in
``engine.py``, its seeded generators in ``source.py``, its domain description (prompt text,
difficulty and identity fields, display title, seeded ``source``) in ``domain.py``, a subclass of
the engine, and registers that class in ``__init__.py``. Importing this package imports every
domain package found here, so adding a domain is adding a folder (see DEVELOPERS.md).
"""
from __future__ import annotations

import importlib
import pkgutil

for _info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    if _info.ispkg:
        importlib.import_module(f"{__name__}.{_info.name}")
