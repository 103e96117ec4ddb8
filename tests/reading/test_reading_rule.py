"""The commitment rule, case by case: each family the issue names, for options, lists and math.

The metamorphic properties (tests/reading/test_reading_properties.py) prove the rule over generated responses;
this file pins the named families with readable examples, and the reader's building blocks
(withdrawal signals, the commit function) in isolation.
"""
from __future__ import annotations

import pytest

from finereason.reading import (
    NEXT_STATE_MARKS, SOLUTION_MARKS, Statement, commit, find_signals, list_reading, read_choice,
)
from finereason.integrations.training.rewards import math_answer
from finereason.verification.verifiers import format_ok


@pytest.mark.parametrize("text, choice", [
    # a later retraction, doubt or inability voids the answer
    ("Answer: (A)\n\nHmm, scratch that, I need to redo this", None),
    ("Answer: (A)\n\nWait, let me check the second row again.", None),
    ("Answer: (A). Actually no, I am not sure.", None),
    ("Answer: (B)\n\nI can't determine it with certainty, though.", None),
    ("Answer: (A)\n\nOn second thought, this is wrong.", None),
    ("Answer: (B)\n\nI don't know.", None),
    # a later different answer replaces it (and must itself commit)
    ("Answer: (A)\n\nWait, actually it's (B).", "B"),
    ("Answer: (A)\nNo, it is (B).", "B"),
    ("Answer: (A)\nCorrection: (B)", "B"),
    ("Answer: (A)\n\nWait, actually it's (", None),
    # a restatement confirms; explanation naming the other option hypothetically leaves it standing
    ("Answer: (B)\n\nSo the state is unsolvable.", "B"),
    ("Answer: (A)\n\n(B) would only be right if the grid had a conflict.", "A"),
    ("Answer: (A), not (B).", "A"),
    ("Answer: (B). Option (A) would mean the puzzle can still be completed, which is not the case.", "B"),
    ("The final answer is (B).\n\nNote: if the 5 were not there, the answer would be (A).", "B"),
    ("Answer: (B)\n\nThe puzzle cannot be completed because row 2 has two 5s.", "B"),
    ("Answer: (A)\n\nThe state is solvable: placing 5 at (1, 2) would make it unsolvable though.", "A"),
    # hedges and conditionals never commit
    ("My best guess is (A), though (B) can't be ruled out.", None),
    ("The answer is probably (B).", None),
    ("If the row is valid, the answer is (A); otherwise it is (B).", None),
    ("Answer: (A) or (B)", None),
    # formatting is never content
    ("### Final Answer\n**(B)**", "B"),
    ("Answer: (A) [ANSWER END]", "A"),
    ("<answer>(B)</answer>", "B"),
    ("Answer: (A).", "A"),
    # no window: an answer followed by more than 16 KB of neutral text still reads
    ("Answer: (B)\n\n" + "The rows are checked one by one. " * 800, "B"),
    ("Answer: (B)\n\n" + "The rows are checked one by one. " * 800 + "\nWait, row 3 is fine.", None),
])
def test_options(text: str, choice: str | None) -> None:
    assert read_choice(text).choice == choice


@pytest.mark.parametrize("text, payload", [
    ("Next state: [[1, 2], [3, 4]]\nWait, that's wrong, corrected: [[1, 2], [4, 3]]", "[[1,2],[4,3]]"),
    ("Next state: [[1, 2], [3, 4]]\nWait, that's wrong, corrected: [[1, 2], [4,", None),
    ("Next state: [1, 2]\nHmm, wait. It should be [2, 1].", "[2,1]"),
    ("Next state: [1, 2]\n\nI'm not sure this is right.", None),
    ("Next state: [1, 2]\n\nThe cell [0][1] now holds 2.", "[1,2]"),
    ("Next state: [1, 2] [ANSWER END]", "[1,2]"),
])
def test_next_state_lists(text: str, payload: str | None) -> None:
    value = list_reading(text, NEXT_STATE_MARKS).value
    assert (None if value is None else "".join(value.split())) == payload


@pytest.mark.parametrize("text, payload", [
    ("Answer: [[1]]\nI could not find a valid solution.", None),
    ("Answer: [[1]]\nThe solution satisfies all constraints.", "[[1]]"),
    ("Solution: [[1]]\n\nActually, no: [[2]]", "[[2]]"),
])
def test_solution_lists(text: str, payload: str | None) -> None:
    value = list_reading(text, SOLUTION_MARKS, bare=True).value
    assert (None if value is None else "".join(value.split())) == payload


def test_format_reward_needs_exactly_one_committed_answer() -> None:
    assert format_ok("state_checking", "Answer: (B)")
    assert not format_ok("state_checking", "Answer: (A)\nAnswer: (B)\nAnswer: (A)\nAnswer: (B)")
    assert format_ok("state_checking", "Answer: (A)\nWait, that's wrong.\nAnswer: (B)")
    assert not format_ok("state_checking", "Answer: (A)\n\nI'm not sure.")
    assert not format_ok("state_transition", "Next state: [1, 2]\nNext state: [2, 1]")
    assert format_ok("state_transition", "Next state: [1, 2]\nNext state: [1, 2]")


def test_math_boxed_answer_is_withdrawn_by_a_later_signal() -> None:
    assert math_answer("So \\boxed{5}.") == "5"
    assert math_answer("So \\boxed{5}. Wait, that is wrong.") is None


def test_signals_are_searched_by_range() -> None:
    text = "Answer: (A). I am not sure. Next: fine."
    signals = find_signals(text)
    at = text.index("not sure")
    assert signals.first(0) == (at, "not sure")
    assert signals.first(at + 1) is None
    assert signals.first_in(0, at) is None
    # "I cannot find" withdraws a solution, not a state-checking argument
    assert find_signals("I cannot find any placement for 5.").first(0) is None
    assert find_signals("I cannot find any placement for 5.", solving=True).first(0) is not None


def test_commit_rule_in_isolation() -> None:
    signals = find_signals(" " * 100)
    a, b = (Statement(0, 10, "A", "A", marked=True), Statement(20, 30, "B", "B"))
    assert commit([a, b], signals).value == "B"
    assert commit([a, b], signals).live == 2
    assert commit([a, Statement(40, 50, rejects="B")], signals).value == "A"
    assert commit([a, Statement(40, 50, rejects="A")], signals).value is None
    assert commit([a, Statement(20, 100, complete=False, key="x")], signals).value is None
    assert commit([a, Statement(20, 30, "B", "B", hedged="two answers")], signals).value is None
    cond = Statement(20, 30, "B", "B", hedged="if", conditional=True)
    assert commit([a, cond], signals).value == "A"
    assert commit([cond], signals).value is None
    assert commit([], signals).reason == "no final answer found"
