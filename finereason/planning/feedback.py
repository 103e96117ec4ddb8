"""Back-prompt feedback from a plan verdict, at the four levels of Stechly et al. (2024).

``none``: no feedback (the model is simply asked again); ``binary``: valid or not;
``first_error``: the first reason; ``all_errors``: every reason (each unmet precondition of the
first inexecutable step, as VAL reports, or each unmet goal atom). Feedback never contains a valid
plan: when the text would read as one (a reason quotes a step), the step is named by its number only.
"""
from __future__ import annotations

import re

from .strips import Task
from .validate import PlanVerdict, check_plan

FEEDBACK_LEVELS: tuple[str, ...] = ("none", "binary", "first_error", "all_errors")

VALID = "The plan is valid."
INVALID = "The plan is not valid."
_QUOTED_STEP = re.compile(r"^(step \d+) \([^()]*\)")


def _reads_as_valid_plan(task: Task, text: str) -> bool:
    return check_plan(task, text).valid


def plan_feedback(task: Task, verdict: PlanVerdict, level: str) -> str:
    """The feedback text for ``verdict`` at ``level`` (one of :data:`FEEDBACK_LEVELS`)."""
    if level not in FEEDBACK_LEVELS:
        raise ValueError(f"unknown feedback level {level!r} (known: {', '.join(FEEDBACK_LEVELS)})")
    if level == "none":
        return ""
    if verdict.valid:
        return VALID
    reasons = list(verdict.reasons) or ["the plan does not reach the goal"]
    if level == "binary":
        return INVALID
    chosen = reasons[:1] if level == "first_error" else reasons
    text = INVALID + "\n" + "\n".join(chosen)
    if _reads_as_valid_plan(task, text):
        text = INVALID + "\n" + "\n".join(_QUOTED_STEP.sub(r"\1", r) for r in chosen)
    if _reads_as_valid_plan(task, text):  # cannot happen with the validator's reasons; never leak a plan
        text = INVALID
    return text
