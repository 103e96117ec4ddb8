"""The board's data: one entry per (model, revision, precision), read from lm-eval output folders
and/or submission results files, and one row per entry and view (``generated``: the ``finereason_*``
tasks including end-to-end; ``official``: the ``finereason_official_*`` tasks).

Rows are ranked by **Overall** (column key ``average``): the metric registry's one overall score
(:func:`finereason.verification.metrics.overall`) of the view's lm-eval group, ``finereason`` (state
checking and strict state transition) or ``finereason_official`` (every task): the size-weighted mean of
the group's task accuracies, the number lm-eval prints for the group, defined only when every task of the
group is. End-to-end and the per-puzzle accuracies are further columns. A row's rank is 1 + the number
of rows whose Overall interval lies wholly above its own, so rows whose 95 % intervals overlap share a
rank (marked as a tie).

What may share a view: every entry's tasks in a view were run on **one data set** (the fingerprint our
tasks record in ``metadata.data_source``) and **read in one context** (``starts_in_think``); a board
that would mix them is refused with one line naming both (:func:`check_comparable`; build one board per
data set or context). A run with ``--limit`` (lm-eval's ``config.limit``, or fewer items than the task
has) keeps its row, marked with the limit, and is never ranked.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from ...common.vocabulary import END_TO_END, STATE_CHECKING, STATE_TASKS, STATE_TRANSITION
from ...verification.aggregation import ACC, ACC_PAPER, F1_UNSOLVABLE, PARSE_ERROR_RATE, PRECISION_UNSOLVABLE, RECALL_UNSOLVABLE
from ...verification.metrics import is_undefined, metric, overall
from ..lm_eval.results import NO_RESULTS, Run, clean_metrics, read_runs
from ..report.results import ReportError, domain_order, domain_title, models_of
from . import LeaderboardError
from .stats import UNDEFINED, Cell, mean, metric_cell, proportion, sample_counts
from .submit import _precision
from .submit import recorded_starts_in_think as _starts_in_think
from .suites import suite_tasks

VIEWS = {"generated": ("finereason", "generated benchmark (finereason_* tasks, with end-to-end)"),
         "official": ("finereason_official", "official release (finereason_official_* tasks)")}
RANKED_BY = ("Overall: the accuracy over every answer of the view's lm-eval group (the size-weighted mean of its "
             "task accuracies, the number lm-eval prints for the group: state checking and strict state transition "
             "of the generated benchmark, every task of the official release), defined only when every task of the "
             "group is; rows are ranked by it, and rows whose 95 % intervals overlap share a rank (marked =)")


@dataclass
class TaskData:
    metrics: dict[str, float]
    n: int | None
    counts: dict[str, int] = field(default_factory=dict)
    samples: Path | None = None
    fingerprint: str | None = None      # the data set's fingerprint (metadata.data_source)
    starts_in_think: bool = False       # the read context the responses were read in
    limit: int | float | None = None    # lm-eval's --limit, when the run did not cover every item


@dataclass
class Entry:
    """One (model, revision, precision) with its task results (``{task name: TaskData}``)."""

    model: str
    revision: str = "main"
    precision: str = "Missing"
    weight_type: str = ""
    model_type: str = ""
    params: float | None = None
    date: str = ""
    tasks: dict[str, TaskData] = field(default_factory=dict)

    @property
    def key(self) -> tuple[str, str, str]:
        return self.model, self.revision, self.precision

    @property
    def slug(self) -> str:
        return re.sub(r"[^A-Za-z0-9._-]+", "_", "__".join(self.key)).strip("._") or "model"

    def cell(self, prefix: str, puzzle: str, task: str, name: str) -> Cell:
        data = self.tasks.get(f"{prefix}_{puzzle}_{task}")
        return UNDEFINED if data is None else metric_cell(name, data.metrics, data.n, data.counts)

    def views(self) -> list[str]:
        return [v for v, (prefix, _) in VIEWS.items()
                if any(_view_of(t) == v for t in self.tasks)]

    def in_view(self, view: str) -> list[TaskData]:
        return [d for t, d in self.tasks.items() if _view_of(t) == view]

    def limit(self, view: str) -> int | float | None:
        """The largest ``--limit`` among the entry's tasks in ``view`` (``None``: every item was run)."""
        limits = [d.limit for d in self.in_view(view) if d.limit is not None]
        return max(limits) if limits else None


def _view_of(task: str) -> str:
    return "official" if task.startswith("finereason_official_") else "generated"


def hub_url(model: str) -> str | None:
    """The Hub page of a model id (``org/name``), or ``None`` for local paths and baselines."""
    if re.fullmatch(r"[A-Za-z0-9][\w.-]*/[\w.-]+", model) and not model.startswith((".", "/")):
        return f"https://huggingface.co/{model}"
    return None


# ------------------------------------------------------------------ reading
def _iso(value: Any) -> str:
    if isinstance(value, (int, float)):
        return datetime.fromtimestamp(float(value), timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return str(value or "")


def _arg(args: str, key: str) -> str | None:
    return dict(p.split("=", 1) for p in args.split(",") if "=" in p).get(key) or None


def _limit(value: Any) -> int | float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value:
        return None
    return int(value) if float(value).is_integer() else value


def _run_facts(data: dict, task: str) -> dict[str, Any]:
    """``fingerprint``, ``starts_in_think`` and ``limit`` of ``task`` in an lm-eval results file."""
    meta = ((data.get("configs") or {}).get(task) or {}).get("metadata") or {}
    source = meta.get("data_source") if isinstance(meta, dict) else None
    limit = _limit((data.get("config") or {}).get("limit"))
    counts = (data.get("n-samples") or {}).get(task) or {}
    if limit is None and isinstance(counts, dict) and counts.get("effective") != counts.get("original"):
        limit = _limit(counts.get("effective"))
    return {"fingerprint": str(source["fingerprint"]) if isinstance(source, dict) and source.get("fingerprint") else None,
            "starts_in_think": _starts_in_think(meta), "limit": limit}


def _add(entries: dict, entry: Entry) -> Entry:
    have = entries.setdefault(entry.key, entry)
    if have is not entry:
        for name in ("weight_type", "model_type", "params"):
            if getattr(entry, name):
                setattr(have, name, getattr(entry, name))
        have.date = max(have.date, entry.date)
    return have


def _submission(path: Path, data: dict, entries: dict) -> None:
    config = data["config"]
    dtype = str(config.get("model_dtype") or "")
    precision = str(config.get("precision") or (dtype.split(".", 1)[1] if dtype.startswith("torch.") else dtype) or "Missing")
    params = config.get("params")
    stamp = path.name[len("results_"):-len(".json")]
    entry = _add(entries, Entry(str(config["model_name"]), str(config.get("revision") or config.get("model_sha") or "main"),
                                precision, str(config.get("weight_type") or ""), str(config.get("model_type") or ""),
                                float(params) if isinstance(params, (int, float)) and params > 0 else None,
                                str(config.get("submitted_time") or stamp)))
    ns, counts = config.get("n_samples") or {}, config.get("counts") or {}
    source = config.get("data_source") if isinstance(config.get("data_source"), dict) else {}
    think = _starts_in_think(config.get("read_context"))
    for task, metrics in data["results"].items():
        if isinstance(metrics, dict):
            samples = path.parent / f"samples_{task}_{stamp}.jsonl"
            n = ns.get(task)
            entry.tasks[task] = TaskData(clean_metrics(metrics), n if isinstance(n, int) else None,
                                         counts.get(task) or {}, samples if samples.is_file() else None,
                                         str(source["fingerprint"]) if source.get("fingerprint") else None, think)


def collect(root: str | os.PathLike) -> list[Entry]:
    """Every (model, revision, precision) under ``root``: lm-eval ``results_*.json`` (read by the one
    reader, :mod:`finereason.integrations.lm_eval.results`: newest result per task wins, one filter rule)
    and submission results files (``{"config": {"model_name": ...}, "results": ...}``)."""
    root = Path(root)
    lm_eval: list[Run] = []
    submissions = []
    for run in read_runs([root], LeaderboardError, skip_other_json=True):  # JSON files of other kinds skipped
        path, data = run.path, run.data
        if "versions" in data or "configs" in data:
            lm_eval.append(run)
        elif run.config.get("model_name"):
            submissions.append((str(run.config.get("submitted_time") or path.name), path, data))
    entries: dict[tuple[str, str, str], Entry] = {}
    for _, path, data in sorted(submissions, key=lambda s: s[0]):
        _submission(path, data, entries)
    if lm_eval:
        try:
            models, _ = models_of(lm_eval)
        except ReportError as err:
            raise LeaderboardError(str(err)) from None
        for model in models:
            name, args = model.key
            dates = [run.data.get("date") for run in lm_eval if run.path in model.files]
            entry = _add(entries, Entry(model.title, _arg(args, "revision") or "main", _precision(args),
                                        "Adapter" if "peft=" in args else "Delta" if "delta=" in args else "Original",
                                        "baseline" if name.startswith("finereason-") else "",
                                        None, max((_iso(d) for d in dates if d), default="")))
            for task, r in model.tasks.items():
                entry.tasks[task] = TaskData(clean_metrics(r.metrics), r.n,
                                             sample_counts(r.samples_file, r.task, r.suite, r.puzzle, r.context),
                                             r.samples_file, **_run_facts(r.run, task))
    found = [e for e in entries.values() if e.tasks]
    if not found:
        raise LeaderboardError(f"{root}: {NO_RESULTS}")
    check_comparable(found)
    return found


def _data_name(fingerprint: str | None) -> str:
    return f"data {fingerprint[:12]}" if fingerprint else "no data fingerprint recorded (re-run with this finereason)"


def check_comparable(entries: list[Entry]) -> dict[str, dict[str, Any]]:
    """``{view: {"fingerprint": ..., "starts_in_think": ...}}``: the one data set and read context of each
    view; raises :class:`LeaderboardError` (one line naming two runs that differ) when a view mixes them."""
    out: dict[str, dict[str, Any]] = {}
    for view, (_, title) in VIEWS.items():
        prints: dict[str | None, str] = {}
        thinks: dict[bool, str] = {}
        for e in entries:
            for d in e.in_view(view):
                prints.setdefault(d.fingerprint, e.model)
                thinks.setdefault(d.starts_in_think, e.model)
        if len(prints) > 1:
            (fa, ma), (fb, mb) = list(prints.items())[:2]
            raise LeaderboardError(f"runs made on different data cannot be ranked together ({title}): {ma} on "
                                   f"{_data_name(fa)}, {mb} on {_data_name(fb)}; build one board per data set")
        if len(thinks) > 1:
            (ta, ma), (tb, mb) = list(thinks.items())[:2]
            raise LeaderboardError(f"runs read in different contexts cannot be ranked together ({title}): {ma} with "
                                   f"starts_in_think {str(ta).lower()}, {mb} with starts_in_think {str(tb).lower()}; "
                                   "build one board per read context")
        if prints:
            out[view] = {"fingerprint": next(iter(prints)), "starts_in_think": next(iter(thinks))}
    return out


# ------------------------------------------------------------------ columns and rows
@dataclass
class Column:
    key: str
    title: str
    tip: str
    cell: Callable[[Entry, str], Cell]
    puzzle: str | None = None
    higher_is_better: bool = True


def board_puzzles(entries: list[Entry]) -> list[str]:
    """The registered puzzles some entry has results for (all of them when none has)."""
    have = {t for e in entries for t in e.tasks}
    return [p for p in domain_order() if any(f"{pre}_{p}_{t}" in have for pre, _ in VIEWS.values()
                                             for t in (*STATE_TASKS, END_TO_END))] or domain_order()


def overall_cell(entry: Entry, group: str) -> Cell:
    """The overall score of ``entry`` in the lm-eval group ``group`` (the registry's one definition), as a
    proportion of the group's answers (Wilson interval, n = the group's rows); undefined unless every
    task of the group has an accuracy and a size."""
    data = [entry.tasks.get(task) for task in suite_tasks(group)]
    value = overall((d.metrics.get(ACC), d.n) if d else (None, None) for d in data)
    if is_undefined(value):
        return UNDEFINED
    return proportion(value, sum(d.n for d in data if d and d.n))


def columns(puzzles: list[str]) -> list[Column]:
    """The board's metric columns; ``cell(entry, prefix)`` gives an entry's value in one view."""
    cols: list[Column] = []

    def add(key, title, tip, fn, puzzle=None, higher=metric(ACC).higher_is_better):
        cols.append(Column(key, title, tip, fn, puzzle, higher))

    def each(task, name, fn=mean):
        return lambda e, pre: fn([e.cell(pre, p, task, name) for p in puzzles])

    add("average", "Overall", RANKED_BY, overall_cell)
    for p in puzzles:
        title = domain_title(p)
        add(f"sc_{p}", f"SC {title}", f"state checking accuracy, {p}", lambda e, pre, p=p: e.cell(pre, p, STATE_CHECKING, ACC), p)
        add(f"st_{p}", f"ST {title}", f"state transition accuracy (strict), {p}",
            lambda e, pre, p=p: e.cell(pre, p, STATE_TRANSITION, ACC), p)
        add(f"e2e_{p}", f"E2E {title}", f"end-to-end accuracy, {p}", lambda e, pre, p=p: e.cell(pre, p, END_TO_END, ACC), p)
    add("sc_mean", "SC mean", "state checking accuracy, mean over puzzles", each(STATE_CHECKING, ACC))
    add("st_strict", "ST strict", "state transition accuracy, strict (the child must stay solvable), mean over puzzles",
        each(STATE_TRANSITION, ACC))
    add("st_paper", f"ST {metric(ACC_PAPER).title}", "state transition accuracy, paper scoring, mean over puzzles", each(STATE_TRANSITION, ACC_PAPER))
    add("e2e", "E2E", "end-to-end accuracy, mean over puzzles", each(END_TO_END, ACC))
    for m in (metric(name) for name in (PRECISION_UNSOLVABLE, RECALL_UNSOLVABLE, F1_UNSOLVABLE)):
        add(m.name, f"SC {m.title}", f"state checking {m.name.split('_')[0]} with unsolvable as the positive class, mean over puzzles "
            "(undefined where a puzzle's is)",
            each(STATE_CHECKING, m.name), higher=m.higher_is_better)
    parse = metric(PARSE_ERROR_RATE)
    add(parse.name, parse.title, f"{parse.description}, mean over the SC and ST tasks "
        f"({'higher' if parse.higher_is_better else 'lower'} is better)",
        lambda e, pre: mean([e.cell(pre, p, t, parse.name) for p in puzzles for t in STATE_TASKS]), higher=parse.higher_is_better)
    return cols


@dataclass
class Row:
    entry: Entry
    view: str
    cells: dict[str, Cell]
    rank: int | None = None
    tied: bool = False

    @property
    def limit(self) -> int | float | None:
        """The run's ``--limit`` in this view (such a row is never ranked)."""
        return self.entry.limit(self.view)


INFO_KEYS = ("rank", "rank_tied", "model", "revision", "precision", "weight_type", "model_type", "params", "date", "view",
             "data_fingerprint", "starts_in_think", "limit")


def rows(entries: list[Entry], cols: list[Column]) -> list[Row]:
    """One row per entry and view it has results in, ranked by Overall within the view (rows of
    ``--limit`` runs are listed, unranked, and take no part in the others' ranks)."""
    out: list[Row] = []
    for view, (prefix, _) in VIEWS.items():
        group = [Row(e, view, {c.key: c.cell(e, prefix) for c in cols}) for e in entries if view in e.views()]
        ranked = [r for r in group if r.limit is None]
        for row in ranked:
            avg = row.cells["average"]
            if avg.value is not None:
                row.rank = 1 + sum(o.cells["average"].value is not None and o.cells["average"].lo is not None
                                   and avg.hi is not None and o.cells["average"].lo > avg.hi for o in ranked)
        for row in group:
            row.tied = row.rank is not None and sum(o.rank == row.rank for o in group) > 1
        group.sort(key=lambda r: (r.rank is None, r.rank or 0, -(r.cells["average"].value or 0.0), r.entry.key))
        out += group
    return out


def unranked_note(row: Row) -> str:
    """Why a row has no rank: the run's ``--limit``."""
    return f"--limit {row.limit}: not ranked"


def shown_precision(entry: Entry) -> str:
    """The weights' precision as tables show it: "—" when there is none to name (baselines, unknown dtype)."""
    return "—" if entry.precision in ("", "Missing") else entry.precision


def flat(row: Row, cols: list[Column]) -> dict[str, Any]:
    """A row as the JSON and CSV files hold it: facts, then ``key``, ``key_n``, ``key_lo``, ``key_hi`` per column."""
    e = row.entry
    shown = e.in_view(row.view)
    out: dict[str, Any] = dict(zip(INFO_KEYS, (row.rank, row.tied, e.model, e.revision, e.precision, e.weight_type,
                                               e.model_type, e.params, e.date, row.view,
                                               shown[0].fingerprint if shown else None,
                                               bool(shown) and shown[0].starts_in_think, row.limit)))
    for c in cols:
        cell = row.cells[c.key]
        out.update({c.key: cell.value, f"{c.key}_n": cell.n, f"{c.key}_lo": cell.lo, f"{c.key}_hi": cell.hi})
    return out
