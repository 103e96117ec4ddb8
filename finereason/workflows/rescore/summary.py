"""The tables of a rescore run, counted as the records stream past (memory: one counter per group,
and one key per distinct record of the verifier table).

``summary``: per model and condition, ``n`` (records with both verdicts), recorded and sound
accuracy, their difference (sound minus recorded) with a 95 % interval for paired proportions,
``credited_but_wrong`` (recorded correct, sound wrong), ``missed`` (recorded wrong, sound correct),
``no_answer`` (our reader found no committed answer) and ``undecided`` (no sound verdict: left out of n).
``verifier``: the recorded verdict taken as a verifier of the sound one, per model and run: its
false-positive rate (credited among the wrong answers), false-negative rate (rejected among the
correct ones), accuracy and balanced accuracy, beside the baseline that calls every answer wrong.
"""
from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
import re
from typing import Any

from ...common.intervals import paired_difference
from .records import Rescored


@dataclass
class _Group:
    n: int = 0
    both: int = 0
    recorded_only: int = 0
    sound_only: int = 0
    no_answer: int = 0
    undecided: int = 0
    no_recorded: int = 0


@dataclass
class _Verifier:
    seen: set = field(default_factory=set)
    tp: int = 0  # sound correct, recorded correct
    fn: int = 0  # sound correct, recorded wrong
    fp: int = 0  # sound wrong, recorded correct
    tn: int = 0  # sound wrong, recorded wrong


def natural(key: tuple[str, ...]) -> tuple:
    """A sort key that puts "round 2" before "round 10"."""
    return tuple(tuple((0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d{1,12})", s))
                 for s in key)


def _ratio(k: int, n: int) -> float | None:
    return k / n if n else None


class Tally:
    """Counts :class:`~.records.Rescored` records (:meth:`add`) into the summary and verifier tables."""

    def __init__(self) -> None:
        self.groups: dict[tuple[str, str], _Group] = {}
        self.verifiers: dict[tuple[str, str], _Verifier] = {}

    def add(self, record: Rescored) -> None:
        group = self.groups.setdefault((record.model, record.condition), _Group())
        if record.sound is None:
            group.undecided += 1
            return
        if record.recorded is None:
            group.no_recorded += 1
            return
        group.n += 1
        group.no_answer += not record.answered
        if record.recorded and record.sound:
            group.both += 1
        elif record.recorded:
            group.recorded_only += 1
        elif record.sound:
            group.sound_only += 1
        verifier = self.verifiers.setdefault((record.model, record.run or record.condition), _Verifier())
        if record.verifier_key is not None:
            if record.verifier_key in verifier.seen:
                return
            verifier.seen.add(record.verifier_key)
        if record.sound:
            verifier.tp += record.recorded
            verifier.fn += not record.recorded
        else:
            verifier.fp += record.recorded
            verifier.tn += not record.recorded

    def summary(self) -> list[dict[str, Any]]:
        """One row per (model, condition), sorted."""
        rows = []
        for (model, condition), g in sorted(self.groups.items(), key=lambda item: natural(item[0])):
            recorded, sound = g.both + g.recorded_only, g.both + g.sound_only
            diff = paired_difference(g.both, g.recorded_only, g.sound_only, g.n)
            rows.append({"model": model, "condition": condition, "n": g.n,
                         "recorded_accuracy": _ratio(recorded, g.n), "sound_accuracy": _ratio(sound, g.n),
                         "difference": None if diff is None else diff[0],
                         "difference_lo": None if diff is None else diff[1],
                         "difference_hi": None if diff is None else diff[2],
                         "credited_but_wrong": g.recorded_only, "missed": g.sound_only, "no_answer": g.no_answer,
                         "undecided": g.undecided, "no_recorded_verdict": g.no_recorded})
        return rows

    def verifier(self) -> list[dict[str, Any]]:
        """One row per (model, run) of the recorded verdict as a verifier, and the always-wrong baseline."""
        rows = []
        for (model, run), v in sorted(self.verifiers.items(), key=lambda item: natural(item[0])):
            positives, negatives = v.tp + v.fn, v.fp + v.tn
            n = positives + negatives
            fpr, fnr = _ratio(v.fp, negatives), _ratio(v.fn, positives)
            balanced = None if fpr is None or fnr is None else 1 - (fpr + fnr) / 2
            rows.append({"model": model, "run": run, "n": n, "sound_correct": positives, "sound_wrong": negatives,
                         "false_positive_rate": fpr, "false_negative_rate": fnr,
                         "accuracy": _ratio(v.tp + v.tn, n), "balanced_accuracy": balanced,
                         "baseline_accuracy": _ratio(negatives, n),
                         "baseline_balanced_accuracy": 0.5 if positives and negatives else None})
        return rows


SUMMARY_COLUMNS = ("model", "condition", "n", "recorded_accuracy", "sound_accuracy", "difference", "difference_lo",
                   "difference_hi", "credited_but_wrong", "missed", "no_answer", "undecided", "no_recorded_verdict")
VERIFIER_COLUMNS = ("model", "run", "n", "sound_correct", "sound_wrong", "false_positive_rate", "false_negative_rate",
                    "accuracy", "balanced_accuracy", "baseline_accuracy", "baseline_balanced_accuracy")


def _number(value: Any) -> str:
    if value is None:
        return ""
    return f"{value:.6f}" if isinstance(value, float) else str(value)


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.1f}"


def summary_csv(rows: list[dict[str, Any]], columns: tuple[str, ...] = SUMMARY_COLUMNS) -> str:
    """The rows as CSV (floats with six decimals, empty cells for undefined values)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_number(row[c]) for c in columns])
    return buffer.getvalue()


def summary_json(summary: list[dict[str, Any]], verifier: list[dict[str, Any]], meta: dict[str, Any]) -> str:
    """``{"format", ..., "summary": [...], "verifier": [...]}``, keys sorted."""
    return json.dumps({**meta, "summary": summary, "verifier": verifier}, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def summary_markdown(summary: list[dict[str, Any]], verifier: list[dict[str, Any]], title: str) -> str:
    """The two tables in Markdown (percentages with one decimal; the difference in points with its interval)."""
    lines = [f"# {title}", "", "| model | condition | n | recorded % | sound % | difference (95 % CI) | "
             "credited but wrong | missed | no answer | undecided |", "|---|---|---:|---:|---:|---|---:|---:|---:|---:|"]
    for r in summary:
        diff = "—" if r["difference"] is None else \
            f"{100 * r['difference']:+.1f} ({100 * r['difference_lo']:+.1f} to {100 * r['difference_hi']:+.1f})"
        lines.append(f"| {_cell(r['model'])} | {_cell(r['condition'])} | {r['n']} | {_pct(r['recorded_accuracy'])} | "
                     f"{_pct(r['sound_accuracy'])} | {diff} | {r['credited_but_wrong']} | {r['missed']} | "
                     f"{r['no_answer']} | {r['undecided']} |")
    if verifier:
        lines += ["", "## The recorded verdict as a verifier of the sound one", "",
                  "| model | run | n | sound correct | sound wrong | FPR % | FNR % | accuracy % | balanced accuracy % | "
                  "always-wrong accuracy % | always-wrong balanced % |",
                  "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for r in verifier:
            lines.append(f"| {_cell(r['model'])} | {_cell(r['run'])} | {r['n']} | {r['sound_correct']} | {r['sound_wrong']} | "
                         f"{_pct(r['false_positive_rate'])} | {_pct(r['false_negative_rate'])} | {_pct(r['accuracy'])} | "
                         f"{_pct(r['balanced_accuracy'])} | {_pct(r['baseline_accuracy'])} | "
                         f"{_pct(r['baseline_balanced_accuracy'])} |")
    return "\n".join(lines) + "\n"


__all__ = ["SUMMARY_COLUMNS", "Tally", "VERIFIER_COLUMNS", "summary_csv", "summary_json", "summary_markdown"]
