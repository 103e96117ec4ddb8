"""Numbers on the board: every cell is a value with its n and a 95 % interval, or undefined.

A per-row metric (accuracy, parse-error rate, an error-category share) of a task gets the Wilson
interval of ``value * n`` successes in ``n`` rows. Precision, recall and the per-class accuracies need
the class counts of the task (``n_solvable``, ``n_unsolvable``, ``n_pred_unsolvable``), taken from
the logged samples: without them they have no n and no interval, and a precision or F1 whose
denominator is empty (or unknown while it could be empty) is undefined ("—"), never 0. A mean over
tasks is defined only when every part is; its interval combines the parts' half-widths in quadrature
(independent tasks, equal weights); its n is the parts' total.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from ...common.intervals import MISSING, UNDEFINED, Cell, mean, proportion  # noqa: F401  (re-exported)
from ...common.verdict import UNSOLVABLE
from ...verification.aggregation import ACC_SOLVABLE, ACC_UNSOLVABLE, F1_UNSOLVABLE, PRECISION_UNSOLVABLE, RECALL_UNSOLVABLE

if TYPE_CHECKING:
    from ...reading.context import ReadContext
    from ...verification.scoring import RowScore

COUNT_KEYS = ("n_solvable", "n_unsolvable", "n_pred_unsolvable")


def metric_cell(name: str, metrics: dict[str, float], n: int | None, counts: dict[str, int]) -> Cell:
    """The cell of one metric of one task (see the module docstring for the rules)."""
    value = metrics.get(name)
    if value is None:
        return UNDEFINED
    sol, unsol, pred = (counts.get(k) for k in COUNT_KEYS)
    if name == ACC_SOLVABLE:
        return UNDEFINED if sol == 0 else proportion(value, sol)
    if name in (ACC_UNSOLVABLE, RECALL_UNSOLVABLE):
        return UNDEFINED if unsol == 0 else proportion(value, unsol)
    if name == PRECISION_UNSOLVABLE:
        if pred == 0 or (pred is None and value == 0):  # 0 of 0 (or possibly so): undefined
            return UNDEFINED
        return proportion(value, pred)
    if name == F1_UNSOLVABLE:
        p = metric_cell(PRECISION_UNSOLVABLE, metrics, n, counts)
        if p.value is None or unsol == 0:
            return UNDEFINED
        if unsol is None or pred is None:
            return Cell(value)
        tp = round((metrics.get(RECALL_UNSOLVABLE) or 0.0) * unsol)
        # F1 = TP / (TP + (FP + FN) / 2): Wilson of TP in that many (an approximation for a ratio)
        return proportion(value, max(1, round(tp + ((pred - tp) + (unsol - tp)) / 2)))
    return proportion(value, n)


def sample_counts(samples_file: Path | None, task: str, suite: str = "", puzzle: str = "",
                  context: ReadContext | None = None) -> dict[str, int]:
    """``n_solvable``/``n_unsolvable``/``n_pred_unsolvable`` of a state task from its logged samples
    (re-verified by the one verdict function in the run's read ``context``); ``{}`` without samples or
    for end-to-end tasks."""
    from ...common.vocabulary import STATE_TASKS
    from ...reading.context import DEFAULT
    from ..report.results import TaskResult, load_samples

    if samples_file is None or task not in STATE_TASKS:
        return {}
    scores = load_samples(TaskResult(suite, puzzle, task, {}, None, Path(samples_file), Path(samples_file),
                                     context=context or DEFAULT))
    return counts_of([s for _, s in scores])


def counts_of(scores: Sequence[RowScore]) -> dict[str, int]:
    """The class counts of re-verified rows (see :data:`COUNT_KEYS`)."""
    return {"n_solvable": sum(s.solvable is True for s in scores),
            "n_unsolvable": sum(s.solvable is False for s in scores),
            "n_pred_unsolvable": sum(s.verdict.prediction == UNSOLVABLE for s in scores)}
