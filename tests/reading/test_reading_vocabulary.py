"""The reader's vocabulary (one data file per language) and the meaning rules that read it, proven by
properties over every answer kind (an option, a state or solution list, a Game-of-24 expression, a
plan) and every vocabulary entry of every language.

Each property takes a marked answer whose verdict is known (reading_world.py) and appends or wraps
text whose meaning the rule must read: a retraction, doubt or inability in any language withdraws it;
a hedge or a condition in any language never commits; an open question about it never commits, and a
question answered at once by a confirmation keeps it; a negated restatement never credits what it
negates; text about a different puzzle (a P.S., a bonus variant) or a simulated turn of another speaker
never changes the verdict; working or a restatement "for clarity" after it is explanation; a probability
split is a hedge and a low stated confidence is doubt; a reference to an earlier attempt resolves to it;
an answer-like line that no rule reads gives no credit, with a reason that says so.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from finereason.reading import vocabulary
from finereason.reading.commit import AMBIGUOUS
from reading_world import Slot, slots

KINDS = ("option", "list", "expression", "plan")
PARSE_ERROR = "parse_error"
FILES = sorted(vocabulary.HERE.glob("*.json"))
REQUIRED = {"en", "zh", "es", "fr", "de", "ja", "ru", "pt", "ko", "it"}
FAST = settings(max_examples=60, derandomize=True, deadline=None, database=None, print_blob=False,
                phases=(Phase.explicit, Phase.reuse, Phase.generate),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])


def _raw(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _plain(category: str) -> list[tuple[str, str]]:
    """(language, word) of every entry of ``category`` that needs no context to count (a keyword, or
    one whose patterns only say when it does not count), in every language file; entries kept out of the
    keyword search (``"search": false``: words of the hedge reader's tables only) are left out."""
    out = []
    for path in FILES:
        for item in _raw(path)[category]:
            if isinstance(item, str):
                out.append((path.stem, item))
            elif not ({"before", "after"} & set(item)) and item.get("search", True):
                out.append((path.stem, item["word"]))
    return out


def _of(kind: str) -> list[Slot]:
    return [s for s in slots() if s.kind == kind]


def _cat(slot: Slot, response: str) -> str:
    return slot.verdict(response).category


def _tail_keeps(data: st.DataObject, kind: str, tails: Callable[[Slot], tuple[str, ...]]) -> None:
    """A drawn committed answer of ``kind``, then one of ``tails(slot)`` after a blank line: the verdict
    stays the answer's own."""
    slot, x, base = data.draw(_base(kind))
    response = base + "\n\n" + data.draw(st.sampled_from(tails(slot)))
    assert _cat(slot, response) == slot.solo[x], response


@st.composite
def _base(draw, kind: str) -> tuple[Slot, str, str]:
    slot = draw(st.sampled_from(_of(kind)))
    x = draw(st.sampled_from(slot.answers))
    return slot, x, slot.marked(x)


@st.composite
def _two(draw, kind: str) -> tuple[Slot, str, str]:
    slot = draw(st.sampled_from(_of(kind)))
    x = draw(st.sampled_from(slot.answers))
    y = draw(st.sampled_from([a for a in slot.answers if a != x]))
    return slot, x, y


# ------------------------------------------------------------------ the data
def test_every_language_covers_every_category():
    """Every language file lists every category, each with entries; every required language is there,
    and every file loads (patterns compile)."""
    assert REQUIRED <= {p.stem for p in FILES}
    for path in FILES:
        data = _raw(path)
        assert data["language"] == path.stem, path.name
        missing = [c for c in vocabulary.CATEGORIES if not data.get(c)]
        assert not missing, (path.name, missing)
        unknown = set(data) - set(vocabulary.CATEGORIES) - {"language", "spaced", "patterns", "negation_follows"}
        assert not unknown, (path.name, unknown)
    assert {lang.code for lang in vocabulary.languages()} == {p.stem for p in FILES}


def test_a_language_is_a_file(tmp_path):
    """Reading a file is all a language needs; a file missing a category is refused, naming it."""
    data = _raw(vocabulary.HERE / "de.json")
    (tmp_path / "xx.json").write_text(json.dumps({**data, "language": "xx"}), encoding="utf-8")
    assert vocabulary.read_language(tmp_path / "xx.json").entries["retraction"]
    del data["doubt"]
    (tmp_path / "yy.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError, match="doubt"):
        vocabulary.read_language(tmp_path / "yy.json")


@pytest.mark.parametrize("text, word", [
    ("Answer: B. 等等，我再想想", "等等"), ("Answer: B.\nПодожди, это неверно.", "подожди"), ("Ответ: B", None),
    ("It is bonus time", None), ("Respuesta: (B). No estoy seguro.", "no estoy seguro"),
])
def test_keywords_are_found_in_every_script(text, word):
    from finereason.reading import find_signals
    found = find_signals(text).first(0)
    assert (found[1] if found else None) == word, text


# ------------------------------------------------------------------ withdrawals in every language
WITHDRAWING = _plain("retraction") + _plain("doubt") + _plain("inability_decide") + _plain("alternative")


@pytest.mark.parametrize("kind", KINDS)
@FAST
@given(data=st.data())
def test_a_retraction_in_any_language_withdraws_the_answer(kind, data):
    slot, x, base = data.draw(_base(kind))
    lang, word = data.draw(st.sampled_from(WITHDRAWING + (_plain("inability_solve") if slot.task == "end_to_end" else [])))
    response = base + data.draw(st.sampled_from(("\n\n", "\n", " "))) + word.capitalize() + "."
    assert _cat(slot, response) == PARSE_ERROR, (lang, response)


@pytest.mark.parametrize("kind", KINDS)
@FAST
@given(data=st.data())
def test_negated_or_resolved_doubt_keeps_the_answer(kind, data):
    _tail_keeps(data, kind, lambda slot: (
        "No need to wait for anything else.", "I was unsure at first, but the check settles it.",
        "There is no doubt about it.", "I was not sure at first, but every rule holds.", "Confidence: 95%.",
        "I am 90% confident in this."))


# ------------------------------------------------------------------ hedges and conditions
@pytest.mark.parametrize("category", ("hedge", "condition"))
@pytest.mark.parametrize("kind", KINDS)
@FAST
@given(data=st.data())
def test_a_hedge_or_condition_in_any_language_never_commits(category, kind, data):
    slot, x, _ = data.draw(_base(kind))
    lang, word = data.draw(st.sampled_from(_plain(category)))
    response = f"{word.capitalize()} {slot.marked(x)}"
    assert _cat(slot, response) == PARSE_ERROR, (lang, response)


# ------------------------------------------------------------------ questions and confirmations
QUESTIONS = [(lang, w) for lang, w in _plain("question")]


@pytest.mark.parametrize("kind", KINDS)
@FAST
@given(data=st.data())
def test_a_question_about_the_answer_never_commits(kind, data):
    slot, x, base = data.draw(_base(kind))
    lang, form = data.draw(st.sampled_from(QUESTIONS + [("en", "?")]))
    joiner = data.draw(st.sampled_from((" ", "\n\n")))
    response = base + joiner + (form if "?" in form or "？" in form else form + "?")
    assert _cat(slot, response) == PARSE_ERROR, (lang, response)


@pytest.mark.parametrize("kind", KINDS)
@FAST
@given(data=st.data())
def test_a_question_answered_by_a_confirmation_keeps_the_answer(kind, data):
    slot, x, base = data.draw(_base(kind))
    lang, word = data.draw(st.sampled_from(_plain("confirmation")))
    question = data.draw(st.sampled_from(("Is that right?", "Does that work?", "¿Es correcto?", "对吗？")))
    response = f"{base}\n\n{question} {word.capitalize()}{'' if word.endswith('.') else '.'}"
    assert _cat(slot, response) == slot.solo[x], (lang, response)


@pytest.mark.parametrize("kind", KINDS)
@FAST
@given(data=st.data())
def test_a_try_cut_off_before_its_result_never_commits(kind, data):
    slot, x, _ = data.draw(_base(kind))
    lang, word = data.draw(st.sampled_from(_plain("trial")))
    response = f"{word.capitalize()} {x}" + data.draw(st.sampled_from((":", "", " ...", " =")))
    assert _cat(slot, response) != "correct", (lang, response)


# ------------------------------------------------------------------ negation
@pytest.mark.parametrize("kind", KINDS)
@FAST
@given(data=st.data())
def test_a_negated_restatement_never_credits_what_it_negates(kind, data):
    slot, x, base = data.draw(_base(kind))
    template = data.draw(st.sampled_from((
        "The {noun} is not {X}.", "The final {noun} is not {X}", "So the {noun} isn't {X}.", "答案不是 {X}",
        "La respuesta no es {X}", "Die Antwort ist nicht {X}", "Ответ не {X}")))
    response = base + "\n\n" + template.replace("{noun}", slot.noun).replace("{X}", x)
    assert _cat(slot, response) == PARSE_ERROR, response
    assert _cat(slot, template.replace("{noun}", slot.noun).replace("{X}", x)) != "correct"


@pytest.mark.parametrize("kind", KINDS)
@FAST
@given(data=st.data())
def test_negating_another_answer_keeps_the_answer(kind, data):
    slot, x, y = data.draw(_two(kind))
    response = slot.marked(x) + f"\n\nThe {slot.noun} is not {y}."
    assert _cat(slot, response) == slot.solo[x], response


# ------------------------------------------------------------------ scope
@pytest.mark.parametrize("kind", KINDS)
@FAST
@given(data=st.data())
def test_a_ps_about_a_different_puzzle_never_changes_the_verdict(kind, data):
    slot, x, y = data.draw(_two(kind))
    lang, opener = data.draw(st.sampled_from(_plain("scope")))
    tail = data.draw(st.sampled_from(("{MY}", "the answer would be {Y}. Wait, that's wrong.", "{MY}\nHmm, not sure.")))
    base = slot.marked(x)
    response = base + "\n\n" + opener.upper() + " " + tail.replace("{MY}", slot.marked(y)).replace("{Y}", y)
    assert _cat(slot, response) == slot.solo[x], (lang, response)


@pytest.mark.parametrize("kind", KINDS)
@FAST
@given(data=st.data())
def test_reading_stops_at_a_simulated_turn(kind, data):
    slot, x, y = data.draw(_two(kind))
    lang, turn = data.draw(st.sampled_from(_plain("turn")))
    tail = data.draw(st.sampled_from(("Are you sure? I think it is {Y}.", "Wait, that's wrong.", "{MY}")))
    response = slot.marked(x) + "\n\n" + turn + " " + tail.replace("{MY}", slot.marked(y)).replace("{Y}", y)
    assert _cat(slot, response) == slot.solo[x], (lang, response)
    assert _cat(slot, "Let me think.\n\n" + turn + " " + slot.marked(x)) == PARSE_ERROR


@pytest.mark.parametrize("kind", ("option",))
@FAST
@given(data=st.data())
def test_echoed_prompt_text_is_not_an_answer(kind, data):
    _tail_keeps(data, kind, lambda slot: (
        f"(A) {slot.engine.choice_words[0]}\n(B) {slot.engine.choice_words[1]}",
        f"A. {slot.engine.choice_words[0]}\nB. {slot.engine.choice_words[1]}",
        "Please answer with (A) or (B).", "Options:\n(A) yes\n(B) no"))


# ------------------------------------------------------------------ working and restatements
@pytest.mark.parametrize("kind", KINDS)
@FAST
@given(data=st.data())
def test_a_restatement_for_clarity_is_not_an_alternative(kind, data):
    slot, x, base = data.draw(_base(kind))
    lang, opener = data.draw(st.sampled_from(_plain("restatement")))
    lead = data.draw(st.sampled_from(("", "Alternatively, ")))
    response = base + "\n\n" + lead + (opener if lead else opener.capitalize()) + "\n" + slot.marked(x)
    assert _cat(slot, response) == slot.solo[x], (lang, response)


def test_working_on_intermediate_values_after_an_answer_is_explanation():
    slot = next(s for s in slots() if s.domain == "game_of_24" and s.kind == "expression")
    x = slot.correct_answers()[0]
    response = slot.marked(x) + "\n\nExplanation: (2) * (12) = 24"
    assert _cat(slot, response) == "correct", response


# ------------------------------------------------------------------ stated confidence
@pytest.mark.parametrize("kind", KINDS)
@FAST
@given(data=st.data())
def test_a_probability_split_or_low_confidence_never_commits(kind, data):
    slot, x, y = data.draw(_two(kind))
    tail = data.draw(st.sampled_from(("Confidence: 60%", "I am 55% sure.", "Low confidence.", "Confidence: 0.4",
                                      "Probability 50%")))
    assert _cat(slot, slot.marked(x) + "\n\n" + tail) == PARSE_ERROR, tail
    if kind != "plan":  # a plan's steps are one per line: a split is written as two plans (a hedge already)
        split = f"{slot.marker}70% {x}, 30% {y}"
        assert _cat(slot, split) == PARSE_ERROR, split


# ------------------------------------------------------------------ references
@pytest.mark.parametrize("kind", KINDS)
@FAST
@given(data=st.data())
def test_a_reference_to_an_attempt_resolves_to_it(kind, data):
    slot, x, y = data.draw(_two(kind))
    response = (f"Attempt 1:\n{slot.marked(x)}\n\nAttempt 2:\n{slot.marked(y)}\nThis does not work.\n\n"
                "Final answer: the one from attempt 1")
    assert _cat(slot, response) == slot.solo[x], response
    missing = f"{slot.marked(x)}\n\nFinal answer: the one from attempt 3"
    assert _cat(slot, missing) == PARSE_ERROR, missing
    above = f"{slot.marked(x)}\n\nFinal answer: see above"
    assert _cat(slot, above) == slot.solo[x], above


# ------------------------------------------------------------------ ambiguous
@pytest.mark.parametrize("kind", KINDS)
@FAST
@given(data=st.data())
def test_an_unread_answer_line_gives_no_credit_and_says_so(kind, data):
    from finereason.reading import choice_reading, list_reading, SOLUTION_MARKS

    slot, x, base = data.draw(_base(kind))
    response = base + "\n\nFinal answer: the configuration described in the notes"
    assert _cat(slot, response) == PARSE_ERROR, response
    if kind == "option":
        assert choice_reading(response).reason.startswith(AMBIGUOUS + ":")
    if kind == "list" and slot.task == "end_to_end":
        assert list_reading(response, SOLUTION_MARKS, bare=True).reason.startswith(AMBIGUOUS + ":")


# ------------------------------------------------------------------ every entry, every kind
def _one(kind: str) -> tuple[Slot, str, str]:
    """A slot of ``kind`` with a correct answer and a different one (the first of each)."""
    slot = _of(kind)[0]
    x = slot.correct_answers()[0]
    return slot, x, next(a for a in slot.answers if a != x)


EVERY = [  # (category, how an entry is used, what the verdict must be: "none" or "kept")
    ("retraction", "{MX}\n\n{W}.", "none"), ("doubt", "{MX}\n\n{W}.", "none"),
    ("inability_decide", "{MX}\n\n{W}.", "none"), ("alternative", "{MX}\n\n{W}.", "none"),
    ("hedge", "{W} {MX}", "none"), ("condition", "{W} {MX}", "none"), ("question", "{MX} {Q}", "none"),
    ("confirmation", "{MX}\n\nIs that right? {C}", "kept"), ("scope", "{MX}\n\n{U} {MY}\nWait, that's wrong.", "kept"),
    ("turn", "{MX}\n\n{W} {MY}\nWait, that's wrong.", "kept"), ("restatement", "{MX}\n\nAlternatively, {W}\n{MX}", "kept"),
    ("reference", "{MX}\n\nFinal answer: {W}", "kept"),
]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("category, template, expect", EVERY, ids=[c for c, _, _ in EVERY])
def test_every_entry_of_every_language(kind, category, template, expect):
    """Each entry of the category, in every language, used after (or before) a right answer: the
    withdrawing, hedging, conditioning and questioning ones leave no credit, the confirming, scoping,
    restating and referring ones keep it."""
    slot, x, y = _one(kind)
    failures = []
    for lang, word in _plain(category) + (_plain("inability_solve") if category == "inability_decide" and slot.task == "end_to_end" else []):
        if category == "reference" and word.rstrip().endswith(("attempt", "intento", "tentative", "versuch", "tentativo", "tentativa", "попытки")):
            continue  # names an attempt: its own test
        text = (template.replace("{MX}", slot.marked(x)).replace("{MY}", slot.marked(y))
                .replace("{W}", word.capitalize()).replace("{U}", word.upper())
                .replace("{Q}", word if "?" in word or "？" in word else word + "?")
                .replace("{C}", word.capitalize() + ("" if word.endswith((".", "。")) else ".")))
        got = _cat(slot, text)
        if (got != PARSE_ERROR) if expect == "none" else (got != "correct"):
            failures.append((lang, word, got))
    assert not failures, failures


@pytest.mark.parametrize("text, choice", [
    ("Answer: (B)\n\n等等，我再想想", None), ("Answer: (B), right?", None), ("Answer: (B)\n\nOr is it?", None),
    ("Answer: (B)\n\n¿Verdad?", None), ("Answer: (B)\n\nIs that right? Yes.", "B"), ("The answer is not (B).", None),
    ("It is not unsolvable.", "A"), ("Answer: (B)\n\nNo need to wait for more checks.", "B"),
    ("Answer: (B)\n\nI was unsure at first, but every row confirms it.", "B"), ("Answer: 70% (A), 30% (B)", None),
    ("Answer: (B)\n\nConfidence: 60%", None), ("Answer: (B)\n\nConfidence: 95%", "B"), ("Answer: (B)\n\nLow confidence.", None),
    ("Answer: (B)\n\nUser: Are you sure? I think it is (A).", "B"), ("Let me see.\n\nUser: Answer: (B)", None),
    ("Answer: (B)\n\nP.S. For the harder version, the answer would be (A).", "B"),
    ("Answer: (B)\n\nBonus: with one more cell filled it is (A).", "B"),
    ("Answer: (B)\n\n(A) Solvable\n(B) Unsolvable", "B"), ("Answer: (A)\n\nAnswer with (A) or (B).", "A"),
    ("Attempt 1:\nAnswer: (B)\n\nAttempt 2:\nAnswer: (A)\nThat fails.\n\nFinal answer: the one from attempt 1", "B"),
    ("Answer: (B)\n\nFinal answer: the one from attempt 2", None), ("Answer: (B)\n\nFinal answer: see above", "B"),
    ("Answer: (B)\n\nAlternatively, for clarity:\nAnswer: (B)", "B"),
    ("Answer: (B)\n\nFinal answer: the configuration described above", None),
])
def test_documented_examples(text, choice):
    """The examples of the rules in docs/reading.md, read as the rules say."""
    from finereason.reading import choice_reading

    assert choice_reading(text).value == choice, (text, choice_reading(text).reason)


def test_ambiguous_cases_are_counted_by_their_reason():
    from finereason.reading import choice_reading
    from finereason.reading.commit import is_ambiguous

    assert is_ambiguous(choice_reading("Answer: (B)\n\nFinal answer: the configuration described above"))
    assert not is_ambiguous(choice_reading("Answer: (B)\n\nWait, that's wrong."))


def test_game24_examples():
    slot = next(s for s in slots() if s.domain == "game_of_24" and s.kind == "expression")
    x = slot.correct_answers()[0]
    assert _cat(slot, f"Answer: {x} = ?") == PARSE_ERROR
    assert _cat(slot, f"Let's try {x}:") == PARSE_ERROR
    assert _cat(slot, f"Answer: {x}\n\nAlternatively, for clarity: {x}") == "correct"
    assert _cat(slot, f"Answer: {x}\n\nIn other words, {x} = 24.") == "correct"


@pytest.mark.parametrize("template, expect", [
    ("Answer:\n{X}\n\nThe plan is not {X}.", PARSE_ERROR), ("Answer:\n{X}\n\nLa respuesta no es {X}", PARSE_ERROR),
    ("Answer:\n{X}\n\nОтвет не {X}", PARSE_ERROR), ("Answer:\n{X}\n\n答案不是 {X}", PARSE_ERROR),
    ("Answer:\n{X}\n\nDie Antwort ist nicht {X}", PARSE_ERROR), ("The plan is not {X}", PARSE_ERROR),
    ("Answer:\n{X}\n\nThe plan is not {Y}", "correct"),
    # a negation that is no answer statement is not a rejection: prose in a plan's explanation
    ("Answer:\n{N}", "correct"),
])
def test_a_negated_plan_is_ruled_out(template, expect):
    """A plan written inside a negated answer statement ("The plan is not <plan>", in any language) is a
    rejection of that plan, never a new plan read from its second line; a negation in prose that is not
    an answer statement ("We must not ...") leaves the plan around it as it is."""
    slot, x, y = _one("plan")
    lines = x.split("\n")
    numbered = "\n".join(f"{k}. {line}" + ("\nWe must not (stack d c) before this step." if k == 1 else "")
                         for k, line in enumerate(lines, 1))
    response = template.replace("{X}", x).replace("{Y}", y).replace("{N}", numbered)
    assert _cat(slot, response) == expect, response
