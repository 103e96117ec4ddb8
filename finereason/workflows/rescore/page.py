"""``disagreements.html``: a static page of every response whose recorded and sound verdicts differ,
filtered by model, direction and reason, each shown with its committed answer highlighted and the
reason in words; keyboard navigable (j/k or the arrow keys move between responses, Enter or Space opens
one). ``accuracy.png``: recorded versus sound accuracy per group, with the sound verdict's 95 % intervals.

The records come in as JSON lines (written while the run streams); the page embeds them as one JSON
array and builds its DOM from text nodes only (no HTML from the data). ``#selftest`` in the address
makes the page check itself and write ``PASS {...}`` or ``FAIL {...}`` into ``#selftest-result``.
"""
from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import IO, Any, Iterable

from ...common.intervals import wilson

PAGE = "disagreements.html"
PLOT = "accuracy.png"
MAX_TEXT = 40_000  # characters of a response kept around its committed answer
CREDITED = "credited but wrong"
MISSED = "missed"

_DIGITS = re.compile(r"\d{1,12}")


def direction(recorded: bool, sound: bool) -> str:
    return CREDITED if recorded and not sound else MISSED


def reason_kind(reason: str, sound: bool | None) -> str:
    """A short class of ``reason`` for the reason filter (the full reason is shown with each response)."""
    if sound:
        return "a correct answer the recorder rejected"
    text = (reason or "no reason given").split(";")[0].strip()
    if text.startswith("plan text: "):
        text = text[len("plan text: "):]
    if re.match(r"step \d{1,6} ", text):
        return "a plan step cannot be executed"
    if text.startswith("goal not reached"):
        return "the plan does not reach the goal"
    text = re.sub(r"\(['\"].{0,80}?['\"]\)", "", text)  # quoted words
    text = _DIGITS.sub("N", text.split(":")[0]).strip()
    return text[:80] or "no reason given"


def item(line: dict[str, Any], text: str) -> dict[str, Any]:
    """One disagreement as the page shows it (the response cut to :data:`MAX_TEXT` around its answer)."""
    span = line.get("span") or None
    lo = 0
    if len(text) > MAX_TEXT:
        end = span["end"] if span else len(text)
        lo = max(0, min(end + MAX_TEXT // 8, len(text)) - MAX_TEXT)
        text = text[lo:lo + MAX_TEXT]
    start, end = (span["start"] - lo, span["end"] - lo) if span else (-1, -1)
    return {"model": line["model"], "condition": line["condition"], "ids": line["ids"],
            "direction": direction(bool(line["recorded"]), bool(line["sound"])),
            "kind": reason_kind(line["reason"], line["sound"]), "reason": line["reason"] or "the answer is correct",
            "signal": line.get("signal"), "recorded_reason": line.get("recorded_reason") or "", "text": text,
            "start": start, "end": end, "cut": lo}


_STYLE = """body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:70rem;padding:1rem}
header{display:flex;flex-wrap:wrap;gap:.8rem;align-items:end}label{display:flex;flex-direction:column;font-size:.85rem}
article{border:1px solid #bbb;border-radius:6px;margin:.6rem 0;padding:.5rem .8rem}article:focus{outline:3px solid #2a6fdb}
article.open pre{display:block}pre{display:none;white-space:pre-wrap;word-break:break-word;background:#f6f6f6;padding:.5rem;
max-height:30rem;overflow:auto}mark{background:#ffe066}.why{font-weight:600}.ids{color:#555;font-size:.8rem}"""

_SCRIPT = r"""
const data = JSON.parse(document.getElementById('data').textContent);
const list = document.getElementById('list'), count = document.getElementById('count');
const filters = ['model', 'direction', 'kind'];
function options(key) {
  const sel = document.getElementById('f-' + key), seen = [...new Set(data.map(d => d[key]))].sort();
  for (const v of ['all', ...seen]) { const o = document.createElement('option'); o.value = v; o.textContent = v; sel.appendChild(o); }
  sel.addEventListener('change', render);
}
function el(tag, cls, text) { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; }
function card(d, i) {
  const a = el('article'); a.tabIndex = 0; a.dataset.index = i;
  a.appendChild(el('div', '', d.model + ' | ' + d.condition + ' | ' + d.direction));
  a.appendChild(el('div', 'why', d.reason + (d.signal ? ' (withdrawn by: "' + d.signal + '")' : '')));
  if (d.recorded_reason) a.appendChild(el('div', '', 'recorded: ' + d.recorded_reason));
  a.appendChild(el('div', 'ids', JSON.stringify(d.ids)));
  const pre = el('pre');
  if (d.start >= 0) {
    pre.appendChild(document.createTextNode(d.text.slice(0, d.start)));
    pre.appendChild(el('mark', '', d.text.slice(d.start, d.end)));
    pre.appendChild(document.createTextNode(d.text.slice(d.end)));
  } else { pre.textContent = d.text; }
  a.appendChild(pre);
  a.addEventListener('click', () => a.classList.toggle('open'));
  return a;
}
function shown() {
  const want = Object.fromEntries(filters.map(k => [k, document.getElementById('f-' + k).value]));
  return data.filter(d => filters.every(k => want[k] === 'all' || d[k] === want[k]));
}
function render() {
  list.replaceChildren(...shown().map(card));
  count.textContent = list.children.length + ' of ' + data.length + ' responses';
}
function move(step) {
  const cards = [...list.children]; if (!cards.length) return;
  const at = cards.indexOf(document.activeElement);
  cards[Math.max(0, Math.min(cards.length - 1, at < 0 ? 0 : at + step))].focus();
}
document.addEventListener('keydown', e => {
  if (e.target.tagName === 'SELECT') return;
  if (e.key === 'j' || e.key === 'ArrowDown') { move(1); e.preventDefault(); }
  else if (e.key === 'k' || e.key === 'ArrowUp') { move(-1); e.preventDefault(); }
  else if ((e.key === 'Enter' || e.key === ' ') && e.target.tagName === 'ARTICLE') { e.target.classList.toggle('open'); e.preventDefault(); }
});
filters.forEach(options); render();
if (location.hash === '#selftest') {
  const result = {total: data.length, shown: list.children.length, marks: document.querySelectorAll('mark').length, filters: {}};
  for (const k of filters) {
    const sel = document.getElementById('f-' + k); result.filters[k] = {};
    for (const o of sel.options) { sel.value = o.value; render(); result.filters[k][o.value] = list.children.length; }
    sel.value = 'all'; render();
  }
  move(1); const first = document.activeElement; move(1);
  result.keyboard = list.children.length < 2 || (first !== document.activeElement && document.activeElement.tagName === 'ARTICLE');
  const ok = result.shown === data.length && result.keyboard && filters.every(k => result.filters[k].all === data.length);
  document.getElementById('selftest-result').textContent = (ok ? 'PASS ' : 'FAIL ') + JSON.stringify(result);
}
"""


def write_page(out: IO[str], items: Iterable[dict[str, Any]], title: str) -> int:
    """Write the page to ``out``, embedding ``items`` (:func:`item` records) as they come; their number."""
    out.write(f"<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{_escape(title)}</title>"
              f"<style>{_STYLE}</style></head><body>\n<h1>{_escape(title)}</h1>\n<p>Responses whose recorded verdict "
              "differs from the sound one. Keys: j/k or arrows to move, Enter to show the response (its committed "
              "answer highlighted).</p>\n<header>")
    for key, name in (("model", "model"), ("direction", "direction"), ("kind", "reason")):
        out.write(f'<label>{name}<select id="f-{key}"></select></label>')
    out.write('<span id="count"></span></header>\n<main id="list"></main>\n<pre id="selftest-result" style="display:block"></pre>\n'
              '<script type="application/json" id="data">[')
    n = 0
    for record in items:
        out.write(("," if n else "") + "\n" + json.dumps(record, ensure_ascii=True, sort_keys=True).replace("<", "\\u003c"))
        n += 1
    out.write("\n]</script>\n<script>" + _SCRIPT + "</script>\n</body></html>\n")
    return n


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def write_plot(path: Path, summary: list[dict[str, Any]], title: str) -> bool:
    """``accuracy.png``: recorded and sound accuracy per group with the 95 % Wilson intervals of both;
    ``False`` (nothing written) without matplotlib or data."""
    rows = [r for r in summary if r["n"]]
    if not rows:
        return False
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    rows = rows[:60]
    fig, ax = plt.subplots(figsize=(8, 2.2 + 0.35 * len(rows)))
    for offset, key, label, marker in ((-0.15, "recorded_accuracy", "recorded", "s"), (0.15, "sound_accuracy", "sound", "o")):
        ys = [i + offset for i in range(len(rows))]
        xs = [r[key] for r in rows]
        bounds = [wilson(round(r[key] * r["n"]), r["n"]) for r in rows]
        ax.errorbar(xs, ys, xerr=[[max(0.0, x - lo) for x, (lo, _) in zip(xs, bounds)],
                                  [max(0.0, hi - x) for x, (_, hi) in zip(xs, bounds)]],
                    fmt=marker, capsize=3, label=label)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([f"{r['model']} | {r['condition']}"[:60] for r in rows], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlim(-0.02, 1.02)
    ax.set_xlabel("accuracy (95 % interval)")
    ax.set_title(title)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.3), ncol=2)
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100, metadata={"Software": None})
    plt.close(fig)
    path.write_bytes(buffer.getvalue())
    return True


__all__ = ["CREDITED", "MISSED", "PAGE", "PLOT", "direction", "item", "reason_kind", "write_page", "write_plot"]
