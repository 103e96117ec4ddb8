"""How ``tests/data/real_plans.jsonl`` was decided: a careful grader's reading of 700 real plan responses.

    python benchmarks/decide_real_plans.py [--shared ../shared] [--out tests/data/real_plans.jsonl]

The sample: every 5th line (0, 5, 10, ...) of each of the 7 PlanBench answer files in
``../shared/real_responses/planbench``. Each response was decided from its text by two readings that
share no code, and by hand where they differ:

1. the independent oracle's last plan in the text (``plan_oracle.py``: its own step parser, the last
   run / numbered list / ``[PLAN]`` block by position, PlanBench's one-shot continuation cut at
   ``[STATEMENT]``);
2. the reader's committed plan, at the time of deciding.

Where both agree, that plan (or ``none`` when both find no committed plan) is the decision. Where they
differ, the decision below (``MANUAL``) was made by reading the response. Decisions:
``plan`` (the committed plan, step strings like ``"(unstack a b)"``), ``none`` (no committed plan:
reasoning cut off, withdrawn, or two plans offered), ``invalid`` (the final plan is an incoherent list
with self-corrections inside its steps: whatever transcription, no valid plan commits).
The responses stay in ../shared: the file holds only file, line and the decision.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_real_plans import load, puzzle_of  # noqa: E402
from plan_oracle import find  # noqa: E402

from finereason.core.engine import get_engine  # noqa: E402
from finereason.domains.blocksworld.engine import BlocksworldEngine  # noqa: E402
from finereason.reading import final_region  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
STRIDE = 5
_INCOHERENT = "numbered plan whose steps hold self-corrections ('... is not possible, so ...'): no valid plan commits"
_CUT = "reasoning cut off by the token limit before a final answer; the last plans are tentative"
MANUAL: dict[tuple[str, int], tuple[str, str]] = {
    ("o1-mini_chat_zero_shot", 225): ("reader", "letters are colour initials defined in the text ('the yellow block (Y)')"),
    ("o1-mini_chat_zero_shot", 265): ("reader", "letters are colour initials defined in the text ('the red block (R)')"),
    ("o1-mini_chat_zero_shot", 450): ("reader", "the numbered plan, restated item by item with explanations"),
    **{("llama-3.1-405b_aws_zero_shot", n): ("invalid", _INCOHERENT) for n in (10, 20, 115, 160, 175, 230, 395, 400, 470)},
    ("llama-3.1-405b_aws_zero_shot", 440): ("none", "the last (revised) plan is cut off at item '12.'"),
    ("qwen-qwq_one_shot", 420): ("none", "the plan's restatement ('Let me check...') is cut off at item '6'"),
    ("qwen-qwq_one_shot", 120): ("invalid", "reasoning cut off mid-sentence; its last line 'Put down yellow, so now "
                                            "orange' reads as a one-step plan; no valid plan commits"),
    **{("qwen-qwq_one_shot", n): ("none", _CUT) for n in (40, 175, 240, 350, 405, 425, 490)},
}


def decide(shared: Path) -> list[dict]:
    engine = get_engine(BlocksworldEngine.name)
    out = []
    for name, rows in load(shared).items():
        for line in range(0, len(rows), STRIDE):
            row = rows[line]
            found = find(row["response"], puzzle_of(shared, row).task)
            oracle = None if found.last is None else [str(s) for s in found.last]
            reading = engine.read_answer(final_region(row["response"]) or "", "end_to_end")
            reader = None if reading.value is None else [str(s) for s in reading.value]
            manual = MANUAL.get((name, line))
            if manual is not None:
                kind, note = manual
                record = ({"decision": "plan", "plan": reader} if kind == "reader" else {"decision": kind})
                record["note"] = note
            elif oracle == reader:
                record = {"decision": "none"} if oracle is None else {"decision": "plan", "plan": oracle}
            else:
                raise SystemExit(f"{name}:{line}: the two readings differ and nobody decided it: {oracle} / {reader}")
            out.append({"file": name, "line": line, **record})
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shared", default=str(ROOT.parent / "shared"))
    parser.add_argument("--out", default=str(ROOT / "tests" / "data" / "real_plans.jsonl"))
    args = parser.parse_args()
    records = decide(Path(args.shared))
    with open(args.out, "w", encoding="utf-8") as fh:
        for record in records:
            fh.write(json.dumps(record, sort_keys=True) + "\n")
    print(f"{len(records)} decided readings -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
