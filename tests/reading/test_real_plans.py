"""The plan reader against decided readings of 700 real model responses (tests/data/real_plans.jsonl).

The decided readings are in the project (how they were decided: benchmarks/decide_real_plans.py); the
responses are read from ../shared/real_responses/planbench at test time, keyed by file and line.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from conftest import shared_path

from finereason.domains.blocksworld.source import read_instance
from finereason.core.engine import get_engine
from finereason.reading import final_region
from finereason.verification.verifiers import verify_end_to_end

DECIDED = Path(__file__).parents[1] / "data" / "real_plans.jsonl"


def decided() -> list[dict]:
    with open(DECIDED, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def test_the_decided_corpus_covers_every_model():
    records = decided()
    files = Counter(r["file"] for r in records)
    assert len(records) >= 600 and len(files) == 7 and min(files.values()) >= 90
    assert {r["decision"] for r in records} == {"plan", "none", "invalid"}
    assert sum(r["decision"] == "plan" for r in records) > 500


def test_the_reader_agrees_with_every_decided_reading():
    folder = shared_path("real_responses", "planbench")
    engine = get_engine("blocksworld")
    lines: dict[str, list[str]] = {}
    puzzles: dict[str, object] = {}
    disagreements = []
    for record in decided():
        rows = lines.setdefault(record["file"], (folder / f"{record['file']}.jsonl").read_text("utf-8").splitlines())
        row = json.loads(rows[record["line"]])
        text = row["response"]
        reading = engine.read_answer(final_region(text) or "", "end_to_end")
        read = None if reading.value is None else [str(s) for s in reading.value]
        if record["decision"] == "plan":
            ok = read == record["plan"]
        elif record["decision"] == "none":
            ok = read is None
        else:
            if row["problem"] not in puzzles:
                puzzles[row["problem"]] = read_instance(shared_path(row["problem"]), shared_path(row["domain"])).puzzle
            ok = not verify_end_to_end(engine, puzzles[row["problem"]], text).correct
        if not ok:
            disagreements.append((record["file"], record["line"], record["decision"], read))
    assert not disagreements, disagreements[:5]


@pytest.mark.parametrize("decision", ["plan", "none"])
def test_decided_plans_credit_exactly_the_valid_ones(decision):
    """Where a plan is decided, the verifier credits it exactly when the validator accepts that plan."""
    from finereason.planning.plan_text import Step
    from finereason.planning.validate import validate

    folder = shared_path("real_responses", "planbench")
    engine = get_engine("blocksworld")
    records = [r for r in decided() if r["decision"] == decision][::7]
    rows = {f: (folder / f"{f}.jsonl").read_text("utf-8").splitlines() for f in {r["file"] for r in records}}
    for record in records:
        row = json.loads(rows[record["file"]][record["line"]])
        puzzle = read_instance(shared_path(row["problem"]), shared_path(row["domain"])).puzzle
        verdict = verify_end_to_end(engine, puzzle, row["response"])
        if decision == "none":
            assert not verdict.correct
            continue
        steps = [Step(s[1:-1].split()[0], tuple(s[1:-1].split()[1:]), s) for s in record["plan"]]
        assert verdict.correct == validate(puzzle.task, steps).valid, (record["file"], record["line"])
