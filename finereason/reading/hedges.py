"""Conditions around an answer statement, shared by the scanners of every answer kind.

A statement is *conditional* when its sentence puts it under a condition ("If my count is right, the
next state is [...]", "Assuming no conflict remains, Answer: (A)") or pairs it with an alternative
("...; otherwise it is [...]"). Sentences end at ``.``, ``!``, ``?`` or a line break; both looks are
bounded (:data:`REACH` characters), so the check is constant time per statement.
"""
from __future__ import annotations

import re

REACH = 240  # characters looked at before and after a statement
# a sentence ends at . ! ? ; or at a line break, unless the line ends inside a clause ("..., then\n",
# "Otherwise,\n"): then the sentence goes on on the next line
_SENTENCE_END = re.compile(r"[.!?;](?=\s|$)|(?<![,\w])(?<!\bthen)(?<!\botherwise)(?<!\belse)\n|\n[ \t]*\n")
_CONDITION_BEFORE = re.compile(r"\b(?:if|unless|assuming|suppose|supposing|provided|in case|otherwise|else)\b", re.IGNORECASE)
_ALTERNATIVE_AFTER = re.compile(r"\b(?:otherwise|else|if not|if so|unless)\b", re.IGNORECASE)
_HEDGE_BEFORE = re.compile(r"\b(?:might|may|could)[ \t]{1,3}(?:also[ \t]{1,3})?be\b|\b(?:probably|possibly|perhaps|maybe"
                           r"|likely|presumably|guess)\b", re.IGNORECASE)
_OFFERED_BEFORE = re.compile(
    r"(?:[\])}\d]|\b[a-z]+\))[\s*_`$.,;/|]{0,40}(?:(?:or|either|alternatively|otherwise)[\s*_`$:,]{0,20}|\((?:or|maybe))"
    r"[\s*_`$:,]{0,20}(?:maybe|possibly|perhaps|probably)?[\s*_`$:,]{0,20}$|\beither[\s*_`$:,]{1,20}$",
    re.IGNORECASE,
)


def sentence_before(region: str, start: int) -> str:
    """The part of ``start``'s sentence before it (at most :data:`REACH` characters)."""
    lo = max(0, start - REACH)
    last = None
    for m in _SENTENCE_END.finditer(region, lo, start):
        last = m
    return region[last.end() if last else lo:start]


def sentence_after(region: str, stop: int) -> str:
    """The rest of ``stop``'s sentence after it (at most :data:`REACH` characters)."""
    m = _SENTENCE_END.search(region, stop, min(len(region), stop + REACH))
    return region[stop:m.start() if m else min(len(region), stop + REACH)]


def conditional(region: str, start: int, stop: int) -> bool:
    """Whether the statement at ``[start, stop)`` is stated under a condition or beside an alternative."""
    return (_CONDITION_BEFORE.search(sentence_before(region, start)) is not None
            or _ALTERNATIVE_AFTER.search(sentence_after(region, stop)) is not None)


def hedged(region: str, start: int) -> bool:
    """Whether the statement at ``start`` is hedged in its sentence ("it might be [...]", "probably [...]")."""
    return _HEDGE_BEFORE.search(sentence_before(region, start)) is not None


def offered_after_another(region: str, start: int) -> bool:
    """Whether the statement at ``start`` is offered as an alternative to what precedes it
    ("[...] or [...]", "either [...]", "E (or maybe F)")."""
    return _OFFERED_BEFORE.search(region, max(0, start - 80), start) is not None
