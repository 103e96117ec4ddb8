"""``finereason leaderboard build``: a static leaderboard (one self-contained HTML page, no network,
and the same table in Markdown) from lm-eval output folders and/or submission results files.

The page holds a sortable table (state checking and strict state transition accuracy per puzzle,
mean strict and paper ST accuracy, SC precision / recall / F1 with *unsolvable* positive, parse-error
rate, end-to-end accuracy when present), a per-model breakdown of state-transition error categories
and one chart per puzzle, drawn as inline SVG. Opened with ``#selftest`` the page sorts by every
column both ways, checks the order and writes ``PASS``/``FAIL`` into ``#selftest-result``.
"""
from __future__ import annotations

import html
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from ..aggregation import ACC, ACC_PAPER, F1_UNSOLVABLE, PARSE_ERROR_RATE, PRECISION_UNSOLVABLE, RECALL_UNSOLVABLE, rate_name
from ..atomic_io import atomic_file
from ..report import CATEGORY_COLORS, ReportError, puzzle_title, load_models, md_table, pct, puzzle_order
from ..verdict import TRANSITION_CATEGORIES
from ..vocabulary import END_TO_END, STATE_CHECKING, STATE_TASKS, STATE_TRANSITION
from . import LeaderboardError
from .submit import clean_metrics


@dataclass
class Entry:
    """One model: ``{task: {metric: value}}`` on the generated (``finereason_*``) suite."""

    label: str
    results: dict[str, dict[str, float]] = field(default_factory=dict)

    def get(self, puzzle: str, task: str, name: str) -> float | None:
        return self.results.get(f"finereason_{puzzle}_{task}", {}).get(name)


@dataclass
class Column:
    key: str
    title: str
    tip: str
    values: list[float | None]
    higher_is_better: bool = True


def collect(root: str | os.PathLike) -> list[Entry]:
    """Every model under ``root``: lm-eval ``results_*.json`` (newest result per task wins) and
    submission results files (``{"config": {"model_name": ...}, "results": ...}``)."""
    root = Path(root)
    if not root.exists():
        raise LeaderboardError(f"{root}: no such file or folder")
    files = [root] if root.is_file() else sorted(p for p in root.rglob("*.json") if p.is_file() and p.name.startswith("results_"))
    lm_eval: list[Path] = []
    entries: dict[str, Entry] = {}
    for path in files:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
            raise LeaderboardError(f"{path}: not a readable JSON results file ({type(err).__name__})") from None
        if not isinstance(data, dict) or not isinstance(data.get("results"), dict):
            continue
        config = data.get("config") if isinstance(data.get("config"), dict) else {}
        if "versions" in data or "configs" in data:
            lm_eval.append(path)
        elif config.get("model_name"):
            entry = entries.setdefault(str(config["model_name"]), Entry(str(config["model_name"])))
            entry.results.update({t: clean_metrics(m) for t, m in data["results"].items() if isinstance(m, dict)})
    if lm_eval:
        try:
            models, _ = load_models(lm_eval)
        except ReportError as err:
            raise LeaderboardError(str(err)) from None
        for model in models:
            entry = entries.setdefault(model.label, Entry(model.label))
            entry.results.update({name: clean_metrics(r.metrics) for name, r in model.tasks.items() if r.suite == "finereason"})
    found = [e for e in entries.values() if e.results]
    if not found:
        raise LeaderboardError(f"{root}: no lm-eval or submission results files (results_*.json) found")
    return found


def _mean(values: list[float | None]) -> float | None:
    got = [v for v in values if v is not None]
    return sum(got) / len(got) if len(got) == len(values) and got else None


def board_puzzles(entries: list[Entry]) -> list[str]:
    """The registered puzzles the submissions have state-task results for (all of them when none has)."""
    puzzles = puzzle_order()
    return [p for p in puzzles if any(f"finereason_{p}_{t}" in e.results for e in entries for t in STATE_TASKS)] or puzzles


def columns(entries: list[Entry], puzzles: list[str]) -> list[Column]:
    """The table's numeric columns (fractions; ``None`` where a model lacks the task)."""
    cols: list[Column] = []

    def add(key, title, tip, fn, higher=True):
        cols.append(Column(key, title, tip, [fn(e) for e in entries], higher))

    for p in puzzles:
        add(f"sc_{p}", f"SC {puzzle_title(p)}", f"state checking accuracy, {p}", lambda e, p=p: e.get(p, STATE_CHECKING, ACC))
    for p in puzzles:
        add(f"st_{p}", f"ST {puzzle_title(p)}", f"state transition accuracy (strict), {p}",
            lambda e, p=p: e.get(p, STATE_TRANSITION, ACC))
    add("sc_mean", "SC mean", "state checking accuracy, mean over puzzles",
        lambda e: _mean([e.get(p, STATE_CHECKING, ACC) for p in puzzles]))
    add("st_strict", "ST strict", "state transition accuracy, strict (child must stay solvable), mean over puzzles",
        lambda e: _mean([e.get(p, STATE_TRANSITION, ACC) for p in puzzles]))
    add("st_paper", "ST paper", "state transition accuracy, paper scoring, mean over puzzles",
        lambda e: _mean([e.get(p, STATE_TRANSITION, ACC_PAPER) for p in puzzles]))
    for name, title in ((PRECISION_UNSOLVABLE, "SC P"), (RECALL_UNSOLVABLE, "SC R"), (F1_UNSOLVABLE, "SC F1")):
        add(name, title, f"state checking {name.split('_')[0]} with unsolvable as positive, mean over puzzles",
            lambda e, n=name: _mean([e.get(p, STATE_CHECKING, n) for p in puzzles]))
    add(PARSE_ERROR_RATE, "Parse err", "share of unreadable answers over every SC and ST task (lower is better)",
        lambda e: _mean([e.get(p, t, PARSE_ERROR_RATE) for p in puzzles for t in STATE_TASKS]),
        higher=False)
    if any(e.get(p, END_TO_END, ACC) is not None for e in entries for p in puzzles):
        add("e2e", "E2E", "end-to-end accuracy, mean over puzzles", lambda e: _mean([e.get(p, END_TO_END, ACC) for p in puzzles]))
    return cols


def markdown(entries: list[Entry], cols: list[Column]) -> str:
    rows = [[e.label] + [pct(c.values[i]) for c in cols] for i, e in enumerate(entries)]
    return ("# FineReason leaderboard\n\nAccuracies in %, generated benchmark (`finereason_*` tasks). ST strict: "
            "the child must stay solvable; ST paper: the official scoring. SC P/R/F1 treat *unsolvable* as positive. "
            "Parse err: share of unreadable answers (lower is better).\n\n"
            + md_table(["Model"] + [c.title for c in cols], rows) + "\n")


# ------------------------------------------------------------------ SVG
def _bar_chart(title: str, groups: list[str], series: list[tuple[str, str, list[float | None]]]) -> str:
    """Grouped horizontal bars: one group per model, one bar per series, value labels, axis 0-100 %."""
    bar, gap, left, width = 14, 10, 190, 300
    height = 30 + len(groups) * (len(series) * bar + gap) + 40
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{left + width + 70}" height="{height}" '
           f'viewBox="0 0 {left + width + 70} {height}"><title>{html.escape(title)}</title>',
           f'<text x="4" y="16" font-weight="bold">{html.escape(title)}</text>']
    y = 28
    for gi, group in enumerate(groups):
        out.append(f'<text x="{left - 6}" y="{y + len(series) * bar / 2 + 4}" text-anchor="end">{html.escape(group[:28])}</text>')
        for name, color, values in series:
            v = values[gi]
            w = 0 if v is None else max(0.0, min(1.0, v)) * width
            out.append(f'<rect x="{left}" y="{y}" width="{w:.1f}" height="{bar - 2}" fill="{color}"><title>'
                       f'{html.escape(group)}: {html.escape(name)} {pct(v)}</title></rect>')
            out.append(f'<text x="{left + w + 4:.1f}" y="{y + bar - 4}" font-size="11">{pct(v)}</text>')
            y += bar
        y += gap
    for tick in (0, 50, 100):
        x = left + width * tick / 100
        out.append(f'<line x1="{x}" y1="26" x2="{x}" y2="{y}" stroke="#bbb" stroke-dasharray="2,2"/>'
                   f'<text x="{x}" y="{y + 14}" text-anchor="middle" font-size="11">{tick}%</text>')
    legend_x = 4
    for name, color, _ in series:
        out.append(f'<rect x="{legend_x}" y="{y + 22}" width="10" height="10" fill="{color}"/>'
                   f'<text x="{legend_x + 14}" y="{y + 31}" font-size="11">{html.escape(name)}</text>')
        legend_x += 14 + 7 * len(name) + 12
    out.append("</svg>")
    return "".join(out)


def _breakdown_svg(entry: Entry, puzzles: list[str]) -> str:
    """One stacked 100 % bar per puzzle: the share of each state-transition category."""
    bar, left, width = 18, 120, 360
    height = 24 + len(puzzles) * (bar + 6) + 22
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{left + width + 10}" height="{height}">'
           f'<title>State-transition outcomes of {html.escape(entry.label)}</title>']
    y = 8
    for p in puzzles:
        out.append(f'<text x="{left - 6}" y="{y + 13}" text-anchor="end">{html.escape(puzzle_title(p))}</text>')
        x = float(left)
        for cat in TRANSITION_CATEGORIES:
            v = entry.get(p, STATE_TRANSITION, rate_name(cat))
            if not v:
                continue
            w = v * width
            out.append(f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{bar}" fill="{CATEGORY_COLORS.get(cat, "#777")}">'
                       f'<title>{html.escape(puzzle_title(p))}: {cat} {pct(v)}%</title></rect>')
            x += w
        y += bar + 6
    x = 4
    for cat in TRANSITION_CATEGORIES:
        out.append(f'<rect x="{x}" y="{y + 4}" width="10" height="10" fill="{CATEGORY_COLORS.get(cat, "#777")}"/>'
                   f'<text x="{x + 13}" y="{y + 13}" font-size="10">{cat}</text>')
        x += 18 + 6 * len(cat)
    out.append("</svg>")
    return "".join(out).replace(f'width="{left + width + 10}"', f'width="{max(left + width + 10, x)}"', 1)


# ------------------------------------------------------------------ page
_CSS = """body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}table{border-collapse:collapse;font-size:13px}
th,td{border:1px solid #ddd;padding:3px 6px;text-align:right}th{background:#f3f3f3;cursor:pointer;user-select:none}
td:first-child,th:first-child{text-align:left}th[aria-sort=ascending]::after{content:" \\25B2"}
th[aria-sort=descending]::after{content:" \\25BC"}tr:nth-child(even){background:#fafafa}
.charts{display:flex;flex-wrap:wrap;gap:1.5em}svg{font-size:12px}#selftest-result{font-family:monospace}"""


def page(entries: list[Entry], cols: list[Column], puzzles: list[str]) -> str:
    """The self-contained HTML page (inline CSS, JS and SVG; nothing is fetched)."""
    from importlib import resources

    script = resources.files("finereason.leaderboard").joinpath("page.js").read_text(encoding="utf-8")
    esc = html.escape
    head = '<th data-type="text" aria-sort="none" title="model">Model</th>' + "".join(
        f'<th data-type="number" aria-sort="none" data-key="{c.key}" data-higher="{int(c.higher_is_better)}" '
        f'title="{esc(c.tip)}">{esc(c.title)}</th>' for c in cols)
    rows = []
    for i, e in enumerate(entries):
        cells = "".join(f'<td data-value="{"" if c.values[i] is None else repr(c.values[i])}">{pct(c.values[i])}</td>' for c in cols)
        rows.append(f"<tr><td>{esc(e.label)}</td>{cells}</tr>")
    charts = []
    labels = [e.label for e in entries]
    for p in puzzles:
        series = [("SC acc", "#3b6ea5", [e.get(p, STATE_CHECKING, ACC) for e in entries]),
                  ("ST strict", "#4c9a2a", [e.get(p, STATE_TRANSITION, ACC) for e in entries]),
                  ("ST paper", "#a0c878", [e.get(p, STATE_TRANSITION, ACC_PAPER) for e in entries]),
                  ("parse errors", "#9a9a9a", [e.get(p, STATE_TRANSITION, PARSE_ERROR_RATE) for e in entries])]
        charts.append(_bar_chart(f"{puzzle_title(p)}: accuracy (%) and ST parse-error rate", labels, series))
    breakdown = "".join(f"<figure><figcaption>{esc(e.label)}</figcaption>{_breakdown_svg(e, puzzles)}</figure>" for e in entries)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>FineReason leaderboard</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>{_CSS}</style></head>
<body><h1>FineReason leaderboard</h1>
<p>Accuracies in % on the generated benchmark (<code>finereason_*</code> tasks). SC: state checking; ST strict:
state transition where the child must stay solvable; ST paper: the official scoring; SC P/R/F1 treat
<em>unsolvable</em> as the positive class; Parse err: share of unreadable answers (lower is better).
Click a column to sort.</p>
<table id="board"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>
<p id="selftest-result"></p>
<h2>Per-puzzle results</h2><div class="charts">{"".join(charts)}</div>
<h2>State-transition outcomes per model</h2><div class="charts">{breakdown}</div>
<script>{script}</script></body></html>
"""


def build(root: str | os.PathLike, out: str | os.PathLike) -> list[Path]:
    """Write ``index.html``, ``leaderboard.md`` and ``leaderboard.json`` into ``out``; return their paths."""
    entries = collect(root)
    puzzles = board_puzzles(entries)
    cols = columns(entries, puzzles)
    order = next(c for c in cols if c.key == "st_strict").values
    ranked = sorted(range(len(entries)), key=lambda i: (order[i] is None, -(order[i] or 0.0), entries[i].label))
    entries = [entries[i] for i in ranked]
    cols = columns(entries, puzzles)
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    table = {"columns": [{"key": c.key, "title": c.title, "higher_is_better": c.higher_is_better} for c in cols],
             "models": [{"model": e.label, **{c.key: c.values[i] for c in cols}} for i, e in enumerate(entries)]}
    written = []
    for name, text in (("index.html", page(entries, cols, puzzles)), ("leaderboard.md", markdown(entries, cols)),
                       ("leaderboard.json", json.dumps(table, indent=2) + "\n")):
        with atomic_file(str(folder / name)) as handle:
            handle.write(text)
        written.append(folder / name)
    return written
