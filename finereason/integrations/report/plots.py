"""The plots of :func:`finereason.integrations.report.build.build_report` (matplotlib, Agg canvas, no pyplot).

- ``st_error_breakdown.png``: the share of each strict state-transition category per puzzle and class
  of the given state (Figure 4 style), with n per bar and the 95 % Wilson interval of the correct share;
- ``sc_accuracy_vs_difficulty.png``: SC accuracy by difficulty bin (Figure 5 style), one line per model
  and class, models offset sideways with their own marker, n per class under each bin;
- ``model_comparison.png``: SC and strict ST accuracy per puzzle and their mean, every bar with its
  95 % interval (Wilson; for the mean, the puzzles' half-widths combined in quadrature).

Every text is at least 8 pt. A plot whose inputs are missing returns the reason it was skipped.
"""
from __future__ import annotations

import io
import math
from pathlib import Path
from typing import Any

from ...common.atomic_io import write_bytes
from ...common.intervals import mean, proportion, wilson
from ...common.verdict import TRANSITION_CATEGORIES, Category
from ...common.vocabulary import STATE_CHECKING, STATE_TRANSITION
from ...verification.aggregation import ACC
from .results import CATEGORY_COLORS, ReportError, _plot_fields, domain_title, metric_value
from .tables import breakdown

MIN_BIN = 10  # difficulty bins with fewer items are merged with a neighbour (or drawn hollow)
FONT = 8  # the smallest text on any plot (pt)
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")


def _save(fig: Any, target: Path) -> None:
    """Write ``fig`` to ``target`` through :mod:`finereason.common.atomic_io` (the format from the suffix)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format=Path(target).suffix.lstrip(".") or "png", dpi=120)
    write_bytes(target, buffer.getvalue())


def matplotlib_figure():
    """matplotlib's Figure class with the Agg canvas (no pyplot, no global backend switch)."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as err:
        missing = (err.name or "matplotlib").split(".")[0]
        raise ReportError(f"report needs matplotlib: pip install '.[eval]' in the finereason checkout ({missing} missing)") from None

    def figure(**kwargs: Any):
        fig = Figure(**kwargs)
        FigureCanvasAgg(fig)
        return fig

    return figure


ERRORBAR_SHIFT = 0.28  # the transition breakdown's interval sits this far right of the bar's centre


def _tick_labels(ax, labels: list[str], fig_width: float) -> None:
    """Tick labels that never run together: rotated when the axis is crowded."""
    crowded = len(labels) * 0.9 > fig_width
    ax.set_xticklabels(labels, fontsize=FONT, rotation=35 if crowded else 0, ha="right" if crowded else "center")


def _plot_st_breakdown(figure, models, suite, puzzles, target: Path) -> str | None:
    have = [(m, [(p, m.get(suite, p, STATE_TRANSITION)) for p in puzzles]) for m in models] if suite else []
    have = [(m, [(p, r) for p, r in prs if r and r.scores]) for m, prs in have]
    have = [(m, prs) for m, prs in have if prs]
    if not have:
        return "no state-transition samples (run lm-eval with --log_samples)"
    bars_per_model = max(2 * len(prs) for _, prs in have)
    width = max(6.0, 1.15 * bars_per_model + 1.0)
    fig = figure(figsize=(width, 3.5 * len(have) + 0.9))
    axes = fig.subplots(len(have), 1, squeeze=False)[:, 0]
    correct = Category.CORRECT.value
    for ax, (m, prs) in zip(axes, have):
        positions, labels, bars = [], [], []
        x = 0.0
        for p, r in prs:
            for solvable in (True, False):
                n, shares = breakdown(r.scores, solvable)
                if n:
                    bars.append((x, n, shares))
                    positions.append(x)
                    labels.append(f"{domain_title(p)}\n{'solvable' if solvable else 'unsolvable'}\nn={n}")
                x += 1.0
            x += 0.5
        bottoms: dict[float, float] = {}
        for category in TRANSITION_CATEGORIES:
            xs = [bx for bx, _, _ in bars]
            hs = [100 * shares[category] for _, _, shares in bars]
            bottom = [bottoms.get(bx, 0.0) for bx in xs]
            ax.bar(xs, hs, bottom=bottom, width=0.8, color=CATEGORY_COLORS.get(category), label=category.replace("_", " "))
            for bx, b, h in zip(xs, bottom, hs):
                if h >= 8:  # value labels on segments large enough to hold one
                    ax.text(bx, b + h / 2, f"{h:.0f}", ha="center", va="center", fontsize=FONT, color="white")
                bottoms[bx] = b + h
        for bx, n, shares in bars:  # the correct share (the bottom segment): its 95 % Wilson interval, drawn
            k = round(shares[correct] * n)  # at the bar's right edge, clear of the value labels in the middle
            lo, hi = wilson(k, n)
            v = 100 * shares[correct]
            ax.errorbar([bx + ERRORBAR_SHIFT], [v], yerr=[[v - 100 * min(lo, shares[correct])], [100 * max(hi, shares[correct]) - v]],
                        color="black", capsize=3, lw=0.9)
        ax.set_xticks(positions)
        _tick_labels(ax, labels, width)
        ax.set_ylim(0, 100)
        ax.set_ylabel("% of states", fontsize=FONT + 1)
        ax.set_title(f"{m.title}: state transition outcomes (strict), by class of the given state; "
                     "black bars: 95 % Wilson interval of the correct share", fontsize=FONT + 1)
    handles, names = axes[0].get_legend_handles_labels()
    fig.legend(handles, names, loc="upper center", ncol=min(7, len(names)), fontsize=FONT, frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 1 - (0.2 + 0.3 * math.ceil(len(names) / 7)) / fig.get_figheight()))
    _save(fig, target)
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
        for fieldname in ["depth", *_plot_fields(p)]:
            if any(isinstance(d.get(fieldname), (int, float)) for _, sc in series for d, _ in sc):
                panels.append((f"{domain_title(p)}: SC accuracy by {fieldname.replace('_', ' ')}", fieldname, series))
    if not panels:
        return "no state-checking samples with a depth (run lm-eval with --log_samples)"
    cols = min(3, len(panels))
    rows = math.ceil(len(panels) / cols)
    fig = figure(figsize=(5.4 * cols, 4.0 * rows + 1.0))
    axes = fig.subplots(rows, cols, squeeze=False).ravel()
    style_of = {id(m): (f"C{i % 10}", MARKERS[i % len(MARKERS)]) for i, m in enumerate(models)}
    lanes = 2 * len(models)  # one sideways offset per (model, class): no line hides another
    step = min(0.08, 0.6 / max(1, lanes))
    for ax, (title, fieldname, series) in zip(axes, panels):
        first = series[0][1]  # bins from one model's items (every model sees the same rows)
        bins = _bins([d[fieldname] for d, _ in first if isinstance(d.get(fieldname), (int, float))])
        xs = list(range(len(bins)))
        per_class = [_accuracy_by_bin(first, fieldname, bins, solvable)[1] for solvable in (True, False)]
        for i, (m, sc) in enumerate(series):
            color, marker = style_of[id(m)]
            for c, (solvable, style) in enumerate(((True, "-"), (False, "--"))):
                accs, counts, hits = _accuracy_by_bin(sc, fieldname, bins, solvable)
                shift = (2 * models.index(m) + c - (lanes - 1) / 2) * step
                pts = [(x + shift, a, n, k) for x, a, n, k in zip(xs, accs, counts, hits) if n]
                if not pts:
                    continue
                label = f"{m.title}, {'solvable' if solvable else 'unsolvable'} states"
                ax.plot([x for x, *_ in pts], [a for _, a, *_ in pts], style, color=color, label=label, marker=marker,
                        markersize=5, markerfacecolor=color)
                for x, a, n, k in pts:
                    lo, hi = wilson(k, n)
                    ax.errorbar([x], [a], yerr=[[max(0.0, a - 100 * lo)], [max(0.0, 100 * hi - a)]], color=color,
                                capsize=2, lw=0.8, marker=marker, markersize=5,
                                markerfacecolor=color if n >= MIN_BIN else "white")
        ax.set_xticks(xs)
        ax.set_xlim(-0.5, len(bins) - 0.5)  # every bin a unit wide, centred on its tick (one bin: the middle)
        _tick_labels(ax, [f"{label}\nn={s}/{u}" for (_, _, label), s, u in zip(bins, *per_class)], 5.4)
        ax.set_ylim(-5, 105)
        ax.set_ylabel("SC accuracy (%)", fontsize=FONT + 1)
        ax.set_xlabel(fieldname.replace("_", " ") + " (n = solvable/unsolvable states; bins merged to ≥ 10 items)",
                      fontsize=FONT)
        ax.tick_params(axis="y", labelsize=FONT)
        ax.set_title(title, fontsize=FONT + 1)
        ax.grid(alpha=0.3)
    for ax in axes[len(panels):]:
        ax.set_visible(False)
    handles, names = axes[0].get_legend_handles_labels()
    fig.legend(handles, names, loc="upper center", ncol=min(4, len(names)), fontsize=FONT, frameon=False)
    fig.text(0.01, 0.005, "solid: solvable states, dashed: unsolvable states; each model its own marker, drawn side by "
             "side; hollow points: fewer than 10 items; bars: 95 % Wilson intervals", fontsize=FONT)
    fig.tight_layout(rect=(0, 0.03, 1, 1 - 0.32 * math.ceil(len(names) / 4) / fig.get_figheight()))
    _save(fig, target)
    return None


def bar_cells(model, suite: str, task: str, puzzles: list[str]) -> list:
    """A model's accuracy per puzzle and their mean, each with its 95 % interval (the comparison's bars)."""
    cells = []
    for p in puzzles:
        r = model.get(suite, p, task)
        cells.append(proportion(metric_value(r.metrics, ACC), r.n) if r else proportion(None, None))
    return cells + [mean(cells)]


def _plot_comparison(figure, models, suite, puzzles, target: Path) -> str | None:
    panels = []
    for task, short in ((STATE_CHECKING, "SC"), (STATE_TRANSITION, "ST")):
        present = [p for p in puzzles if any(m.get(suite, p, task) for m in models)]
        if present:
            panels.append((task, short, present))
    if not panels:
        return "no state-checking or state-transition results"
    width_in = max(6.0, (max(len(pr) for _, _, pr in panels) + 1) * (0.5 + 0.45 * len(models)))
    fig = figure(figsize=(width_in, 3.9 * len(panels) + 0.9))
    axes = fig.subplots(len(panels), 1, squeeze=False)[:, 0]
    width = 0.8 / max(1, len(models))
    for ax, (task, short, present) in zip(axes, panels):
        groups = [domain_title(p) for p in present] + ["mean"]
        for i, m in enumerate(models):
            cells = bar_cells(m, suite, task, present)
            values = [float("nan") if c.value is None else 100 * c.value for c in cells]
            lows = [0.0 if c.lo is None else 100 * (c.value - c.lo) for c in cells]
            highs = [0.0 if c.hi is None else 100 * (c.hi - c.value) for c in cells]
            xs = [g + (i - (len(models) - 1) / 2) * width for g in range(len(groups))]
            ax.bar(xs, values, width=width, label=m.title, yerr=[lows, highs], capsize=2, error_kw={"lw": 0.7})
            for x, v, hi in zip(xs, values, highs):  # each value above its interval, never on it
                if not math.isnan(v):
                    ax.text(x, v + hi + 1.0, f"{v:.0f}", ha="center", va="bottom", fontsize=FONT)
        ax.set_xticks(range(len(groups)))
        ax.set_xticklabels(groups, fontsize=FONT)
        ax.tick_params(axis="y", labelsize=FONT)
        ax.set_ylim(0, 115)
        ax.set_ylabel(f"{short} accuracy (%)", fontsize=FONT + 1)
        name = ("State checking accuracy (solvable / unsolvable answer)" if short == "SC"
                else "State transition accuracy (strict: the move must keep the state solvable)")
        ax.set_title(f"{name}; bars: 95 % Wilson intervals (mean: combined)", fontsize=FONT + 1)
        ax.grid(axis="y", alpha=0.3)
    handles, names = axes[0].get_legend_handles_labels()
    fig.legend(handles, names, loc="upper center", ncol=min(4, len(names)), fontsize=FONT, frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.32 * math.ceil(len(names) / 4) / fig.get_figheight()))
    _save(fig, target)
    return None


PLOT_MAKERS = {"st_error_breakdown.png": _plot_st_breakdown, "sc_accuracy_vs_difficulty.png": _plot_sc_difficulty,
               "model_comparison.png": _plot_comparison}
