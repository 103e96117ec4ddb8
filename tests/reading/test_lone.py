"""The withdrawn-answer shortcut (``reading.lone``) gives exactly the full rule's reading.

Texts are made to sit on either side of each of its conditions (markers before, inside and after the
list, hedges, conditions, negations, echoes, references, turns, second lists, boxes, cut lists, with and
without a withdrawal after the answer); on every one, :func:`task_reading` equals
:func:`task_list_reading` field by field, and the shortcut, when it answers, equals it too.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from finereason.reading.lists import NEXT_STATE_MARKS, SOLUTION_MARKS, task_list_reading
from finereason.reading.lone import task_reading, withdrawn_reading

GRID = repr([[(r * 3 + c) % 9 + 1 for c in range(9)] for r in range(9)])
FLAT = "[1, 2, 3, 1, 2]"
BEFORE = ["", "I fill one cell.\n", "If row 2 is right, ", "It might be that ", "**Analysis.**\n\n", "Either way, ",
          "Correction: ", "We get [1, 2].\n", "The answer is not\n", "Respond in the form ", "(B) unsolvable\n(A) ",
          "User: solve it\n", "Solution: [[1]]\n", "Final ", "\\boxed{", "Let's try:\n", "70% sure: ", "Answer: none\n"]
MARKS = ["Answer: ", "Solution: ", "**Final answer:**\n", "Answer:\n```\n", "Next state: ", "next_state = ",
         "The answer is ", "Respuesta: ", "ANSWER: ", "Answer: Solution: ", "The answer is not ", "Answer: it is not "]
TAILS = ["\nWait, that is wrong. I take that answer back.", " Wait, no.", "\nActually, no.", "\nHmm, let me reconsider.",
         "\nI take that answer back.", "\nThat's not right.", "\nScratch that.", "\nWait, that is wrong. The answer is above.",
         "\nNo wait, I made a mistake.", "\nWait: or [[1]]", "\nWait, Answer: [[2]]", "\nWait, is that right?",
         "\nWait. Final answer: the one from attempt 1.", "\nWait.\nUser: next puzzle", "\nWait, that is incorrect.",
         "\nWait, if row 2 were different it fails.", "\nWait, that's the answer.", "\nI could not find a valid solution.",
         "\nWait, no.\nFinal answer: the one from attempt 1", "\nWait, no.\nAnswer: see above", "\nWait, no.\nAttempt 2:",
         "", "\nThis keeps every row valid.", " is wrong.", " or maybe [[3]]", " [ANSWER END]\nWait, no.", "\n\nWait"]


def _texts(seed: int, n: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        body = rng.choice([GRID, GRID, FLAT, GRID[: rng.randrange(1, len(GRID))], "[]", "[[1], [2]]\n[[3]]"])
        tail = rng.choice(TAILS) + (rng.choice(TAILS) if rng.random() < 0.2 else "")
        out.append(rng.choice(BEFORE) + rng.choice(MARKS) + body + tail + rng.choice(["", " ", "\n", "}"]))
    return out


@pytest.mark.parametrize("seed", range(3))
def test_withdrawn_shortcut_reads_what_the_full_rule_reads(seed):
    taken = 0
    for text in _texts(seed, 2500):
        for transition, marks, bare, what in ((False, SOLUTION_MARKS, True, "solution"), (True, NEXT_STATE_MARKS, False, "state")):
            full = task_list_reading(text, transition)
            got = task_reading(text, transition)
            assert (got, got.statements, got.live) == (full, full.statements, full.live), (text, transition)
            fast = withdrawn_reading(text, marks, bare, what)
            if fast is not None:
                taken += 1
                assert (fast, fast.statements, fast.live) == (full, full.statements, full.live), (text, transition)
                assert full.value is None and "withdrawn" in full.reason
    assert 300 < taken < 2500  # both sides of the shortcut's conditions were exercised


def test_withdrawn_shortcut_on_real_and_corpus_responses():
    corpus = Path(__file__).parents[1] / "data" / "answer_corpus.jsonl"
    texts = [json.loads(line)["response"] for line in corpus.read_text("utf-8").splitlines() if line.strip()]
    for k, text in enumerate(texts):
        for variant in (text, text + TAILS[k % len(TAILS)], text + "\nWait, that is wrong. I take that answer back."):
            for transition in (False, True):
                full = task_list_reading(variant, transition)
                got = task_reading(variant, transition)
                assert (got, got.statements, got.live) == (full, full.statements, full.live), variant
