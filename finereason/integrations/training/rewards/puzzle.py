"""The puzzle rewards: ``state_checking``, ``state_transition`` (optional partial credit per error
category), ``end_to_end`` and ``puzzle`` (any puzzle task). Verdicts come from
``finereason.verification.scoring.score_row``, as in evaluation; each reward logs the parse-error rate (and every
state-transition category's rate) through TRL's ``log_metric``."""
from __future__ import annotations

from collections import Counter
from typing import Any, Iterable, Mapping

from finereason.common.verdict import TRANSITION_CATEGORIES, Category
from finereason.common.vocabulary import END_TO_END, STATE_CHECKING, STATE_TRANSITION, TASKS
from finereason.core.rows import DOMAIN
from finereason.integrations.training.mixing import PUZZLE_COLUMNS
from finereason.integrations.training.rewards.completions import completion_text
from finereason.integrations.training.rewards.registry import Reward, RewardConfigError, register_reward
from finereason.verification.aggregation import PARSE_ERROR_RATE, rate_name
from finereason.verification.scoring import score_row

PUZZLE_TASKS = TASKS  # the tasks the puzzle rewards verify (every FineReason task)
ROW_COLUMNS = PUZZLE_COLUMNS  # the dataset columns a puzzle verdict reads
# what a state verdict needs (``puzzle``, the old name of ``domain``, stands in for it)
VERDICT_COLUMNS = ("task", DOMAIN, "inputs", "outputs", "label")


def _rows(kwargs: Mapping[str, Any], n: int) -> list[dict]:
    columns = {name: kwargs.get(name) or [None] * n for name in ROW_COLUMNS}
    return [{name: columns[name][i] for name in ROW_COLUMNS} for i in range(n)]


def _score_tasks(completions: list, kwargs: Mapping[str, Any], tasks: Iterable[str], starts_in_think: bool) -> list:
    tasks = set(tasks)
    rows = _rows(kwargs, len(completions))
    return [score_row(row, completion_text(c), starts_in_think=starts_in_think) if row["task"] in tasks else None
            for row, c in zip(rows, completions)]


def _log(kwargs: Mapping[str, Any], scores: list, task: str) -> None:
    """Log ``finereason/<task>/parse_error_rate`` (and ``rate_<category>`` for state transition)."""
    # TODO(issue 24 item 2): take these metric names from the metric registry (finereason.verification.metrics).
    log_metric = kwargs.get("log_metric")
    scored = [s for s in scores if s is not None]
    if log_metric is None or not scored:
        return
    prefix = f"finereason/{task}"
    counts = Counter(s.verdict.category for s in scored)
    log_metric(f"{prefix}/{PARSE_ERROR_RATE}", counts.get(Category.PARSE_ERROR.value, 0) / len(scored))
    if task == STATE_TRANSITION:
        for category in TRANSITION_CATEGORIES:
            log_metric(f"{prefix}/{rate_name(category)}", counts.get(category, 0) / len(scored))


def _binary(scores: list) -> list:
    return [None if s is None else float(s.verdict.correct) for s in scores]


@register_reward(STATE_CHECKING, columns=VERDICT_COLUMNS)
def state_checking_reward(completions: list, *, starts_in_think: bool = False, **kwargs: Any) -> list:
    """1.0 for the right committed (A)/(B) choice on a state-checking row, else 0.0; ``None`` on other rows."""
    scores = _score_tasks(completions, kwargs, [STATE_CHECKING], starts_in_think)
    _log(kwargs, scores, STATE_CHECKING)
    return _binary(scores)


@register_reward(STATE_TRANSITION, columns=VERDICT_COLUMNS, factory=True)
def state_transition_reward(partial_credit: Mapping[str, float] | None = None, *,
                            starts_in_think: bool = False) -> Reward:
    """A state-transition reward: 1.0 for a correct move (strict verifier), ``partial_credit[category]``
    for the other categories (default 0.0; never for a parse error or unfinished reasoning), ``None``
    on other rows. Logs every category's rate."""
    credit = dict(partial_credit or {})
    unknown = sorted(set(credit) - set(TRANSITION_CATEGORIES))
    if unknown:
        raise RewardConfigError(f"unknown state-transition categories in partial credit: {', '.join(unknown)}")
    if credit.get(Category.PARSE_ERROR.value):
        raise RewardConfigError("parse_error cannot earn partial credit: an unreadable answer or unfinished "
                                "reasoning earns 0")
    for category, value in credit.items():
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0.0 <= float(value) <= 1.0:
            raise RewardConfigError(f"partial credit for {category} must be a number in [0, 1], got {value!r}")

    def reward(completions: list, **kwargs: Any) -> list:
        scores = _score_tasks(completions, kwargs, [STATE_TRANSITION], starts_in_think)
        _log(kwargs, scores, STATE_TRANSITION)
        return [None if s is None else 1.0 if s.verdict.correct else float(credit.get(s.verdict.category, 0.0))
                for s in scores]

    reward.__name__ = reward.__qualname__ = "state_transition_reward"
    return reward


@register_reward(END_TO_END, columns=("task", DOMAIN, "inputs", "outputs"))
def end_to_end_reward(completions: list, *, starts_in_think: bool = False, **kwargs: Any) -> list:
    """1.0 when a proposed full solution satisfies every rule; ``None`` on other rows."""
    scores = _score_tasks(completions, kwargs, [END_TO_END], starts_in_think)
    _log(kwargs, scores, END_TO_END)
    return _binary(scores)


@register_reward("puzzle", columns=VERDICT_COLUMNS)
def puzzle_reward(completions: list, *, starts_in_think: bool = False, **kwargs: Any) -> list:
    """Correctness on any puzzle row (strict verifier for state transition); ``None`` on math rows.
    Logs each task's parse-error rate and every state-transition category's rate."""
    scores = _score_tasks(completions, kwargs, PUZZLE_TASKS, starts_in_think)
    for task in PUZZLE_TASKS:
        _log(kwargs, [s if s is not None and s.task == task else None for s in scores], task)
    return _binary(scores)
