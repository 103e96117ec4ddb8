"""Game-of-24 answers that a real model wrote, read under the commitment rule.

The responses are recorded gpt-4o-mini answers in ``../shared/real_responses/game24/`` (see its
PROVENANCE.md; never copied into the project). ``tests/data/real_game24.jsonl`` holds, per line
of that file, the reading a careful grader decided before the reader was run on it
(``tests/data/real_game24_decide.py``: an independent procedure plus a manual review): the
committed expression (``null``: no answer commits), other readings a grader could take where the
text is ambiguous (``also``, all uncredited), and whether the reading is correct for its numbers
(exact fractions). Bars (issue 20): the reader agrees with every decided reading, credits nothing
the grader would not (0 unsound), and misses at most 5% of the clearly correct answers.
"""
from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from finereason.domains.game_of_24.arith import Node, canonical, evaluate, leaves, parse
from finereason.domains.game_of_24.answer import expression_items, expression_reading
from finereason.domains.game_of_24.puzzle import Game24Puzzle
from finereason.reading import final_region
from finereason.verification.verifiers import verify_end_to_end

DECIDED = Path(__file__).parents[1] / "data" / "real_game24.jsonl"
MODEL = "gpt-4o-mini-2024-07-18"


def _responses() -> list[dict]:
    from conftest import read_jsonl, shared_path

    return read_jsonl(shared_path("real_responses", "game24", "gpt-4o-mini.jsonl"))


def _decided() -> list[dict]:
    return [json.loads(line) for line in DECIDED.read_text(encoding="utf-8").splitlines() if line.strip()]


def _key(value: object) -> object:
    """A reading as a comparable value: ``None``, one canonical expression, or a tuple of them (a list answer)."""
    if value is None:
        return None
    if isinstance(value, str):
        items = expression_items(value) if value.lstrip().startswith("[") else [value]
        nodes = tuple(canonical(parse(str(item))) for item in items)
        return nodes[0] if len(nodes) == 1 else nodes
    return canonical(value)


def _correct(node: Node, numbers: list[int]) -> bool:
    try:
        return evaluate(node) == Fraction(24) and sorted(leaves(node).elements()) == sorted(numbers)
    except ZeroDivisionError:
        return False


@pytest.fixture(scope="session")
def table() -> list[tuple[dict, dict, object, bool]]:
    responses, decided = _responses(), _decided()
    assert len(decided) == len(responses) == 751
    rows = []
    for response, decision in zip(responses, decided):
        assert response["model"] == MODEL and response["numbers"] == decision["numbers"], decision["line"]
        reading = expression_reading(final_region(response["response"]))
        credited = verify_end_to_end("game_of_24", Game24Puzzle(tuple(response["numbers"])), response["response"]).correct
        rows.append((response, decision, _key(reading.value), credited))
    return rows


def test_decided_correctness_is_exact_arithmetic():
    for decision in _decided():
        reading = decision["reading"]
        correct = reading is not None and _correct(parse(reading.strip("[]")), decision["numbers"])
        assert correct == decision["correct"], decision["line"]
        for other in decision.get("also", []):
            assert other is None or not _correct(parse(other), decision["numbers"]), decision["line"]


def test_reader_agrees_with_every_decided_reading(table):
    disagreements = []
    for _, decision, got, _ in table:
        accepted = {_key(decision["reading"])} | {_key(other) for other in decision.get("also", [])}
        if got not in accepted:
            disagreements.append((decision["line"], decision["reading"], got))
    assert not disagreements, disagreements[:10]


def test_no_unsound_credit_and_few_misses(table):
    unsound = [d["line"] for _, d, _, credited in table if credited and not d["correct"]]
    correct = [d["line"] for _, d, _, _ in table if d["correct"]]
    missed = [d["line"] for _, d, _, credited in table if d["correct"] and not credited]
    assert unsound == []
    assert len(correct) >= 50  # the set holds clearly correct answers to miss
    assert len(missed) <= 0.05 * len(correct), missed
