"""A range query of the withdrawal signals finds the first signal whatever order its candidate words are
tried in: the same answer as the list of every signal of the text (the lazy path after many queries)."""
from __future__ import annotations

import random
from bisect import bisect_left

from hypothesis import given, settings
from hypothesis import strategies as st

from finereason.reading.withdrawals import Signals

PIECES = ["wait", "wait,", "that is wrong", "wrong", "no,", "actually", "hold on", "scratch that", "i take that back",
          "never mind", "not", "don't wait", "answer: [1, 2]", "[3]", "is", "the", "\n", ".", "i'm wrong", "hmm",
          "let me reconsider", "oops", "mistake", "correction:", "on second thought", "incorrect"]


def _from_all(low: str, lo: int, hi: int, solving: bool):
    every = Signals(low, solving)._every()
    k = bisect_left(every, (lo, ""))
    return every[k] if k < len(every) and every[k][0] < hi else None


def _check(low: str, lo: int, hi: int, solving: bool) -> None:
    found = Signals(low, solving).first(lo, hi)
    expected = _from_all(low, lo, hi, solving)
    assert (found is None) == (expected is None), (low, lo, hi)
    if found is not None:  # the same offset (the word too, unless two phrases start there)
        assert found[0] == expected[0], (low, lo, hi)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=10), st.integers(0, 200), st.booleans())
def test_first_signal_is_the_earliest(pieces, lo, solving):
    low = " ".join(pieces)  # queries run to the end of the text, as the reader's do (a phrase past ``hi`` is not read)
    _check(low, min(lo, len(low)), len(low), solving)


def test_first_signal_on_random_texts():
    rng = random.Random(0)
    for _ in range(1500):
        low = rng.choice([" ", "\n", ". "]).join(rng.choice(PIECES) for _ in range(rng.randrange(1, 9)))
        lo = rng.randrange(len(low) + 1)
        _check(low, lo, len(low), rng.random() < 0.5)
