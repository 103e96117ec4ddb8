"""What withdraws an answer once it is given: retractions, doubt and inability.

The one list of withdrawal signals (:data:`PHRASES`). The commitment rule
(:mod:`finereason.reading.commit`) voids an answer when any signal follows it:

- *retraction*: ``wait``, ``actually no``, sentence-initial ``Actually,``/``No,``, ``scratch that``,
  ``never mind``, ``this is wrong``, ``I made a mistake``, ``let me redo / reconsider``,
  ``Correction:``;
- *doubt*: ``not sure``, ``unsure``, ``uncertain``, ``can't be ruled out``, ``might be wrong``, ``hmm``;
- *inability to decide*: ``I can't determine``, ``I don't know``, ``unable to decide``;
- *inability to solve* (``solving=True`` only, for answers that are solutions: a plan, an
  expression, a filled grid): ``I could not find``, ``no valid plan found``. For a state-checking
  answer "I cannot find a placement" is an argument, not a doubt.

Signals are found lazily, range by range (:meth:`Signals.first_in`): each phrase's keyword is
located with ``str.find`` (C speed) and its context checked by a small pattern anchored around the
keyword, so finding the first signal after an answer costs one pass over the text after it.
"""
from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field
from typing import Callable

_ASCII_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}
_WORD = re.compile(r"[a-z0-9]")
_CONTEXT = 60  # characters looked at around a keyword
_LAZY_QUERIES = 8  # range queries answered by searching their range; then all signals are listed once

Check = Callable[[str, int, int], bool]


def _before(pattern: str) -> Check:
    """The keyword counts when ``pattern`` ends right before it (within :data:`_CONTEXT` chars)."""
    rx = re.compile(r"(?:" + pattern + r")[ \t,]{0,3}$")
    return lambda low, at, end: rx.search(low, max(0, at - _CONTEXT), at) is not None


def _after(pattern: str) -> Check:
    """The keyword counts when ``pattern`` follows it."""
    rx = re.compile(r"[ \t]{0,3}(?:" + pattern + r")")
    return lambda low, at, end: rx.match(low, end, end + _CONTEXT) is not None


def _both(first: Check, second: Check) -> Check:
    return lambda low, at, end: first(low, at, end) and second(low, at, end)


_SENTENCE_START = _before(r"(?:^|[.!?;:\n])[ \t*_>#-]{0,6}")
_NOUN = (r"(?:final |above |previous |last |first |proposed |given )?(?:answer|plan|solution|expression|next state"
         r"|state|list|option|choice|grid|coloring|reasoning|calculation|result)")
_WHO = r"\b(?:this|that|the above|(?:this|that|the|my)[ \t]{1,3}" + _NOUN + r"(?:[ \t]{1,3}above)?)"
_SUBJECT = (_WHO + r"(?:'s|’s|[ \t]{1,3}(?:is|was|seems|looks|must be|might be|may be|could be|is definitely|is clearly"
            r"|is also))?[ \t]{1,3}")
_FIRST_PERSON = r"\b(?:i|we)[ \t]{1,3}"
_DECIDE = (r"(?:[a-z]+[ \t]{1,3}){0,2}?(?:determine|decide|tell|say|answer|be sure|be certain|figure|verify|conclude|"
           r"confirm|know|give an answer|choose)\b")
_SOLVE = (r"(?:[a-z]+[ \t]{1,3}){0,2}?(?:find|solve|complete|reach|make|get|come up with|construct|produce|build|"
          r"see a way)\b")
_CANNOT = ("can't", "can’t", "cannot", "can not", "couldn't", "couldn’t", "could not", "unable to", "not able to",
           "wasn't able to", "weren't able to")

#: (keyword, context check or None, solving only): one withdrawal phrase each.
PHRASES: tuple[tuple[str, Check | None, bool], ...] = (
    # retraction
    ("wait", None, False), ("hold on", None, False), ("scratch that", None, False), ("strike that", None, False),
    ("never mind", None, False), ("nevermind", None, False), ("disregard", None, False),
    ("ignore", _after(r"that|this|the above|my (?:previous|last|above)|what i"), False),
    ("second thought", None, False), ("on further", None, False), ("oops", None, False), ("whoops", None, False),
    ("my bad", None, False), ("my mistake", None, False), ("my error", None, False),
    ("mistake", _before(_FIRST_PERSON + r"(?:made|make|have made|'ve made)[ \t]{1,3}(?:a|an|one)?"), False),
    ("an error", _before(_FIRST_PERSON + r"(?:made|make|have made|'ve made)"), False),
    ("scratch", _after(r"that|this|it|the above|the " + _NOUN + r"|my|everything"), False),
    ("work", _before(_WHO + r"[ \t]{1,3}(?:does not|doesn't|doesn’t|won't|will not|cannot|can't)"
                     r"[ \t]{1,3}"), False),
    ("wrong", _before(_SUBJECT + r"(?:all[ \t]{1,3})?|" + _FIRST_PERSON + r"(?:was|am|were)[ \t]{1,3}|i'm[ \t]{1,3}"), False),
    ("incorrect", _before(_SUBJECT), False), ("invalid", _before(_SUBJECT), False), ("flawed", _before(_SUBJECT), False),
    ("mistaken", _before(_SUBJECT + r"|" + _FIRST_PERSON + r"(?:was|am|were)[ \t]{1,3}|i'm[ \t]{1,3}"), False),
    ("not right", _before(_SUBJECT), False), ("not correct", _before(_SUBJECT), False),
    ("be right", _before(r"\b(?:that|this|it)[ \t]{1,3}(?:doesn't|does not|can't|cannot|can not|couldn't)[ \t]{1,3}"), False),
    ("actually", _both(_SENTENCE_START, _after(r",")), False), ("actually", _after(r",?[ \t]{0,3}(?:no|not)\b"), False),
    ("no", _both(_SENTENCE_START, _after(r"[,!:—–-]|[ \t]{1,3}wait\b")), False), ("nope", None, False),
    ("correction", _after(r"[ \t*_]{0,3}:"), False), ("corrected", None, False), ("revised", None, False),
    ("revision", None, False), ("amended", None, False), ("instead", _both(_SENTENCE_START, _after(r",")), False),
    ("redo", None, False), ("re-do", None, False), ("reconsider", None, False), ("rethink", None, False),
    ("re-think", None, False), ("recheck", None, False), ("re-check", None, False), ("re-examine", None, False),
    ("reexamine", None, False), ("re-evaluate", None, False), ("reevaluate", None, False), ("recalculate", None, False),
    ("recompute", None, False), ("start over", None, False), ("try again", None, False), ("think again", None, False),
    ("correct myself", None, False), ("fix this", None, False), ("fix that", None, False),
    # doubt
    ("not sure", None, False), ("not entirely sure", None, False), ("not completely sure", None, False),
    ("not certain", None, False), ("not confident", None, False), ("unsure", None, False), ("uncertain", None, False),
    ("doubt", _before(_FIRST_PERSON + r"(?:have[ \t]{1,3}(?:some[ \t]{1,3})?)?|\bsome[ \t]{1,3}|\bin[ \t]{1,3}"), False),
    ("ruled out", _before(r"\b(?:can't|can’t|cannot|can not|couldn't|not)[ \t]{1,3}be[ \t]{1,3}"), False),
    ("rule out", _before(r"\b(?:can't|can’t|cannot|can not|couldn't|could not)[ \t]{1,3}"), False),
    ("be wrong", _before(r"\b(?:might|may|could)[ \t]{1,3}"), False),
    ("be incorrect", _before(r"\b(?:might|may|could)[ \t]{1,3}"), False),
    ("be mistaken", _before(r"\b(?:might|may|could)[ \t]{1,3}"), False),
    ("hmm", None, False), ("hmmm", None, False), ("no idea", None, False), ("alternatively", None, False),
    ("or maybe", None, False), ("or possibly", None, False), ("or perhaps", None, False),
    # inability to decide
    *((word, _both(_before(_FIRST_PERSON + r"(?:am[ \t]{1,3}|was[ \t]{1,3}|'m[ \t]{1,3}|are[ \t]{1,3}|were[ \t]{1,3})?"),
                   _after(_DECIDE)), False) for word in _CANNOT),
    ("unable to", _after(_DECIDE), False),
    ("know", _before(_FIRST_PERSON + r"(?:don't|don’t|do not|really don't)[ \t]{1,3}"), False),
    ("to determine", _before(r"\b(?:impossible|hard|difficult)[ \t]{1,3}(?:for me[ \t]{1,3})?"), False),
    # inability to solve (solutions only)
    *((word, _both(_before(_FIRST_PERSON + r"(?:am[ \t]{1,3}|was[ \t]{1,3}|'m[ \t]{1,3}|are[ \t]{1,3}|were[ \t]{1,3})?"),
                   _after(_SOLVE)), True) for word in _CANNOT),
    ("unable to", _after(_SOLVE), True),
    ("found", _before(r"\bno[ \t]{1,3}(?:valid[ \t]{1,3}|correct[ \t]{1,3}|working[ \t]{1,3}|possible[ \t]{1,3})?"
                      r"(?:plan|solution|expression|answer)s?[ \t]{1,3}(?:was[ \t]{1,3}|were[ \t]{1,3}|could be[ \t]{1,3}"
                      r"|can be[ \t]{1,3})?"), True),
    ("no valid", _before(r"\b(?:there is|there's|there are)[ \t]{1,3}"), True),
    ("no solution", _before(r"\b(?:there is|there's|there are)[ \t]{1,3}"), True),
    ("no plan", _before(r"\b(?:there is|there's|there are)[ \t]{1,3}"), True),
    ("no way", _before(r"\b(?:there is|there's|there are)[ \t]{1,3}"), True),
)


_TOKENS = re.compile(r"[a-z0-9'’-]+")
_SHORT_RANGE = 8_192  # below this many characters a range is first split into words (a cheap pre-check)
_BY_FIRST_WORD: dict[str, list[tuple[str, "Check | None", bool]]] = {}
for _phrase in PHRASES:
    _BY_FIRST_WORD.setdefault(_phrase[0].split()[0], []).append(_phrase)
_FIRST_WORDS = frozenset(_BY_FIRST_WORD)
_UNKNOWN = object()  # a range not searched yet (a searched one may hold None)


def _lowered(text: str) -> str:
    """``text`` in lower case with the same offsets (ASCII-only lowering when unicode changes lengths)."""
    low = text.lower()
    return low if len(low) == len(text) else text.translate(_ASCII_LOWER)


def _word_at(low: str, at: int, end: int) -> bool:
    """Whether ``low[at:end]`` is a whole word (no letter or digit joined on either side)."""
    return (at == 0 or not _WORD.match(low, at - 1)) and (end >= len(low) or not _WORD.match(low, end))


def signal_words(low: str, lo: int, hi: int) -> frozenset[str] | None:
    """The first words of withdrawal phrases that occur in ``low[lo:hi]`` (lower-cased text): a cheap
    pre-check, since a phrase can only start where its first word does; ``None`` for a range of
    :data:`_SHORT_RANGE` characters or more, which is not split into words."""
    if hi - lo >= _SHORT_RANGE:
        return None
    return _FIRST_WORDS.intersection(_TOKENS.findall(low, lo, hi))


@dataclass
class Signals:
    """The withdrawal signals of one final region, found lazily by range."""

    low: str
    solving: bool = False
    extra: tuple[tuple[int, str], ...] = ()  # a kind's own signals, sorted ("step 3 is invalid" for plans)
    _cache: dict = field(default_factory=dict, repr=False)
    _all: list | None = field(default=None, repr=False)

    def _every(self) -> list[tuple[int, str]]:
        """Every signal of the text, sorted by offset (one pass per phrase)."""
        low, found = self.low, []
        for word, check, solving_only in PHRASES:
            if solving_only and not self.solving:
                continue
            at = low.find(word)
            while at >= 0:
                end = at + len(word)
                if _word_at(low, at, end) and (check is None or check(low, at, end)):
                    found.append((at, low[at:end]))
                at = low.find(word, at + 1)
        found.extend(self.extra)
        found.sort()
        return found

    def first_in(self, lo: int, hi: int | None = None) -> str | None:
        """The text of the first signal starting in ``[lo, hi)`` (``hi`` ``None``: to the end)."""
        found = self.first(lo, hi)
        return None if found is None else found[1]

    def first(self, lo: int, hi: int | None = None) -> tuple[int, str] | None:
        """``(offset, text)`` of the first signal starting in ``[lo, hi)``, or ``None``.

        The first few queries search their range only; after :data:`_LAZY_QUERIES` of them every
        signal of the text is listed once and later queries are binary searches.
        """
        hi = len(self.low) if hi is None else min(hi, len(self.low))
        known = self._cache.get((lo, hi), _UNKNOWN)
        if known is not _UNKNOWN:
            return known
        if lo >= hi:  # an empty range (an answer ending the text) holds no signal
            self._cache[(lo, hi)] = None
            return None
        if len(self._cache) >= _LAZY_QUERIES:
            if self._all is None:
                self._all = self._every()
            k = bisect_left(self._all, (lo, ""))
            return self._all[k] if k < len(self._all) and self._all[k][0] < hi else None
        best: tuple[int, str] | None = None
        low = self.low
        phrases = PHRASES
        words = signal_words(low, lo, hi)
        if words is not None:  # only the phrases whose first word occurs in the range
            phrases = [p for w in words for p in _BY_FIRST_WORD[w]] if words else ()
        for word, check, solving_only in phrases:
            if solving_only and not self.solving:
                continue
            pos, stop = lo, hi if best is None else min(hi, best[0])
            while True:
                at = low.find(word, pos, stop + len(word))
                if at < 0 or at >= stop:
                    break
                end = at + len(word)
                if _word_at(low, at, end) and (check is None or check(low, at, end)):
                    best = (at, low[at:end])
                    break
                pos = at + 1
        k = bisect_left(self.extra, (lo, "")) if self.extra else 0
        if k < len(self.extra) and self.extra[k][0] < hi and (best is None or self.extra[k][0] < best[0]):
            best = self.extra[k]
        self._cache[(lo, hi)] = best
        return best


def find_signals(region: str, *, solving: bool = False, extra: list[tuple[int, str]] | None = None) -> Signals:
    """The withdrawal signals of ``region``. ``solving``: the answer is a solution, so "I could not
    find one" withdraws it too; ``extra``: ``(offset, text)`` signals of the answer kind's own."""
    return Signals(_lowered(region), solving, tuple(sorted(extra)) if extra else ())
