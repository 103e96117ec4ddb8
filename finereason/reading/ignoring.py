"""Withdrawal signals less the words an answer kind uses as answers: a kind whose answers are judgment
or doubt words reads them as content, not as withdrawals ("The conclusion is uncertain." after a FOLIO
answer states the label; "The answer is wrong because ..." after ``Verdict: incorrect`` agrees with it).
A word said of oneself ("I am uncertain", "I was wrong") still withdraws."""
from __future__ import annotations

import re

from .withdrawals import Signals

# the signal word said of oneself: "I am uncertain", "I'm still unsure", "we were wrong"
_SELF = re.compile(r"\b(?:(?:i|we)[ \t]{1,3}(?:am|are|was|were|remain|feel)|i'm)[ \t]{1,3}"
                   r"(?:(?:a bit|somewhat|still|quite|rather|really)[ \t]{1,3})?$")
_REACH = 32


class Ignoring:
    """``signals`` (:class:`~finereason.reading.withdrawals.Signals`) less those whose text is in
    ``words``, unless said of oneself; answers :meth:`first` and :meth:`first_in` as ``Signals`` does."""

    def __init__(self, signals: Signals, words: frozenset[str]) -> None:
        self.signals = signals
        self.words = words
        self.low = signals.low

    def first(self, lo: int, hi: int | None = None) -> tuple[int, str] | None:
        for _ in range(64):
            found = self.signals.first(lo, hi)
            if found is None or found[1] not in self.words or _SELF.search(self.low, max(0, found[0] - _REACH), found[0]):
                return found
            lo = found[0] + 1
        return None

    def first_in(self, lo: int, hi: int | None = None) -> str | None:
        found = self.first(lo, hi)
        return None if found is None else found[1]


__all__ = ["Ignoring"]
