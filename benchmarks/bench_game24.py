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
import sys
from fractions import Fraction
from itertools import combinations_with_replacement
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

from harness import (BASELINE_RATE, ORACLE_RATE, SOLVABLE, SPEEDUP, STATES, add_shared_argument, banner, compare,  # noqa: E402
                     exit_status)

from finereason.domains.game_of_24.arith import evaluate  # noqa: E402
from finereason.domains.game_of_24.engine import Game24Engine  # noqa: E402
from finereason.domains.game_of_24.puzzle import Game24Puzzle, State  # noqa: E402
from finereason.domains.game_of_24.solver import _can_make  # noqa: E402


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
    path = shared / "finereason_official" / f"{Game24Engine.official_name}_states_sample.jsonl"
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_shared_argument(parser)
    parser.add_argument("--repeat", type=int, default=1,
                        help="timing runs per set, the best kept (default 1: the baseline takes ~20 s a run)")
    args = parser.parse_args(argv)

    sets = {
        f"official {Game24Engine.official_name} states sample": lambda: official_states(args.shared),
        "all 1820 multisets of 1..13": all_multisets,
    }
    print(banner(f"best of {args.repeat}", "cold oracle cache"))
    disagreements = compare(sets, Game24Engine().is_solvable, baseline_solvable,
                            columns=(STATES, SOLVABLE, ORACLE_RATE, BASELINE_RATE, SPEEDUP),
                            repeat=args.repeat, setup=_can_make.cache_clear)
    return exit_status(disagreements, "the oracle and the baseline")


if __name__ == "__main__":
    raise SystemExit(main())
