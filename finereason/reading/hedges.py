"""Conditions around an answer statement, shared by the scanners of every answer kind.

A statement is *conditional* when its sentence puts it under a condition ("If my count is right, the
next state is [...]", "Assuming no conflict remains, Answer: (A)") or pairs it with an alternative
("...; otherwise it is [...]"). Sentences end at ``.``, ``!``, ``?`` or a line break; both looks are
bounded (:data:`REACH` characters), so the check is constant time per statement.
"""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import replace
from typing import Any, Callable

from . import vocabulary
from .vocabulary import alternation

REACH = 240  # characters looked at before and after a statement
# a sentence ends at . ! ? ; or at a line break, unless the line ends inside a clause ("..., then\n",
# "Otherwise,\n"): then the sentence goes on on the next line
_SENTENCE_END = re.compile(r"[.!?;](?=\s|$)|(?<![,\w])(?<!\bthen)(?<!\botherwise)(?<!\belse)\n|\n[ \t]*\n")
_GOES_ON = re.compile(r"(?:,|\b(?:then|otherwise|else))$")
_CLAUSE_ENDS = (",", "then", "otherwise", "else")  # what _GOES_ON looks for, word boundaries aside
# "provided" as a condition ("provided the hand is empty"), not as a participle ("the plan provided:")
_CONDITION_BEFORE = re.compile(r"\b(?:if|unless|assuming|suppose|supposing|in case|otherwise|else|provided(?![ \t]*(?:[:.,;)\n]|$)"
                               r"|[ \t]{1,3}(?:below|above|here|earlier|in|by|to|for|with|is|are|was|were)\b))\b", re.IGNORECASE)
_ALTERNATIVE_AFTER = re.compile(r"\b(?:otherwise|else|if not|if so|unless)\b", re.IGNORECASE)
# what every word of either pattern above starts with, lower case: a text without any has no conditional statement
_CONDITION_STEMS = ("if", "unless", "assum", "suppos", "provided", "in case", "otherwise", "else")
_CONDITION_STEM = re.compile(alternation(_CONDITION_STEMS))  # any of them
_ONE_SEARCH = 2_048  # below this many characters one search for a set of words beats one search per word
#: The one hedge table, for every answer kind: a word of :data:`HEDGE_WORDS` in an answer's sentence
#: ("My best guess: ...", "probably (B)"), a modal of :data:`HEDGE_MODALS` followed by "be" ("it might be
#: ...") or a word of :data:`HEDGE_AFTER` right after the answer ("(B), probably") makes it a guess, which
#: never commits; :data:`HEDGE_ADVERBS` also offer an alternative after "or" ("[...] or maybe [...]").
#: The tables are data: the ``hedge`` entries of ``vocabulary/en.json`` that name them (``"tables"``).
HEDGE_WORDS = vocabulary.hedge_table("words")
HEDGE_MODALS = vocabulary.hedge_table("modals")
HEDGE_AFTER = vocabulary.hedge_table("after")
HEDGE_ADVERBS = vocabulary.hedge_table("adverbs")
_HEDGE_BEFORE = re.compile(r"\b(?:" + "|".join(HEDGE_MODALS) + r")[ \t]{1,3}(?:also[ \t]{1,3})?be\b|\b(?:"
                           + "|".join(HEDGE_WORDS) + r")\b", re.IGNORECASE)
_HEDGE_AFTER = re.compile(r"[ \t,;:(*_–—-]{0,6}(?:(?:i|it's|it is|is|most|very|quite|but)[ \t]{1,3}){0,2}(?:"
                          + "|".join(HEDGE_AFTER) + r")\b", re.IGNORECASE)


def sentence_before(region: str, start: int) -> str:
    """The part of ``start``'s sentence before it (at most :data:`REACH` characters)."""
    if start <= 0:  # a statement opening the text
        return ""
    lo = max(0, start - REACH)
    line = region.rfind("\n", lo, start)
    if line >= 0:  # the common case: a line break ends the sentence and the line holds no sentence end
        tail = region[line + 1:start]
        if ("." not in tail and "!" not in tail and "?" not in tail and ";" not in tail
                and not region[max(lo, line - 12):line].rstrip(" \t").endswith(_CLAUSE_ENDS)):
            return tail
    cut = lo
    for mark in ".!?;":
        at = region.rfind(mark, lo, start)
        while at >= 0 and at + 1 < start and not region[at + 1].isspace():
            at = region.rfind(mark, lo, at)  # "3.5", "e.g": not a sentence end
        cut = max(cut, at + 1)
    hi = start
    while True:  # the last line break that ends a sentence
        at = region.rfind("\n", cut, hi)
        if at < 0:
            break
        before = region[max(cut, at - 12):at].rstrip(" \t")
        if not _GOES_ON.search(before):
            cut = at + 1
            break
        hi = at
    return region[cut:start]


def sentence_after(region: str, stop: int) -> str:
    """The rest of ``stop``'s sentence after it (at most :data:`REACH` characters)."""
    m = _SENTENCE_END.search(region, stop, min(len(region), stop + REACH))
    return region[stop:m.start() if m else min(len(region), stop + REACH)]


def conditional(region: str, start: int, stop: int, before: str | None = None) -> bool:
    """Whether the statement at ``[start, stop)`` is stated under a condition or beside an alternative
    (``before``: :func:`sentence_before`, when the caller has it)."""
    before = sentence_before(region, start) if before is None else before
    if not before and stop >= len(region):  # nothing before it in its sentence, nothing after it
        return False
    after = region[stop:stop + REACH]  # sentence_after's reach
    if before.isascii() and after.isascii() and not may_be_conditional(f"{before}\n{after}".lower()):
        return False  # every word of both patterns holds a stem (ASCII: no other case folds to one)
    return (_CONDITION_BEFORE.search(before) is not None
            or _ALTERNATIVE_AFTER.search(sentence_after(region, stop)) is not None)


def may_be_conditional(low: str) -> bool:
    """Whether lower-case text ``low`` holds any condition word at all (C-speed searches): without one,
    no statement in it is conditional and :func:`conditional` need not be asked."""
    if len(low) < _ONE_SEARCH:  # one search for every stem beats a search per stem in short text
        return _CONDITION_STEM.search(low) is not None
    return any(stem in low for stem in _CONDITION_STEMS)


def hedged(region: str, start: int, before: str | None = None) -> bool:
    """Whether the statement at ``start`` is hedged in its sentence ("it might be [...]", "probably [...]")."""
    before = sentence_before(region, start) if before is None else before
    return _HEDGE_BEFORE.search(before) is not None


def hedge_in(text: str) -> bool:
    """Whether ``text`` (a sentence, a line introducing an answer) holds a hedge of the table."""
    return _HEDGE_BEFORE.search(text) is not None


def hedged_after(region: str, stop: int) -> bool:
    """Whether a word of :data:`HEDGE_AFTER` follows the statement ending at ``stop`` within a few words
    of its sentence ("(1 + 2) * 8, I guess", "True (probably)")."""
    return _HEDGE_AFTER.match(region, stop, min(len(region), stop + 40)) is not None


def may_be_hedged(low: str) -> bool:
    """Whether lower-case text ``low`` holds any hedge word at all (C-speed searches): without one, no
    statement in it is hedged by the table and :func:`hedged` need not be asked."""
    return any(word in low for word in HEDGE_WORDS) or any(word in low for word in HEDGE_MODALS)


def introduced_by_hedge(region: str, start: int) -> bool:
    """Whether the statement at ``start`` opens its line and the line before it introduces it with a
    hedge ("My best guess:" and the answer on the next line)."""
    line_start = region.rfind("\n", 0, start) + 1
    if line_start == 0 or region[line_start:start].strip(" \t*_#>`-"):
        return False
    chunk = region[max(0, line_start - REACH):line_start].rstrip().rstrip("*_`")
    if not chunk.endswith((":", "：")):
        return False
    return hedge_in(chunk[chunk.rfind("\n") + 1:])


def mark_hedges(region: str, statements: list, *, sentence: bool | Callable[[Any], bool] = True) -> list:
    """``statements`` with every one hedged by the table (:func:`hedged`, :func:`hedged_after`,
    :func:`introduced_by_hedge`) marked ``hedged``: for scanners that find their statements without
    looking at the sentence around them (``sentence=False``: a scanner that looks at the words before
    a statement itself asks only about the words after it and its introducing line; a function of the
    statement: whether its sentence is still to be looked at)."""
    if not statements or len(statements) > 8 and not may_be_hedged(region.lower()):
        return statements
    out = []
    for s in statements:
        if s.rejects is None and not s.hedged and (((sentence if sentence is True or sentence is False else sentence(s))
                                                    and hedged(region, s.start)) or hedged_after(region, s.end)
                                                   or introduced_by_hedge(region, s.start)):
            s = replace(s, hedged="the final answer is hedged")
        out.append(s)
    return out


_SENTENCE_BREAK = re.compile(r"[.!?;](?=\s|$)")


class SentenceHedges:
    """The sentences of one line that hold a hedge word ("It could be X or Y.", "I think it is X, but it
    might be Y."), for asking about many mentions in the line: sentence ends and hedge words are found
    once (linear in the line), each question is a binary search."""

    def __init__(self, region: str, lo: int, hi: int) -> None:
        self.breaks = [m.end() for m in _SENTENCE_BREAK.finditer(region, lo, hi)]
        self.words = [m.start() for m in _HEDGE_BEFORE.finditer(region, lo, hi)]

    def sentence(self, at: int) -> int:
        """The number of the sentence (of the line) that offset ``at`` lies in."""
        return bisect_right(self.breaks, at)

    def hedged(self, at: int) -> bool:
        """Whether the sentence that offset ``at`` lies in holds a hedge word (before or after ``at``)."""
        k = self.sentence(at)
        lo = self.breaks[k - 1] if k else -1
        i = bisect_left(self.words, lo)
        return i < len(self.words) and (k >= len(self.breaks) or self.words[i] < self.breaks[k])


_JUNK = " \t\r\n*_`$:,("
_ADVERBS = HEDGE_ADVERBS
_OFFERING = ("either", "or", "alternatively", "otherwise")


def _ends_with_word(text: str, word: str) -> bool:
    return text.endswith(word) and (len(text) == len(word) or not text[-len(word) - 1].isalnum())


def offered_after_another(region: str, start: int) -> bool:
    """Whether the statement at ``start`` is offered as an alternative to what precedes it
    ("[...] or [...]", "either [...]", "E (or maybe F)", "[...], or possibly [...]")."""
    before = region[max(0, start - 80):start].lower().rstrip(_JUNK)
    if before.endswith(_ADVERBS):
        for adverb in _ADVERBS:
            if _ends_with_word(before, adverb):
                before = before[:-len(adverb)].rstrip(_JUNK)
                break
    if not before.endswith(_OFFERING):  # the common case: no word below ends the text before
        return False
    if _ends_with_word(before, "either"):
        return True
    for word in ("or", "alternatively", "otherwise"):
        if _ends_with_word(before, word):
            rest = before[:-len(word)].rstrip(" \t\r\n*_`$.,;/|(")
            return bool(rest) and (rest[-1] in "])}" or rest[-1].isdigit())
    return False


def mark_conditions(region: str, statements: list) -> list:
    """``statements`` with every one stated under a condition marked ``conditional`` (and hedged):
    for scanners that find their statements without looking at the sentence around them."""
    out = []
    for s in statements:
        if s.rejects is None and not s.conditional and s.complete and conditional(region, s.start, s.end):
            s = replace(s, conditional=True, hedged=s.hedged or "the final answer is stated under a condition")
        out.append(s)
    return out
