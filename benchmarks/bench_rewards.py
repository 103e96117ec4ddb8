"""GRPO reward cost, three parts (``--part``):

    python benchmarks/bench_rewards.py [--data DIR] [--n 20000] [--part all|throughput|crafted|math]

* ``throughput`` (bar: at least 5,000 mixed state-checking/state-transition completions scored per
  second on one core, so rewards never slow a GRPO step): oracle, random and garbage completions on
  rows of the ``train`` config through the ``state_checking`` and ``state_transition`` rewards (TRL
  signature, conversational completions, with ``log_metric``). The baseline is parsing the rows alone
  (``row_item``: JSON decode and state construction), measured in the same run.
* ``crafted`` (bar: well under a second per response): crafted 20,000-character whitespace runs and
  degenerate repetitions through every registry reward on a row of every puzzle and task plus a math
  row, with and without ``starts_in_think``; baseline: the same rewards on the right answers.
* ``math`` (bar: every completion within the fixed budget of two 1-second math-verify timeouts):
  adversarial LaTeX through the ``math`` and ``format`` rewards; baseline: plain boxed numbers
  (the exact fast path) and an ordinary algebraic answer (math-verify).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from harness import built_rows  # noqa: E402


def throughput(args: argparse.Namespace) -> None:
    from finereason.core.rows import _item, row_item
    from finereason.integrations.training.rewards import ROW_COLUMNS, state_checking_reward, state_transition_reward
    from finereason.models.baselines import oracle, random_answer

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


RUN = 20_000
CRAFTED = {
    "answer + spaces + x": "answer" + " " * RUN + "x", "Answer: + spaces": "Answer:" + " " * RUN + "(A)",
    "\\boxed{ + spaces": "\\boxed{" + " " * RUN, "Next state: + spaces": "Next state:" + " " * RUN + "[",
    "[ + spaces": "[" + " " * RUN, "spaces": " " * RUN, "think + spaces": "<think>" + " " * RUN + "</think>" + " " * RUN,
    "\\boxed{ x 2857": "\\boxed{" * (RUN // 7), "Next state: [[ x 1428": "Next state: [[" * (RUN // 14),
    "(A) x 5000": "(A) " * (RUN // 4), "Unsolvable x 1818": "Unsolvable " * (RUN // 11), "( x 20000": "(" * RUN,
    "newlines + Answer": "\n" * RUN + "Answer: (A)",
}
NAMES = ("puzzle", "format", "math", "state_checking", "state_transition", "end_to_end")


def crafted(args: argparse.Namespace) -> None:
    from rewards import get_rewards

    from finereason.core.engine import default_names
    from finereason.models.baselines import oracle

    configs = [f"{p}_{t}" for p in default_names()
               for t in ("state_checking", "state_transition", "end_to_end")]
    built = built_rows(args.data, configs, ["--per-task", "4", "--e2e-size", "1", "--train-size", "0"])
    rows = [next(r for r in built if f"{r['domain']}_{r['task']}" == c) for c in configs]
    rows.append({"task": "math", "answer": "4", "domain": None, "label": None, "inputs": None, "outputs": None})
    columns = {name: [row.get(name) for row in rows] for name in ("domain", "task", "label", "inputs", "outputs", "answer")}

    def per_response(texts: list[str], flag: bool) -> float:
        start = time.perf_counter()
        for reward in get_rewards(NAMES, starts_in_think=flag):
            reward(texts, **columns)
        return (time.perf_counter() - start) / len(texts)

    right = ["\\boxed{4}" if row["task"] == "math" else oracle(row) for row in rows]
    per_response(right, False)  # warm caches (row parsing, math-verify import)
    base = per_response(right, False)
    print(f"{len(rows)} rows (every puzzle and task + math), {len(NAMES)} rewards; seconds per response, all rewards")
    print(f"{'input':<26}{'plain':>10}{'in think':>10}{'x right answers':>17}")
    worst = {"whitespace": 0.0, "repetition": 0.0}
    for name, text in CRAFTED.items():
        plain, think = per_response([text] * len(rows), False), per_response([text] * len(rows), True)
        kind = "repetition" if " x " in name else "whitespace"
        worst[kind] = max(worst[kind], plain, think)
        print(f"{name:<26}{plain:>10.4f}{think:>10.4f}{max(plain, think) / base:>17.1f}")
    print(f"{'baseline: right answers':<26}{base:>10.4f}")
    print(f"worst whitespace run {worst['whitespace']:.4f} s per response (all {len(NAMES)} rewards) -> bar (well under "
          f"1 s): {'met' if worst['whitespace'] < 0.25 else 'NOT met'}; worst repetition {worst['repetition']:.4f} s")


ADVERSARIAL = {
    "exp tower (parse timeout)": "\\boxed{\\exp(\\exp(\\exp(999)))}",
    "(x+1)^999 - (x-1)^999": "\\boxed{(x+1)^{999}-(x-1)^{999}}",
    "sin^999 + cos^999 - tan^99": "\\boxed{\\sin(x)^{999}+\\cos(x)^{999}-\\tan(x)^{99}}",
    "sqrt nest": "\\boxed{" + "\\sqrt{" * 7 + "2" + "}" * 7 + "}",
    "10^{10^{10}} (refused)": "\\boxed{10^{10^{10}}}",
    "(10^{99})! (refused)": "\\boxed{(10^{99})!}",
    "300-char box (refused)": "\\boxed{" + "1+" * 150 + "}",
    "3000 boxes (refused)": "\\boxed{5}" * 3000,
}


def math_budget(args: argparse.Namespace) -> None:
    from rewards import MATH_TIMEOUT_S, get_rewards

    rewards = get_rewards(["math", "format"])

    def seconds(text: str, gold: str) -> float:
        start = time.perf_counter()
        for reward in rewards:
            reward([text], task=["math"], answer=[gold])
        return time.perf_counter() - start

    seconds("\\boxed{x^2+1}", "x^2+1")  # import and warm math-verify
    plain = min(seconds(f"\\boxed{{{n}}}", "17") for n in range(100, 120))
    ordinary = [("\\boxed{1 + 2x}", "2x+1"), ("\\boxed{\\pi/4}", "\\frac{\\pi}{4}"), ("\\boxed{\\sqrt 2}", "\\sqrt{2}"),
                ("\\boxed{3x^{2}-x}", "x(3x-1)"), ("\\boxed{\\frac{\\sqrt{3}}{2}}", "\\sin(60^\\circ)")]
    algebra = sorted(seconds(text, gold) for text, gold in ordinary)[len(ordinary) // 2]  # median
    budget = 2 * MATH_TIMEOUT_S
    print(f"math and format rewards on one completion (gold 5); budget {budget} s (parse + compare timeouts)")
    print(f"{'input':<30}{'seconds':>9}{'x algebra':>11}")
    worst = 0.0
    for name, text in ADVERSARIAL.items():
        got = seconds(text, "5")
        worst = max(worst, got)
        print(f"{name:<30}{got:>9.3f}{got / algebra:>11.1f}")
    print(f"{'baseline: algebra (median of 5)':<30}{algebra:>9.3f}")
    print(f"{'baseline: plain number (exact)':<30}{plain:>9.5f}")
    print(f"worst {worst:.2f} s -> bar ({budget} s + 10%): {'met' if worst <= budget * 1.1 else 'NOT met'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", help="a built dataset folder (default: build one)")
    parser.add_argument("--n", type=int, default=20_000, help="completions in the throughput part")
    parser.add_argument("--part", default="all", choices=("all", "throughput", "crafted", "math"))
    args = parser.parse_args()
    parts = {"throughput": throughput, "crafted": crafted, "math": math_budget}
    for name, run in parts.items():
        if args.part in ("all", name):
            print(f"== {name}")
            run(args)


if __name__ == "__main__":
    main()
