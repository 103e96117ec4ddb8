"""Blocksworld and Mystery Blocksworld planning (PlanBench): PDDL reading, STRIPS semantics,
a plan reader for model text, a VAL-style validator and an optimal planner.

Core module: pure Python, no heavy imports.
"""
from __future__ import annotations

from ..common.deprecated import renamed_names
from .pddl import Domain, PDDLError, Problem, read_domain, read_problem
from .plan_answers import committed_plan
from .plan_text import PlanAction
from .planner import PlanResult, plan
from .strips import Task
from .validate import PlanVerdict, check_plan, validate

__all__ = [
    "Domain", "PDDLError", "Problem", "read_domain", "read_problem", "Task", "PlanAction",
    "committed_plan", "PlanVerdict", "validate", "check_plan", "PlanResult", "plan",
]

_REMOVED = ("FEEDBACK_LEVELS", "plan_feedback")


def __getattr__(name: str) -> object:
    """Names that left this package, with a one-line pointer to their one home."""
    if name in _REMOVED:
        raise AttributeError(f"finereason.planning.{name} was removed: back-prompt feedback has one module, "
                             "finereason.verification.feedback (sound_feedback and LEVELS, for plans as for every domain)")
    return _renamed(name)


_renamed = renamed_names(__name__, {"Step": "PlanAction"}, globals())  # Step: the engine's move class
