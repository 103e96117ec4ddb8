"""Scoring throughput of the metric path (bar: 10,000 state-transition responses in under 5 s).

    python benchmarks/bench_scoring.py [--data DIR]

Builds a small benchmark when DIR is not given, then scores 10,000 state-transition responses
(oracle, random and garbage answers over all four puzzles, Sudoku states with many empty cells
included) through ``finereason.verification.scoring.score_row`` + ``aggregate`` — the path lm-eval's
``process_results`` uses. The baseline is the raw oracle call alone (``is_solvable`` on the current
state), measured in the same run.
"""
from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import built_rows  # noqa: E402


def main() -> None:
    from finereason.core.engine import default_names, get_engine
    from finereason.core.rows import row_domain, row_item
    from finereason.domains.sudoku import DOMAIN as SUDOKU
    from finereason.models.baselines import oracle, random_answer
    from finereason.verification.scoring import aggregate, score_row

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", help="a built dataset folder (default: build one)")
    parser.add_argument("--n", type=int, default=10_000)
    args = parser.parse_args()
    configs = [f"{p}_state_transition" for p in default_names()]
    rows = built_rows(args.data, configs, ["--per-task", "250", "--train-size", "0", "--e2e-size", "0", "--num-proc", "2"])
    answers = [oracle, lambda r: random_answer(r, 1), lambda r: "I think the next state is unclear."]
    pairs = [(row, answers[i % 3](row)) for i, row in zip(range(args.n), itertools.cycle(rows))]
    empty = max(sum(1 for v in row_item(r).current if v == 0) for r, _ in pairs if row_domain(r) == SUDOKU.name)
    start = time.perf_counter()
    scores = [score_row(row, text) for row, text in pairs]
    metrics = aggregate(scores)
    ours = time.perf_counter() - start
    start = time.perf_counter()
    for row, _ in pairs:
        item = row_item(row)
        get_engine(row_domain(row)).is_solvable(item.puzzle, item.current)
    base = time.perf_counter() - start
    print(f"{len(pairs)} responses over {len(rows)} rows ({SUDOKU.title} states with up to {empty} empty cells)")
    print(f"{'path':<34}{'seconds':>9}{'responses/s':>13}")
    print(f"{'score_row + aggregate (both modes)':<34}{ours:>9.2f}{len(pairs) / ours:>13.0f}")
    print(f"{'baseline: oracle on current only':<34}{base:>9.2f}{len(pairs) / base:>13.0f}")
    print(f"ratio {ours / base:.1f}x the bare oracle; acc {metrics['acc']:.3f}, parse errors {metrics['parse_error_rate']:.3f}")
    print(f"bar: 10,000 in under 5 s -> {'met' if ours * 10_000 / len(pairs) < 5 else 'NOT met'}")


if __name__ == "__main__":
    main()
