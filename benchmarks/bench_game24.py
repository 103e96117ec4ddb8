"""Throughput of the Game of 24 oracle against a plain recursive search baseline, on one core.

Usage: ``python benchmarks/bench_game24.py [--shared PATH] [--repeat N]``

Both run in this process, one after the other, on the same states:
- *oracle*: ``Game24Engine.is_solvable`` (rule check, exact values, then a search over reduced
  integer pairs memoised on sorted value tuples). Its cache is cleared before each set, so the
  numbers include filling it;
- *baseline*: the straightforward search: try every ordered pair and operation on ``Fraction``
  values, recurse, stop at the first success, no memo.

Sets: the official FineReason Game of 24 states sample and all 1,820 multisets of four numbers
from 1..13 (initial states). Each row reports states per second for both and the speedup ratio;
both must agree on every verdict.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from fractions import Fraction
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from finereason.arith import evaluate  # noqa: E402
from finereason.engines.game24 import Game24Engine, Game24Puzzle, State, _can_make  # noqa: E402

DEFAULT_SHARED = ROOT.parent / "shared"


# ---------------------------------------------------------------- the baseline
def baseline_can_make(values: list[Fraction], target: Fraction) -> bool:
    """Every ordered pair, every operation, recurse; no memo, no symmetry pruning."""
    if len(values) == 1:
        return values[0] == target
    for i, a in enumerate(values):
        for j, b in enumerate(values):
            if i == j:
                continue
            rest = [v for k, v in enumerate(values) if k != i and k != j]
            for r in (a + b, a - b, a * b, a / b if b else None):
                if r is not None and baseline_can_make(rest + [r], target):
                    return True
    return False


def baseline_solvable(puzzle: Game24Puzzle, state: State) -> bool:
    return baseline_can_make([evaluate(node) for node in state], Fraction(puzzle.target))


# ---------------------------------------------------------------- inputs
def official_states(shared: Path) -> list[tuple[Game24Puzzle, State]]:
    engine = Game24Engine()
    path = shared / "finereason_official" / "game24_states_sample.jsonl"
    with open(path, encoding="utf-8") as fh:
        items = [engine.item_from_official(json.loads(line)) for line in fh if line.strip()]
    return [(item.puzzle, item.current) for item in items]


def all_multisets() -> list[tuple[Game24Puzzle, State]]:
    engine = Game24Engine()
    out = []
    for numbers in combinations_with_replacement(range(1, 14), 4):
        puzzle = Game24Puzzle(numbers)
        out.append((puzzle, engine.parse_state(puzzle, list(numbers))))
    return out


# ---------------------------------------------------------------- timing
def timed(solver: Callable[[Game24Puzzle, State], bool], items: list, repeat: int) -> tuple[float, list[bool]]:
    """Best-of-``repeat`` seconds to label every item (cold oracle cache each time), and the labels."""
    best = float("inf")
    labels: list[bool] = []
    for _ in range(repeat):
        _can_make.cache_clear()
        start = time.perf_counter()
        labels = [solver(puzzle, state) for puzzle, state in items]
        best = min(best, time.perf_counter() - start)
    return best, labels


def pin_one_core() -> str:
    """Restrict this process to one CPU when the OS allows it."""
    if hasattr(os, "sched_setaffinity"):
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    return "not pinned (no sched_setaffinity)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED, help="the reference data folder")
    parser.add_argument("--repeat", type=int, default=1,
                        help="timing runs per set, the best kept (default 1: the baseline takes ~20 s a run)")
    args = parser.parse_args(argv)

    sets = {
        "official game24 states sample": lambda: official_states(args.shared),
        "all 1820 multisets of 1..13": all_multisets,
    }
    engine = Game24Engine()
    print(f"Python {sys.version.split()[0]}, {pin_one_core()}, best of {args.repeat}, cold oracle cache")
    header = f"{'set':<32} {'states':>7} {'solvable':>9} {'oracle/s':>10} {'baseline/s':>11} {'speedup':>8}"
    print(header)
    print("-" * len(header))
    disagreements = 0
    for name, load in sets.items():
        try:
            items = load()
        except FileNotFoundError as err:
            print(f"{name:<32} skipped: {err.filename} is absent")
            continue
        ours, ours_labels = timed(engine.is_solvable, items, args.repeat)
        base, base_labels = timed(baseline_solvable, items, args.repeat)
        disagreements += sum(a != b for a, b in zip(ours_labels, base_labels))
        n = len(items)
        print(f"{name:<32} {n:>7} {sum(ours_labels):>9} {n / ours:>10.1f} {n / base:>11.1f} {base / ours:>7.1f}x")
    if disagreements:
        print(f"ERROR: the oracle and the baseline disagree on {disagreements} states")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
