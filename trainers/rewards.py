"""GRPO reward functions for TRL, looked up by name from one registry.

Every function has TRL's signature ``f(completions, **columns) -> list[float | None]``: dataset
columns arrive as keyword arguments, and ``None`` means "not applicable" (a puzzle reward on a math
row and vice versa). Puzzle verdicts come from ``finereason.evaluation.score_row`` (the same verifier
as the lm-eval tasks); math answers are compared with ``math-verify``.

Registry names: ``state_checking``, ``state_transition``, ``end_to_end``, ``puzzle`` (any puzzle
task), ``format`` (a final answer is present and parseable) and ``math``. Rewards with parameters
come from factories (``state_transition_reward(partial_credit=...)``).
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Iterable, Mapping

from finereason.evaluation import score_row
from finereason.verdict import TRANSITION_CATEGORIES

Reward = Callable[..., list]
PUZZLE_TASKS = ("state_checking", "state_transition", "end_to_end")
MATH_TASK = "math"
ROW_COLUMNS = ("puzzle", "task", "label", "inputs", "outputs")


class RewardConfigError(ValueError):
    """An unknown reward name or bad reward parameters (reported before any model is loaded)."""


def _content_text(content: Any) -> str:
    """A message's content: a string, or a list of parts whose text parts are joined in order."""
    if isinstance(content, list):
        return "".join(str(p.get("text") or "") for p in content if isinstance(p, Mapping) and p.get("type", "text") == "text")
    return str(content or "")


def completion_text(completion: Any) -> str:
    """The text of a standard (string) or conversational (list of messages) completion."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, list) and completion:
        last = completion[-1]
        if isinstance(last, Mapping):
            return _content_text(last.get("content"))
    if isinstance(completion, Mapping):
        return _content_text(completion.get("content"))
    return "" if completion is None else str(completion)


def _rows(kwargs: Mapping[str, Any], n: int) -> list[dict]:
    columns = {name: kwargs.get(name) or [None] * n for name in ROW_COLUMNS}
    return [{name: columns[name][i] for name in ROW_COLUMNS} for i in range(n)]


def _score_tasks(completions: list, kwargs: Mapping[str, Any], tasks: Iterable[str]) -> list:
    tasks = set(tasks)
    rows = _rows(kwargs, len(completions))
    return [score_row(row, completion_text(c)) if row["task"] in tasks else None for row, c in zip(rows, completions)]


def _log(kwargs: Mapping[str, Any], scores: list, prefix: str) -> None:
    log_metric = kwargs.get("log_metric")
    judged = [s for s in scores if s is not None]
    if log_metric is None or not judged:
        return
    counts = Counter(s.verdict.category for s in judged)
    log_metric(f"{prefix}/parse_error_rate", counts.get("parse_error", 0) / len(judged))
    if prefix.endswith("state_transition"):
        for category in TRANSITION_CATEGORIES:
            log_metric(f"{prefix}/rate_{category}", counts.get(category, 0) / len(judged))


def _binary(scores: list) -> list:
    return [None if s is None else float(s.verdict.correct) for s in scores]


# ------------------------------------------------------------------ puzzle rewards
def state_checking_reward(completions: list, **kwargs: Any) -> list:
    """1.0 for the right (A)/(B) choice on a state-checking row, else 0.0; ``None`` on other rows."""
    scores = _score_tasks(completions, kwargs, ["state_checking"])
    _log(kwargs, scores, "finereason/state_checking")
    return _binary(scores)


def state_transition_reward(partial_credit: Mapping[str, float] | None = None) -> Reward:
    """A state-transition reward: 1.0 for a correct move (strict verifier), ``partial_credit[category]``
    for the other categories (default 0.0), ``None`` on other rows. Logs every category's rate."""
    credit = dict(partial_credit or {})
    unknown = sorted(set(credit) - set(TRANSITION_CATEGORIES))
    if unknown:
        raise RewardConfigError(f"unknown state-transition categories in partial credit: {', '.join(unknown)}")
    for category, value in credit.items():
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0.0 <= float(value) <= 1.0:
            raise RewardConfigError(f"partial credit for {category} must be a number in [0, 1], got {value!r}")

    def reward(completions: list, **kwargs: Any) -> list:
        scores = _score_tasks(completions, kwargs, ["state_transition"])
        _log(kwargs, scores, "finereason/state_transition")
        return [None if s is None else (1.0 if s.verdict.correct else float(credit.get(s.verdict.category, 0.0)))
                for s in scores]

    reward.__name__ = "state_transition_reward"
    return reward


def end_to_end_reward(completions: list, **kwargs: Any) -> list:
    """1.0 when a proposed full solution satisfies every rule; ``None`` on other rows."""
    scores = _score_tasks(completions, kwargs, ["end_to_end"])
    _log(kwargs, scores, "finereason/end_to_end")
    return _binary(scores)


def puzzle_reward(completions: list, **kwargs: Any) -> list:
    """Correctness on any puzzle row (strict verifier for state transition); ``None`` on math rows.
    Logs each task's parse-error rate and every state-transition category's rate."""
    scores = _score_tasks(completions, kwargs, PUZZLE_TASKS)
    for task in PUZZLE_TASKS:
        _log(kwargs, [s if s is not None and s.task == task else None for s in scores], f"finereason/{task}")
    return _binary(scores)


def format_reward(completions: list, **kwargs: Any) -> list:
    """1.0 when the final answer is present and parseable (puzzle rows: not ``parse_error``; math rows:
    a ``\\boxed{}`` answer math-verify can read), else 0.0."""
    tasks = kwargs.get("task") or [None] * len(completions)
    scores = _score_tasks(completions, kwargs, PUZZLE_TASKS)
    out = []
    for task, score, completion in zip(tasks, scores, completions):
        if score is not None:
            out.append(0.0 if score.verdict.parse_error else 1.0)
        elif task == MATH_TASK:
            text = completion_text(completion)
            out.append(1.0 if "\\boxed" in text and _math_parse(text, boxed_only=True) else 0.0)
        else:
            out.append(None)
    return out


# ------------------------------------------------------------------ math
def _math_parse(text: str, boxed_only: bool = False) -> list:
    from math_verify import LatexExtractionConfig, parse

    if boxed_only:
        return parse(text, extraction_config=[LatexExtractionConfig(boxed_match_priority=0)], parsing_timeout=2)
    return parse(text, parsing_timeout=2)


def math_reward(completions: list, **kwargs: Any) -> list:
    """1.0 when the completion's final answer equals the ``answer`` column (math-verify: ``\\frac{1}{2}``
    equals ``0.5``), else 0.0; ``None`` on puzzle rows."""
    from math_verify import verify

    tasks = kwargs.get("task") or [None] * len(completions)
    answers = kwargs.get("answer") or [None] * len(completions)
    out: list = []
    for task, answer, completion in zip(tasks, answers, completions):
        if task != MATH_TASK:
            out.append(None)
            continue
        gold = _math_parse(f"${answer}$") if answer not in (None, "") else []
        guess = _math_parse(completion_text(completion)[-20_000:])
        try:
            out.append(1.0 if gold and guess and verify(gold, guess, timeout_seconds=2) else 0.0)
        except Exception:  # math-verify may fail on pathological input: no reward, no crash
            out.append(0.0)
    return out


# ------------------------------------------------------------------ registry
REGISTRY: dict[str, Callable[..., Reward]] = {
    "state_checking": lambda **_: state_checking_reward,
    "state_transition": lambda partial_credit=None, **_: state_transition_reward(partial_credit),
    "end_to_end": lambda **_: end_to_end_reward,
    "puzzle": lambda **_: puzzle_reward,
    "format": lambda **_: format_reward,
    "math": lambda **_: math_reward,
}

REQUIRED_COLUMNS: dict[str, tuple[str, ...]] = {
    "state_checking": ("task", "puzzle", "inputs", "outputs", "label"),
    "state_transition": ("task", "puzzle", "inputs", "outputs", "label"),
    "end_to_end": ("task", "puzzle", "inputs", "outputs"),
    "puzzle": ("task", "puzzle", "inputs", "outputs", "label"),
    "format": ("task",),
    "math": ("task", "answer"),
}


def get_rewards(names: Iterable[str], partial_credit: Mapping[str, float] | None = None) -> list[Reward]:
    """Reward functions for ``names``; an unknown name fails with one clear line."""
    names = list(names)
    if not names:
        raise RewardConfigError("no reward functions named (reward_funcs is empty)")
    unknown = [n for n in names if n not in REGISTRY]
    if unknown:
        raise RewardConfigError(f"unknown reward {unknown[0]!r}; known rewards: {', '.join(REGISTRY)}")
    return [REGISTRY[n](partial_credit=partial_credit) for n in names]


def check_columns(names: Iterable[str], columns: Iterable[str]) -> None:
    """Fail early when the training data lacks a column a named reward reads."""
    have = set(columns)
    for name in names:
        missing = [c for c in REQUIRED_COLUMNS.get(name, ()) if c not in have]
        if missing:
            raise RewardConfigError(f"reward {name!r} needs dataset column(s) {', '.join(missing)}, which the training data lacks")
