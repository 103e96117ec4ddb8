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

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from ..aggregation import (ACC_SOLVABLE, ACC_UNSOLVABLE, F1_UNSOLVABLE, PRECISION_UNSOLVABLE, RECALL_UNSOLVABLE)
from ..report import wilson
from ..verdict import UNSOLVABLE

MISSING = "—"
COUNT_KEYS = ("n_solvable", "n_unsolvable", "n_pred_unsolvable")


@dataclass(frozen=True)
class Cell:
    """A value in [0, 1] with its n and 95 % interval (``lo``/``hi``; ``None`` when unknown)."""

    value: float | None
    n: int | None = None
    lo: float | None = None
    hi: float | None = None

    @property
    def defined(self) -> bool:
        return self.value is not None

    def pct(self) -> str:
        return MISSING if self.value is None else f"{100 * self.value:.1f}"

    def half(self) -> float | None:
        if self.value is None or self.lo is None or self.hi is None:
            return None
        return max(self.hi - self.value, self.value - self.lo)

    def text(self) -> str:
        """``41.7 ± 4.3`` (percentage points), ``—`` when undefined."""
        half = self.half()
        return self.pct() if half is None else f"{self.pct()} ± {100 * half:.1f}"

    def tip(self) -> str:
        if self.value is None:
            return "undefined (no data, or an empty denominator)"
        n = f"n = {self.n}" if self.n is not None else "n unknown"
        if self.lo is None or self.hi is None:
            return f"{self.pct()} %, {n}, no interval (class counts unknown: submit with logged samples)"
        return f"{self.pct()} %, 95 % CI {100 * self.lo:.1f}–{100 * self.hi:.1f}, {n}"

    def as_json(self) -> dict:
        return {"value": self.value, "n": self.n, "lo": self.lo, "hi": self.hi}


UNDEFINED = Cell(None)


def proportion(value: float | None, n: int | None) -> Cell:
    """A share ``value`` of ``n`` rows with its Wilson interval (``n`` unknown: no interval)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return UNDEFINED
    if not n:
        return Cell(value, None if n is None else 0)
    lo, hi = wilson(value * n, n)
    return Cell(value, n, min(lo, value), max(hi, value))  # rounding never puts the value outside


def mean(cells: Sequence[Cell]) -> Cell:
    """The unweighted mean of ``cells``: undefined unless every part is defined."""
    if not cells or any(c.value is None for c in cells):
        return UNDEFINED
    k = len(cells)
    value = sum(c.value for c in cells) / k  # type: ignore[misc]
    ns = [c.n for c in cells]
    n = sum(ns) if all(x is not None for x in ns) else None  # type: ignore[misc]
    if any(c.lo is None or c.hi is None for c in cells):
        return Cell(value, n)
    down = math.sqrt(sum((c.value - c.lo) ** 2 for c in cells)) / k  # type: ignore[operator]
    up = math.sqrt(sum((c.hi - c.value) ** 2 for c in cells)) / k  # type: ignore[operator]
    return Cell(value, n, max(0.0, value - down), min(1.0, value + up))


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


def sample_counts(samples_file: Path | None, task: str, suite: str = "", puzzle: str = "") -> dict[str, int]:
    """``n_solvable``/``n_unsolvable``/``n_pred_unsolvable`` of a state task from its logged samples
    (re-judged by the one verdict function); ``{}`` without samples or for end-to-end tasks."""
    from ..report import TaskResult, load_samples
    from ..vocabulary import STATE_TASKS

    if samples_file is None or task not in STATE_TASKS:
        return {}
    scores = load_samples(TaskResult(suite, puzzle, task, {}, None, Path(samples_file), Path(samples_file)))
    return {"n_solvable": sum(s.solvable is True for _, s in scores),
            "n_unsolvable": sum(s.solvable is False for _, s in scores),
            "n_pred_unsolvable": sum(s.verdict.prediction == UNSOLVABLE for _, s in scores)}
