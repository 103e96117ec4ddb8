"""Aggregate verdicts into the paper's metrics (one implementation for CLI, lm-eval and reports).

State checking treats *unsolvable* as the positive class. Metric names are a public contract:
``acc``, ``precision_unsolvable``, ``recall_unsolvable``, ``f1_unsolvable``, ``acc_solvable``,
``acc_unsolvable``, ``parse_error_rate`` and ``rate_<category>`` for state transition.
"""
from __future__ import annotations

from collections import Counter
from typing import Sequence

from .verdict import TRANSITION_CATEGORIES, UNSOLVABLE, Verdict

TASKS = ("state_checking", "state_transition", "end_to_end")


def _ratio(num: float, den: float) -> float:
    return num / den if den else 0.0


def summarize(task: str, verdicts: Sequence[Verdict], solvable: Sequence[bool | None] | None = None) -> dict[str, float]:
    """Metrics for one task. ``solvable[i]`` is the oracle label of item i's current state."""
    if task not in TASKS:
        raise ValueError(f"unknown task {task!r}; use one of {', '.join(TASKS)}")
    n = len(verdicts)
    out: dict[str, float] = {
        "n": float(n),
        "acc": _ratio(sum(v.correct for v in verdicts), n),
        "parse_error_rate": _ratio(sum(v.parse_error for v in verdicts), n),
    }
    if solvable is not None:
        for name, want in (("acc_solvable", True), ("acc_unsolvable", False)):
            group = [v for v, s in zip(verdicts, solvable) if s is want]
            out[name] = _ratio(sum(v.correct for v in group), len(group))
    if task == "state_checking" and solvable is not None:
        tp = sum(v.prediction == UNSOLVABLE and s is False for v, s in zip(verdicts, solvable))
        fp = sum(v.prediction == UNSOLVABLE and s is True for v, s in zip(verdicts, solvable))
        fn = sum(v.prediction != UNSOLVABLE and s is False for v, s in zip(verdicts, solvable))
        precision, recall = _ratio(tp, tp + fp), _ratio(tp, tp + fn)
        out["precision_unsolvable"] = precision
        out["recall_unsolvable"] = recall
        out["f1_unsolvable"] = _ratio(2 * precision * recall, precision + recall)
    if task == "state_transition":
        counts = Counter(v.category for v in verdicts)
        for category in TRANSITION_CATEGORIES:
            out[f"rate_{category}"] = _ratio(counts[category], n)
    return out


def category_counts(verdicts: Sequence[Verdict]) -> dict[str, int]:
    """How many verdicts fell in each category, most frequent first."""
    return dict(Counter(v.category for v in verdicts).most_common())
