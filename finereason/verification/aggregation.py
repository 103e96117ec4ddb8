"""Aggregate verdicts into the paper's metrics (one implementation for CLI, lm-eval and reports).

State checking treats *unsolvable* as the positive class. Metric names are a public contract and
are declared here, beside the code that computes them: :data:`METRICS` lists each task's metrics
(name, direction, whether it is a mean of per-row values) and :func:`metric_names` their names:
``acc``, ``acc_paper``, ``precision_unsolvable``, ``recall_unsolvable``, ``f1_unsolvable``,
``acc_solvable``, ``acc_unsolvable``, ``parse_error_rate`` and ``rate_<category>`` for state
transition. lm-eval's ``process_results`` and aggregations, the ``evaluate`` modules, reports and the
leaderboard import these names.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from ..common.verdict import TRANSITION_CATEGORIES, UNSOLVABLE, Category, Verdict
from ..common.vocabulary import END_TO_END, STATE_CHECKING, STATE_TRANSITION, TASKS

# ------------------------------------------------------------------ metric names
N = "n"  # the number of rows (reported by summarize, not a metric of the lm-eval tasks)
ACC = "acc"
ACC_PAPER = "acc_paper"
PARSE_ERROR_RATE = "parse_error_rate"
ACC_SOLVABLE = "acc_solvable"
ACC_UNSOLVABLE = "acc_unsolvable"
PRECISION_UNSOLVABLE = "precision_unsolvable"
RECALL_UNSOLVABLE = "recall_unsolvable"
F1_UNSOLVABLE = "f1_unsolvable"
RATE_PREFIX = "rate_"


def rate_name(category: str) -> str:
    """The metric naming the share of answers in ``category`` (``rate_<category>``)."""
    return f"{RATE_PREFIX}{category}"


@dataclass(frozen=True)
class Metric:
    """One reported metric. ``per_row``: the mean of a 0/1 value per row (lm-eval aggregation
    ``mean``); otherwise computed over the whole set (lm-eval aggregation ``utils.agg_<name>``)."""

    name: str
    higher_is_better: bool
    per_row: bool


_BY_CLASS = (Metric(ACC_SOLVABLE, True, False), Metric(ACC_UNSOLVABLE, True, False))

METRICS: dict[str, tuple[Metric, ...]] = {
    STATE_CHECKING: (Metric(ACC, True, True), Metric(PARSE_ERROR_RATE, False, True),
                     Metric(PRECISION_UNSOLVABLE, True, False), Metric(RECALL_UNSOLVABLE, True, False),
                     Metric(F1_UNSOLVABLE, True, False), *_BY_CLASS),
    STATE_TRANSITION: (Metric(ACC, True, True), Metric(PARSE_ERROR_RATE, False, True), Metric(ACC_PAPER, True, True),
                       *_BY_CLASS,
                       *(Metric(rate_name(c), c == Category.CORRECT.value, True) for c in TRANSITION_CATEGORIES)),
    END_TO_END: (Metric(ACC, True, True), Metric(PARSE_ERROR_RATE, False, True)),
}
"""Every task's metrics in report order (lm-eval's ``process_results`` keys)."""


def metric_names(task: str) -> list[str]:
    """The metric names a task reports (a public contract)."""
    _check_task(task)
    return [m.name for m in METRICS[task]]


# ------------------------------------------------------------------ aggregation
def _check_task(task: str) -> None:
    if task not in TASKS:
        raise ValueError(f"unknown task {task!r}; use one of {', '.join(TASKS)}")


def ratio(num: float, den: float) -> float:
    """``num / den``, or 0.0 for an empty denominator (every rate of an empty set is 0.0)."""
    return num / den if den else 0.0


def summarize(task: str, verdicts: Sequence[Verdict], solvable: Sequence[bool | None] | None = None) -> dict[str, float]:
    """Metrics for one task. ``solvable[i]`` is the oracle label of item i's current state."""
    _check_task(task)
    n = len(verdicts)
    out: dict[str, float] = {
        N: float(n),
        ACC: ratio(sum(v.correct for v in verdicts), n),
        PARSE_ERROR_RATE: ratio(sum(v.parse_error for v in verdicts), n),
    }
    if solvable is not None:
        for name, want in ((ACC_SOLVABLE, True), (ACC_UNSOLVABLE, False)):
            group = [v for v, s in zip(verdicts, solvable) if s is want]
            out[name] = ratio(sum(v.correct for v in group), len(group))
    if task == STATE_CHECKING and solvable is not None:
        tp = sum(v.prediction == UNSOLVABLE and s is False for v, s in zip(verdicts, solvable))
        fp = sum(v.prediction == UNSOLVABLE and s is True for v, s in zip(verdicts, solvable))
        fn = sum(v.prediction != UNSOLVABLE and s is False for v, s in zip(verdicts, solvable))
        precision, recall = ratio(tp, tp + fp), ratio(tp, tp + fn)
        out[PRECISION_UNSOLVABLE] = precision
        out[RECALL_UNSOLVABLE] = recall
        out[F1_UNSOLVABLE] = ratio(2 * precision * recall, precision + recall)
    if task == STATE_TRANSITION:
        counts = Counter(v.category for v in verdicts)
        for category in TRANSITION_CATEGORIES:
            out[rate_name(category)] = ratio(counts[category], n)
    return out


def paper_accuracy(paper: Sequence[Verdict | None]) -> float:
    """``acc_paper``: the share of rows whose paper-mode verdict is correct (``None`` counts as wrong)."""
    return ratio(sum(v.correct for v in paper if v is not None), len(paper))


def row_values(task: str, verdict: Verdict, paper: Verdict | None = None) -> dict[str, float]:
    """One row's values of the task's per-row metrics (lm-eval ``process_results``): their mean over
    the rows is the metric :func:`summarize` reports (``acc_paper`` needs the paper-mode verdict)."""
    values = {ACC: float(verdict.correct), PARSE_ERROR_RATE: float(verdict.parse_error)}
    if paper is not None:
        values[ACC_PAPER] = float(paper.correct)
    if task == STATE_TRANSITION:
        values.update((rate_name(c), float(verdict.category == c)) for c in TRANSITION_CATEGORIES)
    return {m.name: values[m.name] for m in METRICS[task] if m.per_row}


def category_counts(verdicts: Sequence[Verdict]) -> dict[str, int]:
    """How many verdicts fell in each category, most frequent first."""
    return dict(Counter(v.category for v in verdicts).most_common())
