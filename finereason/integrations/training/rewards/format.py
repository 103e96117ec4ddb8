"""The ``format`` reward: one committed final answer in the form the prompt asks for, right or wrong."""
from __future__ import annotations

from typing import Any

from finereason.core.rows import column_domains
from finereason.integrations.training.mixing import MATH_TASK
from finereason.integrations.training.rewards.completions import completion_text
from finereason.integrations.training.rewards.math_reading import math_answer
from finereason.integrations.training.rewards.math_worker import readable_math
from finereason.integrations.training.rewards.puzzle import PUZZLE_TASKS
from finereason.integrations.training.rewards.registry import register_reward
from finereason.verification.verifiers import format_ok


@register_reward("format", columns=("task",))
def format_reward(completions: list, *, starts_in_think: bool = False, **kwargs: Any) -> list:
    """1.0 for exactly one committed final answer in the requested form (puzzle rows:
    ``verifiers.format_ok``; math rows: one committed final ``\\boxed{}`` answer left standing that reads as math),
    right or wrong; else 0.0. ``None`` on rows of an unknown task."""
    n = len(completions)
    tasks = kwargs.get("task") or [None] * n
    domains = column_domains(kwargs, n)
    answers = kwargs.get("answer") or [None] * n
    out: list = []
    for task, domain, gold, completion in zip(tasks, domains, answers, completions):
        text = completion_text(completion)
        if task in PUZZLE_TASKS:
            out.append(1.0 if format_ok(task, text, starts_in_think=starts_in_think, domain=domain) else 0.0)
        elif task == MATH_TASK:
            guess = math_answer(text, starts_in_think=starts_in_think, gold=gold, single=True)
            out.append(1.0 if guess is not None and readable_math(guess) else 0.0)
        else:
            out.append(None)
    return out
