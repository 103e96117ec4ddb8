"""Worst-case time of each verifier on hostile responses (bar: every verdict within 100 ms).

    python benchmarks/bench_hostile.py

The baseline row is a plain, well-formed answer on the same state, measured in the same run.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE.parent / "tests"), str(HERE)]

from finereason.engines import get_engine  # noqa: E402
from finereason.verifiers import verify_end_to_end, verify_state_checking, verify_state_transition  # noqa: E402
from harness import SHARED  # noqa: E402
from hostile import hostile_responses  # noqa: E402

OFFICIAL = SHARED / "finereason_official"
FILES = {"sudoku": "sudoku", "graph_coloring": "graphcoloring", "game_of_24": "game24", "grid_puzzle": "gridpuzzle"}


def worst(fn, repeats: int = 3) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    print(f"{'puzzle':<16}{'response':<18}{'ST ms':>8}{'SC ms':>8}{'E2E ms':>8}  category")
    slowest = 0.0
    for name, official in FILES.items():
        engine = get_engine(name)
        record = json.loads((OFFICIAL / f"{official}_states_sample.jsonl").read_text().splitlines()[0])
        item = engine.item_from_official(record)
        cases = {"(baseline)": "Next state: " + engine.render(item.puzzle, item.current), **hostile_responses()}
        for label, text in cases.items():
            st = worst(lambda: verify_state_transition(engine, item, text))
            sc = worst(lambda: verify_state_checking(engine, item, text))
            e2e = worst(lambda: verify_end_to_end(engine, item.puzzle, text))
            category = verify_state_transition(engine, item, text).category
            if label != "(baseline)":
                slowest = max(slowest, st, sc, e2e)
            print(f"{name:<16}{label:<18}{st * 1e3:>8.1f}{sc * 1e3:>8.1f}{e2e * 1e3:>8.1f}  {category}")
    print(f"slowest hostile verdict: {slowest * 1e3:.1f} ms (bar: 100 ms)")


if __name__ == "__main__":
    main()
