"""The optimal planner's successor index: BFS over the first instances of a PDDL problem folder with
``finereason.planning.planner.plan`` against the same BFS that scans every ground action in every
state (the planner before the index), timed in this run; the two must return the same status,
plan and node count on every instance (exit 1 otherwise).

    python benchmarks/bench_planner.py --domain ../shared/blocksworld/generated_domain.pddl \
        --problems ../shared/blocksworld/generated [--instances 30] [--max-nodes 300000]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

from harness import banner  # noqa: E402

from finereason.planning.pddl import read_domain, read_problem  # noqa: E402
from finereason.planning import planner  # noqa: E402
from finereason.planning.planner import BitTask, PlanResult, plan  # noqa: E402
from finereason.planning.strips import Task  # noqa: E402


def scan_plan(task: Task, max_nodes: int) -> PlanResult:
    """The baseline: the same search, trying every ground action in every state (no index)."""
    def scan_every_action(bits: BitTask):
        return lambda state: [a for a in bits.actions if state & a[0] == a[0]]

    indexed = planner.applicable_actions
    planner.applicable_actions = scan_every_action
    try:
        return plan(task, max_nodes)
    finally:
        planner.applicable_actions = indexed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--domain", type=Path, required=True, help="the PDDL domain file")
    parser.add_argument("--problems", type=Path, required=True, help="a folder of PDDL problems (*-N.pddl)")
    parser.add_argument("--instances", type=int, default=30)
    parser.add_argument("--max-nodes", type=int, default=300_000)
    args = parser.parse_args(argv)
    domain = read_domain(args.domain)
    files = sorted(args.problems.glob("*.pddl"), key=lambda p: (len(p.stem), p.stem))
    print(banner(f"{args.instances} instances of {args.problems}, node budget {args.max_nodes:,}"))
    ours = scan = 0.0
    nodes = 0
    for path in files[:args.instances]:
        task = Task(domain, read_problem(path))
        start = time.perf_counter()
        a = scan_plan(task, args.max_nodes)
        scan += time.perf_counter() - start
        start = time.perf_counter()
        b = plan(task, args.max_nodes)
        ours += time.perf_counter() - start
        if (a.status, a.plan, a.nodes) != (b.status, b.plan, b.nodes):
            print(f"{path.name}: the planners differ: {a.status}/{a.length}/{a.nodes} vs {b.status}/{b.length}/{b.nodes}")
            return 1
        nodes += b.nodes
    print(f"| planner | seconds | states/s |\n|---|---|---|\n| scan every action | {scan:.2f} | {nodes / scan:,.0f} |\n"
          f"| successor index | {ours:.2f} | {nodes / ours:,.0f} |\nsame results on every instance; "
          f"speedup {scan / ours:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
