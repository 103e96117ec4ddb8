"""FOLIO answers, the conclusion's truth value (``True``/``False``/``Uncertain``: what FOLIO's ``label``
column holds), in model text, read as answer statements.

The scanner lists the truth-value statements of the final region: *marked* (``Answer: True``, ``Final
answer: **False**``, ``The answer is Uncertain``, ``\\boxed{\\text{True}}``; ``Unknown`` is
``Uncertain``) and *bare* (a line holding only the value, with markup: ``**Uncertain**``), the bare ones
only after the last marked one. The commitment rule (:mod:`finereason.reading.commit`) then picks the
answer: a retraction, doubt or inability after it voids it (``Answer: True\\nWait, that is wrong.``
reads nothing), a later different value replaces it, a conditional after it is explanation (``If
premise 3 were false, the answer would be False.``). Hedges never commit: another value offered on the
same line (``True or Uncertain``, ``True/False``, ``True (or possibly Uncertain)``) or a word of the one
hedge table (:mod:`finereason.reading.hedges`: ``My best guess for the answer: True``, ``Answer:
probably False``, ``Answer: True, I guess``); an unclosed ``\\boxed{True`` is cut off. Truth-value words
are not doubt: "The conclusion is uncertain." states the value, and after ``Uncertain`` "we cannot
determine from the premises whether ..." gives its reason (after ``True`` or ``False`` it withdraws the
answer); said of oneself ("I am uncertain") it is doubt.

Linear: one pass of bounded patterns over the region, then the lines after the last marked value.
"""
from __future__ import annotations

import re
from collections import deque

from . import vocabulary
from .boxed import mark_unclosed_boxes
from .commit import Reading, Statement, commit
from .hedges import HEDGE_ADVERBS, HEDGE_WORDS, mark_conditions, mark_hedges
from .ignoring import Ignoring
from .region import UNFINISHED, blank_tags, final_region
from .withdrawals import find_signals

#: FOLIO's answers, the truth values of a conclusion
TRUTH_VALUES = ("True", "False", "Uncertain")
#: the truth-value words and the value each reads as ("unknown" reads "Uncertain")
TRUTH_VALUE_WORDS = {"true": "True", "false": "False", "uncertain": "Uncertain", "unknown": "Uncertain"}
_WORD = r"(true|false|uncertain|unknown)"
_GAP = r"[\s*_`$\\{}:：\[\]]"  # markup between a marker and its value ("Answer:** ", "\boxed{\text{")
_MARKER = (r"(?:final[ \t]{1,3})?answer(?:[ \t]{1,3}(?:is|would[ \t]{1,3}be|will[ \t]{1,3}be|should[ \t]{1,3}be|must[ \t]{1,3}be))?"
           r"|\\boxed")
_LABEL = (_GAP + r"{0,40}(?:(?:text|textbf|mathrm|boxed)\{" + _GAP + r"{0,8})?"
          r"(?:(?P<hedge>" + "|".join(HEDGE_WORDS) + r")\b[ \t,]{1,3})?(?P<word>true|false|uncertain|unknown)\b")
_MARKED = re.compile(r"(?:" + _MARKER + r")" + _LABEL, re.IGNORECASE)
# after every other language's answer marker ("Respuesta: True", "答案：False"), tried where one stands
_MARKED_ANY = re.compile(vocabulary.marker_pattern().pattern + _LABEL, re.IGNORECASE)
# another value offered beside the answer on its line: "True or Uncertain", "True/False", "True (or possibly Uncertain)"
_OFFERS_ANOTHER = re.compile(r"[\s*_`)\]}.,;:-]{0,20}(?:/|\bor\b|\(|\band/or\b|\bbut\b|\b(?:" + "|".join(HEDGE_ADVERBS)
                             + r")\b)[^\n.]{0,40}?\b" + _WORD + r"\b", re.IGNORECASE)
_BARE = re.compile(r"^[ \t*_`#>\"'(\[]{0,12}" + _WORD + r"[ \t*_`\"').\]!]{0,12}$", re.IGNORECASE | re.MULTILINE)
MAX_STATEMENTS = 256
#: withdrawal words that are truth values: "The conclusion is uncertain." states the value (not "I am uncertain")
TRUTH_VALUE_SIGNALS = frozenset({"uncertain"})
#: after the value Uncertain, the words that give its reason when followed by what they are about: "We
#: cannot determine from the premises whether Rex is a dog." agrees with Uncertain ("I can't determine it."
#: withdraws it; after True or False both withdraw the answer)
UNCERTAIN_REASONS = frozenset({"can't", "can’t", "cannot", "can not", "couldn't", "couldn’t", "could not", "unable to",
                               "not able to", "to determine"})


def truth_value_statements(region: str) -> list[Statement]:
    """The truth-value statements of ``region`` in text order (module docstring); the last
    :data:`MAX_STATEMENTS` of them."""
    out: list[Statement] = []
    found = _MARKED.finditer(region)
    if vocabulary.has_markers(region.lower()):
        found = sorted([*found, *vocabulary.marker_matches(region, _MARKED_ANY)], key=lambda m: m.start())
    for m in deque(found, maxlen=MAX_STATEMENTS):
        if out and out[-1].end == m.end():
            continue  # one value read twice ("Answer: \\boxed{True}")
        value = TRUTH_VALUE_WORDS[m.group("word").lower()]
        hedged = "the final answer is hedged" if m.group("hedge") else ""
        other = _OFFERS_ANOTHER.match(region, m.end())
        if other is not None and TRUTH_VALUE_WORDS[other.group(1).lower()] != value:
            hedged = "the final answer names more than one label"
        out.append(Statement(m.start(), m.end(), value=value, key=value, marked=True, hedged=hedged))
    if out:  # bare values: the lines after the last marked one
        pos = region.find("\n", out[-1].end) + 1
        if pos == 0:
            return out
    else:
        pos = 0
    for bare in deque(_BARE.finditer(region, pos), maxlen=MAX_STATEMENTS):
        value = TRUTH_VALUE_WORDS[bare.group(1).lower()]
        out.append(Statement(bare.start(1), bare.end(1), value=value, key=value))
    return out[-MAX_STATEMENTS:]


def truth_value_reading(text: str, *, starts_in_think: bool = False) -> Reading:
    """The commitment reading of a FOLIO response (value: ``"True"``, ``"False"``, ``"Uncertain"`` or ``None``)."""
    region = final_region(text, starts_in_think=starts_in_think) if isinstance(text, str) else None
    if region is None:
        return Reading(None, UNFINISHED)
    region = blank_tags(region)
    statements = truth_value_statements(region)
    statements = mark_unclosed_boxes(region, mark_hedges(region, mark_conditions(region, statements)))
    last = next((s for s in reversed(statements) if not s.conditional), None)
    reasons = UNCERTAIN_REASONS if last is not None and last.value == "Uncertain" else frozenset()
    return commit(statements, Ignoring(find_signals(region), TRUTH_VALUE_SIGNALS, reasons), what="label")


def read_truth_value(text: str, *, starts_in_think: bool = False) -> str | None:
    """The committed truth value of a FOLIO response (:func:`truth_value_reading`), or ``None``.

    Under the one commitment rule: only text after the last ``</think>`` counts; the last ``Answer: X``
    (or ``\\boxed{X}``, or a line holding only the value after it) is the candidate, and it commits only
    if nothing after it withdraws it ("Wait, that is wrong."); a later different value replaces it, a
    conditional after it is explanation. A hedge ("Answer: True or Uncertain", "My best guess for the
    answer: True") gets no credit."""
    return truth_value_reading(text, starts_in_think=starts_in_think).value


__all__ = ["TRUTH_VALUES", "TRUTH_VALUE_SIGNALS", "TRUTH_VALUE_WORDS", "UNCERTAIN_REASONS", "read_truth_value",
           "truth_value_reading", "truth_value_statements"]
