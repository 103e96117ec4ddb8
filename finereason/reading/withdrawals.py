"""What withdraws an answer once it is given: retractions, doubt, inability and low stated confidence.

The withdrawal signals are vocabulary data (:mod:`finereason.reading.vocabulary`: one file per
language, every language read): the categories ``retraction`` (``wait``, ``actually no``, ``scratch
that``, ``this is wrong``, ``Correction:``, ``等等``, ``warte``), ``doubt`` (``not sure``, ``hmm``,
``low confidence``, ``no estoy seguro``), ``inability_decide`` (``I can't determine``, ``无法判断``),
``alternative`` (``alternatively``, ``or maybe``) and, for answers that are solutions (a plan, an
expression, a filled grid; ``solving=True``), ``inability_solve`` (``I could not find a valid plan``).
For a state-checking answer "I cannot find a placement" is an argument, not a doubt. A stated
confidence below :data:`CONFIDENCE_THRESHOLD` (``confidence: 60%``, ``I'm 0.5 sure``) is doubt; a high
one is not. Negated or resolved doubt (``no need to wait``, ``I was unsure at first, but ...``, ``no
doubt``) is not doubt: the entries' context patterns say so.

Signals are found lazily, range by range (:meth:`Signals.first_in`): each keyword is located with
``str.find`` (C speed) and its context checked by a small pattern anchored around the keyword, so
finding the first signal after an answer costs one pass over the text after it.
"""
from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field

from . import vocabulary
from .vocabulary import Entry

_ASCII_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}
_LAZY_QUERIES = 8  # range queries answered by searching their range; then all signals are listed once
#: a stated confidence below this (a fraction; ``75%`` is 0.75) is doubt
CONFIDENCE_THRESHOLD = 0.8
_NUMBER = re.compile(r"(\d{1,3}(?:[.,]\d{1,4})?)[ \t]{0,2}(%|/[ \t]{0,2}(?:10|100)\b)?")
_NEAR = 24  # characters between a confidence word and its number


def _value(m: re.Match) -> float | None:
    """A confidence read from a number: ``60%`` and ``6/10`` are 0.6, ``0.6`` is 0.6; other numbers none."""
    number = float(m.group(1).replace(",", "."))
    unit = (m.group(2) or "").replace(" ", "").replace("\t", "")
    if unit == "%" or unit == "/100":
        return number / 100
    if unit == "/10":
        return number / 10
    return number if number <= 1 else None


def _low_confidence(low: str, at: int, end: int) -> bool:
    """Whether the confidence word at ``[at, end)`` states a confidence below the threshold: a number
    right after it (``confidence: 60%``, ``I'm 60% sure``'s number before it)."""
    m = _NUMBER.search(low, end, min(len(low), end + _NEAR))
    if m is not None and not re.search(r"[.!?\n]", low[end:m.start()]):
        value = _value(m)
        if value is not None:
            return value < CONFIDENCE_THRESHOLD
    lo = max(0, at - _NEAR)
    for m in _NUMBER.finditer(low, lo, at):
        if m.group(2) and not re.search(r"[.!?\n]", low[m.end():at]):
            value = _value(m)
            return value is not None and value < CONFIDENCE_THRESHOLD
    return False


_SIGNALS = ("retraction", "doubt", "inability_decide", "alternative")


def _not_restating(entry: Entry) -> Entry:
    """``entry`` (an alternative word) that does not count when a restatement opener follows it
    ("Alternatively, for clarity:", "Alternativ, mit anderen Worten:" restate, they offer nothing else)."""
    check = entry.check

    def alternative(low: str, at: int, end: int) -> bool:
        if check is not None and not check(low, at, end):
            return False
        return vocabulary.first(low, "restatement", end, min(len(low), end + 24)) is None
    return Entry(entry.word, alternative, entry.bounded, entry.category, entry.language)


def _phrases() -> tuple[tuple[Entry, bool], ...]:
    """Every withdrawal entry of every language with whether it withdraws solutions only."""
    out: list[tuple[Entry, bool]] = [(e if category != "alternative" else _not_restating(e), False)
                                     for category in _SIGNALS for e in vocabulary.words(category)]
    out += [(e, True) for e in vocabulary.words("inability_solve")]
    out += [(Entry(e.word, _low_confidence, e.bounded, "confidence", e.language), False)
            for e in vocabulary.words("confidence")]
    return tuple(out)


#: (entry, solving only): one withdrawal phrase each, from the vocabulary of every language.
PHRASES = _phrases()
#: the words that offer an alternative ("alternatively", "or maybe"): the rule reads them as such
ALTERNATIVES = frozenset(e.word for e in vocabulary.words("alternative"))

_TOKENS = re.compile(r"[a-z0-9'’-]+")
_SHORT_RANGE = 8_192  # below this many characters a range is first split into words (a cheap pre-check)
_BY_FIRST_WORD: dict[str, list[tuple[Entry, bool]]] = {}
_ODD: list[tuple[Entry, bool]] = []  # phrases that do not start with an ASCII word token ("подожди", "等等")
for _phrase in PHRASES:
    _w = _phrase[0].word
    _m = _TOKENS.match(_w)
    if _m is not None and (_m.end() == len(_w) or not _w[_m.end()].isalnum()):
        _BY_FIRST_WORD.setdefault(_m.group(), []).append(_phrase)
    else:
        _ODD.append(_phrase)
_FIRST_WORDS = frozenset(_BY_FIRST_WORD)
_ODD_ASCII = [p for p in _ODD if p[0].word.isascii()]
_UNKNOWN = object()  # a range not searched yet (a searched one may hold None)


def _lowered(text: str) -> str:
    """``text`` in lower case with the same offsets (ASCII-only lowering when unicode changes lengths)."""
    low = text.lower()
    return low if len(low) == len(text) else text.translate(_ASCII_LOWER)


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
    _phrases: list | None = field(default=None, repr=False)

    def _present(self) -> list:
        """The phrases whose first word occurs anywhere in the text (found once: the words of the
        text's distinct whitespace-separated pieces), plus those without an ASCII first word when the
        text is not ASCII."""
        if self._phrases is None:
            low = self.low
            words: set[str] = set()
            for piece in set(low.split()):
                words.update(_TOKENS.findall(piece))
            self._phrases = [p for w in _FIRST_WORDS.intersection(words) for p in _BY_FIRST_WORD[w]]
            self._phrases += _ODD_ASCII if low.isascii() else _ODD
        return self._phrases

    def _every(self) -> list[tuple[int, str]]:
        """Every signal of the text, sorted by offset (one pass per phrase)."""
        low, found = self.low, []
        for entry, solving_only in self._present():
            if solving_only and not self.solving:
                continue
            word = entry.word
            at = low.find(word)
            while at >= 0:
                if vocabulary.found(entry, low, at):
                    found.append((at, word))
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
        words = signal_words(low, lo, hi)
        if words is None:  # a long range: the phrases whose first word occurs in the text
            phrases = self._present()
        else:  # only the phrases whose first word occurs in the range, the earliest word's first: a phrase found
            # there bounds the search for the others (a word set's own order changes with the process's hash seed)
            if len(words) > 1:
                words = sorted(words, key=lambda w: (low.find(w, lo, hi), w))
            phrases = [p for w in words for p in _BY_FIRST_WORD[w]] if words else []
            phrases += _ODD_ASCII if low.isascii() else _ODD
        for entry, solving_only in phrases:
            if solving_only and not self.solving:
                continue
            word = entry.word
            pos, stop = lo, hi if best is None else min(hi, best[0])
            while True:
                at = low.find(word, pos, stop + len(word))
                if at < 0 or at >= stop:
                    break
                if vocabulary.found(entry, low, at):
                    best = (at, word)
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
