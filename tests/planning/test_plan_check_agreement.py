"""``plan-check`` and the end-to-end verdict read plans with one reader: on every recorded PlanBench
response in ../shared/real_responses/planbench (Blocksworld and Mystery Blocksworld), plan-check's
verdict and reasons equal those of ``verify_end_to_end``."""
from __future__ import annotations

import json

import pytest
from conftest import planbench_puzzle, shared_path

from finereason.planning.check_file import check_plans, read_plan_requests
from finereason.verification.verifiers import verify_end_to_end

PREFIX = "plan text: "


def recorded_files() -> list[str]:
    folder = shared_path("real_responses", "planbench")
    files = sorted(p.name for p in folder.glob("*.jsonl"))
    if not files:
        pytest.skip(f"no recorded plan files in {folder}")
    return files


@pytest.mark.parametrize("index", range(8))
def test_plan_check_equals_the_end_to_end_verdict(index, tmp_path, monkeypatch):
    files = recorded_files()
    if index >= len(files):
        pytest.skip(f"only {len(files)} recorded plan files")
    path = shared_path("real_responses", "planbench", files[index])
    rows = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
    monkeypatch.chdir(shared_path())  # the rows' PDDL paths are relative to ../shared
    plans = tmp_path / "plans.jsonl"
    plans.write_text("".join(json.dumps({"domain": r["domain"], "problem": r["problem"], "plan": r["response"]}) + "\n"
                             for r in rows), "utf-8")
    checked = list(check_plans(read_plan_requests(str(plans))))
    differ = []
    for line, (row, check) in enumerate(zip(rows, checked)):
        puzzle = planbench_puzzle(row["problem"], row["domain"])  # each instance read once
        engine = "mystery_blocksworld" if puzzle.vocabulary == "mystery" else "blocksworld"
        verdict = verify_end_to_end(engine, puzzle, row["response"])
        reasons = [r[len(PREFIX):] if r.startswith(PREFIX) else r for r in check["reasons"]]
        if check["valid"] != verdict.correct or reasons != list(verdict.reasons):
            differ.append((line, check, verdict))
    assert len(checked) == len(rows) >= 100
    assert 0 < sum(c["valid"] for c in checked) < len(rows)  # both kinds of verdict occur
    assert not differ, differ[:3]
