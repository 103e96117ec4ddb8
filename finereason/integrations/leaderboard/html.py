"""The leaderboard's HTML: the main page and one drill-down page per model (inline CSS, JS and SVG)."""
from __future__ import annotations

import html
from importlib import resources

from ...common.verdict import TRANSITION_CATEGORIES
from ...common.vocabulary import END_TO_END, STATE_CHECKING, STATE_TRANSITION
from ...verification.aggregation import METRICS, rate_name
from ..report.results import CATEGORY_COLORS, domain_title
from .board import RANKED_BY, VIEWS, Column, Entry, Row, hub_url, shown_precision, unranked_note
from .filters import INFO, default_hidden, facts, filter_options
from .filters import info as _info
from .filters import selectable
from .stats import MISSING, Cell

esc = html.escape
CSS = """body{font-family:system-ui,sans-serif;margin:1em auto;max-width:1400px;padding:0 1em;color:#222}
table{border-collapse:collapse;font-size:13px}th,td{border:1px solid #ddd;padding:3px 6px;text-align:right}
th{background:#f3f3f3;vertical-align:bottom;hyphens:none;word-break:keep-all;min-width:3.5em}
th.sortable{cursor:pointer;user-select:none}th.sortable:focus{outline:2px solid #3b6ea5;outline-offset:-2px}
th.sortable::after{content:" \\2195";color:#999}th[aria-sort=ascending]::after{content:" \\25B2";color:#222}
th[aria-sort=descending]::after{content:" \\25BC";color:#222}.left{text-align:left}
tbody tr:nth-child(even){background:#fafafa}.pm{color:#777;font-size:11px;white-space:nowrap}
.wrap{overflow-x:auto;max-width:100%;border:1px solid #eee}.controls{display:flex;flex-wrap:wrap;gap:.6em 1.2em;
align-items:center;margin:.8em 0}.controls label{white-space:nowrap}details.cols div{display:flex;flex-wrap:wrap;
gap:.2em 1em;max-width:860px}td.model{text-align:left;white-space:nowrap;position:sticky;left:0;background:#fff}td[data-col=date]{white-space:nowrap}td.model a.hub{font-size:11px;margin-left:.4em}
.tie{color:#a05a00}.note{color:#555;font-size:13px;max-width:860px}svg{font-size:12px}code{font-size:12px}
#selftest-result{font-family:monospace;white-space:pre-wrap}"""


def _cell_td(key: str, cell: Cell, extra: str = "") -> str:
    value = "" if cell.value is None else repr(cell.value)
    half = cell.half()
    pm = "" if half is None else f'<span class="pm"> ± {100 * half:.1f}</span>'
    return (f'<td data-col="{key}" data-value="{value}" title="{esc(cell.tip())}"{extra}>'
            f'{cell.pct()}{pm}</td>')


def _select(ident: str, label: str, options: list[tuple[str, str]], attr: str = "") -> str:
    opts = "".join(f'<option value="{esc(v)}">{esc(t)}</option>' for v, t in options)
    return f'<label>{label} <select id="{ident}"{attr}>{opts}</select></label>'


def table_markup(board_rows: list[Row], cols: list[Column], info_keys: list[str], drill: str | None = "models/",
                 sorted_by: tuple[str, bool] = ("rank", False), sortable: bool = True) -> str:
    """The ranked table: headers with ``aria-sort`` (and, when ``sortable``, focusable for the page's script),
    ``value ± half-width`` cells with the interval and n in a tooltip; ``drill``: the folder of the
    drill-down pages (``None``: no links)."""
    info = [i for i in INFO if i[0] in info_keys]

    def th(key: str, title: str, tip: str, kind: str, higher: bool, extra: str = "", cls: str = "sortable") -> str:
        sort = ("descending" if sorted_by[1] else "ascending") if key == sorted_by[0] else "none"
        cls, focus = (cls, ' tabindex="0"') if sortable else (cls.replace("sortable", "").strip(), "")
        return (f'<th class="{cls}"{focus} aria-sort="{sort}" data-col="{key}" data-type="{kind}" '
                f'data-higher="{int(higher)}"{extra} title="{esc(tip)}">{esc(title)}</th>')

    head = [th("rank", "Rank", RANKED_BY, "number", False), th("model", "Model", "model", "text", True, cls="sortable left")]
    head += [th(k, t, tip, "number" if k == "params" else "text", True) for k, t, tip in info]
    head += [th(c.key, c.title, c.tip, "number", c.higher_is_better, f' data-puzzle="{c.puzzle}"' if c.puzzle else "")
             for c in cols]
    body = []
    for r in board_rows:
        e, shown, fact = r.entry, _info(r), facts(r)
        url = hub_url(e.model)
        hub = f' <a class="hub" href="{esc(url)}" title="{esc(e.model)} on the Hugging Face Hub">Hub ↗</a>' if url else ""
        name = f'<a class="drill" href="{drill}{esc(e.slug)}.html">{esc(e.model)}</a>' if drill is not None else esc(e.model)
        if r.limit is not None:
            name += f' <span class="pm" title="a run over part of the items is never ranked">({esc(unranked_note(r))})</span>'
        rank = MISSING if r.rank is None else f"{r.rank}=" if r.tied else str(r.rank)
        tip = "tied: its 95 % interval overlaps another row's of this rank" if r.tied else "rank by Overall"
        attrs = "".join(f' data-{k}="{esc(v)}"' for k, v in fact.items())
        cells = [f'<td data-col="rank" data-value="{"" if r.rank is None else r.rank}" title="{tip}" '
                 f'class="{"tie" if r.tied else ""}">{rank}</td>', f'<td class="model" data-col="model">{name}{hub}</td>']
        cells += [f'<td data-col="{k}" class="left"{f" data-value={chr(34)}{e.params}{chr(34)}" if k == "params" and e.params else ""}>'
                  f'{esc(shown[k]) or MISSING}</td>' for k, _, _ in info]
        cells += [_cell_td(c.key, r.cells[c.key]) for c in cols]
        body.append(f"<tr{attrs}>{''.join(cells)}</tr>")
    return (f'<div class="wrap"><table id="board"><thead><tr>{"".join(head)}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table></div>')


def main_page(board_rows: list[Row], cols: list[Column], puzzles: list[str], data_notes: list[str] | None = None) -> str:
    """The main page: controls, the ranked table (all views; the suite filter shows one) and how to submit."""
    script = resources.files("finereason.integrations.leaderboard").joinpath("page.js").read_text(encoding="utf-8")
    controls = ['<label>Search <input type="search" id="search" placeholder="model, revision, precision…" '
                'aria-controls="board"></label>']
    for key, label, options in filter_options(board_rows, puzzles):
        controls.append(_select(f"f-{key}", label, options, "" if key == "puzzle" else f' data-attr="{key}"'))
    hidden = default_hidden(board_rows, cols)
    boxes = "".join(f'<label><input type="checkbox" data-col="{k}"{"" if k in hidden else " checked"}> {esc(t)}</label>'
                    for k, t in selectable(cols))
    controls.append(f'<details class="cols" id="column-selector"><summary>Columns</summary><div>{boxes}</div></details>')
    markup = table_markup(board_rows, cols, [k for k, _, _ in INFO])
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>FineReason leaderboard</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>{CSS}</style></head>
<body><h1>FineReason leaderboard</h1>
<p class="note">Step-level reasoning on logic puzzles. Accuracies in %, ± the half-width of the 95 % interval
(Wilson for one task; the parts' half-widths combined for a mean); hover a cell for its interval and n.
— is undefined (no result, or an empty denominator), never 0, and never averaged. <strong>Ranked by</strong>
{esc(RANKED_BY)}. SC: state checking; ST strict: state transition where the child must stay solvable;
ST paper: the official scoring; E2E: end-to-end; SC P/R/F1 treat <em>unsolvable</em> as positive; Parse err:
unreadable answers (lower is better). Click a header, or focus it and press Enter or Space, to sort.
Click a model for its drill-down page. Runs with <code>--limit</code> are listed but never ranked.</p>
{"".join(f'<p class="note">{esc(n)}</p>' for n in dict.fromkeys(data_notes or []) if n)}
<p>Download: <a id="csv-link" href="leaderboard.csv" download>leaderboard.csv</a> ·
<a href="leaderboard.json">leaderboard.json</a> · <a href="leaderboard.md">leaderboard.md</a></p>
<div class="controls">{"".join(controls)}</div>
<p id="row-count" aria-live="polite"></p>
{markup}
<h2>Submit a model</h2>
<ol class="note"><li>Evaluate every task of a suite with logged samples, e.g.
<code>finereason eval --model hf --model_args pretrained=ORG/MODEL,dtype=bfloat16 --tasks finereason,finereason_end_to_end --log_samples --output_path runs</code>
(official release: <code>--tasks finereason_official</code>).</li>
<li>Validate and submit: <code>finereason leaderboard submit runs --repo-id ORG/requests --revision REV --precision bfloat16
[--suite finereason_official] [--model-type fine-tuned --params 7]</code> (<code>--dry-run</code> writes the files
locally only). One request per model, revision, precision and suite.</li>
<li>Rebuild this page: <code>finereason leaderboard build RESULTS_ROOT --out DIR</code>.</li></ol>
<p id="selftest-result"></p>
<script>{script}</script></body></html>
"""


def _breakdown_svg(entry: Entry, prefix: str, puzzles: list[str]) -> str:
    """One stacked 100 % bar per puzzle: the share of each state-transition category."""
    bar, left, width = 18, 120, 360
    height = 24 + len(puzzles) * (bar + 6) + 22
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{left + width + 10}" height="{height}">'
           f'<title>State-transition outcomes of {esc(entry.model)}</title>']
    y = 8
    for p in puzzles:
        out.append(f'<text x="{left - 6}" y="{y + 13}" text-anchor="end">{esc(domain_title(p))}</text>')
        x = float(left)
        for cat in TRANSITION_CATEGORIES:
            v = entry.cell(prefix, p, STATE_TRANSITION, rate_name(cat)).value
            if not v:
                continue
            out.append(f'<rect x="{x:.1f}" y="{y}" width="{v * width:.1f}" height="{bar}" fill="{CATEGORY_COLORS.get(cat, "#777")}">'
                       f'<title>{esc(domain_title(p))}: {cat} {100 * v:.1f} %</title></rect>')
            x += v * width
        y += bar + 6
    x = 4
    for cat in TRANSITION_CATEGORIES:
        out.append(f'<rect x="{x}" y="{y + 4}" width="10" height="10" fill="{CATEGORY_COLORS.get(cat, "#777")}"/>'
                   f'<text x="{x + 13}" y="{y + 13}" font-size="10">{cat}</text>')
        x += 18 + 6 * len(cat)
    out.append("</svg>")
    return "".join(out).replace(f'width="{left + width + 10}"', f'width="{max(left + width + 10, x)}"', 1)


def _ci(cell: Cell) -> str:
    return MISSING if cell.lo is None or cell.hi is None else f"{100 * cell.lo:.1f}–{100 * cell.hi:.1f}"


def detail_page(entry: Entry, own_rows: list[Row], cols: list[Column], puzzles: list[str],
                links: dict[tuple[str, str], str]) -> str:
    """A model's page: its rows, every task metric with n and interval, the ST error categories, samples."""
    url = hub_url(entry.model)
    parts = [f"<h1>{esc(entry.model)}</h1>",
             f'<p><a href="../index.html">← leaderboard</a>{f" · <a href={chr(34)}{esc(url)}{chr(34)}>on the Hub ↗</a>" if url else ""}</p>',
             f"<p>Revision <code>{esc(entry.revision)}</code> · precision {esc(shown_precision(entry))} · type "
             f"{esc(entry.model_type or entry.weight_type or 'unknown')} · params "
             f"{MISSING if entry.params is None else f'{entry.params:g} B'} · date {esc(entry.date or MISSING)}</p>",
             '<p class="note">Values in %; the interval is the 95 % Wilson interval (F1: approximate); n is the '
             "denominator of the metric (the class or prediction counts for P, R and per-class accuracies, "
             "from the logged samples). — is undefined.</p>"]
    for row in own_rows:
        prefix, title = VIEWS[row.view]
        summary = [c for c in cols if c.puzzle is None]
        parts += [f"<h2>{esc(title[0].upper() + title[1:])}</h2>",
                  f"<p>Rank {MISSING if row.rank is None else str(row.rank) + (' (tied)' if row.tied else '')} by Overall.</p>",
                  '<div class="wrap"><table><thead><tr>' + "".join(f"<th>{esc(c.title)}</th>" for c in summary)
                  + "</tr></thead><tbody><tr>" + "".join(_cell_td(c.key, row.cells[c.key]) for c in summary)
                  + "</tr></tbody></table></div>", "<h3>Every task metric</h3>",
                  '<div class="wrap"><table class="metrics"><thead><tr><th class="left">Task</th><th class="left">Metric</th>'
                  "<th>Value</th><th>n</th><th>95 % CI</th><th class=\"left\">Samples</th></tr></thead><tbody>"]
        for p in puzzles:
            for task in (STATE_CHECKING, STATE_TRANSITION, END_TO_END):
                name = f"{prefix}_{p}_{task}"
                if name not in entry.tasks:
                    continue
                link = links.get((entry.slug, name))
                sample = f'<a class="samples" href="../{esc(link)}">samples</a>' if link else "not logged"
                for m in METRICS[task]:
                    cell = entry.cell(prefix, p, task, m.name)
                    parts.append(f'<tr><td class="left">{esc(name)}</td><td class="left">{esc(m.name)}</td>'
                                 f'<td title="{esc(cell.tip())}">{cell.pct()}</td><td>{MISSING if cell.n is None else cell.n}</td>'
                                 f"<td>{_ci(cell)}</td><td class=\"left\">{sample}</td></tr>")
        parts.append("</tbody></table></div>")
        st = [p for p in puzzles if f"{prefix}_{p}_{STATE_TRANSITION}" in entry.tasks]
        if st:
            parts += ["<h3>State-transition error categories</h3>", _breakdown_svg(entry, prefix, st),
                      '<div class="wrap"><table><thead><tr><th class="left">Puzzle</th>'
                      + "".join(f"<th>{esc(c.replace('_', ' '))}</th>" for c in TRANSITION_CATEGORIES) + "</tr></thead><tbody>"]
            for p in st:
                parts.append(f'<tr><td class="left">{esc(domain_title(p))}</td>'
                             + "".join(_cell_td(rate_name(c), entry.cell(prefix, p, STATE_TRANSITION, rate_name(c)))
                                       for c in TRANSITION_CATEGORIES) + "</tr>")
            parts.append("</tbody></table></div>")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{esc(entry.model)}: FineReason leaderboard</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>{CSS}</style></head>
<body>{"".join(parts)}</body></html>
"""
