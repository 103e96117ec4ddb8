"""GRPO reward throughput (bar: at least 5,000 mixed state-checking/state-transition completions
scored per second on one core, so rewards never slow a GRPO step).

    python benchmarks/bench_rewards.py [--data DIR] [--n 20000]

Scores oracle, random and garbage completions on rows of the ``train`` config through the
``state_checking`` and ``state_transition`` rewards (TRL signature, conversational completions,
with ``log_metric``). The baseline is parsing the rows alone (``row_item``: JSON decode and state
construction), measured in the same run, so the ratio shows what judging adds.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "trainers"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from harness import built_rows  # noqa: E402


def main() -> None:
    from rewards import ROW_COLUMNS, state_checking_reward, state_transition_reward

    from finereason.baselines import oracle, random_answer
    from finereason.evaluation import _item, row_item

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", help="a built dataset folder with a train config (default: build one)")
    parser.add_argument("--n", type=int, default=20_000)
    args = parser.parse_args()
    rows = built_rows(args.data, ["train"], ["--per-task", "0", "--e2e-size", "0", "--train-size", "2000", "--num-proc", "2"])
    answers = [oracle, lambda r: random_answer(r, 7), lambda r: "Let me think... no final answer."]
    batch = [rows[i % len(rows)] for i in range(args.n)]
    completions = [[{"role": "assistant", "content": answers[i % 3](row)}] for i, row in enumerate(batch)]
    columns = {name: [row[name] for row in batch] for name in ROW_COLUMNS}
    transition = state_transition_reward()
    logged: dict[str, float] = {}

    _item.cache_clear()
    start = time.perf_counter()
    for row in batch:
        row_item(row)
    base = time.perf_counter() - start

    _item.cache_clear()
    start = time.perf_counter()
    sc = state_checking_reward(completions, **columns, log_metric=logged.__setitem__)
    st = transition(completions, **columns, log_metric=logged.__setitem__)
    ours = time.perf_counter() - start
    judged = sum(x is not None for x in sc) + sum(x is not None for x in st)
    print(f"{args.n} completions over {len(rows)} train rows ({judged} judged by the two rewards)")
    print(f"{'path':<40}{'seconds':>9}{'completions/s':>15}")
    print(f"{'rewards (state_checking + transition)':<40}{ours:>9.2f}{args.n / ours:>15.0f}")
    print(f"{'baseline: row parsing only':<40}{base:>9.2f}{args.n / base:>15.0f}")
    print(f"judging costs {ours / base:.1f}x the parsing; {len(logged)} metrics logged")
    print(f"bar: 5,000 completions/s -> {'met' if args.n / ours >= 5000 else 'NOT met'}")


if __name__ == "__main__":
    main()
