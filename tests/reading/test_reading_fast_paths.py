"""The shortcuts of the answer reader and the Sudoku list reader give exactly the full readers' results.

Each shortcut is compared with the general code it bypasses on texts made to sit on either side of
its conditions (hedges, conditions, withdrawals, second lists and markers, odd spacing, cut lists).
"""
from __future__ import annotations

import random

import pytest

from finereason.common.verdict import ParseError, StateError
from finereason.core.literals import MAX_PAYLOAD_CHARS, parse_literal
from finereason.domains.sudoku.engine import parse_grid
from finereason.domains.sudoku.payload import digit_grid
from finereason.reading import commit, find_signals
from finereason.reading.lists import (NEXT_STATE_MARKS, SOLUTION_MARKS, _lowered, _one_plain_answer, list_reading,
                                      list_statements)
from finereason.reading.region import blank_tags

GRID = repr([[(r * 3 + c) % 10 for c in range(9)] for r in range(9)])
BEFORE = ["", "I fill one cell.\n", "If row 2 is right, ", "It might be that ", "**Analysis.**\n\n", "Either way, ",
          "Correction: ", "The next move:\n", "Looking again, maybe\n", "We get [1, 2].\n", "Row 4 is done; "]
MARKS = ["Next state: ", "**Next state:**\n```python\n", "next_state = ", "Next State:\n", "NEXT STATE: "]
AFTER = ["", "\n", "\n```", "\n\nThis keeps every row valid.", " Wait, no.", " or [[1]]", " is wrong.",
         "\nOtherwise it is stuck.", "\nNext state: [[1", " [ANSWER END]", "\nI am not sure.", "\nDone: [1]",
         "\nIs that right", " Does this work", "\nIst das richtig", "\nThis keeps every row valid, is that correct",
         "\n**", " .", "!", "\n`", "\n\n***\n", "\n_ ! ."]  # blanks and markup only: the looks after the list find nothing


def _full(region: str):
    region = blank_tags(region)
    signals = find_signals(region)
    return commit(list_statements(region, NEXT_STATE_MARKS, signals), signals, what="state")


def _texts(seed: int, n: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        grid = GRID if rng.random() < 0.8 else GRID[: rng.randrange(len(GRID))]
        out.append(rng.choice(BEFORE) + rng.choice(MARKS) + grid + rng.choice(AFTER) + rng.choice(["", " ", "\n"]))
    return out


def test_one_answer_shortcut_reads_what_the_full_reader_reads():
    taken = 0
    for text in _texts(0, 3000):
        region = blank_tags(text)
        fast = _one_plain_answer(region, _lowered(region))
        full = _full(text)
        assert list_reading(text, NEXT_STATE_MARKS) == full, text
        if fast is not None:
            taken += 1
            assert fast == full and fast.statements == full.statements and fast.live == full.live, text
    assert 300 < taken < 3000  # both sides of the shortcut's conditions were exercised


# both sides of the shortcut's conditions for solutions: prompt echoes, splits, boxes, references, turns
SOLUTION_BEFORE = BEFORE + ["(B) unsolvable\n(A) ", "Respond in the form ", "70% sure, 30%: ", "\\boxed{",
                            "Let's try:\n", "The answer is not\n", "Solution: [[1]]\n", "User: solve it\n", "Final "]
SOLUTION_MARKS_TEXT = ["Answer: ", "**Solution:**\n```python\n", "answer = ", "Solution:\n", "ANSWER: ", "Answer is "]
SOLUTION_AFTER = AFTER + ["?", " (60%)", "\nP.S. For the harder version: [1]", "\nUser: thanks", "}",
                          "\nAnswer: see above", "\nRight?", "\nSo the answer stands.", "\n(B) unsolvable"]
FLAT = repr([(k * 7) % 4 + 1 for k in range(12)])


def _full_solution(region: str):
    region = blank_tags(region)
    signals = find_signals(region, solving=True)
    return commit(list_statements(region, SOLUTION_MARKS, signals, bare=True), signals, what="solution")


def test_one_solution_shortcut_reads_what_the_full_reader_reads():
    rng = random.Random(2)
    taken = 0
    for _ in range(4000):
        grid = rng.choice([GRID, FLAT])
        if rng.random() < 0.2:
            grid = grid[: rng.randrange(len(grid))]
        text = (rng.choice(SOLUTION_BEFORE) + rng.choice(SOLUTION_MARKS_TEXT) + grid + rng.choice(SOLUTION_AFTER)
                + rng.choice(["", " ", "\n"]))
        region = blank_tags(text)
        fast = _one_plain_answer(region, _lowered(region), SOLUTION_MARKS)
        full = _full_solution(text)
        assert list_reading(text, SOLUTION_MARKS, bare=True, what="solution") == full, text
        if fast is not None:
            taken += 1
            assert fast == full and fast.statements == full.statements and fast.live == full.live, text
    assert 300 < taken < 4000  # both sides of the shortcut's conditions were exercised


@pytest.mark.parametrize("text", ["(B) unsolvable\n(A) Next state: " + GRID, "Respond in the form Next state: " + GRID,
                                  "70% sure, 30%: Next state: " + GRID, "\\boxed{Next state: " + GRID])
def test_one_answer_shortcut_leaves_prompt_echoes_splits_and_open_boxes_to_the_full_reader(text):
    region = blank_tags(text)
    assert _one_plain_answer(region, _lowered(region)) is None
    assert list_reading(text, NEXT_STATE_MARKS) == _full(text)


@pytest.mark.parametrize("text", ["If the count holds, next state: " + GRID, "Next state: " + GRID + " or " + GRID,
                                  "Next state: " + GRID + "\nHmm, let me recheck.", "Next state: " + GRID[:-3]])
def test_one_answer_shortcut_leaves_other_shapes_to_the_full_reader(text):
    region = blank_tags(text)
    assert _one_plain_answer(region, _lowered(region)) is None
    assert list_reading(text, NEXT_STATE_MARKS).value is None  # hedged, conditional, withdrawn or cut off


def _reference(payload: str):
    try:
        return parse_grid(parse_literal(payload))
    except (ParseError, StateError):
        return None


def test_digit_grid_reads_what_the_literal_and_grid_readers_read():
    rng = random.Random(1)
    alphabet = "0123456789[], \t\n\r\x0b-.'a٣"
    hits = 0
    for _ in range(20_000):
        chars = list(GRID)
        for _ in range(rng.randint(0, 3)):
            i = rng.randrange(len(chars))
            op = rng.randrange(3)
            if op == 0:
                del chars[i]
            elif op == 1:
                chars.insert(i, rng.choice(alphabet))
            else:
                chars[i] = rng.choice(alphabet)
        payload = "".join(chars)
        fast = digit_grid(payload)
        if fast is not None:
            hits += 1
            assert fast == _reference(payload) and all(type(v) is int for v in fast), payload
    assert hits > 1000
    assert digit_grid(GRID) == _reference(GRID)
    assert digit_grid(GRID.replace("[[", "[[ ", 1)) == _reference(GRID)
    assert digit_grid("[" + " " * MAX_PAYLOAD_CHARS + GRID[1:]) is None  # too long: the literal reader refuses it
    assert digit_grid(GRID[:-1] + ",]") is None and digit_grid(GRID.replace("0", "10", 1)) is None


def test_condition_precheck_reads_what_the_condition_patterns_read():
    from finereason.reading import hedges

    def full(region: str, start: int, stop: int) -> bool:
        before = hedges.sentence_before(region, start)
        if not before and stop >= len(region):
            return False
        return (hedges._CONDITION_BEFORE.search(before) is not None
                or hedges._ALTERNATIVE_AFTER.search(hedges.sentence_after(region, stop)) is not None)

    rng = random.Random(3)
    words = ["If", "IF", "unless", "Assuming", "SUPPOSE", "in case", "In Case", "otherwise", "Else", "provided",
             "provided:", "if not", "If so", "elsewhere", "gif", "the", "row", "is", "done", ",", ".", "\n", "then",
             "ſo", "İf", "K", "é", "Ünless", "maybe", "50%"]
    seen = set()
    for _ in range(4000):
        before = " ".join(rng.choice(words) for _ in range(rng.randint(0, 6)))
        after = " ".join(rng.choice(words) for _ in range(rng.randint(0, 6)))
        region = before + " Answer: [1, 2]" * rng.randint(0, 1) + (" " + after if after else "")
        start = len(before) + 1 if " Answer" in region else len(before)
        stop = region.find("]") + 1 if "]" in region else start
        fast = hedges.conditional(region, start, stop)
        assert fast == full(region, start, stop), region
        seen.add(fast)
    assert seen == {True, False}


def test_tag_precheck_blanks_what_the_tag_pattern_blanks():
    from finereason.reading import region as region_module

    rng = random.Random(4)
    opens = ["[", "[/", "[ ", "[\t", "[\n", "[\u2003", "[ / ", "<", "</", "< ", "[[", "x"]
    words = ["answer", "ANSWER", "End", "end of answer", "final answer", "FINAL", "solution", "output", "1, 2",
             "\u212aey", "\u017fo", "\u00e9nd", "fin", "a", "Answer: "]
    closes = ["]", ">", " ]", "  >", "", "\n"]
    changed = 0
    for _ in range(6000):
        text = "".join(rng.choice(opens) + rng.choice(words) + rng.choice(closes) for _ in range(rng.randint(1, 4)))
        region = region_module.normalise(text).replace("\r\n", " \n")
        expected = region_module._TAGS.sub(lambda m: " " * len(m.group()), region)
        got = blank_tags(text)
        assert got == expected, text
        changed += got != region
    assert 500 < changed < 6000


def _scan_list_end(text: str, begin: int, limit: int) -> int | str:
    """Where the list at ``begin`` ends, character by character (quotes end at a line break; a backslash
    in a quote escapes), ``-1`` when the text ends inside it, or ``"error"`` past the limits."""
    depth, quote, k, end_limit = 0, "", begin, min(len(text), begin + limit)
    while k < end_limit:
        ch = text[k]
        if quote:
            if ch == "\\":
                k += 1
            elif ch in (quote, "\n"):
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "[":
            depth += 1
            if depth > 8:
                return "error"
        elif ch == "]":
            depth -= 1
            if depth == 0:
                return k + 1
        k += 1
    return "error" if end_limit < len(text) else -1


def test_list_end_shortcuts_end_lists_where_the_character_scan_does():
    from finereason.reading.lists import list_end

    rng = random.Random(5)
    ends = set()
    for _ in range(20_000):
        text = "[" + "".join(rng.choice("[[]]]1, \n'\"\\x") for _ in range(rng.randint(0, 30)))
        limit = rng.choice([8, 16, 50_000])
        expected = _scan_list_end(text, 0, limit)
        try:
            got: int | str = list_end(text, 0, limit)
        except ParseError:
            got = "error"
        assert got == expected, (text, limit)
        ends.add(expected if expected in (-1, "error") else "closed")
    assert ends == {-1, "error", "closed"}


def test_look_alike_folding_reads_each_neighbourhood_as_the_uncached_fold_does():
    import sys

    normalise_module = sys.modules["finereason.reading.normalise"]
    rng = random.Random(6)
    words = ["а", "В", "о", "у", "с", "р", "е", "Не", "уверен", "итоге", "ответ", "Answer", "B", "pick", "рick", "2З",
             "П", "С", "ΑΒΓ", "Ε", "x" * 70, "ж" * 70, "abc", "_", "中文", "é"]
    joins = [" ", "  ", ".", "-", "'", "\n", "", ": ", " (", ") "]
    folded = 0
    for _ in range(4000):
        text = "".join(rng.choice(words) + rng.choice(joins) for _ in range(rng.randint(1, 10)))
        expected = normalise_module._FOLD.sub(normalise_module._fold_match, text)
        got = normalise_module._fold_words(text)
        assert got == expected, text
        folded += got != text
    assert folded > 500


def test_list_keys_drop_every_whitespace_character():
    from finereason.reading.lists import _key

    rng = random.Random(7)
    alphabet = "[]1, \t\n\r\x0b\x0c\x1c\x1f\x7f\x85\xa0\u2003\u3000'\"a\u00e9~"
    for _ in range(20_000):
        payload = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        assert _key(payload) == "".join(payload.split()), repr(payload)
    assert _key(GRID) == GRID.replace(" ", "")


def test_grouped_alternations_match_what_the_plain_alternations_match():
    import re

    from finereason.reading.vocabulary import alternation

    rng = random.Random(8)
    pool = ["if", "in", "in case", "is", "it", "i", "unless", "else", "elsewhere", "e", "P.S.", "p.s", "user:", "us", "Ü"]
    matched = 0
    for _ in range(3000):
        words = rng.sample(pool, rng.randint(1, len(pool)))
        lower = [w for w in words if w == w.lower()] or ["if"]  # IGNORECASE: words of one case (the docstring)
        for wrap, flags, ws in (("{}", 0, words), (r"\b(?:{})\b", 0, words), (r"[ *]{{0,3}}({})", 0, words),
                                (r"\b(?:{})\b", re.IGNORECASE, lower)):
            plain, grouped = "|".join(map(re.escape, ws)), alternation(ws)
            a, b = re.compile(wrap.format(plain), flags), re.compile(wrap.format(grouped), flags)
            text = "".join(rng.choice(pool + [" ", "*", "x", "\n", "IN", "Is"]) for _ in range(rng.randint(0, 6)))
            for pos in range(len(text) + 1):
                x, y = a.match(text, pos), b.match(text, pos)
                assert (x and (x.span(), x.groups())) == (y and (y.span(), y.groups())), (words, wrap, text, pos)
                matched += x is not None
    assert matched > 1000


def test_line_openers_are_found_where_a_line_start_search_finds_them():
    import re

    from finereason.reading import scope

    at_start, _, by_word = scope._opening(("turn", "scope"))
    multiline = re.compile("^" + at_start.pattern, re.MULTILINE)

    def reference(low: str, lo: int, hi: int) -> list:
        ls = low.rfind("\n", 0, lo) + 1
        pos = ls if ls == lo else (low.find("\n", lo, hi) + 1 or hi)
        out = []
        for _ in range(256):
            m = multiline.search(low, pos, hi)
            if m is None:
                break
            out.append((m.start(1), m.group(1)))
            pos = low.find("\n", m.start(1), hi) + 1 or hi
        return out

    rng = random.Random(9)
    words = sorted(by_word)[::3] + ["the answer", "next state: [1]", "x", ""]
    found = 0
    for _ in range(3000):
        low = "".join(rng.choice(["", " ", "**", "> ", "- "]) + rng.choice(words) + rng.choice(["\n", " ", "\n\n"])
                      for _ in range(rng.randint(1, 6)))
        lo, hi = sorted(rng.randint(0, len(low)) for _ in range(2))
        rx_at, rx_after = at_start, scope._opening(("turn", "scope"))[1]
        got = []
        ls = low.rfind("\n", 0, lo) + 1
        pos = ls if ls == lo else (low.find("\n", lo, hi) + 1 or hi)
        for _ in range(256):
            m = scope._line_opening(rx_at, rx_after, low, pos, hi)
            if m is None:
                break
            got.append((m.start(1), m.group(1)))
            pos = low.find("\n", m.start(1), hi) + 1 or hi
        assert got == reference(low, lo, hi), (low, lo, hi)
        found += len(got)
    assert found > 1000


def test_ascii_character_classes_mean_what_the_unicode_ones_mean_on_ascii_text():
    import re

    from finereason.reading import vocabulary

    for c in map(chr, range(128)):
        assert bool(vocabulary._LETTER.fullmatch(c)) == bool(vocabulary._ASCII_LETTER.fullmatch(c)), repr(c)
        assert bool(re.fullmatch(r"\w", c)) == bool(re.fullmatch(vocabulary._ASCII_TOKEN.pattern[:-1], c)), repr(c)


def test_a_complete_lists_sentence_is_looked_at_once():
    from finereason.reading import hedges
    from finereason.reading.lists import _list_statements

    marked = 0
    for text in _texts(10, 1500) + [t.replace("Next state", "Probably the next state") for t in _texts(11, 300)]:
        region = blank_tags(text)
        found = _list_statements(region, NEXT_STATE_MARKS, find_signals(region))
        once = list_statements(region, NEXT_STATE_MARKS, find_signals(region))
        assert once == hedges.mark_hedges(region, found), text  # as when every statement's sentence is looked at
        marked += sum(s.hedged == "the final answer is hedged" for s in once)
    assert marked > 100


def test_a_tail_of_blanks_and_markup_holds_no_hedge_word():
    from finereason.reading.hedges import HEDGE_AFTER
    from finereason.reading.lists import _TEXT

    assert all(_TEXT.search(word) is not None for word in HEDGE_AFTER)  # so the one-answer shortcut skips that look
