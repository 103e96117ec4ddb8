"""Puzzle engines. Each domain lives in its own module and registers itself on import.

Importing ``finereason.engines`` (or anything inside it) registers the four built-in domains.
"""
from .base import Engine, StateItem, Step, StepKind, engine_names, get_engine, register
from . import game24, graph_coloring, grid_puzzle, sudoku  # noqa: E402,F401  (self-registering)

__all__ = ["Engine", "StateItem", "Step", "StepKind", "engine_names", "get_engine", "register"]
