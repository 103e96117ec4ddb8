"""``\\boxed{}`` in model text: the one bounded box reader, and the math answer kind.

:func:`boxed_contents` / :func:`last_boxed` read the contents of ``\\boxed{...}`` groups (braces matched,
length and nesting bounded); the math reward reads model answers with them, the math loader reference
answers. :func:`mark_unclosed_boxes` marks an answer statement whose ``\\boxed{`` never closes as cut off,
for every answer kind: an unclosed ``\\boxed{B`` is never credited.

The math answer kind (:func:`boxed_reading`): every ``\\boxed{}`` of the final region is an answer
statement (its key: the content without spacing), and the commitment rule
(:mod:`finereason.reading.commit`) picks the answer: a later different box replaces an earlier one, a
withdrawal after the last box voids it, a box the text ends inside is no answer. Two different boxes
offered at once (``\\boxed{3} or \\boxed{5}``, ``\\boxed{3}, \\boxed{5}``), a hedge inside the box
(``3 \\text{ or } 5``, ``?``) or around it (``My best guess: \\boxed{5}``, the one hedge table of
:mod:`finereason.reading.hedges`), a box under a condition, an empty, over-long or over-nested box
never commit; more than ``max_boxes`` boxes is spam (no answer).
"""
from __future__ import annotations

import re
from dataclasses import replace

from .commit import Reading, Statement, commit
from .hedges import HEDGE_ADVERBS, HEDGE_WORDS, mark_conditions, mark_hedges, offered_after_another
from .region import UNFINISHED, blank_tags, final_region
from .withdrawals import find_signals

_BOXED = re.compile(r"\\boxed[ \t]{0,4}\{")
_UNCLOSED = -1   # the text ends inside the box
CUT_REACH = 1024  # a box opened this close to the end of the text and never closed is cut off
_TOO_LONG = -2   # no closing brace within max_chars
_SPACING = re.compile(r"\\[,!;: ]|\\quad|\\qquad|[\s$]")
# a hedge inside a box: a word of the hedge table, "or"/"either", a logical or, a question mark
BOX_HEDGE = re.compile(r"(?<![A-Za-z\\])(?:" + "|".join(("or", "either") + HEDGE_WORDS) + r")(?![A-Za-z])"
                       r"|\\lor(?![A-Za-z])|\\vee(?![A-Za-z])|\?", re.IGNORECASE)
# two boxes given at once: "\boxed{3}, \boxed{5}", "\boxed{3} or \boxed{5}", "\boxed{3} (or maybe \boxed{5})", one
# right under the other (a blank line between is a new statement)
_TOGETHER = re.compile(r"[ \t,;/&$(*_]{0,8}\n?[ \t,;/&$(*_]{0,8}(?:(?:and|or|either|vs\.?|versus|alternatively)\b[ \t$(*_:,]{0,8}"
                       r"(?:(?:" + "|".join(HEDGE_ADVERBS) + r")\b[ \t$:,]{0,4})?)?", re.IGNORECASE)


_ALSO = re.compile(r"[ \t,]{0,3}(?:(?:is|are|was|works?|would[ \t]{1,3}be)[ \t]{1,3})?also\b", re.IGNORECASE)  # "\boxed{-2} is also ..."
_OFFERED = re.compile(r"\b(?:or|either|alternatively|versus|vs)\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)|\n")


def _together(region: str, lo: int, hi: int) -> bool:
    """Whether two boxes at ``lo`` (the end of one) and ``hi`` (the start of the next) are given at once:
    only separators and at most one line break between, or an "or" in the same sentence and line (``x = \\boxed{7} or x = \\boxed{13}``)."""
    if _TOGETHER.fullmatch(region, lo, hi) or offered_after_another(region, hi):
        return True
    return (hi - lo <= 60 and _OFFERED.search(region, lo, hi) is not None
            and _SENTENCE_END.search(region, lo, hi) is None)


def _box_end(text: str, begin: int, max_chars: int) -> tuple[int, int]:
    """``(end, deepest)`` of the box whose ``{`` ends just before ``begin``: ``end`` one past its
    closing brace, or :data:`_UNCLOSED` / :data:`_TOO_LONG`; ``deepest`` the deepest nesting seen."""
    depth, i, stop = 1, begin, min(len(text), begin + max_chars + 1)
    deepest = 1
    while i < stop and depth:
        ch = text[i]
        if ch == "{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch == "}":
            depth -= 1
        i += 1
    if depth == 0:
        return i, deepest
    return (_UNCLOSED if stop >= len(text) else _TOO_LONG), deepest


def _box_at(text: str, begin: int, max_chars: int, max_depth: int | None) -> str | None:
    """The content of the box whose ``{`` ends just before ``begin``; ``None`` when it is unclosed
    within ``max_chars`` characters or nested deeper than ``max_depth``."""
    end, deepest = _box_end(text, begin, max_chars)
    ok = end >= 0 and (max_depth is None or deepest <= max_depth)
    return text[begin:end - 1] if ok else None


def boxed_contents(text: str, *, max_chars: int, max_depth: int | None = None,
                   max_boxes: int | None = None) -> list[str | None] | None:
    """The contents of every ``\\boxed{}`` in ``text``, in order (``None`` for a box that is unclosed,
    longer than ``max_chars`` or nested deeper than ``max_depth``); ``None`` when there are more than
    ``max_boxes`` boxes."""
    starts: list[int] = []
    for m in _BOXED.finditer(text):
        starts.append(m.end())
        if max_boxes is not None and len(starts) > max_boxes:
            return None
    return [_box_at(text, begin, max_chars, max_depth) for begin in starts]


def last_boxed(text: str, *, max_chars: int) -> str | None:
    """The stripped content of the last ``\\boxed{`` group in ``text`` (written exactly so, as reference
    solutions write it), or ``None`` (no box, or the last one unclosed within ``max_chars`` characters)."""
    at = text.rfind("\\boxed{")
    if at < 0:
        return None
    content = _box_at(text, at + len("\\boxed{"), max_chars, None)
    return None if content is None else content.strip()


def mark_unclosed_boxes(region: str, statements: list[Statement]) -> list[Statement]:
    """``statements`` with every one that opens a ``\\boxed{`` the text ends inside marked cut off
    (``complete=False``): ``Answer: \\boxed{B`` is no answer, for every answer kind. A box is cut off when
    the text ends inside it within :data:`CUT_REACH` characters (a longer open box is left to the kind)."""
    if "\\boxed" not in region:
        return statements
    out = []
    for s in statements:
        at = region.find("\\boxed", max(0, s.start - 1), max(s.start, s.end))
        if at >= 0 and s.complete:
            m = _BOXED.match(region, at)
            if (m is not None and len(region) - m.end() <= CUT_REACH
                    and _box_end(region, m.end(), CUT_REACH)[0] == _UNCLOSED):
                s = replace(s, complete=False)
        out.append(s)
    return out


def box_key(content: str) -> str:
    """A box's content without spacing (``\\,``, ``\\quad``, spaces, ``$``), ``\\left``/``\\right`` and a
    closing full stop: equal for two boxes of the same answer."""
    return _SPACING.sub("", content).replace("{,}", ",").replace("\\left", "").replace("\\right", "").rstrip(".")


def box_hedged(content: str) -> bool:
    """Whether a box's content hedges (``3 \\text{ or } 5``, ``5?``, ``\\text{maybe } 5``)."""
    return BOX_HEDGE.search(content) is not None


def box_statements(region: str, *, max_chars: int, max_depth: int, inner_hedge_ok: bool = False) -> list[Statement]:
    """Every ``\\boxed{}`` of ``region`` as an answer statement, in text order (see the module docstring)."""
    out: list[Statement] = []
    for m in _BOXED.finditer(region):
        end, deepest = _box_end(region, m.end(), max_chars)
        if end == _UNCLOSED:
            out.append(Statement(m.start(), len(region), key=("cut", m.start()), marked=True, complete=False))
            break  # everything after an unclosed box is inside it
        if end == _TOO_LONG:
            out.append(Statement(m.start(), m.end(), key=("long", m.start()), marked=True,
                                 hedged=f"the boxed answer is longer than {max_chars} characters"))
            continue
        content = region[m.end():end - 1]
        key = box_key(content)
        hedged = ""
        if deepest > max_depth:
            hedged = f"the boxed answer is nested deeper than {max_depth} levels"
        elif not key:
            hedged = "the boxed answer is empty"
        elif not inner_hedge_ok and box_hedged(content):
            hedged = "the boxed answer is hedged"
        elif ((out and out[-1].complete and out[-1].key != key and _together(region, out[-1].end, m.start()))
              or _ALSO.match(region, end)):
            hedged = "the final answer names more than one value"
        out.append(Statement(m.start(), end, value=content.strip(), key=key, marked=True, hedged=hedged))
    return out


def boxed_reading(text: str, *, starts_in_think: bool = False, max_chars: int = 256, max_depth: int = 8,
                  max_boxes: int = 32, inner_hedge_ok: bool = False) -> Reading:
    """The committed ``\\boxed{}`` answer of a response (``value``: the box's stripped content), read by
    the commitment rule (module docstring). ``inner_hedge_ok``: a hedge word inside the box is part of
    the answer (the reference answer has one too)."""
    region = final_region(text, starts_in_think=starts_in_think)
    if region is None:
        return Reading(None, UNFINISHED)
    region = blank_tags(region)
    if region.count("\\boxed") > max_boxes and len(_BOXED.findall(region)) > max_boxes:
        return Reading(None, f"more than {max_boxes} boxed answers")
    statements = box_statements(region, max_chars=max_chars, max_depth=max_depth, inner_hedge_ok=inner_hedge_ok)
    statements = mark_hedges(region, mark_conditions(region, statements))
    return commit(statements, find_signals(region, solving=True), what="boxed answer")


__all__ = ["BOX_HEDGE", "box_hedged", "box_key", "box_statements", "boxed_contents", "boxed_reading", "last_boxed",
           "mark_unclosed_boxes"]
