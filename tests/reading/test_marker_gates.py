"""The marker gates group every answer marker once under a part it contains, so the gated looks (the single
marker of the shortcut, the scanner's last markers) find exactly what a look for every marker word finds."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from finereason.reading.lists import (EXPRESSION_MARKS, NEXT_STATE_MARKS, SOLUTION_MARKS, _lowered, _mark_table, _one_marker,
                                      last_marks)
from finereason.reading.marker_gates import gated

TABLES = (NEXT_STATE_MARKS, SOLUTION_MARKS)


def _ungated(low: str, marks) -> tuple[int, int] | None:
    """The single-marker look written out plainly: every marker word of ``marks`` looked for."""
    if "correct" in low:
        return None
    hits = []
    for word, pattern in marks:
        starts = [i for i in range(len(low)) if low.startswith(word, i)]
        if len(starts) > 1:
            return None
        if starts:
            m = None if pattern is None else pattern.match(low, starts[0])
            if pattern is not None and m is None:
                return None
            hits.append((starts[0], starts[0] + len(word) if m is None else m.end()))
    return hits[0] if len(hits) == 1 else None


def _all_marks(low: str, marks) -> list[tuple[int, int]]:
    """Every marker of ``marks`` in ``low`` (confirmed by its pattern), in text order: short texts hold
    fewer than the scan's limits."""
    out = []
    for word, pattern in marks:
        for i in range(len(low)):
            if low.startswith(word, i):
                m = None if pattern is None else pattern.match(low, i)
                if pattern is None or m is not None:
                    out.append((i, i + len(word) if m is None else m.end()))
    return sorted(out)


def test_every_marker_sits_in_one_group_under_a_part_it_holds():
    for marks in TABLES + (EXPRESSION_MARKS, _mark_table(NEXT_STATE_MARKS)[2]):
        plain = _mark_table(marks)[1]
        groups = gated(plain)
        members = [mark for _, group in groups for mark in group]
        assert sorted(w for w, _ in members) == sorted(w for w, _ in plain)
        assert len(members) == len(plain)
        for gate, group in groups:
            assert gate and all(gate in word for word, _ in group)
    # the shared parts do group words (one look rules out several): some group holds more than one
    assert any(len(group) > 1 for marks in TABLES for _, group in gated(_mark_table(marks)[1]))


def _words() -> list[str]:
    return sorted({w for marks in TABLES for w, _ in marks} | {"next  state", "next_state", "corrected", "estad",
                                                                "stat", "the", "final", "\\boxed{", "\n", " ", "[[1]]", ":"})


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_words()), max_size=8), st.sampled_from(TABLES))
def test_gated_look_finds_what_every_word_finds(pieces, marks):
    low = _lowered(" ".join(pieces))
    assert _one_marker(low, marks) == _ungated(low, marks), low
    for table in (marks, _mark_table(marks)[2], EXPRESSION_MARKS):  # the scanner's table holds the corrections too
        assert last_marks(low, table, low=low) == _all_marks(low, table), low


def test_gated_look_on_random_joins():
    rng = random.Random(0)
    words = _words()
    for _ in range(2000):
        low = _lowered(rng.choice(["", " "]).join(rng.choice(words) for _ in range(rng.randrange(6))))
        for marks in TABLES:
            assert _one_marker(low, marks) == _ungated(low, marks), low
            assert last_marks(low, _mark_table(marks)[2], low=low) == _all_marks(low, _mark_table(marks)[2]), low
    for table in (marks, _mark_table(marks)[2], EXPRESSION_MARKS):  # the scanner's table holds the corrections too
        assert last_marks(low, table, low=low) == _all_marks(low, table), low
