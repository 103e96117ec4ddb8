"""The engine interface and the domain registry.

Each puzzle domain is one package under :mod:`finereason.domains` that registers an
:class:`Engine` subclass on import; the registry loads the built-in packages on first use, and a
plugin (or a test) adds its own domain with :func:`register`.
"""
from .base import (
    Engine,
    StateItem,
    Step,
    StepKind,
    default_names,
    engine_names,
    engines,
    get_engine,
    official_names,
    register,
    train_names,
    unregister,
)

__all__ = ["Engine", "StateItem", "Step", "StepKind", "default_names", "engine_names", "engines", "get_engine", "official_names",
           "register", "train_names", "unregister"]
