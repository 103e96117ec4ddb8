"""The plan reader on real model text, against an independent oracle (``plan_oracle.py``).

    python benchmarks/bench_real_plans.py [--shared ../shared] [--dump disagreements.jsonl]

For each of the recorded PlanBench answer files in ``../shared/real_responses/planbench`` (8 model/prompt
pairs x 500, Blocksworld and Mystery Blocksworld), per model: ``in_text`` (a plan that the VAL-style
validator accepts is written somewhere in the response, by the oracle), ``credited`` (``verify_end_to_end``
credits the response), ``misses`` (in_text and not credited), ``unsound?`` (credited although the oracle's
last plan in the text is a different one: to be read by hand), ``plan-check agrees`` (``finereason
plan-check``'s verdict on the response, from the PDDL files, equals the end-to-end verdict) and the reading
time. Bar: misses <= 1%; plan-check agrees on every response.

Then the reading time of 1 MB texts (plans, prose, degenerate input): the plan scanner alone and the
whole reading, against the shared withdrawal-signal pass over the same text in the same run (the
baseline every answer kind pays). Goal (issue 20): 1 MB read in < 0.5 s per call.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from plan_oracle import find, plan_key  # noqa: E402

from finereason.core.engine import get_engine  # noqa: E402
from finereason.domains.blocksworld.domain import MysteryBlocksworldDomain  # noqa: E402
from finereason.domains.blocksworld.engine import BlocksworldEngine  # noqa: E402
from finereason.domains.blocksworld.source import read_instance  # noqa: E402
from finereason.planning import Task, check_plan, read_domain, read_problem  # noqa: E402
from finereason.reading import final_region  # noqa: E402
from finereason.verification.verifiers import verify_end_to_end  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def load(shared: Path) -> dict[str, list[dict]]:
    folder = shared / "real_responses" / "planbench"
    return {p.stem: [json.loads(line) for line in p.open(encoding="utf-8")] for p in sorted(folder.glob("*.jsonl"))}


_PUZZLES: dict[str, object] = {}
_TASKS: dict[str, Task] = {}


def task_of(shared: Path, row: dict) -> Task:
    """The planning task that plan-check reads from the row's PDDL files."""
    if row["problem"] not in _TASKS:
        _TASKS[row["problem"]] = Task(read_domain(shared / row["domain"]), read_problem(shared / row["problem"]))
    return _TASKS[row["problem"]]


def puzzle_of(shared: Path, row: dict):
    if row["problem"] not in _PUZZLES:
        _PUZZLES[row["problem"]] = read_instance(shared / row["problem"], shared / row["domain"]).puzzle
    return _PUZZLES[row["problem"]]


def judge(shared: Path, row: dict) -> dict:
    puzzle = puzzle_of(shared, row)
    engine = get_engine(MysteryBlocksworldDomain.name if puzzle.vocabulary == MysteryBlocksworldDomain.vocabulary
                        else BlocksworldEngine.name)
    text = row["response"]
    found = find(text, puzzle.task)
    verdict = verify_end_to_end(engine, puzzle, text)
    reading = engine.read_answer(final_region(text) or "", "end_to_end")
    read_key = plan_key(reading.value)
    return {"in_text": found.contains_valid, "credited": verdict.correct, "read": read_key,
            "plan_check": check_plan(task_of(shared, row), text).valid == verdict.correct,
            "last": plan_key(found.last), "reason": reading.reason,
            "valid": [plan_key(p) for p in found.valid]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shared", default=str(ROOT.parent / "shared"))
    parser.add_argument("--dump", help="write the disagreements (misses, unsound?) here, one JSON per line")
    args = parser.parse_args()
    shared = Path(args.shared)
    files = load(shared)
    dump = open(args.dump, "w", encoding="utf-8") if args.dump else None
    print("| model/prompt | responses | VAL-accepted plan in text | credited | misses | unsound? | plan-check agrees "
          "| ms/response |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, rows in files.items():
        counts = {"in_text": 0, "credited": 0, "misses": 0, "unsound": 0, "plan_check": 0}
        t0 = time.perf_counter()
        for line, row in enumerate(rows):
            r = judge(shared, row)
            counts["in_text"] += r["in_text"]
            counts["credited"] += r["credited"]
            miss = r["in_text"] and not r["credited"]
            unsound = r["credited"] and r["read"] != r["last"]
            counts["misses"] += miss
            counts["unsound"] += unsound
            counts["plan_check"] += r["plan_check"]
            if dump and (miss or unsound):
                dump.write(json.dumps({"file": name, "line": line, "kind": "miss" if miss else "unsound?",
                                       **{k: r[k] for k in ("reason", "read", "last")}}) + "\n")
        ms = 1000 * (time.perf_counter() - t0) / len(rows)
        print(f"| {name} | {len(rows)} | {counts['in_text']} | {counts['credited']} | {counts['misses']} "
              f"({100 * counts['misses'] / max(1, counts['in_text']):.1f}%) | {counts['unsound']} | "
              f"{counts['plan_check']}/{len(rows)} | {ms:.1f} |")
    if dump:
        dump.close()
    timing()
    return 0


def timing() -> None:
    from finereason.domains.blocksworld.puzzle import pddl_domain
    from finereason.planning.plan_answers import plan_reading, plan_signals, plan_statements
    from finereason.planning.plan_text import LETTERS, syntax_of
    from finereason.reading import find_signals

    domain = pddl_domain(BlocksworldEngine.vocabulary)
    syntax = syntax_of(domain, LETTERS)
    texts = {
        "numbered plan lines": "1. Unstack the blue block from the red block (now holding it)\n" * 16_000,
        "PDDL steps": "(unstack b a)\n" * 70_000,
        "prose": "Here is how I think about the plan, which works.\n" * 20_000,
        "one long line": "unstack red, " * 80_000,
        "blank-ish lines": "x\n" * 500_000,
    }
    print("\n| 1 MB text | scanner s | whole reading s | signal pass s (baseline) | reading / baseline |")
    print("|---|---:|---:|---:|---:|")
    for name, text in texts.items():
        t0 = time.perf_counter()
        find_signals(text, solving=True)
        base = time.perf_counter() - t0
        signals = plan_signals(text)
        t0 = time.perf_counter()
        plan_statements(text, syntax, signals)
        scan = time.perf_counter() - t0
        t0 = time.perf_counter()
        plan_reading(text, domain)
        whole = time.perf_counter() - t0
        print(f"| {name} ({len(text) // 1000} KB) | {scan:.2f} | {whole:.2f} | {base:.2f} | {whole / base:.2f}x |")


if __name__ == "__main__":
    raise SystemExit(main())
