"""Worst-case time of each verifier on hostile responses (bar: every verdict within 100 ms), and of
the Game-of-24 readers on oversized text (bar: each fails within 3x one regex scan of the same text).

    python benchmarks/bench_hostile.py

Baselines, measured in the same run: a plain, well-formed answer on the same state (verifiers), and
one regular-expression pass over the same text looking for the answer markers, the least any
reader of the final answer must do (readers).
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE.parent / "tests"), str(HERE)]

from harness import SHARED, best_of  # noqa: E402
from hostile import hostile_responses  # noqa: E402

from finereason.core.engine import default_names, get_engine  # noqa: E402
from finereason.domains.game_of_24 import arith  # noqa: E402
from finereason.domains.game_of_24.engine import Game24Engine  # noqa: E402
from finereason.domains.game_of_24.puzzle import Game24Puzzle  # noqa: E402
from finereason.verification.verifiers import verify_end_to_end, verify_state_checking, verify_state_transition  # noqa: E402

OFFICIAL = SHARED / "finereason_official"


SIZES = {
    "100k-nested-parentheses": "(" * 100_000 + "1" + ")" * 100_000,
    "5MB-number": "1" * 5_000_000,
    "5MB-parentheses": "(" * 2_500_000 + ")" * 2_500_000,
}
READER_BAR = 3.0  # each reader fails within this many marker scans of its input
MARKERS = re.compile(r"(?i)(?:answer|next\s+state)\s*:")


def failing(call) -> None:
    """Run a reader that must refuse its input (a value error of ours)."""
    try:
        call()
    except ValueError:
        return
    raise AssertionError("the reader accepted an oversized input")


def readers() -> float:
    """Time the Game-of-24 readers on oversized text against one marker scan; the worst ratio."""
    engine, puzzle = get_engine(Game24Engine.name), Game24Puzzle((1, 2, 4, 7))
    print(f"{'text':<26}{'reader':<22}{'ms':>8}{'scan ms':>9}{'ratio':>7}")
    worst_ratio = 0.0
    for name, text in SIZES.items():
        inputs = {
            "arith.parse": (text, lambda t: failing(lambda: arith.parse(t))),
            "parse_state": (text, lambda t: failing(lambda: engine.parse_state(puzzle, ["1", t]))),
            "parse_state_text": (f"Next state: [1, {text}]", lambda t: failing(lambda: engine.parse_state_text(puzzle, t))),
            "parse_solution_text": (f"Answer: {text}", lambda t: failing(lambda: engine.parse_solution_text(puzzle, t))),
            "equations": (text.replace("1", "1\n="), lambda t: failing(lambda: engine.parse_solution_text(puzzle, t))),
        }
        for reader, (given, call) in inputs.items():
            scan = best_of(lambda: sum(1 for _ in MARKERS.finditer(given)))
            took = best_of(lambda: call(given))
            ratio = took / scan
            worst_ratio = max(worst_ratio, ratio)
            print(f"{name:<26}{reader:<22}{took * 1e3:>8.2f}{scan * 1e3:>9.2f}{ratio:>7.2f}")
    print(f"worst reader / marker scan: {worst_ratio:.2f}x (bar: {READER_BAR:.0f}x)")
    return worst_ratio


def main() -> None:
    print(f"{'puzzle':<16}{'response':<18}{'ST ms':>8}{'SC ms':>8}{'E2E ms':>8}  category")
    slowest = 0.0
    for name in default_names():
        engine = get_engine(name)
        record = json.loads((OFFICIAL / f"{engine.official_name}_states_sample.jsonl").read_text().splitlines()[0])
        item = engine.item_from_official(record)
        cases = {"(baseline)": "Next state: " + engine.render(item.puzzle, item.current), **hostile_responses()}
        for label, text in cases.items():
            st = best_of(lambda: verify_state_transition(engine, item, text))
            sc = best_of(lambda: verify_state_checking(engine, item, text))
            e2e = best_of(lambda: verify_end_to_end(engine, item.puzzle, text))
            category = verify_state_transition(engine, item, text).category
            if label != "(baseline)":
                slowest = max(slowest, st, sc, e2e)
            print(f"{name:<16}{label:<18}{st * 1e3:>8.1f}{sc * 1e3:>8.1f}{e2e * 1e3:>8.1f}  {category}")
    print(f"slowest hostile verdict: {slowest * 1e3:.1f} ms (bar: 100 ms)")
    print()
    ratio = readers()
    if ratio > READER_BAR:
        print("ERROR: a reader is slower than the bar")
        sys.exit(1)


if __name__ == "__main__":
    main()
