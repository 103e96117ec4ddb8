"""Self-verdicts (``Verdict: correct`` / ``Verdict: incorrect``) in model text, read as answer statements.

A model asked to verify an answer (the LLM-as-verifier tasks, the ``self`` feedback of the loop) ends
with a verdict. The scanner lists every ``Verdict:`` statement of the final region (``correct``/``valid``
accept; ``incorrect``/``wrong``/``invalid``/``not correct`` reject) and the commitment rule
(:mod:`finereason.reading.commit`) picks the verdict: a retraction, doubt or inability after it voids
it (``Verdict: correct\\nWait, actually step 2 is wrong`` is no verdict), a later different verdict
replaces it. Hedges never commit: both verdicts at once (``Verdict: correct or incorrect, I cannot
tell.``), a question (``Verdict: correct?``), a condition, or a word of the one hedge table
(:mod:`finereason.reading.hedges`: ``Verdict: probably correct``, ``My best guess: Verdict: correct``).
No verdict is never acceptance.
"""
from __future__ import annotations

import re
from collections import deque

from . import vocabulary
from .commit import Reading, Statement, commit
from .hedges import HEDGE_WORDS, mark_conditions, mark_hedges
from .region import UNFINISHED, blank_tags, final_region
from .ignoring import Ignoring
from .withdrawals import find_signals

_WORDS = (r"[ \t*_`]{0,8}(?:(?P<hedge>" + "|".join(HEDGE_WORDS) + r")\b[ \t,]{0,3})?"
          r"(?P<neg>not[ \t]{1,3})?(?P<word>correct|incorrect|wrong|valid|invalid)\b")
_VERDICT = re.compile(r"verdict[ \t]{0,3}[:=]" + _WORDS, re.IGNORECASE)
# after every other language's verdict marker ("Veredicto: correct", "判定：incorrect"), tried where one stands
_VERDICT_ANY = re.compile(vocabulary.marker_pattern("verdict").pattern + _WORDS, re.IGNORECASE)
_ACCEPT = frozenset({"correct", "valid"})
# the other verdict offered beside it, or a question: "correct or incorrect", "correct/incorrect", "correct?"
_BOTH = re.compile(r"[ \t*_`,]{0,4}(?:(?:/|\bor\b|\band/or\b|\bvs\.?)[ \t*_`]{0,4}(?:not[ \t]{1,3})?"
                   r"(?:correct|incorrect|wrong|valid|invalid)\b)", re.IGNORECASE)
_QUESTION = re.compile(r"[ \t*_`]{0,4}\?")
MAX_STATEMENTS = 256


def verdict_statements(region: str) -> list[Statement]:
    """The verdict statements of ``region`` in text order (module docstring); a statement's value is
    ``True`` (accepts) or ``False`` (rejects)."""
    out: list[Statement] = []
    found = _VERDICT.finditer(region)
    if vocabulary.has_markers(region.lower(), "verdict"):
        found = sorted([*found, *vocabulary.marker_matches(region, _VERDICT_ANY, "verdict")], key=lambda m: m.start())
    for m in deque(found, maxlen=MAX_STATEMENTS):
        accepts = m.group("word").lower() in _ACCEPT and not m.group("neg")
        hedged = ""
        if m.group("hedge"):
            hedged = "the verdict is hedged"
        elif _BOTH.match(region, m.end()):
            hedged = "the verdict names both verdicts"
        elif _QUESTION.match(region, m.end()):
            hedged = "the verdict is stated as a question"
        out.append(Statement(m.start(), m.end(), value=accepts, key=accepts, marked=True, hedged=hedged))
    return out


# judgments of the verified answer after a rejecting verdict agree with it ("Verdict: incorrect. The answer
# is wrong because ..."); after an accepting one they withdraw it
_JUDGMENTS = frozenset({"wrong", "incorrect", "invalid", "flawed", "mistaken", "not right", "not correct", "work"})


def verdict_reading(text: str, *, starts_in_think: bool = False) -> Reading:
    """The commitment reading of a self-verification response (value ``True``: accepts, ``False``:
    rejects, ``None``: no committed verdict)."""
    region = final_region(text, starts_in_think=starts_in_think) if isinstance(text, str) else None
    if region is None:
        return Reading(None, UNFINISHED)
    region = blank_tags(region)
    statements = mark_hedges(region, mark_conditions(region, verdict_statements(region)))
    signals = find_signals(region)
    last = next((s for s in reversed(statements) if not s.conditional), None)
    rejecting = last is not None and last.value is False
    return commit(statements, Ignoring(signals, _JUDGMENTS) if rejecting else signals, what="verdict")


__all__ = ["verdict_reading", "verdict_statements"]
