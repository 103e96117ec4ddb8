"""``finereason report``: paper-style tables and plots from lm-eval output folders.

Reads lm-eval's ``results_<timestamp>.json`` files (per-task metrics such as ``"acc,none"``) and,
when the run used ``--log_samples``, the matching ``samples_<task>_<timestamp>.jsonl`` files. Every
per-sample analysis re-judges the logged response with :func:`finereason.scoring.score_row`, the
single verdict function, instead of trusting the stored values.

Written to the output folder:

- ``summary.md``: Table 3 (state checking / state transition accuracy per puzzle), ST accuracy in
  strict and paper mode, Table 4 (SC precision / recall / F1 with *unsolvable* as the positive
  class), end-to-end accuracy, group accuracy, the ST error breakdown and notes;
- ``st_error_breakdown.png`` (Figure 4 style), ``sc_accuracy_vs_difficulty.png`` (Figure 5 style)
  and ``model_comparison.png``; a plot whose inputs are missing is skipped with a note.

Models are told apart by lm-eval's ``config.model`` and ``config.model_args`` (lm-eval names the
output sub-folder after ``pretrained=``/``path=`` or else a random id, so folders are not models).
When a model/task pair appears in several runs, the newest results file wins.
"""
from __future__ import annotations

import json
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

from .aggregation import ACC, ACC_PAPER, F1_UNSOLVABLE, PARSE_ERROR_RATE, PRECISION_UNSOLVABLE, RECALL_UNSOLVABLE
from .atomic_io import atomic_file
from .engines import engine_names, get_engine
from .input_errors import InputError
from .jsonl import iter_json_lines
from .redact import redact
from .scoring import RowScore, aggregate, score_row
from .verdict import TRANSITION_CATEGORIES, Category
from .vocabulary import DIFFICULTY_FIELDS, END_TO_END, STATE_CHECKING, STATE_TASKS, STATE_TRANSITION, TASKS

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
_STAMP = re.compile(r"(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d+)?)")
MISSING = "–"


def puzzle_title(puzzle: str) -> str:
    """A domain's display title (its name when the domain is not registered here)."""
    try:
        return get_engine(puzzle).title or puzzle
    except KeyError:
        return puzzle


def _plot_fields(puzzle: str) -> tuple[str, ...]:
    """Difficulty columns besides depth that the report plots SC accuracy by."""
    try:
        return get_engine(puzzle).plot_fields
    except KeyError:
        return ()


class ReportError(InputError):
    """A user-facing error (the CLI prints it on one line and exits with status 2)."""


def puzzle_order() -> list[str]:
    return engine_names()  # registry order (the paper's for the built-in domains)


def _task_pattern() -> re.Pattern:
    puzzles = "|".join(sorted(map(re.escape, puzzle_order()), key=len, reverse=True))
    return re.compile(rf"^(?P<suite>finereason(?:_official)?)_(?P<puzzle>{puzzles})_(?P<task>{'|'.join(TASKS)})$")


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


@dataclass
class Model:
    key: tuple[str, str]
    label: str = ""
    tasks: dict[str, TaskResult] = field(default_factory=dict)
    groups: dict[str, dict[str, Any]] = field(default_factory=dict)
    files: list[Path] = field(default_factory=list)

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
    """Every results file named by ``paths`` (folders are searched recursively)."""
    if not paths:
        raise ReportError("report needs at least one RESULTS_PATH (an lm-eval output folder or results_*.json file)")
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files = sorted(p for p in path.rglob("results_*.json") if p.is_file())
            if not files:
                raise ReportError(f"{path}: no lm-eval results files (results_*.json) found")
            found.extend(files)
        elif path.is_file():
            found.append(path)
        else:
            raise ReportError(f"{path}: no such file or folder")
    unique: dict[Path, None] = {}
    for p in found:
        unique.setdefault(p.resolve(), None)
    return list(unique)


def _load_json(path: Path) -> dict:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise ReportError(f"cannot read {path}: {err.strerror or err}") from None
    except UnicodeDecodeError:
        raise ReportError(f"{path}: not valid JSON (not UTF-8 text)") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ReportError(f"{path}: not valid JSON ({err.msg} at line {err.lineno})") from None
    if not isinstance(data, dict) or not isinstance(data.get("results"), dict):
        raise ReportError(f"{path}: not an lm-eval results file (no \"results\" object)")
    return data


def _samples_for(results_file: Path, stamp: str | None) -> dict[str, Path]:
    """The samples files written in the same run (same folder, same timestamp suffix)."""
    if not stamp:
        return {}
    out: dict[str, Path] = {}
    suffix = f"_{stamp}.jsonl"
    for p in results_file.parent.glob(f"samples_*{suffix}"):
        out[p.name[len("samples_"):-len(suffix)]] = p
    return out


def _sample_count(name: str, metrics: dict, data: dict) -> int | None:
    if isinstance(metrics.get("sample_len"), int):
        return metrics["sample_len"]
    effective = (data.get("n-samples") or {}).get(name, {})
    return effective.get("effective") if isinstance(effective, dict) else None


def load_models(paths: Sequence[str | os.PathLike]) -> tuple[list[Model], list[str]]:
    """Models (in first-seen order) with their newest result per task, and notes for the report."""
    pattern = _task_pattern()
    notes: list[str] = []
    runs = []
    for path in find_results_files(paths):
        data = _load_json(path)
        match = _STAMP.search(path.name)
        stamp = match.group(1) if match else None
        date = data.get("date")
        order = (float(date) if isinstance(date, (int, float)) else path.stat().st_mtime, stamp or "", str(path))
        runs.append((order, path, data, stamp))
    models: dict[tuple[str, str], Model] = {}
    first_seen = {}
    ignored: set[str] = set()
    for order, path, data, stamp in sorted(runs, key=lambda r: r[0]):
        config = data.get("config") if isinstance(data.get("config"), dict) else {}
        model_name = str(config.get("model") or data.get("model_source") or "unknown")
        args = _canonical_args(config.get("model_args"))
        key = (model_name, args)
        model = models.setdefault(key, Model(key))
        first_seen.setdefault(key, len(first_seen))
        model.files.append(path)
        samples = _samples_for(path, stamp)
        for name, metrics in data["results"].items():
            if not isinstance(metrics, dict):
                continue
            m = pattern.match(name)
            if not m:
                if name not in (data.get("groups") or {}) and name not in GROUP_ORDER:
                    ignored.add(name)
                continue
            model.tasks[name] = TaskResult(m["suite"], m["puzzle"], m["task"], metrics,
                                           _sample_count(name, metrics, data), path, samples.get(name))
        for name, metrics in (data.get("groups") or {}).items():
            if isinstance(metrics, dict):
                model.groups[name] = metrics
    if ignored:
        notes.append(f"ignored tasks that are not FineReason tasks: {', '.join(sorted(ignored))}")
    ordered = sorted(models.values(), key=lambda m: first_seen[m.key])
    _assign_labels(ordered)
    return ordered, notes


def _assign_labels(models: list[Model]) -> None:
    short = [_short_name(*m.key) for m in models]
    for model, label in zip(models, short):
        if short.count(label) > 1:
            name, args = model.key
            label = f"{name} ({args})" if args else name
        model.label = label


def metric(metrics: dict, name: str) -> float | None:
    """``name`` under the ``none`` filter (else the first filter that has it), as a float."""
    value = metrics.get(f"{name},none")
    if value is None:
        for key, v in metrics.items():
            if key.split(",", 1)[0] == name and not key.endswith("_stderr"):
                value = v
                break
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
        return None
    return float(value)


def _response(record: dict) -> str:
    resp = record.get("filtered_resps")
    if resp is None:
        resp = record.get("resps")
    while isinstance(resp, list):
        resp = resp[0] if resp else ""
    return "" if resp is None else str(resp)




def load_samples(result: TaskResult) -> list[tuple[dict, RowScore]]:
    """Re-judge every logged response of one task (one filter: ``none`` when present)."""
    path = result.samples_file
    assert path is not None
    rows: list[tuple[str | None, dict, str]] = []
    for lineno, record in iter_json_lines(str(path), "samples", ReportError):
        doc = record.get("doc") if isinstance(record, dict) else None
        if not isinstance(doc, dict) or not {"puzzle", "task", "inputs", "outputs"} <= set(doc):
            raise ReportError(f"{path}:{lineno}: not an lm-eval sample of a FineReason task (no doc with puzzle/task/inputs/outputs)")
        rows.append((record.get("filter"), doc, _response(record)))
    filters = {f for f, _, _ in rows}
    keep = "none" if "none" in filters else (sorted(filters, key=str)[0] if filters else None)
    out = []
    for filt, doc, response in rows:
        if filt != keep:
            continue
        try:
            score = score_row(doc, response)
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
    value, pe = metric(metrics, name), metric(metrics, PARSE_ERROR_RATE)
    return pct(value) if value is None or pe is None else f"{pct(value)} (pe {pct(pe)})"


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) of a proportion ``k / n``; ``(0, 1)`` when ``n`` is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


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


# ------------------------------------------------------------------ report
@dataclass
class Report:
    markdown: str
    written: list[Path]


def build_report(paths: Sequence[str | os.PathLike], out: str | os.PathLike = "finereason_report") -> Report:
    """Read the runs, write ``summary.md`` and the plots into ``out``; return the markdown."""
    plt_figure = _matplotlib()
    models, notes = load_models(paths)
    relevant = [m for m in models if m.tasks]
    if not relevant:
        raise ReportError("no FineReason task results (finereason_<puzzle>_<task>) in " + ", ".join(map(str, paths)))
    models = relevant
    puzzles = puzzle_order()
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
    parts += _runs_section(models)
    suites = [s for s in SUITES if any(r.suite == s for m in models for r in m.tasks.values())]
    for suite in suites:
        parts += _suite_tables(models, suite, puzzles)
    parts += _group_section(models)
    plot_suite = next((s for s in suites if any(r.suite == s and r.scores for m in models for r in m.tasks.values())), None)
    if plot_suite is not None:
        parts += _breakdown_table(models, plot_suite, puzzles)

    written: list[Path] = []
    plot_notes: list[str] = []
    makers = {
        "st_error_breakdown.png": lambda p: _plot_st_breakdown(plt_figure, models, plot_suite, puzzles, p),
        "sc_accuracy_vs_difficulty.png": lambda p: _plot_sc_difficulty(plt_figure, models, plot_suite, puzzles, p),
        "model_comparison.png": lambda p: _plot_comparison(plt_figure, models, suites[0], puzzles, p),
    }
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


def _matplotlib():
    """matplotlib's Figure class with the Agg canvas (no pyplot, no global backend switch)."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as err:
        missing = (err.name or "matplotlib").split(".")[0]
        raise ReportError(f"report needs matplotlib: pip install 'finereason[eval]' ({missing} missing)") from None

    def figure(**kwargs: Any):
        fig = Figure(**kwargs)
        FigureCanvasAgg(fig)
        return fig

    return figure


def _check_stored(model: Model, result: TaskResult, notes: list[str]) -> None:
    """Note when re-judged samples disagree with the stored accuracy (another finereason version)."""
    if not result.scores:
        return
    stored = metric(result.metrics, ACC)
    fresh = aggregate(s for _, s in result.scores).get(ACC)
    name = f"{result.suite}_{result.puzzle}_{result.task}"
    if len(result.scores) != (result.n or len(result.scores)):
        notes.append(f"{model.label} / {name}: {len(result.scores)} logged samples but n = {result.n} in the results file")
    if stored is not None and fresh is not None and abs(stored - fresh) > 1e-9:
        notes.append(f"{model.label} / {name}: stored acc {pct(stored)} but the re-judged samples give {pct(fresh)} "
                     "(results written by another finereason version?); tables use the stored values, plots the re-judged ones")


def _runs_section(models: list[Model]) -> list[str]:
    rows = []
    for m in models:
        name, args = m.key
        files = sorted({str(r.results_file) for r in m.tasks.values()})
        with_samples = sum(r.samples_file is not None for r in m.tasks.values())
        rows.append([m.label, f"`{name}`", f"`{args}`" if args else MISSING, str(len(m.tasks)),
                     f"{with_samples}/{len(m.tasks)}", "<br>".join(f"`{f}`" for f in files)])
    return ["## Runs", "", md_table(["model", "lm-eval model", "model_args", "tasks", "with samples", "results files"], rows, left=3), ""]


def _suite_tables(models: list[Model], suite: str, puzzles: list[str]) -> list[str]:
    parts: list[str] = []
    tag = "" if suite == "finereason" else " (official release)"
    present = [p for p in puzzles if any(m.get(suite, p, t) for m in models for t in TASKS)]
    sc_st = [r for m in models for p in present for t in STATE_TASKS if (r := m.get(suite, p, t))]
    if sc_st:
        caption = _n_caption(sc_st)
        parts += [f"## Table 3{tag}: state checking and state transition accuracy", "",
                  f"{SUITE_TITLES[suite]}" + (f"; {caption}" if caption else "") + ".", ""]
        headers = ["model"] + [f"{puzzle_title(p)} {short}" for p in present for short in ("SC", "ST")]
        rows = []
        for m in models:
            row = [m.label]
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
            headers = ["model"] + [f"{puzzle_title(p)} {mode}" for p in present for mode in ("strict", "paper")]
            rows = []
            for m in models:
                row = [m.label]
                for p in present:
                    r = m.get(suite, p, STATE_TRANSITION)
                    row += [acc_cell(r.metrics), acc_cell(r.metrics, ACC_PAPER)] if r else [MISSING, MISSING]
                if any(cell != MISSING for cell in row[1:]):  # a model without this table's tasks gets no row
                    rows.append(row)
            parts += [md_table(headers, rows), ""]

        sc = [r for r in sc_st if r.task == STATE_CHECKING]
        if sc:
            parts += [f"## Table 4{tag}: state checking precision, recall and F1 (unsolvable = positive)", ""]
            headers = ["model"] + [f"{puzzle_title(p)} {k}" for p in present for k in ("P", "R", "F1")]
            rows = []
            for m in models:
                row = [m.label]
                for p in present:
                    r = m.get(suite, p, STATE_CHECKING)
                    row += ([pct(metric(r.metrics, k)) for k in (PRECISION_UNSOLVABLE, RECALL_UNSOLVABLE, F1_UNSOLVABLE)]
                            if r else [MISSING] * 3)
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
        headers = ["model"] + [puzzle_title(p) for p in e2e_puzzles] + (["all"] if group else [])
        rows = []
        for m in models:
            row = [m.label]
            for p in e2e_puzzles:
                r = m.get(suite, p, END_TO_END)
                row.append(acc_cell(r.metrics) if r else MISSING)
            if group:
                g = m.groups.get(group)
                row.append(pct(metric(g, ACC)) if g else MISSING)
            if any(cell != MISSING for cell in row[1:]):  # a model without this table's tasks gets no row
                rows.append(row)
        parts += [md_table(headers, rows), ""]
    return parts


def _group_section(models: list[Model]) -> list[str]:
    names = [g for g in GROUP_ORDER if any(g in m.groups for m in models)]
    names += sorted({g for m in models for g in m.groups} - set(names))
    if not names:
        return []
    rows = []
    for m in models:
        row = [m.label]
        for g in names:
            metrics = m.groups.get(g)
            value = metric(metrics, ACC) if metrics else None
            n = metrics.get("sample_len") if metrics else None
            row.append(MISSING if value is None else pct(value) + (f" (n={n})" if isinstance(n, int) else ""))
        if any(cell != MISSING for cell in row[1:]):  # a model without this table's tasks gets no row
            rows.append(row)
    return ["## Group accuracy", "",
            "lm-eval group scores (`acc`, mean over the group's samples). `finereason` is every state-checking "
            "and state-transition task.", "", md_table(["model"] + [f"`{g}`" for g in names], rows), ""]


def _breakdown(scores: list[tuple[dict, RowScore]], solvable: bool) -> tuple[int, dict[str, float]]:
    group = [s for _, s in scores if s.solvable is solvable]
    n = len(group)
    return n, {c: (sum(s.verdict.category == c for s in group) / n if n else 0.0) for c in TRANSITION_CATEGORIES}


def _breakdown_table(models: list[Model], suite: str, puzzles: list[str]) -> list[str]:
    rows = []
    for m in models:
        for p in puzzles:
            r = m.get(suite, p, STATE_TRANSITION)
            if not r or not r.scores:
                continue
            for solvable in (True, False):
                n, shares = _breakdown(r.scores, solvable)
                if n:
                    rows.append([m.label, puzzle_title(p), "solvable" if solvable else "unsolvable", str(n)]
                                + [pct(shares[c]) for c in TRANSITION_CATEGORIES])
    if not rows:
        return []
    tag = "" if suite == "finereason" else " (official release)"
    return [f"## State transition outcomes by class{tag} (re-judged samples)", "",
            "Share of each strict-mode category among the states of one class (Figure 4).", "",
            md_table(["model", "puzzle", "class", "n"] + [c.replace("_", " ") for c in TRANSITION_CATEGORIES], rows, left=3), ""]


# ------------------------------------------------------------------ plots
MIN_BIN = 10  # difficulty bins with fewer items are merged with a neighbour (or drawn hollow)


def _tick_labels(ax, labels: list[str], fig_width: float) -> None:
    """Tick labels that never run together: rotated when the axis is crowded."""
    crowded = len(labels) * 0.9 > fig_width
    ax.set_xticklabels(labels, fontsize=7, rotation=35 if crowded else 0, ha="right" if crowded else "center")


def _plot_st_breakdown(figure, models, suite, puzzles, target: Path) -> str | None:
    have = [(m, [(p, m.get(suite, p, STATE_TRANSITION)) for p in puzzles]) for m in models] if suite else []
    have = [(m, [(p, r) for p, r in prs if r and r.scores]) for m, prs in have]
    have = [(m, prs) for m, prs in have if prs]
    if not have:
        return "no state-transition samples (run lm-eval with --log_samples)"
    bars_per_model = max(2 * len(prs) for _, prs in have)
    width = max(6.0, 1.15 * bars_per_model + 1.0)
    fig = figure(figsize=(width, 3.3 * len(have) + 0.8))
    axes = fig.subplots(len(have), 1, squeeze=False)[:, 0]
    for ax, (m, prs) in zip(axes, have):
        positions, labels = [], []
        bottoms: dict[float, float] = {}
        x = 0.0
        bars = []
        for p, r in prs:
            for solvable in (True, False):
                n, shares = _breakdown(r.scores, solvable)
                if n:
                    bars.append((x, shares))
                    positions.append(x)
                    labels.append(f"{puzzle_title(p)}\n{'solvable' if solvable else 'unsolvable'}\nn={n}")
                x += 1.0
            x += 0.5
        for category in TRANSITION_CATEGORIES:
            xs = [bx for bx, _ in bars]
            hs = [100 * shares[category] for _, shares in bars]
            bottom = [bottoms.get(bx, 0.0) for bx in xs]
            ax.bar(xs, hs, bottom=bottom, width=0.8, color=CATEGORY_COLORS.get(category), label=category.replace("_", " "))
            for bx, b, h in zip(xs, bottom, hs):
                if h >= 6:  # value labels on segments large enough to hold one
                    ax.text(bx, b + h / 2, f"{h:.0f}", ha="center", va="center", fontsize=6, color="white")
                bottoms[bx] = b + h
        ax.set_xticks(positions)
        _tick_labels(ax, labels, width)
        ax.set_ylim(0, 100)
        ax.set_ylabel("% of states")
        ax.set_title(f"{m.label}: state transition outcomes (strict), by class of the given state", fontsize=10)
    handles, names = axes[0].get_legend_handles_labels()
    fig.legend(handles, names, loc="upper center", ncol=min(7, len(names)), fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.5 / fig.get_figheight()))
    fig.savefig(target, dpi=120)
    return None


def _bins(values: list[float], min_count: int = MIN_BIN) -> list[tuple[float, float, str]]:
    """Up to 8 distinct values each get a bin, else 6 equal-width integer ranges; then neighbouring bins
    are merged until each holds at least ``min_count`` of ``values`` (or only one bin is left)."""
    distinct = sorted(set(values))
    if not distinct:
        return []
    if len(distinct) <= 8:
        bins = [(v, v) for v in distinct]
    else:
        lo, hi = distinct[0], distinct[-1]
        width = max(1, math.ceil((hi - lo + 1) / 6))
        bins, start = [], lo
        while start <= hi:
            bins.append((start, start + width - 1))
            start += width
    count = lambda b: sum(b[0] <= v <= b[1] for v in values)  # noqa: E731
    bins = [b for b in bins if count(b)]
    while len(bins) > 1 and min(map(count, bins)) < min_count:
        i = min(range(len(bins)), key=lambda j: (count(bins[j]), j))
        j = i + 1 if i == 0 or (i + 1 < len(bins) and count(bins[i + 1]) <= count(bins[i - 1])) else i - 1
        a, b = sorted((i, j))
        bins[a:b + 1] = [(bins[a][0], bins[b][1])]
    return [(lo, hi, f"{lo:g}" if lo == hi else f"{lo:g}–{hi:g}") for lo, hi in bins]


def _accuracy_by_bin(scores, fieldname, bins, solvable: bool | None = None):
    """(accuracy %, items, correct) per bin, for one class of states when ``solvable`` is given."""
    accs, counts, hits = [], [], []
    for lo, hi, _ in bins:
        group = [s for d, s in scores if isinstance(d.get(fieldname), (int, float)) and lo <= d[fieldname] <= hi
                 and (solvable is None or s.solvable is solvable)]
        k = sum(s.verdict.correct for s in group)
        counts.append(len(group))
        hits.append(k)
        accs.append(100 * k / len(group) if group else float("nan"))
    return accs, counts, hits


def _plot_sc_difficulty(figure, models, suite, puzzles, target: Path) -> str | None:
    panels = []  # (title, field, [(model, scores)])
    for p in puzzles:
        series = [(m, r.scores) for m in models if (r := m.get(suite, p, STATE_CHECKING)) and r.scores] if suite else []
        if not series:
            continue
        fields = ["depth", *_plot_fields(p)]
        for fieldname in fields:
            if any(isinstance(d.get(fieldname), (int, float)) for _, sc in series for d, _ in sc):
                what = fieldname.replace("_", " ")
                panels.append((f"{puzzle_title(p)}: SC accuracy by {what}", fieldname, series))
    if not panels:
        return "no state-checking samples with a depth (run lm-eval with --log_samples)"
    cols = min(3, len(panels))
    rows = math.ceil(len(panels) / cols)
    fig = figure(figsize=(5.0 * cols, 3.8 * rows + 0.9))
    axes = fig.subplots(rows, cols, squeeze=False).ravel()
    colors = [f"C{i % 10}" for i in range(len(models))]
    color_of = {id(m): colors[i] for i, m in enumerate(models)}
    for ax, (title, fieldname, series) in zip(axes, panels):
        first = series[0][1]  # bins from one model's items (every model sees the same rows)
        bins = _bins([d[fieldname] for d, _ in first if isinstance(d.get(fieldname), (int, float))])
        xs = list(range(len(bins)))
        totals = _accuracy_by_bin(first, fieldname, bins)[1]
        for m, sc in series:
            for solvable, style in ((True, "-"), (False, "--")):
                accs, counts, hits = _accuracy_by_bin(sc, fieldname, bins, solvable)
                pts = [(x, a, n, k) for x, a, n, k in zip(xs, accs, counts, hits) if n]
                if not pts:
                    continue
                color = color_of[id(m)]
                label = f"{m.label}, {'solvable' if solvable else 'unsolvable'} states"
                ax.plot([x for x, *_ in pts], [a for _, a, *_ in pts], style, color=color, label=label)
                for x, a, n, k in pts:
                    lo, hi = wilson(k, n)
                    ax.errorbar([x], [a], yerr=[[max(0.0, a - 100 * lo)], [max(0.0, 100 * hi - a)]], color=color, capsize=2, lw=0.8,
                                marker="o", markerfacecolor=color if n >= MIN_BIN else "white", markersize=5)
        ax.set_xticks(xs)
        _tick_labels(ax, [f"{label}\nn={n}" for (_, _, label), n in zip(bins, totals)], 5.0)
        ax.set_ylim(-5, 105)
        ax.set_ylabel("SC accuracy (%)")
        ax.set_xlabel(fieldname.replace("_", " ") + " (bins merged to ≥ 10 items)")
        ax.set_title(title, fontsize=9)
        ax.grid(alpha=0.3)
    for ax in axes[len(panels):]:
        ax.set_visible(False)
    handles, names = axes[0].get_legend_handles_labels()
    fig.legend(handles, names, loc="upper center", ncol=min(4, len(names)), fontsize=7, frameon=False)
    fig.text(0.01, 0.005, "solid: solvable states, dashed: unsolvable states; hollow points: fewer than 10 items; "
             "bars: 95 % Wilson intervals", fontsize=7)
    fig.tight_layout(rect=(0, 0.03, 1, 1 - 0.3 * math.ceil(len(names) / 4) / fig.get_figheight()))
    fig.savefig(target, dpi=120)
    return None


def _plot_comparison(figure, models, suite, puzzles, target: Path) -> str | None:
    panels = []
    for task, short in ((STATE_CHECKING, "SC"), (STATE_TRANSITION, "ST")):
        present = [p for p in puzzles if any(m.get(suite, p, task) for m in models)]
        if present:
            panels.append((task, short, present))
    if not panels:
        return "no state-checking or state-transition results"
    width_in = max(6.0, (max(len(pr) for _, _, pr in panels) + 1) * (0.5 + 0.45 * len(models)))
    fig = figure(figsize=(width_in, 3.8 * len(panels) + 0.8))
    axes = fig.subplots(len(panels), 1, squeeze=False)[:, 0]
    width = 0.8 / max(1, len(models))
    for ax, (task, short, present) in zip(axes, panels):
        groups = [puzzle_title(p) for p in present] + ["mean"]
        for i, m in enumerate(models):
            values, lows, highs = [], [], []
            for p in present:
                r = m.get(suite, p, task)
                v = metric(r.metrics, ACC) if r else None
                values.append(float("nan") if v is None else 100 * v)
                lo, hi = wilson(v * r.n, r.n) if v is not None and r.n else (v or 0.0, v or 0.0)
                lows.append(0.0 if v is None else max(0.0, 100 * (v - lo)))
                highs.append(0.0 if v is None else max(0.0, 100 * (hi - v)))
            known = [v for v in values if not math.isnan(v)]
            values.append(sum(known) / len(known) if len(known) == len(present) else float("nan"))
            lows.append(0.0)
            highs.append(0.0)
            xs = [g + (i - (len(models) - 1) / 2) * width for g in range(len(groups))]
            bars = ax.bar(xs, values, width=width, label=m.label, yerr=[lows, highs], capsize=2,
                          error_kw={"lw": 0.7})
            ax.bar_label(bars, labels=["" if math.isnan(v) else f"{v:.0f}" for v in values], fontsize=6, padding=1)
        ax.set_xticks(range(len(groups)))
        ax.set_xticklabels(groups, fontsize=8)
        ax.set_ylim(0, 112)
        ax.set_ylabel(f"{short} accuracy (%)")
        name = ("State checking accuracy (solvable / unsolvable answer)" if short == "SC"
                else "State transition accuracy (strict: the move must keep the state solvable)")
        ax.set_title(f"{name}; bars: 95 % Wilson intervals", fontsize=9)
        ax.grid(axis="y", alpha=0.3)
    handles, names = axes[0].get_legend_handles_labels()
    fig.legend(handles, names, loc="upper center", ncol=min(4, len(names)), fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.3 * math.ceil(len(names) / 4) / fig.get_figheight()))
    fig.savefig(target, dpi=120)
    return None
