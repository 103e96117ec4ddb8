"""lm-eval results for reports and the leaderboard: finding runs, telling models apart, re-verifying
logged samples with :func:`finereason.verification.scoring.score_row`, and the cell formats tables use.

Models are told apart by lm-eval's ``config.model`` and ``config.model_args`` (lm-eval names the
output sub-folder after ``pretrained=``/``path=`` or else a random id, so folders are not models).
Results files are read by the one reader, :mod:`finereason.integrations.lm_eval.results` (its file,
newest-wins and filter rules): when a model/task pair appears in several runs, the newest run's result
for that task wins. Logged samples are
re-read in the read context their results file recorded (:func:`finereason.reading.context.read_context_of`),
so a re-scored sample gets the verdict it got in the run.
"""
from __future__ import annotations

import os
import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

from ...common.deprecated import renamed_names
from ...common.input_errors import InputError
from ...common.intervals import MISSING  # an undefined or absent value, never 0
from ...common.intervals import wilson  # noqa: F401  (re-exported: finereason.integrations.report.results.wilson)
from ...common.jsonl import iter_json_lines
from ...common.redact import redact
from ...common.verdict import Category
from ...common.vocabulary import DIFFICULTY_FIELDS, TASKS
from ...core.engine import engine_names, get_engine
from ...core.rows import has_domain_column
from ...reading.context import DEFAULT, ReadContext, read_context_of
from ...verification.aggregation import ACC, PARSE_ERROR_RATE
from ...verification.scoring import RowScore, score_row
from ..lm_eval import results as lm_results
from ..lm_eval.results import metric_value  # the one filter rule (re-exported here)

SUITES = ("finereason", "finereason_official")
SUITE_TITLES = {"finereason": "generated benchmark (`finereason_*`)",
                "finereason_official": "official release (`finereason_official_*`)"}
GROUP_ORDER = ("finereason", "finereason_state_checking", "finereason_state_transition",
               "finereason_end_to_end", "finereason_official")
PLOTS = ("st_error_breakdown.png", "sc_accuracy_vs_difficulty.png", "model_comparison.png")
CATEGORY_COLORS = {c.value: color for c, color in (
    (Category.CORRECT, "#4c9a2a"), (Category.MULTIPLE_MOVES, "#f2a541"), (Category.INVALID_MOVE, "#d1495b"),
    (Category.UNSOLVABLE_CHILD, "#8e5ea2"), (Category.BACKTRACKING_FAILURE, "#3b6ea5"), (Category.SIBLING, "#6cc3d5"),
    (Category.PARSE_ERROR, "#9a9a9a"))}
_NAME_KEYS = ("peft", "delta", "pretrained", "model", "path", "engine")  # as lm-eval names its folders


def domain_title(domain: str) -> str:
    """A domain's display title (its name when the domain is not registered here)."""
    try:
        return get_engine(domain).title or domain
    except KeyError:
        return domain


def _plot_fields(domain: str) -> tuple[str, ...]:
    """Difficulty columns besides depth that the report plots SC accuracy by."""
    try:
        return get_engine(domain).plot_fields
    except KeyError:
        return ()


class ReportError(InputError):
    """A user-facing error (the CLI prints it on one line and exits with status 2)."""


def domain_order() -> list[str]:
    """The domain names in report order."""
    return engine_names()  # registry order (the paper's for the built-in domains)


def _task_pattern() -> re.Pattern:
    puzzles = "|".join(sorted(map(re.escape, domain_order()), key=len, reverse=True))
    return re.compile(rf"^(?P<suite>finereason(?:_official)?)_(?P<domain>{puzzles})_(?P<task>{'|'.join(TASKS)})$")


# ------------------------------------------------------------------ reading
@dataclass
class TaskResult:
    """One task of one model, from the newest run that has it."""

    suite: str
    puzzle: str
    task: str
    metrics: dict[str, Any]
    n: int | None
    results_file: Path
    samples_file: Path | None
    scores: list[tuple[dict, RowScore]] | None = None  # (difficulty fields, verdicts), when samples exist
    context: ReadContext = DEFAULT  # how the run read its responses (recorded in the results file)
    run: dict = field(default_factory=dict, repr=False)  # the whole results file the task was read from


@dataclass
class Model:
    """One model's results: its key (lm-eval model name, canonical model args), display ``title``, tasks and groups."""

    key: tuple[str, str]
    title: str = ""
    tasks: dict[str, TaskResult] = field(default_factory=dict)
    groups: dict[str, dict[str, Any]] = field(default_factory=dict)
    files: list[Path] = field(default_factory=list)

    @property
    def label(self) -> str:
        """Deprecated name of :attr:`title`."""
        warnings.warn("Model.label is deprecated; use Model.title", DeprecationWarning, stacklevel=2)
        return self.title

    @label.setter
    def label(self, value: str) -> None:
        warnings.warn("Model.label is deprecated; use Model.title", DeprecationWarning, stacklevel=2)
        self.title = value

    def get(self, suite: str, puzzle: str, task: str) -> TaskResult | None:
        return self.tasks.get(f"{suite}_{puzzle}_{task}")


def _canonical_args(model_args: Any) -> str:
    """``k=v`` pairs sorted, with credentials redacted (lm-eval stores ``token=hf_...`` verbatim)."""
    if isinstance(model_args, dict):
        items = [(str(k), "" if v is None else str(v)) for k, v in model_args.items()]
    elif isinstance(model_args, str):
        items = [tuple(part.split("=", 1)) if "=" in part else (part, "") for part in
                 (p.strip() for p in model_args.split(",")) if part]
    else:
        items = []
    return redact(",".join(f"{k}={v}" if v != "" else k for k, v in sorted(items)))


def _short_name(model: str, args: str) -> str:
    if model.startswith("finereason-"):
        return f"{model} ({args})" if args else model
    pairs = dict(part.split("=", 1) for part in args.split(",") if "=" in part)
    for key in _NAME_KEYS:
        if pairs.get(key):
            return pairs[key]
    return f"{model} ({args})" if args else model


def find_results_files(paths: Sequence[str | os.PathLike]) -> list[Path]:
    """Every results file named by ``paths`` (folders are searched recursively; the one reader's rule)."""
    if not paths:
        raise ReportError("report needs at least one RESULTS_PATH (an lm-eval output folder or results_*.json file)")
    return lm_results.find_results_files(paths, ReportError)


def _samples_for(results_file: Path, stamp: str | None) -> dict[str, Path]:
    """The samples files written in the same run (same folder, same timestamp suffix)."""
    if not stamp:
        return {}
    out: dict[str, Path] = {}
    suffix = f"_{stamp}.jsonl"
    for p in results_file.parent.glob(f"samples_*{suffix}"):
        out[p.name[len("samples_"):-len(suffix)]] = p
    return out


def load_models(paths: Sequence[str | os.PathLike]) -> tuple[list[Model], list[str]]:
    """Models (in first-seen order) with their newest result per task, and notes for the report."""
    return models_of(lm_results.read_runs(find_results_files(paths), ReportError))


def models_of(runs: Sequence[lm_results.Run]) -> tuple[list[Model], list[str]]:
    """:func:`load_models` of runs already read (:func:`finereason.integrations.lm_eval.results.read_runs`)."""
    pattern = _task_pattern()
    notes: list[str] = []
    by_model: dict[tuple[str, str], list[lm_results.Run]] = {}  # in the order models are first seen
    for run in lm_results.sort_runs(runs):
        config = run.config
        name = str(config.get("model") or run.data.get("model_source") or "unknown")
        by_model.setdefault((name, _canonical_args(config.get("model_args"))), []).append(run)
    ignored: set[str] = set()
    models = []
    for key, model_runs in by_model.items():
        model = Model(key, files=[run.path for run in model_runs])
        samples = {run.path: _samples_for(run.path, run.stamp) for run in model_runs}
        for name, run in lm_results.newest_per_task(model_runs).items():  # the newest run of each task wins
            m = pattern.match(name)
            if not m:
                if name not in (run.data.get("groups") or {}) and name not in GROUP_ORDER:
                    ignored.add(name)
                continue
            model.tasks[name] = TaskResult(m["suite"], m["domain"], m["task"], run.data["results"][name],
                                           lm_results.task_size(run.data, name), run.path, samples[run.path].get(name),
                                           context=_context(run.path, run.data, name), run=run.data)
        for run in model_runs:
            for name, metrics in (run.data.get("groups") or {}).items():
                if isinstance(metrics, dict):
                    model.groups[name] = metrics
        models.append(model)
    if ignored:
        notes.append(f"ignored tasks that are not FineReason tasks: {', '.join(sorted(ignored))}")
    _assign_titles(models)
    return models, notes


def _context(path: Path, data: dict, task: str) -> ReadContext:
    """The read context ``task`` was scored in, as its results file recorded it."""
    try:
        return read_context_of(data, task)
    except ValueError as err:
        raise ReportError(f"{path}: {task}: {err}") from None


def _assign_titles(models: list[Model]) -> None:
    short = [_short_name(*m.key) for m in models]
    for model, title in zip(models, short):
        if short.count(title) > 1:
            name, args = model.key
            title = f"{name} ({args})" if args else name
        model.title = title




def _response(record: dict) -> str:
    resp = record.get("filtered_resps")
    if resp is None:
        resp = record.get("resps")
    while isinstance(resp, list):
        resp = resp[0] if resp else ""
    return "" if resp is None else str(resp)




def load_samples(result: TaskResult) -> list[tuple[dict, RowScore]]:
    """Re-verify every logged response of one task (one filter: ``none`` when present), in the read
    context its run recorded (``result.context``)."""
    path = result.samples_file
    assert path is not None
    rows: list[tuple[str | None, dict, str]] = []
    for lineno, record in iter_json_lines(str(path), "samples", ReportError):
        doc = record.get("doc") if isinstance(record, dict) else None
        if not isinstance(doc, dict) or not ({"task", "inputs", "outputs"} <= set(doc) and has_domain_column(doc)):
            raise ReportError(f"{path}:{lineno}: not an lm-eval sample of a FineReason task "
                              "(no doc with domain/task/inputs/outputs)")
        rows.append((record.get("filter"), doc, _response(record)))
    filters = {f for f, _, _ in rows}
    keep = "none" if "none" in filters else (sorted(filters, key=str)[0] if filters else None)
    out = []
    for filt, doc, response in rows:
        if filt != keep:
            continue
        try:
            score = score_row(doc, response, context=result.context)
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as err:
            raise ReportError(f"{path}: cannot score doc {doc.get('id')!r}: {err or type(err).__name__}") from None
        out.append(({k: doc.get(k) for k in DIFFICULTY_FIELDS}, score))
    return out


# ------------------------------------------------------------------ formatting
def pct(value: float | None) -> str:
    return MISSING if value is None else f"{100 * value:.1f}"


def acc_cell(metrics: dict | None, name: str = ACC) -> str:
    """An accuracy with the task's parse-error rate beside it: ``"41.7 (pe 8.3)"``, so a low score made of
    unreadable answers is never mistaken for wrong answers."""
    if not metrics:
        return MISSING
    value, pe = metric_value(metrics, name), metric_value(metrics, PARSE_ERROR_RATE)
    return pct(value) if value is None or pe is None else f"{pct(value)} (pe {pct(pe)})"


def md_table(headers: Sequence[str], rows: Iterable[Sequence[str]], left: int = 1) -> str:
    """A Markdown table; the first ``left`` columns are left-aligned, the rest (numbers) right-aligned."""
    rows = [list(r) for r in rows]
    lines = ["| " + " | ".join(headers) + " |",
             "|" + "|".join((":---" if i < left else "---:") for i in range(len(headers))) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def _n_caption(results: list[TaskResult]) -> str:
    ns = sorted({r.n for r in results if r.n is not None})
    if not ns:
        return ""
    return f"n = {ns[0]} per task" if len(ns) == 1 else f"n = {ns[0]}–{ns[-1]} per task"


__getattr__ = renamed_names(__name__, {"metric": "metric_value", "puzzle_title": "domain_title",
                                       "puzzle_order": "domain_order"}, globals())
