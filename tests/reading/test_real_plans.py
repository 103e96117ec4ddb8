"""The plan reader against decided readings of 1,200 real model responses (tests/data/real_plans.jsonl).

The decided readings are in the project (how they were decided: benchmarks/decide_real_plans.py for 700
Blocksworld responses of seven models, benchmarks/decide_mystery_plans.py for all 500 Mystery Blocksworld
responses of o1-preview); the responses are read from ../shared/real_responses/planbench at test time,
keyed by file and line. Both the end-to-end verdict's reader and ``plan-check`` are held to them.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from conftest import planbench_puzzle, shared_path

from finereason.core.engine import get_engine
from finereason.planning import PlanAction, Task, check_plan, read_domain, read_problem, validate
from finereason.reading import final_region
from finereason.verification.verifiers import verify_end_to_end

DECIDED = Path(__file__).parents[1] / "data" / "real_plans.jsonl"
MYSTERY = "mystery_o1-preview_chat_zero_shot"


def as_steps(plan: list[str]) -> list[PlanAction]:
    """Decided step strings ("(feast b c)") as steps."""
    return [PlanAction(s[1:-1].split()[0], tuple(s[1:-1].split()[1:]), s) for s in plan]


def engine_of(name: str):
    return get_engine("mystery_blocksworld" if name.startswith("mystery") else "blocksworld")


def decided() -> list[dict]:
    with open(DECIDED, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def test_the_decided_corpus_covers_every_model():
    records = decided()
    files = Counter(r["file"] for r in records)
    assert len(records) >= 1_200 and len(files) == 8 and min(files.values()) >= 90
    assert files[MYSTERY] == 500  # every Mystery response
    assert {r["decision"] for r in records} == {"plan", "none", "invalid"}
    assert sum(r["decision"] == "plan" for r in records) > 1_000
    assert {r["decision"] for r in records if r["file"] == MYSTERY} == {"plan", "none", "invalid"}


@pytest.mark.parametrize("path", ["end_to_end", "plan-check"])
def test_the_reader_agrees_with_every_decided_reading(path):
    """Both paths that read plans (the end-to-end verdict's reader and plan-check) give the decided reading."""
    folder = shared_path("real_responses", "planbench")
    lines: dict[str, list[str]] = {}
    tasks: dict[str, Task] = {}
    disagreements = []
    for record in decided():
        rows = lines.setdefault(record["file"], (folder / f"{record['file']}.jsonl").read_text("utf-8").splitlines())
        row = json.loads(rows[record["line"]])
        text = row["response"]
        engine = engine_of(record["file"])
        if row["problem"] not in tasks:
            tasks[row["problem"]] = Task(read_domain(shared_path(row["domain"])), read_problem(shared_path(row["problem"])))
        if path == "plan-check":
            verdict = check_plan(tasks[row["problem"]], text)
            read = "invalid" if not verdict.valid else "valid"
            if record["decision"] == "plan":
                ok = verdict == validate(tasks[row["problem"]], as_steps(record["plan"]))
            else:
                ok = not verdict.valid and (record["decision"] == "invalid" or verdict.reasons[0].startswith("plan text: "))
        else:
            reading = engine.read_answer(final_region(text) or "", "end_to_end")
            read = None if reading.value is None else [str(s) for s in reading.value]
            if record["decision"] == "plan":
                ok = read == record["plan"]
            elif record["decision"] == "none":
                ok = read is None
            else:
                ok = not verify_end_to_end(engine, planbench_puzzle(row["problem"], row["domain"]), text).correct
        if not ok:
            disagreements.append((record["file"], record["line"], record["decision"], read))
    assert not disagreements, disagreements[:5]


@pytest.mark.parametrize("decision", ["plan", "none"])
def test_decided_plans_credit_exactly_the_valid_ones(decision):
    """Where a plan is decided, the verifier credits it exactly when the validator accepts that plan."""
    folder = shared_path("real_responses", "planbench")
    records = [r for r in decided() if r["decision"] == decision][::7]
    rows = {f: (folder / f"{f}.jsonl").read_text("utf-8").splitlines() for f in {r["file"] for r in records}}
    for record in records:
        row = json.loads(rows[record["file"]][record["line"]])
        puzzle = planbench_puzzle(row["problem"], row["domain"])
        verdict = verify_end_to_end(engine_of(record["file"]), puzzle, row["response"])
        if decision == "none":
            assert not verdict.correct
            continue
        assert verdict.correct == validate(puzzle.task, as_steps(record["plan"])).valid, (record["file"], record["line"])
