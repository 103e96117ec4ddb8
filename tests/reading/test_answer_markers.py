"""Answer markers in every language: the answer kinds' scanners take their marker words from the
vocabulary (``finereason/reading/vocabulary/``), so ``Respuesta: (B)``, ``Ответ: B``, ``答案：(B)``,
``Siguiente estado: [...]``, ``下一个状态：[...]`` are read as ``Answer: (B)`` / ``Next state: [...]``
are (marked), for options, lists, Game-of-24 expressions, FOLIO labels and self-verdicts.

Expected verdicts come from the slot's own marked answer in English (``slot.solo``), judged by the
verifiers; the property holds for every marker word of every language file.
"""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from finereason.common.vocabulary import STATE_TRANSITION
from finereason.reading import NEXT_STATE_MARKS, SOLUTION_MARKS, choice_reading, final_region, list_reading, vocabulary
from finereason.reading.truth_values import truth_value_reading
from finereason.reading.verdicts import verdict_reading
from reading_world import Slot, slots

FAST = settings(max_examples=80, derandomize=True, deadline=None, database=None, print_blob=False,
                phases=(Phase.explicit, Phase.reuse, Phase.generate),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
LANGUAGES = {lang.code for lang in vocabulary.languages()}


def _written(word: str, style: int) -> str:
    """A marker word as a model writes it: capitalised, then its colon (none when the word ends in its
    colon or copula: ``답:``, ``答案是``), in one of four styles (``X: ``, ``X：``, ``**X:** ``, ``X : ``)."""
    shown = word[0].upper() + word[1:]
    if word.endswith((":", "：", "是", "은", "는", "は")):
        return shown + " "
    return (f"{shown}: ", f"{shown}：", f"**{shown}:** ", f"{shown} : ")[style]


def _markers(kind: str) -> list[str]:
    return list(vocabulary.markers(kind))


@st.composite
def _case(draw, kind: str, marker_kind: str = "answer") -> tuple[Slot, str, str]:
    slot = draw(st.sampled_from([s for s in slots() if s.kind == kind]))
    if kind == "list":
        marker_kind = "next_state" if slot.task == STATE_TRANSITION else "answer"
    x = draw(st.sampled_from(slot.answers))
    word = draw(st.sampled_from(_markers(marker_kind)))
    return slot, x, _written(word, draw(st.integers(0, 3)))


def test_every_language_has_answer_and_next_state_markers():
    """Each language file gives the scanners an answer marker, a next-state marker and a verdict marker."""
    for lang in vocabulary.languages():
        kinds = {e.kind for e in lang.entries["answer_markers"]}
        assert set(vocabulary.MARKER_KINDS) <= kinds, lang.code
    assert LANGUAGES - {"en"} <= {lang.code for lang in vocabulary.languages() if lang.code != "en"}


@pytest.mark.parametrize("kind", ("option", "list", "expression"))
@FAST
@given(data=st.data())
def test_a_marked_answer_in_any_language_reads_as_marked(kind, data):
    """``<marker> <answer>`` in any language gets the verdict of ``Answer: <answer>`` (the English marker
    the prompt asks for), and options and lists read it as marked."""
    slot, x, marker = data.draw(_case(kind))
    response = data.draw(st.sampled_from(("", "Let me check every rule first.\n\n"))) + marker + x
    assert slot.verdict(response).category == slot.solo[x], response
    region = final_region(response)
    if kind == "option":
        assert choice_reading(response).marked, response
    elif kind == "list":
        marks = NEXT_STATE_MARKS if slot.task == STATE_TRANSITION else SOLUTION_MARKS
        reading = list_reading(region, marks, bare=slot.task != STATE_TRANSITION)
        assert reading.marked and reading.value is not None, response


@pytest.mark.parametrize("kind", ("option", "list", "expression"))
@FAST
@given(data=st.data())
def test_a_later_marked_answer_in_another_language_replaces_the_first(kind, data):
    """A correction given with another language's marker is a new marked answer: ``Answer: Y\\n\\nWait,
    ... <marker> X`` reads X, as the English ``Answer: X`` would."""
    slot, x, marker = data.draw(_case(kind))
    y = data.draw(st.sampled_from([a for a in slot.answers if a != x] or [x]))
    response = f"{slot.marked(y)}\n\nWait, that is wrong.\n\n{marker}{x}"
    assert slot.verdict(response).category == slot.verdict(f"{slot.marked(y)}\n\nWait, that is wrong.\n\n"
                                                            f"{slot.marked(x)}").category, response


@pytest.mark.parametrize("word", vocabulary.markers())
@pytest.mark.parametrize("label", ("True", "False", "Uncertain"))
def test_a_folio_label_after_any_marker(word, label):
    assert truth_value_reading(_written(word, 0) + label).value == label


@pytest.mark.parametrize("word", vocabulary.markers("verdict"))
def test_a_verdict_after_any_verdict_marker(word):
    assert verdict_reading(_written(word, 1) + "correct").value is True
    assert verdict_reading(_written(word, 0) + "incorrect").value is False
    assert verdict_reading(_written(word, 0) + "correct\n\nWait, step 2 is wrong.").value is None


@pytest.mark.parametrize("text, choice", [
    ("Respuesta: (B)", "B"), ("Ответ: B", "B"), ("答案：(B)", "B"), ("Réponse : (A)", "A"), ("Antwort: A", "A"),
    ("答案是B", "B"), ("정답: B", "B"), ("La respuesta no es (A)", None), ("Ответ: B\n\nПодожди, это неверно.", None),
])
def test_documented_option_examples(text, choice):
    reading = choice_reading(text)
    assert reading.value == choice, (text, reading.reason)
    if choice:
        assert reading.marked


@pytest.mark.parametrize("unit", ("Ответ: ", "答案：", "Respuesta: ", "Siguiente estado: [", "Вердикт: "))
def test_marker_spam_is_read_without_error(unit):
    """A megabyte of another language's markers (hostile text) is read by every kind: no answer, no error."""
    text = unit * (1_000_000 // len(unit))
    assert choice_reading(text).value is None
    assert list_reading(text, SOLUTION_MARKS, bare=True).value is None
    assert list_reading(text, NEXT_STATE_MARKS).value is None
    assert truth_value_reading(text).value is None and verdict_reading(text).value is None
    slot = next(s for s in slots() if s.kind == "expression")
    assert slot.verdict(text).category == "parse_error"
