"""The ``math`` reward: the committed final ``\\boxed{}`` answer against the ``answer`` column."""
from __future__ import annotations

from typing import Any

from finereason.integrations.training.mixing import MATH_TASK
from finereason.integrations.training.rewards.completions import completion_text
from finereason.integrations.training.rewards.math_reading import math_answer
from finereason.integrations.training.rewards.math_worker import math_correct
from finereason.integrations.training.rewards.registry import register_reward


@register_reward("math", columns=("task", "answer"))
def math_reward(completions: list, *, starts_in_think: bool = False, **kwargs: Any) -> list:
    """1.0 when the completion's committed final ``\\boxed{}`` answer equals the ``answer`` column
    (``\\frac{1}{2}`` equals ``0.5``), else 0.0; ``None`` on puzzle rows."""
    n = len(completions)
    tasks = kwargs.get("task") or [None] * n
    answers = kwargs.get("answer") or [None] * n
    out: list = []
    for task, gold, completion in zip(tasks, answers, completions):
        if task != MATH_TASK:
            out.append(None)
            continue
        if not isinstance(gold, str) or not gold.strip():
            out.append(0.0)
            continue
        guess = math_answer(completion_text(completion), starts_in_think=starts_in_think, gold=gold)
        out.append(1.0 if guess is not None and math_correct(guess, gold.strip()) else 0.0)
    return out
