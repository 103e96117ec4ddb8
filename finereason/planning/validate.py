"""A VAL-style plan validator: simulate the plan step by step, explain every failure.

Like VAL, validation stops at the first step that cannot be executed; its reasons name each unmet
precondition of that step (``step 3 (unstack b a): b is not clear``). A plan that executes but
misses the goal gets one reason per unmet goal atom (``goal not reached: c is not on a``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .pddl import Atom
from ..reading.context import ReadContext, resolve_context
from .plan_answers import committed_plan
from .plan_text import PlanAction
from .strips import Task, apply

_NOT_TRUE = {  # Blocksworld predicates in words, as a grader would say them
    "clear": "{0} is not clear",
    "ontable": "{0} is not on the table",
    "handempty": "the hand is not empty",
    "holding": "the hand is not holding {0}",
    "on": "{0} is not on {1}",
}


def describe_unmet(atom: Atom) -> str:
    """Why ``atom`` fails, in words for Blocksworld predicates and as ``(p x) is false`` otherwise."""
    template = _NOT_TRUE.get(atom[0])
    if template is not None and template.count("{") == len(atom) - 1:
        return template.format(*atom[1:])
    return "(" + " ".join(atom) + ") is false"


@dataclass(frozen=True)
class PlanVerdict:
    """``valid``: the plan executes and reaches the goal. ``reasons``: every problem, first error first.
    ``failed_step``: 1-based number of the first step that cannot be executed (``None`` if none)."""

    valid: bool
    reasons: tuple[str, ...] = ()
    failed_step: int | None = None
    steps: int = 0
    final_state: frozenset = field(default=frozenset(), repr=False, compare=False)


def execute(task: Task, state: frozenset[Atom], step: PlanAction) -> tuple[frozenset[Atom] | None, tuple[str, ...]]:
    """``(the state after step, ())``, or ``(None, why)`` when ``step`` cannot be executed in ``state``:
    an unknown action, arity or object, or each unmet precondition (sorted)."""
    try:
        action = task.action(step.name, step.args)
    except KeyError as err:
        return None, (err.args[0],)
    unmet = sorted(action.pre - state)
    if unmet:
        return None, tuple(describe_unmet(a) for a in unmet)
    return apply(state, action), ()


def validate(task: Task, steps: list[PlanAction]) -> PlanVerdict:
    """Simulate ``steps`` from the initial state of ``task``."""
    state = task.init
    for number, step in enumerate(steps, start=1):
        after, why = execute(task, state, step)
        if after is None:
            return PlanVerdict(False, tuple(f"step {number} {step}: {reason}" for reason in why), number, len(steps), state)
        state = after
    missing = sorted(task.goal - state)
    if not missing:
        return PlanVerdict(True, (), None, len(steps), state)
    reasons = [f"goal not reached: {describe_unmet(a)}" for a in missing]
    if not steps:
        reasons.insert(0, "no actions found in the plan text")
    return PlanVerdict(False, tuple(reasons), None, len(steps), state)


def check_plan(task: Task, text: object, context: ReadContext | None = None) -> PlanVerdict:
    """Read ``text`` with the end-to-end plan reader (:func:`~finereason.planning.plan_answers.committed_plan`:
    the plan the text commits to) in the read ``context`` (default: the default context) and validate it.
    Text that commits to no plan is an invalid plan whose one reason is the reader's (``plan text: the plan
    is withdrawn after it is given (...)``; ``plan text: unfinished ...`` when its reasoning never closed)."""
    context = resolve_context(context)
    reading = committed_plan(text, task.domain, task.problem.objects, starts_in_think=context.starts_in_think)
    if reading.value is None:
        return PlanVerdict(False, (f"plan text: {reading.reason}",), None, 0, task.init)
    return validate(task, list(reading.value))
