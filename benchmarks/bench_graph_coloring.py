"""Throughput of the graph coloring oracle against plain bitmask backtracking, and chromatic-number times.

Usage: ``python benchmarks/bench_graph_coloring.py [--shared PATH] [--seed N] [--budget NODES]``

Both solvers run in this process, one after the other, on the same inputs:
- *oracle*: ``GraphColoringEngine.is_solvable`` (DSATUR order, forward checking and unit propagation
  on domain masks, fresh-color symmetry breaking, peeling of easy vertices);
- *baseline*: backtracking over the uncolored vertices in index order, colors tried ``1..k``, with a
  per-color vertex mask for the conflict test; nothing else.

State sets:
- the official FineReason graph coloring states sample (100 states, ``k`` as released);
- *tight*: for each official question graph, states on random official-style paths (color the
  lowest uncolored vertex with a rule-valid color) with ``k`` lowered to the graph's chromatic
  number, where dead ends are common and deep. The baseline gives up on a state after
  ``--budget`` nodes; such states are counted, excluded from its rate and from the agreement check.

Then ``chromatic_number`` is timed on DIMACS graphs and checked against ``chromatic_numbers.csv``.
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Callable, Sequence

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from finereason.dimacs import read_dimacs  # noqa: E402
from finereason.engines.graph_coloring import (  # noqa: E402
    GraphColoringEngine, GraphColoringPuzzle, chromatic_number,
)

DEFAULT_SHARED = ROOT.parent / "shared"
DIMACS_NAMES = ("myciel3", "myciel4", "myciel5", "queen5_5", "queen6_6", "queen7_7", "huck", "jean", "david",
                "anna", "homer", "games120", "miles250", "miles500", "miles1000", "mulsol.i.1", "zeroin.i.1")
Item = tuple[GraphColoringPuzzle, tuple[int, ...]]


# ---------------------------------------------------------------- the baseline
class GaveUp(Exception):
    """The baseline ran past its node budget."""


def baseline_solvable(puzzle: GraphColoringPuzzle, state: Sequence[int], budget: int) -> bool:
    """Plain backtracking: lowest-index uncolored vertex first, colors 1..k in order."""
    masks, k = puzzle.masks, puzzle.k
    by_color = [0] * (k + 1)  # by_color[c]: the vertices colored c
    for v, c in enumerate(state):
        if c:
            if by_color[c] & masks[v]:
                return False
            by_color[c] |= 1 << v
    blanks = [v for v, c in enumerate(state) if not c]
    nodes = 0

    def extend(i: int) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            raise GaveUp
        if i == len(blanks):
            return True
        v = blanks[i]
        bit, around = 1 << v, masks[v]
        for c in range(1, k + 1):
            if not by_color[c] & around:
                by_color[c] |= bit
                if extend(i + 1):
                    return True
                by_color[c] ^= bit
        return False

    return extend(0)


# ---------------------------------------------------------------- inputs
def read_jsonl(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def official_states(shared: Path) -> list[Item]:
    engine = GraphColoringEngine()
    records = read_jsonl(shared / "finereason_official/graphcoloring_states_sample.jsonl")
    items = [engine.item_from_official(r) for r in records]
    return [(item.puzzle, item.current) for item in items]


def tight_states(shared: Path, seed: int, per_graph: int = 6) -> list[Item]:
    """States on random lowest-uncolored paths of each question graph, with k = χ (seeded)."""
    engine = GraphColoringEngine()
    rng = random.Random(seed)
    items: list[Item] = []
    for record in read_jsonl(shared / "finereason_official/graphcoloring_questions.jsonl"):
        graph = engine.puzzle_from_official(record)
        puzzle = GraphColoringPuzzle(graph.adjacency, chromatic_number(graph))
        for _ in range(per_graph):
            state = (0,) * puzzle.n
            for _ in range(rng.randrange(puzzle.n // 2 + 1)):
                children = list(engine.children_lowest_uncolored(puzzle, state))
                if not children:
                    break
                state = rng.choice(children)
            items.append((puzzle, state))
    return items


# ---------------------------------------------------------------- timing
def timed(solver: Callable[[GraphColoringPuzzle, tuple[int, ...]], bool], items: list[Item],
          min_seconds: float = 0.3) -> tuple[float, list[bool | None]]:
    """Seconds per pass over ``items`` (repeated to at least ``min_seconds``) and the labels (None: gave up)."""
    passes, start = 0, time.perf_counter()
    while True:
        labels: list[bool | None] = []
        for puzzle, state in items:
            try:
                labels.append(solver(puzzle, state))
            except GaveUp:
                labels.append(None)
        passes += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return elapsed / passes, labels


def pin_one_core() -> str:
    """Restrict this process to one CPU when the OS allows it."""
    if hasattr(os, "sched_setaffinity"):
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    return "not pinned (no sched_setaffinity)"


def bench_states(args: argparse.Namespace) -> int:
    engine = GraphColoringEngine()
    sets = {
        "official graphcoloring states": lambda: official_states(args.shared),
        f"tight (k = chi, seed {args.seed})": lambda: tight_states(args.shared, args.seed),
    }
    header = f"{'set':<32} {'states':>7} {'oracle/s':>10} {'baseline/s':>11} {'gave up':>8} {'speedup':>8}"
    print(header)
    print("-" * len(header))
    disagreements = 0
    for name, load in sets.items():
        try:
            items = load()
        except FileNotFoundError as err:
            print(f"{name:<32} skipped: {err.filename} is absent")
            continue
        ours, ours_labels = timed(engine.is_solvable, items)
        base, base_labels = timed(lambda p, s: baseline_solvable(p, s, args.budget), items)
        disagreements += sum(b is not None and a != b for a, b in zip(ours_labels, base_labels))
        finished = [(p, s) for (p, s), b in zip(items, base_labels) if b is not None]
        gave_up = len(items) - len(finished)
        if gave_up:  # rate over the states the baseline finished, and ours on the same states
            ours_f, _ = timed(engine.is_solvable, finished)
            base_f, _ = timed(lambda p, s: baseline_solvable(p, s, args.budget), finished)
        else:
            ours_f, base_f = ours, base
        n, m = len(items), len(finished)
        base_rate = f"{m / base_f:>11.1f}" if m else f"{'-':>11}"
        ratio = f"{base_f / ours_f:>7.1f}x" if m else f"{'-':>8}"
        print(f"{name:<32} {n:>7} {n / ours:>10.1f} {base_rate} {gave_up:>8} {ratio}")
        labels = [x for x in ours_labels if x is not None]
        print(f"{'':<32} {'':>7} solvable {sum(labels)} / unsolvable {len(labels) - sum(labels)}")
    print("baseline/s and speedup cover the states the baseline finished within --budget nodes")
    if disagreements:
        print(f"ERROR: the solvers disagree on {disagreements} states")
        return 1
    return 0


def bench_chromatic(args: argparse.Namespace) -> int:
    table = args.shared / "graph_coloring/chromatic_numbers.csv"
    if not table.exists():
        print(f"chromatic numbers skipped: {table} is absent")
        return 0
    with open(table, encoding="utf-8", newline="") as fh:
        rows = {row["instance"]: row for row in csv.DictReader(fh)}
    header = f"{'graph':<14} {'n':>5} {'edges':>6} {'chi':>4} {'table':>6} {'seconds':>9}"
    print(header)
    print("-" * len(header))
    wrong = 0
    for name in args.graphs:
        row = rows.get(name)
        if row is None:
            print(f"{name:<14} skipped: no row in the table")
            continue
        adjacency = read_dimacs(args.shared / "graph_coloring" / row["file"])
        start = time.perf_counter()
        chi = chromatic_number(adjacency)
        seconds = time.perf_counter() - start
        expected = row["chromatic_number"] or "?"
        wrong += expected != "?" and int(expected) != chi
        edges = sum(map(len, adjacency)) // 2
        print(f"{name:<14} {len(adjacency):>5} {edges:>6} {chi:>4} {expected:>6} {seconds:>9.3f}")
    if wrong:
        print(f"ERROR: {wrong} chromatic numbers differ from the table")
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED, help="the reference data folder")
    parser.add_argument("--seed", type=int, default=0, help="seed of the tight state set (default 0)")
    parser.add_argument("--budget", type=int, default=200_000,
                        help="baseline nodes per state before it gives up (default 200000)")
    parser.add_argument("--graphs", nargs="*", default=list(DIMACS_NAMES), help="DIMACS instances to time")
    args = parser.parse_args(argv)
    print(f"Python {sys.version.split()[0]}, {pin_one_core()}")
    status = bench_states(args)
    print()
    return bench_chromatic(args) or status


if __name__ == "__main__":
    raise SystemExit(main())
