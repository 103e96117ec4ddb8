"""verl custom rewards: ``compute_score`` (one response) and ``compute_score_batch`` (a batch).

Point verl at them with ``reward.custom_reward_function.path=<this file>`` and ``.name=compute_score``
(``compute_score_batch`` for the ``batch`` reward manager). They give the TRL recipe's rewards
(:mod:`finereason.integrations.training.rewards`, default ``puzzle + math + format``, summed as TRL sums its
reward functions): puzzle rows are verified by the one verdict (the whole response is read), math rows by
the same boxed-answer reader and checker, and state transition can give partial credit per category.

``ground_truth`` is the JSON string that ``finereason export verl`` writes (a row's ``task``, ``puzzle``,
``label``, ``inputs``, ``outputs`` and reference ``answer``); a plain string that is not a JSON object is
taken as a math row's answer (verl's own math data sets). verl calls with keywords only and adds keys
(``num_turns``, ``rollout_reward_scores``, its ``reward_kwargs``): unknown keywords are accepted and
ignored. Options, through ``reward.custom_reward_function.reward_kwargs``: ``rewards`` (names from the
reward registry), ``partial_credit`` (state-transition category -> credit; the default rewards are then the
per-task ones, ``state_checking``, ``state_transition``, ``end_to_end``, ``math``, ``format``, since ``puzzle``
is all or nothing) and ``starts_in_think``. The
result is a dict: ``score`` (the sum), ``acc`` (the correctness reward: 1.0 or 0.0) and ``format``; the
same keys for every row, so verl logs them as extras. The functions keep no state between calls and
can run in verl's reward-loop thread pool.
"""
from __future__ import annotations

import json
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

if __package__ in (None, ""):  # loaded by file path (verl's custom_reward_function.path): find the package
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

DEFAULT_REWARDS = ("puzzle", "math", "format")
PER_TASK_REWARDS = ("state_checking", "state_transition", "end_to_end", "math", "format")  # the default with partial credit
FORMAT = "format"
ROW_KEYS = ("task", "domain", "puzzle", "label", "inputs", "outputs", "answer")  # ``puzzle``: the old name of ``domain``


def ground_truth_row(ground_truth: Any) -> dict[str, Any]:
    """The row a ground truth stands for: the exported JSON object, a mapping, or a math answer string."""
    from finereason.integrations.training.mixing import MATH_TASK

    value = ground_truth
    if isinstance(value, (bytes, bytearray)):
        value = value.decode("utf-8", "replace")
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("{"):
            try:
                value = json.loads(text)
            except ValueError:
                value = None
        if isinstance(value, str) or value is None:
            return {"task": MATH_TASK, "answer": text}
    if isinstance(value, Mapping):
        return {key: value.get(key) for key in ROW_KEYS}
    return {"task": MATH_TASK, "answer": None if value is None else str(value)}


@lru_cache(maxsize=64)
def _rewards(names: tuple[str, ...], credit: tuple[tuple[str, float], ...], starts_in_think: bool) -> tuple:
    from finereason.integrations.training.rewards import get_rewards

    return tuple(zip(names, get_rewards(names, partial_credit=dict(credit) or None, starts_in_think=starts_in_think)))


def _options(rewards: Iterable[str] | str | None, partial_credit: Mapping[str, float] | None,
             starts_in_think: bool) -> tuple:
    default = PER_TASK_REWARDS if partial_credit else DEFAULT_REWARDS  # ``puzzle`` gives no partial credit
    names = (rewards,) if isinstance(rewards, str) else tuple(rewards or default)
    credit = tuple(sorted((str(k), float(v)) for k, v in dict(partial_credit or {}).items()))
    return _rewards(names, credit, bool(starts_in_think))


def _score(functions: tuple, solution: Any, row: Mapping[str, Any]) -> dict[str, float]:
    text = solution if isinstance(solution, str) else ("" if solution is None else str(solution))
    columns = {key: [row.get(key)] for key in ROW_KEYS}
    total, acc, fmt = 0.0, 0.0, 0.0
    for name, reward in functions:
        value = reward([text], **columns)[0]
        if value is None:  # not this row's kind (a puzzle reward on a math row, ...)
            continue
        total += float(value)
        if name == FORMAT:
            fmt = float(value)
        else:
            acc = max(acc, float(value))
    return {"score": total, "acc": acc, FORMAT: fmt}


def compute_score(data_source: str | None = None, solution_str: str | None = None, ground_truth: Any = None,
                  extra_info: Mapping[str, Any] | None = None, *, rewards: Iterable[str] | str | None = None,
                  partial_credit: Mapping[str, float] | None = None, starts_in_think: bool = False,
                  **kwargs: Any) -> dict[str, float]:
    """verl's custom reward for one response: ``{"score", "acc", "format"}`` (see the module docstring)."""
    return _score(_options(rewards, partial_credit, starts_in_think), solution_str, ground_truth_row(ground_truth))


def compute_score_batch(data_sources: Sequence[str] | None = None, solution_strs: Sequence[str] | None = None,
                        ground_truths: Sequence[Any] | None = None, extra_infos: Sequence[Any] | None = None, *,
                        rewards: Iterable[str] | str | None = None, partial_credit: Mapping[str, float] | None = None,
                        starts_in_think: bool = False, **kwargs: Any) -> list[dict[str, float]]:
    """verl's batch reward manager's form: one result of :func:`compute_score` per response, in order."""
    solutions, truths = list(solution_strs or []), list(ground_truths or [])
    if len(solutions) != len(truths):
        raise ValueError(f"{len(solutions)} solution_strs but {len(truths)} ground_truths")
    functions = _options(rewards, partial_credit, starts_in_think)
    return [_score(functions, s, ground_truth_row(t)) for s, t in zip(solutions, truths)]


__all__ = ["DEFAULT_REWARDS", "compute_score", "compute_score_batch", "ground_truth_row"]
