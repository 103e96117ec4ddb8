"""What the answer's scope is: where text stops being about this puzzle's answer.

Stated once for every answer kind, read by the commitment rule (:mod:`finereason.reading.commit`):

- a *simulated turn* of another speaker (a line opening ``User:``, ``Human:``, ``### User``, the
  vocabulary's ``turn`` category in every language) ends the reading: nothing after it is read;
- text addressed to a *different puzzle* after an answer (a line opening ``P.S.``, ``Bonus``,
  ``Variant``, ``For the harder version``: the ``scope`` category) is outside the answer: it neither
  replaces nor withdraws it;
- an *echoed option list* (the prompt's options written back, one per line: ``(A) solvable`` /
  ``(B) unsolvable``) and an echoed instruction (``Answer with (A) or (B).``, the ``instruction``
  phrases of the ``scope`` category's neighbours) are prompt text, not answer statements.

Turns and scope openers are looked for at line starts only (one look per line); echoes with bounded
looks around a statement: linear in the text.
"""
from __future__ import annotations

import re
from functools import lru_cache

from . import vocabulary

_MARKUP = " \t*_#>-`"
_OPTION_LINE = re.compile(r"[ \t*_>-]{0,6}(?:\(([a-e])\)|\[([a-e])\]|([a-e])[.):])[ \t]{1,3}\S", re.IGNORECASE)


def line_start(low: str, at: int) -> bool:
    """Whether offset ``at`` opens its line (only markup and spaces before it on the line)."""
    j = at
    for _ in range(12):
        if j == 0 or low[j - 1] == "\n":
            return True
        if low[j - 1] not in _MARKUP:
            return False
        j -= 1
    return False


def _first(low: str, category: str, lo: int, hi: int, where) -> int:
    hit = vocabulary.first(low, category, lo, hi, where)
    return hi if hit is None else hit[0]


@lru_cache(maxsize=None)
def _opening(categories: tuple[str, ...]) -> tuple[re.Pattern[str], re.Pattern[str], dict[str, tuple[vocabulary.Entry, ...]]]:
    """Markup, then any entry of ``categories`` (longest first), matched at a line start; the same after
    a line break (searched at C speed: the line break is a literal the search skips to); and the
    entries by word."""
    by_word: dict[str, list[vocabulary.Entry]] = {}
    for category in categories:
        for entry in vocabulary.words(category):
            by_word.setdefault(entry.word, []).append(entry)
    body = r"[ \t*_>`-]{0,12}(" + vocabulary.alternation(sorted(by_word, key=lambda w: (-len(w), w))) + ")"
    return re.compile(body), re.compile("\n" + body), {w: tuple(es) for w, es in by_word.items()}




def _line_opening(at_start: re.Pattern[str], after_break: re.Pattern[str], low: str, pos: int, hi: int):
    """The first match of ``at_start`` at a line start in ``[pos, hi)`` (``pos`` a line start or ``hi``):
    a match at ``pos == 0``, else the first line break at or after ``pos - 1`` followed by a match."""
    if pos == 0:
        m = at_start.match(low, 0, hi)
        if m is not None:
            return m
        return after_break.search(low, 0, hi)
    return after_break.search(low, pos - 1, hi)


def _openers(low: str, lo: int, hi: int):
    """``(offset, category)`` of each turn or scope entry opening a line in ``[lo, hi)``, in text order."""
    at_start, after_break, by_word = _opening(("turn", "scope"))
    ls = low.rfind("\n", 0, lo) + 1
    pos = ls if ls == lo else (low.find("\n", lo, hi) + 1 or hi)
    for _ in range(256):
        m = _line_opening(at_start, after_break, low, pos, hi)
        if m is None:
            return
        at = m.start(1)
        for entry in by_word[m.group(1)]:
            if vocabulary.found(entry, low, at):
                yield at, entry.category
                break
        pos = low.find("\n", at, hi) + 1 or hi


def turn_at(low: str) -> int:
    """Offset of the first simulated turn of another speaker (``len(low)``: none). A turn opening the
    text is a quoted prompt, not a turn: it counts only after some other text."""
    marks = vocabulary.anchors("turn")  # every turn holds one of a few marks (":", "#", "<"): a cheap pre-check
    if marks is not None and not any(m in low for m in marks):
        return len(low)
    return answer_end(low, len(low))


def answer_end(low: str, after: int) -> int:
    """Where the answer's scope ends: the first simulated turn, or the first line opening text about a
    different puzzle after offset ``after`` (the first answer statement); ``len(low)`` when the whole
    text is in scope."""
    lead = len(low) - len(low.lstrip())
    for at, category in _openers(low, lead + 1, len(low)):
        if category == "turn" or at > after:
            return at
    return len(low)


def _label(low: str, ls: int) -> str:
    """The option label opening the line that starts at ``ls`` ("" when none)."""
    le = low.find("\n", ls)
    m = _OPTION_LINE.match(low, ls, len(low) if le < 0 else le)
    return "" if m is None else next(g for g in m.groups() if g).lower()


def echoed_options(text: str, start: int, end: int) -> bool:
    """Whether ``[start, end)`` lies in an echoed option list: its line opens with an option label
    (``(A) ...``, ``B. ...``) and the line before it, the line after it or its own last line opens
    with a different one (``text`` in either case)."""
    low = text
    ls = low.rfind("\n", 0, start) + 1
    mine = _label(low, ls)
    if not mine or start > ls + 12:
        return False
    labels = set()
    if ls >= 2:
        labels.add(_label(low, low.rfind("\n", 0, ls - 1) + 1))
    last = low.rfind("\n", ls, max(ls, end - 1)) + 1
    if last > ls:
        labels.add(_label(low, last))
    le = low.find("\n", max(ls, end - 1))
    if le >= 0:
        labels.add(_label(low, le + 1))
    return bool(labels - {"", mine})


def echoed_instruction(low: str, start: int) -> bool:
    """Whether the statement at ``start`` is part of an echoed instruction ("Answer with (A) or (B).",
    "Respond in the form 'Answer: ...'"): an ``instruction`` phrase of the vocabulary before it in its
    line, within 80 characters."""
    lo = max(low.rfind("\n", 0, start) + 1, start - 80)
    return _first(low, "instruction", lo, start, lambda _low, _at: True) < start
