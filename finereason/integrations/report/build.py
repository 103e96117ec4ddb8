"""``finereason report``: paper-style tables and plots from lm-eval output folders.

Reads lm-eval's ``results_<timestamp>.json`` files (per-task metrics such as ``"acc,none"``) and,
when the run used ``--log_samples``, the matching ``samples_<task>_<timestamp>.jsonl`` files. Every
per-sample analysis re-verifies the logged response with :func:`finereason.verification.scoring.score_row`, the
single verdict function, instead of trusting the stored values.

Written to the output folder:

- ``summary.md``: Table 3 (state checking / state transition accuracy per puzzle), ST accuracy in
  strict and paper mode, Table 4 (SC precision / recall / F1 with *unsolvable* as the positive
  class), end-to-end accuracy, group accuracy, the ST error breakdown and notes;
- ``st_error_breakdown.png`` (Figure 4 style), ``sc_accuracy_vs_difficulty.png`` (Figure 5 style)
  and ``model_comparison.png``; a plot whose inputs are missing is skipped with a note.

Results are read by :mod:`finereason.integrations.report.results`. The tables are made in
:mod:`finereason.integrations.report.tables`, the plots in :mod:`finereason.integrations.report.plots`.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from ...common.atomic_io import atomic_file
from ...verification.aggregation import ACC
from ...verification.scoring import aggregate
from .results import (PLOTS, SUITE_TITLES, SUITES, Model, ReportError, TaskResult, domain_order, load_models, load_samples,
                      metric_value, pct)


# ------------------------------------------------------------------ report
@dataclass
class Report:
    markdown: str
    written: list[Path]


def build_report(paths: Sequence[str | os.PathLike], out: str | os.PathLike = "finereason_report") -> Report:
    """Read the runs, write ``summary.md`` and the plots into ``out``; return the markdown."""
    from .plots import PLOT_MAKERS, matplotlib_figure
    from .tables import breakdown_table, group_section, runs_section, suite_tables

    plt_figure = matplotlib_figure()
    models, notes = load_models(paths)
    relevant = [m for m in models if m.tasks]
    if not relevant:
        raise ReportError("no FineReason task results (finereason_<puzzle>_<task>) in " + ", ".join(map(str, paths)))
    models = relevant
    puzzles = domain_order()
    for model in models:
        for result in model.tasks.values():
            if result.samples_file is not None:
                result.scores = load_samples(result)
                _check_stored(model, result, notes)

    out_dir = Path(out)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ReportError(f"cannot create {out_dir}: {err.strerror or err}") from None

    parts = ["# FineReason report", "",
             "All numbers are percentages. State checking (SC) accuracy is the share of correct solvable/unsolvable "
             "answers; state transition (ST) accuracy is strict (a forward move must keep the state solvable) unless "
             "marked *paper*; Table 4 treats **unsolvable** as the positive class. Every accuracy is followed by "
             "the task's parse-error rate, `(pe …)`: the share of answers that could not be read. Plots show 95 % "
             "Wilson intervals.", ""]
    parts += limit_marks(models)
    parts += runs_section(models)
    suites = [s for s in SUITES if any(r.suite == s for m in models for r in m.tasks.values())]
    for suite in suites:
        parts += suite_tables(models, suite, puzzles)
    parts += group_section(models)
    plot_suite = next((s for s in suites if any(r.suite == s and r.scores for m in models for r in m.tasks.values())), None)
    if plot_suite is not None:
        parts += breakdown_table(models, plot_suite, puzzles)

    written: list[Path] = []
    plot_notes: list[str] = []
    makers = {name: (lambda p, make=make, suite=(suites[0] if name == "model_comparison.png" else plot_suite):
                     make(plt_figure, models, suite, puzzles, p)) for name, make in PLOT_MAKERS.items()}
    for name in PLOTS:
        target = out_dir / name
        reason = makers[name](target)
        if reason is None:
            written.append(target)
            suite = suites[0] if name == "model_comparison.png" else plot_suite
            plot_notes.append(f"- `{name}`" + (f": {SUITE_TITLES[suite]}" if len(suites) > 1 else ""))
        else:
            if target.exists():
                target.unlink()  # never leave a stale plot from an earlier report
            plot_notes.append(f"- `{name}` skipped: {reason}")
    parts += ["## Plots", ""] + plot_notes + [""]
    if notes:
        parts += ["## Notes", ""] + [f"- {n}" for n in notes] + [""]
    markdown = "\n".join(parts).rstrip() + "\n"
    summary = out_dir / "summary.md"
    try:
        with atomic_file(summary) as handle:  # an interrupted run keeps the previous summary
            handle.write(markdown)
    except OSError as err:
        raise ReportError(f"cannot write {summary}: {err.strerror or err}") from None
    return Report(markdown, [summary] + written)


def limit_marks(models: list[Model]) -> list[str]:
    """The header's mark of runs made with lm-eval's ``--limit`` (their numbers cover part of each task)."""
    marks = []
    for model in models:
        shown: dict[str, tuple] = {}
        for name, result in model.tasks.items():
            data = result.run  # the results file, as the one reader read it
            limit = (data.get("config") or {}).get("limit")
            counts = (data.get("n-samples") or {}).get(name) or {}
            effective, original = counts.get("effective"), counts.get("original")
            if limit or (effective is not None and effective != original):
                shown[name] = (limit, effective, original)
        if shown:
            limit, effective, original = max(shown.values(), key=lambda v: v[2] or 0)
            value = int(limit) if isinstance(limit, float) and limit.is_integer() else limit
            marks.append(f"- **{model.title}: a `--limit` run**" + (f" (`--limit {value}`" if value else " (")
                         + (f"; {effective} of {original} items" if effective is not None else "")
                         + f" in {len(shown)} of {len(model.tasks)} tasks): its numbers cover part of each task and "
                         "are not comparable with full runs.")
    return marks + [""] if marks else []


def _check_stored(model: Model, result: TaskResult, notes: list[str]) -> None:
    """Note when re-verified samples disagree with the stored accuracy (another finereason version)."""
    if not result.scores:
        return
    stored = metric_value(result.metrics, ACC)
    fresh = aggregate(s for _, s in result.scores).get(ACC)
    name = f"{result.suite}_{result.puzzle}_{result.task}"
    if len(result.scores) != (result.n or len(result.scores)):
        notes.append(f"{model.title} / {name}: {len(result.scores)} logged samples but n = {result.n} in the results file")
    if stored is not None and fresh is not None and abs(stored - fresh) > 1e-9:
        notes.append(f"{model.title} / {name}: stored acc {pct(stored)} but the re-judged samples give {pct(fresh)} "
                     "(results written by another finereason version?); tables use the stored values, plots the re-judged ones")
