"""Aggregate verdicts into the paper's metrics (one implementation for CLI, lm-eval and reports).

State checking treats *unsolvable* as the positive class. Metric names are a public contract,
declared once in the metric registry :mod:`finereason.verification.metrics` (name, tasks,
direction, per-row value, aggregation): this module computes the puzzle tasks' verdict metrics from
it. :data:`METRICS` lists each task's verdict metrics in report order and :func:`metric_names` their
names: ``acc``, ``acc_paper``, ``precision_unsolvable``, ``recall_unsolvable``, ``f1_unsolvable``,
``acc_solvable``, ``acc_unsolvable``, ``parse_error_rate`` and ``rate_<category>`` for state transition.
"""
from __future__ import annotations

from collections import Counter
from typing import NamedTuple, Sequence

from ..common.verdict import Verdict
from ..common.vocabulary import STATE_TRANSITION, TASKS
from .metrics import (ACC, ACC_PAPER, ACC_SOLVABLE, ACC_UNSOLVABLE, F1_UNSOLVABLE, LABELS, PAPER, PARSE_ERROR_RATE,
                      PRECISION_UNSOLVABLE, RATE_PREFIX, RECALL_UNSOLVABLE, VERDICT, Metric, compute, rate_name, ratio,
                      task_metrics)

# ------------------------------------------------------------------ metric names (declared in the registry)
N = "n"  # the number of rows (reported by summarize, not a metric of the lm-eval tasks)

METRICS: dict[str, tuple[Metric, ...]] = {task: task_metrics(task, VERDICT) for task in TASKS}
"""Every puzzle task's verdict metrics in report order (the registry's, for that task)."""


def metric_names(task: str) -> list[str]:
    """The verdict metric names a task reports (a public contract)."""
    _check_task(task)
    return [m.name for m in METRICS[task]]


# ------------------------------------------------------------------ aggregation
def _check_task(task: str) -> None:
    if task not in TASKS:
        raise ValueError(f"unknown task {task!r}; use one of {', '.join(TASKS)}")


class VerdictRow(NamedTuple):
    """One answer as the registry's per-row functions read it (the fields of ``scoring.RowScore``)."""

    verdict: Verdict
    paper: Verdict | None = None
    solvable: bool | None = None

    @property
    def correct(self) -> bool:
        return self.verdict.correct


def summarize_rows(task: str, rows: Sequence, *, labels: bool, paper: bool = False) -> dict[str, float]:
    """``n`` and the task's verdict metrics over ``rows`` (``verdict``/``paper``/``solvable``), section
    by section; ``labels``: the solvable labels are known; ``paper``: include the paper-mode metrics."""
    _check_task(task)
    have = [LABELS] * labels + [PAPER] * paper
    return {N: float(len(rows)), **compute(task, rows, VERDICT, have=have, summary_order=True)}


def summarize(task: str, verdicts: Sequence[Verdict], solvable: Sequence[bool | None] | None = None) -> dict[str, float]:
    """Metrics for one task. ``solvable[i]`` is the oracle label of item i's current state."""
    _check_task(task)
    labels = [None] * len(verdicts) if solvable is None else solvable
    rows = [VerdictRow(v, None, s) for v, s in zip(verdicts, labels)]
    return summarize_rows(task, rows, labels=solvable is not None)


def paper_accuracy(paper: Sequence[Verdict | None]) -> float:
    """``acc_paper``: the share of rows whose paper-mode verdict is correct (``None`` counts as wrong)."""
    rows = [VerdictRow(None, p) for p in paper]  # type: ignore[arg-type]  (acc_paper reads the paper verdict only)
    return compute(STATE_TRANSITION, rows, VERDICT, have=[PAPER], only=[ACC_PAPER])[ACC_PAPER]


def row_values(task: str, verdict: Verdict, paper: Verdict | None = None) -> dict[str, float]:
    """One row's values of the task's per-row metrics (lm-eval ``process_results``): their mean over
    the rows is the metric :func:`summarize` reports (``acc_paper`` needs the paper-mode verdict)."""
    row = VerdictRow(verdict, paper)
    out = {}
    for m in METRICS[task]:
        if m.per_row:
            if m.needs == PAPER and paper is None:
                raise ValueError(f"{m.name} needs the paper-mode verdict of the row")
            out[m.name] = m.row_value(row)
    return out


def category_counts(verdicts: Sequence[Verdict]) -> dict[str, int]:
    """How many verdicts fell in each category, most frequent first."""
    return dict(Counter(v.category for v in verdicts).most_common())
