"""The project's shared names, each defined once and imported everywhere.

- tasks: what a row asks (:data:`TASKS`); state tasks are the ones about a sampled state;
- tree orders: how a puzzle's tree branches (:data:`ORDERS`);
verdict categories live in :mod:`finereason.verdict` (:class:`~finereason.verdict.Category`).
"""
from __future__ import annotations

STATE_CHECKING = "state_checking"
STATE_TRANSITION = "state_transition"
END_TO_END = "end_to_end"
TASKS: tuple[str, ...] = (STATE_CHECKING, STATE_TRANSITION, END_TO_END)
STATE_TASKS: tuple[str, ...] = (STATE_CHECKING, STATE_TRANSITION)

ORDERS: tuple[str, ...] = ("paper", "mrv")  # paper: the official trees' order; mrv: most constrained first
