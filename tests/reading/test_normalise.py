"""The reading normalisation (finereason.reading.normalise): one for every answer kind.

Expected readings come from outside the module under test: the ASCII response a variant was made
from (its verdict is the verifiers'), Unicode's own NFKC (:mod:`unicodedata`) for the compatibility
variants, and a hand-picked list of Cyrillic and Greek letters that look like Latin ones (what a
reader sees, not the generated table). The span map is checked against offsets known by construction.
"""
from __future__ import annotations

import sys
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from finereason.domains.game_of_24.answer import expression_reading
from finereason.domains.game_of_24.puzzle import Game24Puzzle
from finereason.reading import choice_reading, normalise, normalised, original_span, read_choice
from finereason.verification.verifiers import verify_end_to_end
from reading_world import Slot, slots

KINDS = ("option", "list", "expression", "plan")
SETTINGS = settings(max_examples=60, derandomize=True, deadline=None, database=None, print_blob=False,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# NFKC variants of each printable ASCII character, from Unicode's own NFKC: the fullwidth forms and the
# mathematical alphanumerics (bold, italic, double-struck, monospace, ...); no superscripts.
NFKC_VARIANTS: dict[str, list[str]] = {}
for _code in [*range(0xFF01, 0xFF5F), *range(0x1D400, 0x1D800), 0x3000]:
    _ch = chr(_code)
    _to = unicodedata.normalize("NFKC", _ch)
    if len(_to) == 1 and _to.isascii() and _to != _ch:
        NFKC_VARIANTS.setdefault(_to, []).append(_ch)
# letters that look like Latin ones (a reader's judgement, written out by hand)
LOOKALIKES = {
    "a": "\u0430", "c": "\u0441", "e": "\u0435", "o": "\u043e\u03bf", "p": "\u0440", "x": "\u0445", "y": "\u0443",
    "i": "\u0456", "s": "\u0455", "j": "\u0458",
    "A": "\u0410\u0391", "B": "\u0412\u0392", "C": "\u0421", "E": "\u0415\u0395", "H": "\u041d\u0397", "I": "\u0406\u0399",
    "K": "\u041a\u039a", "M": "\u041c\u039c", "N": "\u039d", "O": "\u041e\u039f", "P": "\u0420\u03a1", "T": "\u0422\u03a4",
    "X": "\u0425\u03a7", "Y": "\u03a5", "Z": "\u0396",
}
OPERATOR_VARIANTS = {"-": "\u2212\u2010\u2013", "*": "\u2217", "/": "\u2215"}
ZERO_WIDTH = ("\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad")
VARIANTS = {c: NFKC_VARIANTS.get(c, []) + list(LOOKALIKES.get(c, "")) + list(OPERATOR_VARIANTS.get(c, ""))
            for c in set(NFKC_VARIANTS) | set(LOOKALIKES) | set(OPERATOR_VARIANTS)}


def _of(kind: str) -> list[Slot]:
    return [s for s in slots() if s.kind == kind]


@st.composite
def _variant(draw, text: str) -> str:
    """``text`` with some characters replaced by look-alikes or NFKC variants and zero-width
    characters put in, anywhere (inside numbers and words too)."""
    out = []
    for ch in text:
        if ch in VARIANTS and draw(st.integers(0, 3)) == 0:
            ch = draw(st.sampled_from(VARIANTS[ch]))
        out.append(ch)
        if draw(st.integers(0, 9)) == 0:
            out.append(draw(st.sampled_from(ZERO_WIDTH)))
    return "".join(out)


def _whole(text: str, table: dict[str, str]) -> str:
    return "".join(table.get(c, c) for c in text)


# ------------------------------------------------------------------ per kind, one kind of variant at a time
FORMS = {
    "fullwidth": lambda t: _whole(t, {c: v[0] for c, v in NFKC_VARIANTS.items() if "\uff01" <= v[0] <= "\uff5e"}),
    "math-bold": lambda t: _whole(t, {c: v[-1] for c, v in NFKC_VARIANTS.items() if c.isalnum()}),
    "zero-width-inside": lambda t: "\u200b".join(t[i:i + 2] for i in range(0, len(t), 2)),
    "soft-hyphen-and-joiners": lambda t: "".join(c + ("\u00ad" if c.isalnum() else "\u2060\ufeff") for c in t),
    "cyrillic-greek": lambda t: _whole(t, {c: v[-1] for c, v in LOOKALIKES.items()}),
    "operators": lambda t: _whole(t, {c: v[0] for c, v in OPERATOR_VARIANTS.items()}),
}


@pytest.mark.parametrize("form", list(FORMS))
@pytest.mark.parametrize("kind", KINDS)
def test_each_form_of_each_answer_reads_as_its_ascii_text(kind, form):
    """Every answer of every kind (right and wrong), rewritten whole in one form, has the verdict and
    the format check of its ASCII text."""
    for slot in _of(kind):
        for payload in slot.answers:
            response = slot.marked(payload)
            variant = FORMS[form](response)
            assert variant != response or form == "operators"
            assert normalise(variant).replace("\r\n", " \n") == response, (slot, variant)
            assert slot.verdict(variant).category == slot.solo[payload], (slot, variant)
            assert slot.format_ok(variant), (slot, variant)


@pytest.mark.parametrize("kind", KINDS)
@SETTINGS
@given(data=st.data())
def test_variants_of_an_answer_read_the_same(kind, data):
    """NFKC and look-alike variants of a response (anywhere: marker, answer, words around it) read as
    the response: a right answer stays right, a wrong one stays wrong, with the same format check."""
    slot = data.draw(st.sampled_from(_of(kind)))
    payload = data.draw(st.sampled_from(slot.answers))
    pre = data.draw(st.sampled_from(("", "Let me check the rules one by one.\n\n", "**Reasoning.** Step by step.\n\n")))
    end = data.draw(st.sampled_from(("", " [ANSWER END]", ".", "\n\nThis follows from the rules above.")))
    response = pre + slot.marked(payload) + end
    variant = data.draw(_variant(response))
    assert normalise(variant) == normalise(response)
    assert slot.verdict(variant).category == slot.verdict(response).category, variant
    assert slot.format_ok(variant) == slot.format_ok(response), variant


# ------------------------------------------------------------------ named cases
def test_a_full_stop_inside_math_delimiters_is_formatting():
    puzzle = Game24Puzzle((2, 4, 8))
    for text in ("Answer: \\( (8-2)*4 = 24.\\)", "Answer: \\[ (8-2)*4 = 24. \\]", "Answer: $(8-2)*4 = 24.$",
                 "Answer: $$ (8 - 2) \\times 4 = 24, $$", "So the answer is \\((8-2)*4 = 24\\)."):
        assert verify_end_to_end("game_of_24", puzzle, text).correct, text
    assert not verify_end_to_end("game_of_24", puzzle, "Answer: \\( (8-2)*4 = 25.\\)").correct
    assert verify_end_to_end("game_of_24", puzzle, "Answer:$(8-2)*4 = 24$").correct  # an opening $ after a colon


@pytest.mark.parametrize("text", [
    "Answer: (\uff18\u2212\uff12)\u00d7\uff14 \uff1d \uff12\uff14",                    # fullwidth digits and =
    "Answer: (\U0001d7d6-\U0001d7d0)*\U0001d7d2 = \U0001d7d0\U0001d7d2",              # 𝟖 𝟐 𝟒 = 𝟐𝟒
    "Answer: (8-2)*4\u200b = 2\u200b4",                                               # zero-width inside 24
    "Answer: (8\u00ad-2)*4 = 2\u20604\ufeff",                                         # soft hyphen, joiner, BOM
    "Answer: (\u0668-\u0662)*\u0664 = \u0662\u0664",                                  # Arabic-Indic digits
    "\u0410nswer: (8\u22122)\u22174 = 24",                                            # Cyrillic A, minus, asterisk op
])
def test_game24_expressions_in_other_characters(text):
    assert verify_end_to_end("game_of_24", Game24Puzzle((2, 4, 8)), text).correct, text


def test_a_digit_is_read_by_its_value_never_by_its_look():
    """Bengali ৪ is four though it looks like 8; Cyrillic З only looks like 3 and has no value of its own."""
    puzzle = Game24Puzzle((2, 4, 8))
    assert not verify_end_to_end("game_of_24", puzzle, "Answer: (\u09ea-2)*4 = 24").correct   # (4-2)*4
    assert verify_end_to_end("game_of_24", Game24Puzzle((3, 8)), "Answer: \u0417*8 = 24").correct


def test_no_character_turns_into_a_digit_other_than_its_value():
    """For every character of the first two planes: if it reads as ASCII digits between two digits,
    the digits are its numeric value (Unicode's); a character with no numeric value reads as a digit
    only as a letter look-alike (category L)."""
    chars = [chr(c) for c in range(0x80, 0x20000) if unicodedata.category(chr(c)) not in ("Cs", "Zl", "Zp")]
    reads = normalise("\n".join("1" + ch + "1" for ch in chars)).split("\n")  # one call: the same rule
    assert len(reads) == len(chars)
    for ch, piece in zip(chars, reads):
        code, read = ord(ch), piece[1:-1]
        if not read or not read.isdigit() or not read.isascii():
            continue
        value = unicodedata.numeric(ch, None)
        if value is None:
            assert unicodedata.category(ch).startswith("L") and len(read) == 1, (hex(code), read)
        else:
            assert int(read) == value, (hex(code), read, value)


@pytest.mark.parametrize("text, choice", [
    ("Answer: (\u0412)", "B"), ("Answer: \u0392", "B"), ("Answer: (\uff21)", "A"), ("Answer: \U0001d400", "A"),
    ("Answer: (B\u200b)", "B"), ("\u041e\u0442\u0432\u0435\u0442: (\u0412)", "B"), ("**Answer:** \u2060(A)\u2060", "A"),
])
def test_options_in_other_characters(text, choice):
    assert read_choice(text).choice == choice


def test_words_of_another_alphabet_stay_as_they_are():
    russian = "\u0412 \u0438\u0442\u043e\u0433\u0435 \u0430 \u043c\u043e\u0436\u0435\u0442 \u0441\u043e\u0440"  # В итоге а может сор
    assert normalise(russian) == russian
    assert normalise("\u0440ick u\u0440 a") == "pick up a"        # mixed with Latin letters: folded
    greek = "\u03b1\u03bd\u03ac\u03bb\u03c5\u03c3\u03b7"            # ανάλυση
    assert normalise(greek) == greek


def test_superscripts_keep_their_meaning_and_ascii_is_untouched():
    assert normalise("5\u00b2 - 1 = 24") == "5\u00b2 - 1 = 24"
    ascii_text = "Answer: (A) [ANSWER END] $x$ \\(y\\)"
    assert normalise(ascii_text) == ascii_text
    assert normalise("\u2026 \ufb01ne") == "... fine"


def test_normalising_twice_changes_nothing():
    for text in ("Answer: (\uff18\u2212\uff12)\u00d7\uff14 \uff1d \uff12\uff14.\\)", "\u0440ick \u0430 \u0412 \u0438\u0442\u043e\u0433\u0435",
                 "\u2026\u200b\ufb01 \U0001d400\u0301"):
        once = normalise(text)
        assert normalise(once) == once


# ------------------------------------------------------------------ offsets back into the original text
UNITS = st.sampled_from([
    ("a", "a"), ("7", "7"), (" ", " "), ("(", "("), ("\n", "\n"),
    ("\uff17", "7"), ("\U0001d400", "A"), ("\u0412x", "Bx"), ("\u2212", "-"),   # one character for one
    ("\u200b", ""), ("\u00ad", ""), ("\ufeff", ""),                             # removed
    ("\u2026", "..."), ("\ufb01", "fi"), ("\u2474", "(1)"),                     # expanded
])


@SETTINGS
@given(st.lists(UNITS, min_size=1, max_size=30))
def test_spans_map_back_to_the_original_characters(units):
    """A text built of units whose original and normalised forms are known: the normalised span of
    units i..j maps back to the original span of the same units."""
    original = "".join(o for o, _ in units)
    result = normalised(original)
    assert result.text == "".join(n for _, n in units)
    starts, ends = [], []
    o = n = 0
    for uo, un in units:
        starts.append((o, n))
        o, n = o + len(uo), n + len(un)
        ends.append((o, n))
    for i in range(len(units)):
        if not units[i][1]:
            continue
        for j in range(i, len(units)):
            if not units[j][1]:
                continue
            (os_, ns), (oe, ne) = starts[i], ends[j]
            assert result.span(ns, ne) == (os_, oe), (units, i, j)
            assert original_span(original, ns, ne) == (os_, oe)


def test_a_statement_span_points_at_the_answer_in_the_original_text():
    original = "Let me think\u2026 \u200bthe rule \ufb01ts.\n\nAnswer: (\uff22\u200b)\n"
    reading = choice_reading(original)
    assert reading.value == "B"
    start, end = original_span(original, reading.statement.start, reading.statement.end)
    assert "(\uff22\u200b)" in original[start:end] and original[start:end].startswith("Answer")
    text = "Answer: (\U0001d7d6\u2212\U0001d7d0)\u00d7\U0001d7d2 = \U0001d7d0\u200b\U0001d7d2"
    reading = expression_reading(text)
    start, end = original_span(text, reading.statement.start, reading.statement.end)
    assert normalise(text[start:end]) == normalise(text)[reading.statement.start:reading.statement.end]


def test_the_generated_table_matches_its_source():
    """Regenerating the look-alike table from its source gives the shipped module (when the source,
    the confusable-homoglyphs package, is installed)."""
    homoglyphs = pytest.importorskip("confusable_homoglyphs", reason="confusable-homoglyphs is not installed")
    import json
    from pathlib import Path

    from finereason.reading import make_confusables

    source = Path(homoglyphs.__file__).with_name("confusables.json")
    if not source.exists():
        pytest.skip(f"{source} is absent")
    assert make_confusables.render(json.loads(source.read_text(encoding="utf-8"))) == \
        make_confusables.TARGET.read_text(encoding="utf-8")


def test_the_reader_needs_no_package_for_the_table():
    """The reader imports the generated table alone, never the package it was made from."""
    import subprocess

    code = "import sys, finereason.reading; print(sorted(m for m in sys.modules if 'confusable' in m))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['finereason.reading.confusables_data']"
    import finereason.reading.confusables_data as data

    assert all(t.isascii() and len(t) == 1 for t in data.LETTERS)
    assert all(not c.isascii() for v in data.LETTERS.values() for c in v)
