"""The tables of ``summary.md`` (:func:`finereason.integrations.report.build.build_report`): runs, Table 3 / 4, strict vs
paper ST, end-to-end, group accuracy and the ST outcomes by class. Undefined values are "—", never 0;
file paths are shown from the folder holding the results, never absolute."""
from __future__ import annotations

import os
from pathlib import Path

from ...common.verdict import TRANSITION_CATEGORIES
from ...common.vocabulary import END_TO_END, STATE_CHECKING, STATE_TASKS, STATE_TRANSITION, TASKS
from ...verification.aggregation import ACC, ACC_PAPER
from ...verification.metrics import metric as metric_info
from ...verification.metrics import is_undefined, overall, ratio, task_metrics
from ...verification.scoring import RowScore
from ..leaderboard.stats import counts_of, metric_cell
from ..leaderboard.suites import group_tasks
from .results import (GROUP_ORDER, MISSING, SUITE_TITLES, Model, TaskResult, _n_caption, acc_cell, domain_title, md_table,
                      metric_value, pct)

# Table 4's metrics: state checking's "unsolvable = positive" section of the registry (P, R, F1)
SC_POSITIVE: tuple[str, ...] = tuple(m.name for m in task_metrics(STATE_CHECKING) if m.section == "unsolvable_positive")


def _shown_path(path: Path, base: Path) -> str:
    """``path`` from the folder that holds every results file (its name included): never absolute."""
    return (Path(base.name) / path.relative_to(base)).as_posix()


def runs_section(models: list[Model]) -> list[str]:
    parents = [str(r.results_file.parent) for m in models for r in m.tasks.values()]
    base = Path(os.path.commonpath(parents)) if parents else Path(".")
    rows = []
    for m in models:
        name, args = m.key
        files = sorted({_shown_path(r.results_file, base) for r in m.tasks.values()})
        with_samples = sum(r.samples_file is not None for r in m.tasks.values())
        rows.append([m.title, f"`{name}`", f"`{args}`" if args else MISSING, str(len(m.tasks)),
                     f"{with_samples}/{len(m.tasks)}", "<br>".join(f"`{f}`" for f in files)])
    return ["## Runs", "", md_table(["model", "lm-eval model", "model_args", "tasks", "with samples", "results files"], rows, left=3), ""]


def suite_tables(models: list[Model], suite: str, puzzles: list[str]) -> list[str]:
    parts: list[str] = []
    tag = "" if suite == "finereason" else " (official release)"
    present = [p for p in puzzles if any(m.get(suite, p, t) for m in models for t in TASKS)]
    sc_st = [r for m in models for p in present for t in STATE_TASKS if (r := m.get(suite, p, t))]
    if sc_st:
        caption = _n_caption(sc_st)
        parts += [f"## Table 3{tag}: state checking and state transition accuracy", "",
                  f"{SUITE_TITLES[suite]}" + (f"; {caption}" if caption else "") + ".", ""]
        headers = ["model"] + [f"{domain_title(p)} {short}" for p in present for short in ("SC", "ST")]
        rows = []
        for m in models:
            row = [m.title]
            for p in present:
                for t in STATE_TASKS:
                    r = m.get(suite, p, t)
                    row.append(acc_cell(r.metrics) if r else MISSING)
            if any(cell != MISSING for cell in row[1:]):  # a model without this table's tasks gets no row
                rows.append(row)
        parts += [md_table(headers, rows), ""]

        st = [r for r in sc_st if r.task == STATE_TRANSITION]
        if st:
            parts += [f"### State transition accuracy, strict vs paper mode{tag}", "",
                      "*strict*: a forward move must keep the state solvable (exact oracle); *paper*: only the "
                      "given unsolvable child counts as a wrong forward move, as in the official scoring.", ""]
            headers = ["model"] + [f"{domain_title(p)} {mode}" for p in present for mode in ("strict", "paper")]
            rows = []
            for m in models:
                row = [m.title]
                for p in present:
                    r = m.get(suite, p, STATE_TRANSITION)
                    row += [acc_cell(r.metrics), acc_cell(r.metrics, ACC_PAPER)] if r else [MISSING, MISSING]
                if any(cell != MISSING for cell in row[1:]):  # a model without this table's tasks gets no row
                    rows.append(row)
            parts += [md_table(headers, rows), ""]

        sc = [r for r in sc_st if r.task == STATE_CHECKING]
        if sc:
            parts += [f"## Table 4{tag}: state checking precision, recall and F1 (unsolvable = positive)", ""]
            headers = ["model"] + [f"{domain_title(p)} {metric_info(k).title}" for p in present for k in SC_POSITIVE]
            rows = []
            for m in models:
                row = [m.title]
                for p in present:
                    r = m.get(suite, p, STATE_CHECKING)
                    row += _prf(r) if r else [MISSING] * 3
                if any(cell != MISSING for cell in row[1:]):  # a model without this table's tasks gets no row
                    rows.append(row)
            parts += [md_table(headers, rows), ""]

    e2e = [r for m in models for p in present if (r := m.get(suite, p, END_TO_END))]
    if e2e:
        caption = _n_caption(e2e)
        parts += [f"## End-to-end accuracy{tag}", "",
                  "A proposed full solution counts when it satisfies every rule (any valid solution)"
                  + (f"; {caption}" if caption else "") + ".", ""]
        e2e_puzzles = [p for p in present if any(m.get(suite, p, END_TO_END) for m in models)]
        group = "finereason_end_to_end" if suite == "finereason" else None
        headers = ["model"] + [domain_title(p) for p in e2e_puzzles] + (["all"] if group else [])
        rows = []
        for m in models:
            row = [m.title]
            for p in e2e_puzzles:
                r = m.get(suite, p, END_TO_END)
                row.append(acc_cell(r.metrics) if r else MISSING)
            if group:
                value, _ = group_score(m, group)
                row.append(MISSING if value is None else pct(value))
            if any(cell != MISSING for cell in row[1:]):  # a model without this table's tasks gets no row
                rows.append(row)
        parts += [md_table(headers, rows), ""]
    return parts


def _prf(result: TaskResult) -> list[str]:
    """SC precision, recall and F1 (unsolvable positive); "—" where undefined (nothing predicted
    unsolvable, no unsolvable state), never 0, by the leaderboard's rules."""
    clean = {k: v for k in SC_POSITIVE if (v := metric_value(result.metrics, k)) is not None}
    counts = counts_of([s for _, s in result.scores]) if result.scores else {}
    return [metric_cell(k, clean, result.n, counts).pct() for k in SC_POSITIVE]


def group_score(model: Model, group: str) -> tuple[float | None, int | None]:
    """(overall score, rows) of ``group`` for ``model``: the metric registry's :func:`overall` over the
    group's member tasks (``None`` unless every member has an accuracy and a size); for a group that is
    not one of ours, lm-eval's own value."""
    members = group_tasks(group)
    if not members:
        metrics = model.groups.get(group)
        n = metrics.get("sample_len") if metrics else None
        return (metric_value(metrics, ACC) if metrics else None), (n if isinstance(n, int) else None)
    results = [model.tasks.get(t) for t in members]
    value = overall((metric_value(r.metrics, ACC), r.n) if r else (None, None) for r in results)
    if is_undefined(value):
        return None, None
    return value, sum(r.n for r in results if r and r.n)


def group_section(models: list[Model]) -> list[str]:
    names = [g for g in GROUP_ORDER if any(g in m.groups for m in models)]
    names += sorted({g for m in models for g in m.groups} - set(names))
    if not names:
        return []
    rows = []
    for m in models:
        row = [m.title]
        for g in names:
            value, n = group_score(m, g)
            row.append(MISSING if value is None else pct(value) + (f" (n={n})" if isinstance(n, int) else ""))
        if any(cell != MISSING for cell in row[1:]):  # a model without this table's tasks gets no row
            rows.append(row)
    return ["## Group accuracy", "",
            "Group scores: the overall score of each group (`acc` over all the group's answers, the size-weighted "
            "mean of its tasks' accuracies: the number lm-eval prints for the group). `finereason` is every "
            "state-checking and state-transition task.", "", md_table(["model"] + [f"`{g}`" for g in names], rows), ""]


def breakdown(scores: list[tuple[dict, RowScore]], solvable: bool) -> tuple[int, dict[str, float]]:
    group = [s for _, s in scores if s.solvable is solvable]
    n = len(group)
    return n, {c: ratio(sum(s.verdict.category == c for s in group), n) for c in TRANSITION_CATEGORIES}  # undefined for no state


def breakdown_table(models: list[Model], suite: str, puzzles: list[str]) -> list[str]:
    rows = []
    for m in models:
        for p in puzzles:
            r = m.get(suite, p, STATE_TRANSITION)
            if not r or not r.scores:
                continue
            for solvable in (True, False):
                n, shares = breakdown(r.scores, solvable)
                if n:
                    rows.append([m.title, domain_title(p), "solvable" if solvable else "unsolvable", str(n)]
                                + [pct(shares[c]) for c in TRANSITION_CATEGORIES])
    if not rows:
        return []
    tag = "" if suite == "finereason" else " (official release)"
    return [f"## State transition outcomes by class{tag} (re-judged samples)", "",
            "Share of each strict-mode category among the states of one class (Figure 4).", "",
            md_table(["model", "puzzle", "class", "n"] + [c.replace("_", " ") for c in TRANSITION_CATEGORIES], rows, left=3), ""]
