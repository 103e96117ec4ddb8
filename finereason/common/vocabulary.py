"""The project's shared names, each defined once and imported everywhere.

- tasks: what a row asks (:data:`TASKS`); state tasks are the ones about a sampled state
  (:data:`STATE_TASKS`);
- tree orders: how a puzzle's tree branches (:data:`ORDERS`, default :data:`PAPER`).

Verdict categories live in :mod:`finereason.common.verdict` (:class:`~finereason.common.verdict.Category`) and
metric names beside the code that computes them, in :mod:`finereason.verification.aggregation`.
"""
from __future__ import annotations

STATE_CHECKING = "state_checking"
STATE_TRANSITION = "state_transition"
END_TO_END = "end_to_end"
TASKS: tuple[str, ...] = (STATE_CHECKING, STATE_TRANSITION, END_TO_END)
STATE_TASKS: tuple[str, ...] = (STATE_CHECKING, STATE_TRANSITION)

PAPER = "paper"  # the official trees' order
MRV = "mrv"  # most constrained first (minimum remaining values)
ORDERS: tuple[str, ...] = (PAPER, MRV)

# Difficulty columns of the dataset schema (shared by every config, so configs can be mixed): the
# state's depth, then the fields the domains fill (``Engine.difficulty_fields`` must be among these).
DIFFICULTY_FIELDS: tuple[str, ...] = ("depth", "empty_cells", "vertices", "edges", "k", "human_rank", "categories",
                                      "entries", "clues")
