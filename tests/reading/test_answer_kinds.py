"""The answer kinds that live outside the puzzle tasks, each under the one commitment rule: FOLIO labels
(``data.folio.read_truth_value``), self-verdicts (``verification.feedback.read_self_verdict``), math ``\\boxed{}``
answers (the math reward's ``math_answer``) and the ASP actor's program and query blocks
(``workflows.arc.parse_actor``).

Unit cases first (each decided by hand: what a careful grader reads), then metamorphic properties
(Hypothesis) in the style of test_reading_properties.py, run over each kind separately: a retraction
appended after an answer never adds credit; a later different answer replaces it; a hedge never
commits; an answer cut off inside never commits; reasoning inside an unfinished ``<think>`` is no
answer; and every public path of a kind reads what the kind's reader reads.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from finereason.data.folio import read_truth_value
from finereason.integrations.training.rewards import math_answer
from finereason.reading.blocks import block_readings
from finereason.reading.boxed import boxed_reading
from finereason.reading.hedges import HEDGE_WORDS
from finereason.reading.truth_values import truth_value_reading
from finereason.reading.verdicts import verdict_reading
from finereason.verification.feedback import read_self_verdict
from finereason.workflows.arc import parse_actor
from test_reading_properties import PREAMBLES, RETRACTIONS, SEPARATORS

FAST = settings(max_examples=60, derandomize=True, deadline=None, database=None, print_blob=False,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


# ------------------------------------------------------------------ unit cases
@pytest.mark.parametrize("text, expected", [
    ("Answer: True\nWait, that is wrong. Let me reconsider.", None),
    ("Answer: True\n\nIf premise 3 were false, the answer would be False.", "True"),  # explanation, not a replacement
    ("Final answer: **True**. If premise 3 were false, then the answer would be False.", "True"),
    ("If the premises hold, the answer is True.", None),
    ("My best guess: True", None), ("My best guess for the answer: True", None), ("Answer: probably False", None),
    ("Answer: True, I guess", None), ("Answer: Uncertain (likely)", None),
    ("\\boxed{True", None), ("Answer: \\boxed{\\text{False", None), ("Answer: \\boxed{\\text{False}}", "False"),
    ("Answer: True\nWait, that is wrong.\nFalse", "False"), ("Answer: True\n\nHmm, actually the answer is False.", "False"),
    ("Answer: True\nNo, wait. Answer: False", "False"),
    ("Answer: Uncertain\n\nThe conclusion is uncertain because premise 2 says nothing about Rex.", "Uncertain"),
    ("Answer: False\n\nSo the conclusion is not uncertain: premise 4 rules it out.", "False"),
    ("Answer: Uncertain\n\nI am uncertain about premise 4, though.", None),  # doubt said of oneself
    ("Answer: Uncertain\n\nWe cannot determine from the premises whether Rex is a dog.", "Uncertain"),  # its reason
    ("Answer: Uncertain. It is impossible to determine whether Rex barks.", "Uncertain"),
    ("Answer: True\n\nHmm, we cannot determine that Rex is a dog.", None),
    ("Answer: True\n[ANSWER END]", "True"), ("True", "True"), ("Answer: True or Uncertain", None),
])
def test_folio_label(text, expected):
    assert read_truth_value(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("Verdict: correct or incorrect, I cannot tell.", None),
    ("Verdict: correct\nWait, actually step 2 is wrong", None),
    ("Verdict: correct\nThe answer is wrong.", None),
    ("Verdict: incorrect\nThe answer is wrong because step 2 breaks rule 3.", False),  # agrees with the rejection
    ("Verdict: incorrect\nWait, I was wrong: every rule holds.", None),
    ("Verdict: correct?", None), ("Verdict: probably correct", None), ("My best guess: Verdict: correct", None),
    ("Verdict: correct\n\nVerdict: not correct", False), ("Verdict: **incorrect**", False),
    ("Step 2 is wrong.\nVerdict: incorrect\n\nWait, no: step 2 is fine.\nVerdict: correct", True),
    ("The answer looks right.", None), ("<think>Verdict: correct", None), ("<think>Verdict: incorrect</think>Verdict: correct", True),
])
def test_self_verdict(text, expected):
    assert read_self_verdict(text) is expected


@pytest.mark.parametrize("text, expected", [
    ("\\boxed{3}\n\nWait, that is wrong. Let me redo it: 2 + 3 = 5.\n\nSo \\boxed{5}", "5"),  # the later correction
    ("The answer is \\boxed{3}. Let me double-check: 2 + 3 = 5, so the answer is \\boxed{5}.", "5"),
    ("So \\boxed{5}. Wait, that is wrong.", None), ("\\boxed{5", None), ("\\boxed{3} then \\boxed{5", None),
    ("\\boxed{3} or \\boxed{5}", None), ("\\boxed{3}, \\boxed{5}", None), ("\\boxed{3}\nor\n\\boxed{5}", None),
    ("\\boxed{3}\n\\boxed{5}", None), ("\\boxed{3}\n\nLet me recompute: 2 + 3 = 5.\n\n\\boxed{5}", "5"),
    ("My best guess: \\boxed{5}", None), ("The answer is probably \\boxed{5}.", None), ("\\boxed{5}, I guess.", None),
    ("If n is even, \\boxed{4}; otherwise \\boxed{5}.", None), ("\\boxed{5} and again \\boxed{5}", "5"),
    ("\\boxed{2}.\n\nActually, wait: \\boxed{-2} is also a square root of 4.", None),
])
def test_math_boxed(text, expected):
    assert math_answer(text) == expected


def _actor(program: str, query: str = "a") -> str:
    return f"```asp\n{program}\n```\n```json\n{json.dumps({'query': query, 'tests': [{'query': query}]})}\n```\n"


def test_actor_blocks():
    assert parse_actor(_actor("a.")).program == "a.\n"
    cut = parse_actor(_actor("a.") + "Wait, that program is wrong. Fixed:\n```asp\nb :- c.\nc")
    assert cut.program is None and "cut off" in cut.problems[0]  # the withdrawn program is never run
    fixed = parse_actor(_actor("a.") + "Wait, that program is wrong. Fixed:\n" + _actor("b."))
    assert fixed.program == "b.\n" and fixed.problems == []
    withdrawn = parse_actor(_actor("a.") + "Hmm, I am not sure this encodes premise 2.")
    assert withdrawn.program is None and "withdrawn" in withdrawn.problems[0]
    # block contents are not prose: comments and test explanations never withdraw
    quiet = "```asp\n% wait: not sure P2 is exclusive\na.\n```\n```json\n" + json.dumps(
        {"query": "a", "tests": [{"query": "a", "explanation": "no, this is wrong otherwise"}]}) + "\n```\n"
    assert parse_actor(quiet).program is not None and parse_actor(quiet).problems == []
    assert parse_actor("My best guess at the program:\n" + _actor("a.")).program is None
    assert parse_actor(_actor("a.") + "(The conclusion is Uncertain: Rocky may be a chipmunk.)").problems == []
    assert parse_actor(_actor("a.") + "We cannot determine whether Rocky is a squirrel, so: Uncertain.").problems == []


@pytest.mark.parametrize("text", [
    "Answer: \\boxed{B", "\\boxed{B", "Answer: \\boxed{(B", "Answer: \\boxed{\\text{(B)",
])
def test_an_unclosed_box_is_never_credited_by_the_option_reader(text):
    from finereason.reading import read_choice
    assert read_choice(text).choice is None and read_choice(text.replace("{B", "{B}")).choice in (None, "B")


def test_an_unclosed_box_is_never_credited_by_the_expression_reader():
    from finereason.domains.game_of_24.answer import expression_reading
    assert expression_reading("Answer: \\boxed{(1 + 2) * 8").value is None
    assert expression_reading("Answer: \\boxed{(1 + 2) * 8}").value is not None


# ------------------------------------------------------------------ the kinds, for the properties
@dataclass(frozen=True)
class Kind:
    name: str
    answers: tuple[str, ...]
    make: Callable[[str], str]          # a response committing to an answer
    read: Callable[[str], Any]          # what the caller reads (None: nothing commits)
    value: Callable[[str], Any]         # what ``read`` gives for a response committing to an answer
    hedges: tuple[str, ...]             # templates with {X} and {Y} (two different answers): never commit


def _program(text: str) -> str | None:
    return parse_actor(text).program


KINDS = {
    "label": Kind("label", ("True", "False", "Uncertain"), lambda x: f"Answer: {x}", read_truth_value, lambda x: x,
                  ("Answer: {X} or {Y}", "Answer: {X}/{Y}", "My best guess: Answer: {X}", "Answer: {X} (or possibly {Y})",
                   "If premise 2 holds, the answer is {X}; otherwise it is {Y}.")),
    "verdict": Kind("verdict", ("correct", "incorrect"), lambda x: f"Verdict: {x}", read_self_verdict,
                    lambda x: x == "correct",
                    ("Verdict: {X} or {Y}", "Verdict: {X}/{Y}", "My best guess: Verdict: {X}", "Verdict: {X}?",
                     "Verdict: probably {X}")),
    "math": Kind("math", ("5", "\\frac{1}{2}", "3\\sqrt{2}", "-7"), lambda x: f"The answer is \\boxed{{{x}}}.", math_answer,
                 lambda x: x, ("\\boxed{{{X}}} or \\boxed{{{Y}}}", "My best guess: \\boxed{{{X}}}",
                               "\\boxed{{{X}}}, \\boxed{{{Y}}}", "The answer is probably \\boxed{{{X}}}.")),
    "program": Kind("program", ("a.", "b :- a.\na.", "{ p(x) }.\nq(X) :- p(X)."), _actor, _program, lambda x: x + "\n",
                    ("My best guess at the program:\n" + "{MX}", "Probably this:\n{MX}")),
}


def _fill(template: str, kind: Kind, x: str, y: str) -> str:
    return (template.replace("{MX}", kind.make(x)).replace("{{{X}}}", "{" + x + "}").replace("{{{Y}}}", "{" + y + "}")
            .replace("{X}", x).replace("{Y}", y))


@st.composite
def _two(draw, kind: Kind) -> tuple[str, str, str]:
    x = draw(st.sampled_from(kind.answers))
    y = draw(st.sampled_from([a for a in kind.answers if a != x]))
    return x, y, draw(st.sampled_from(PREAMBLES))


NAMES = sorted(KINDS)


@pytest.mark.parametrize("name", NAMES)
@FAST
@given(data=st.data())
def test_a_committed_answer_reads_as_given(name, data):
    kind = KINDS[name]
    x, _, pre = data.draw(_two(kind))
    assert kind.read(pre + kind.make(x)) == kind.value(x)


@pytest.mark.parametrize("name", NAMES)
@FAST
@given(data=st.data())
def test_a_retraction_appended_never_adds_credit(name, data):
    kind = KINDS[name]
    x, _, pre = data.draw(_two(kind))
    retraction = data.draw(st.sampled_from(RETRACTIONS))
    sep = data.draw(st.sampled_from(SEPARATORS))
    got = kind.read(pre + kind.make(x) + sep + retraction)
    if name == "verdict" and x == "incorrect":
        assert got is not True  # a rejection is never turned into acceptance
    else:
        assert got is None, (retraction, got)


@pytest.mark.parametrize("name", NAMES)
@FAST
@given(data=st.data())
def test_a_later_different_answer_replaces(name, data):
    kind = KINDS[name]
    x, y, pre = data.draw(_two(kind))
    form = data.draw(st.sampled_from(("Wait, that's wrong.\n\n{MY}", "Hmm, scratch that.\n\n{MY}", "Let me redo this.\n\n{MY}",
                                      "{MY}", "On second thought:\n\n{MY}")))
    text = pre + kind.make(x) + "\n\n" + form.replace("{MY}", kind.make(y))
    assert kind.read(text) == kind.value(y)


@pytest.mark.parametrize("name", NAMES)
@FAST
@given(data=st.data())
def test_a_hedge_never_commits(name, data):
    kind = KINDS[name]
    x, y, pre = data.draw(_two(kind))
    template = data.draw(st.sampled_from(kind.hedges))
    text = pre + _fill(template, kind, x, y)
    assert kind.read(text) is None, text


@pytest.mark.parametrize("name", NAMES)
@FAST
@given(data=st.data())
def test_every_word_of_the_hedge_table_hedges(name, data):
    kind = KINDS[name]
    x, _, pre = data.draw(_two(kind))
    word = data.draw(st.sampled_from(HEDGE_WORDS))
    text = pre + f"{word.capitalize()}:\n" + kind.make(x) if name == "program" else pre + f"{word.capitalize()}, " + kind.make(x)
    assert kind.read(text) is None, text


@pytest.mark.parametrize("name", ["label", "math", "program"])
@FAST
@given(data=st.data())
def test_an_answer_cut_off_inside_never_commits(name, data):
    kind = KINDS[name]
    x, y, pre = data.draw(_two(kind))
    whole = pre + kind.make(x) + "\n\nWait, that's wrong.\n\n" + kind.make(y)
    closing = {"label": "", "math": "}.", "program": "```\n```json"}[name]
    if name == "label":  # "Answer: \boxed{\text{False" cut before its braces close
        whole = pre + kind.make(x) + "\n\nWait, that's wrong.\n\nAnswer: \\boxed{\\text{" + y + "}}"
        closing = "}}"
    cut = whole[:whole.rindex(closing)] if closing else whole
    assert kind.read(cut) is None, cut


@pytest.mark.parametrize("name", NAMES)
@FAST
@given(data=st.data())
def test_unfinished_reasoning_is_no_answer(name, data):
    kind = KINDS[name]
    x, _, pre = data.draw(_two(kind))
    assert kind.read("<think>" + pre + kind.make(x)) is None
    assert kind.read("<think>" + pre + kind.make(x) + "</think>\n" + kind.make(x)) == kind.value(x)


@FAST
@given(data=st.data())
def test_every_path_reads_what_the_kind_reads(data):
    name = data.draw(st.sampled_from(NAMES))
    kind = KINDS[name]
    x, y, pre = data.draw(_two(kind))
    tail = data.draw(st.sampled_from(("", "\n\nWait, that's wrong.", "\n\n" + kind.make(y), " or " + y, "\n\nI hope this helps!")))
    text = pre + kind.make(x) + tail
    if name == "label":
        assert read_truth_value(text) == truth_value_reading(text).value
    elif name == "verdict":
        assert read_self_verdict(text) is verdict_reading(text).value
    elif name == "math":
        assert math_answer(text) == boxed_reading(text).value
    else:
        readings = block_readings(text, {"program": frozenset({"asp"}), "spec": frozenset({"json"})},
                                  answers=frozenset({"uncertain"}))
        assert parse_actor(text).program == readings["program"].value


# ------------------------------------------------------------------ "My best guess" for every kind
def _plan(text: str):
    from finereason.planning.plan_answers import plan_reading
    from finereason.domains.blocksworld.puzzle import pddl_domain
    return plan_reading(text, pddl_domain("blocksworld")).value


def _option(text: str):
    from finereason.reading import read_choice
    return read_choice(text).choice


def _state(text: str):
    from finereason.reading import NEXT_STATE_MARKS, list_reading
    return list_reading(text, NEXT_STATE_MARKS).value


def _expression(text: str):
    from finereason.domains.game_of_24.answer import expression_reading
    return expression_reading(text).value


GUESSES = {  # (reader, an answer it credits)
    "option": (_option, "Answer: (B)"), "list": (_state, "Next state: [[1, 2], [3, 4]]"),
    "expression": (_expression, "Answer: (1 + 2) * 8"), "plan": (_plan, "1. (unstack b a)\n2. (put-down b)"),
    "label": (read_truth_value, "Answer: True"), "verdict": (read_self_verdict, "Verdict: correct"),
    "math": (math_answer, "\\boxed{5}"), "program": (_program, _actor("a.")),
}


@pytest.mark.parametrize("name", sorted(GUESSES))
@pytest.mark.parametrize("intro", ["My best guess: ", "My best guess:\n", "**My best guess:**\n\n", "Probably: "])
def test_my_best_guess_is_no_answer_for_every_kind(name, intro):
    read, answer = GUESSES[name]
    assert read(answer) is not None  # the answer alone is credited
    if name == "program" and not intro.endswith("\n"):
        intro += "\n"  # a block opens its own line
    assert read(intro + answer) is None, intro + answer
