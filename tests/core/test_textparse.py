"""Answer extraction and the bounded literal reader."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from finereason.reading import answer_region, next_state_payload, read_choice
from finereason.core.literals import parse_literal, strip_thinking


def extract_choice(text: str) -> str | None:
    return read_choice(text).choice


def extract_marked_payload(text: str) -> str:
    return next_state_payload(answer_region(text))


def read_payload(text: str) -> object:
    return parse_literal(extract_marked_payload(text))
from finereason.common.verdict import ParseError


@pytest.mark.parametrize(
    "text, choice",
    [
        ("Answer: (A)", "A"),
        ("answer: (b)", "B"),
        ("**Answer:** (B)", "B"),
        ("Final answer: $\\boxed{B}$", "B"),
        ("The answer is \\boxed{(A)}.", "A"),
        ("Answer: \\text{(B)}", "B"),
        ("so the state is Unsolvable.", "B"),
        ("It is colorable.", "A"),
        ("The graph is uncolorable", "B"),
        ("This is not solvable", "B"),
        ("(A) Solvable or (B) Unsolvable? I pick (A). Answer: (B) because ...", "B"),
        ("<think>Answer: (A)</think>\nAnswer: (B)", "B"),
        ("<think>long thought, answer (A)", None),
        ("I am not sure.", None),
        ("", None),
    ],
)
def test_extract_choice(text, choice):
    assert extract_choice(text) == choice


def test_last_tagged_answer_wins_over_loose_mentions():
    assert extract_choice("Answer: (A). Note that option (B) would mean unsolvable.") == "A"


def test_strip_thinking():
    assert strip_thinking("<think>x</think>y</think>z") == "z"
    assert strip_thinking("plain") == "plain"


@pytest.mark.parametrize(
    "text, value",
    [
        ("Next state: [1, 2, 3]", [1, 2, 3]),
        ("**Next state:**\n```\n[[0, 1], [2, 3]]\n```", [[0, 1], [2, 3]]),
        ("next state: ['(4 + 7)', \"1\", '2']", ["(4 + 7)", "1", "2"]),
        ("Next state: [1, 2,] and then Next state: [3]", [3]),
        ("<think>Next state: [9]</think> Next state: [[\"a b\", 50, \"\"]]", [["a b", 50, ""]]),
        ("Next state: [-1, +2]", [-1, 2]),
        ("Next state: [[24.99, 'Nick'], [7.0, 'x']]", [[24.99, "Nick"], [7.0, "x"]]),
    ],
)
def test_read_payload(text, value):
    assert read_payload(text) == value


@pytest.mark.parametrize(
    "text",
    [
        "no marker [1, 2]",
        "Next state: nothing",
        "Next state: [1, 2",
        "Next state: [1 2]",
        "Next state: [__import__('os').system('echo hi')]",
        "Next state: [9**9**9]",
        "Next state: [1/0]",
        "Next state: [float('nan')]",
        "Next state: [NaN]",
        "Next state: [1.5e3]",
        "Next state: [.5]",
        "Next state: [inf]",
        "Next state: [" + "9" * 50 + "]",
        "Next state: " + "[" * 100_000 + "]" * 100_000,
        "Next state: [True]",
        "Next state: [{'a': 1}]",
    ],
)
def test_hostile_payloads_raise_parse_error(text):
    with pytest.raises(ParseError):
        read_payload(text)


def test_digits_of_other_scripts_read_as_their_values():
    """The reader's one normalisation reads a decimal digit of any script as its value (Arabic-Indic here)."""
    assert read_payload("Next state: [\u0661, \u0662]") == [1, 2]


def test_payload_found_past_a_large_prefix():
    text = "x" * 5_000_000 + "Next state: [1]"
    assert extract_marked_payload(text) == "[1]"


@settings(max_examples=200, deadline=None)
@given(st.recursive(st.integers(-10**6, 10**6) | st.text(alphabet=st.characters(blacklist_characters="\n", codec="utf-8"), max_size=8),
                    lambda inner: st.lists(inner, max_size=5), max_leaves=30))
def test_parse_literal_round_trips_python_reprs(value):
    if not isinstance(value, list):
        value = [value]
    assert parse_literal(repr(value)) == value


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_parse_literal_never_raises_anything_but_parse_error(text):
    try:
        parse_literal(text)
    except ParseError:
        pass
