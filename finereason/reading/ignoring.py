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
# what a reason goes on with: "cannot determine whether ...", "impossible to determine from the premises"
_REASON = re.compile(r"[^.!?\n]{0,40}?\b(?:whether|if|from|based on|which|who|what|that)\b")


class Ignoring:
    """``signals`` (:class:`~finereason.reading.withdrawals.Signals`) less those whose text is in
    ``words``, or in ``reasons`` and followed by what it is about ("cannot determine whether ..."),
    unless said of oneself; answers :meth:`first` and :meth:`first_in` as ``Signals`` does."""

    def __init__(self, signals: Signals, words: frozenset[str], reasons: frozenset[str] = frozenset()) -> None:
        self.signals = signals
        self.words = words
        self.reasons = reasons
        self.low = signals.low

    def _ignored(self, at: int, word: str) -> bool:
        low = self.low
        if _SELF.search(low, max(0, at - _REACH), at):
            return False
        if word in self.words:
            return True
        return word in self.reasons and _REASON.match(low, at + len(word), at + len(word) + 60) is not None

    def first(self, lo: int, hi: int | None = None) -> tuple[int, str] | None:
        for _ in range(64):
            found = self.signals.first(lo, hi)
            if found is None or not self._ignored(*found):
                return found
            lo = found[0] + 1
        return None

    def first_in(self, lo: int, hi: int | None = None) -> str | None:
        found = self.first(lo, hi)
        return None if found is None else found[1]


__all__ = ["Ignoring"]
