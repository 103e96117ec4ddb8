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
import random
import sys
import time
from pathlib import Path
from typing import Sequence

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

from harness import (BASELINE_RATE, GAVE_UP, ORACLE_RATE, SET_WIDTH, SPEEDUP, STATES, GaveUp, Row,  # noqa: E402
                     add_shared_argument, banner, compare, exit_status)

from finereason.domains.graph_coloring.dimacs import read_dimacs  # noqa: E402
from finereason.domains.graph_coloring.engine import GraphColoringEngine  # noqa: E402
from finereason.domains.graph_coloring.puzzle import GraphColoringPuzzle  # noqa: E402
from finereason.domains.graph_coloring.solver import chromatic_number  # noqa: E402

DIMACS_NAMES = ("myciel3", "myciel4", "myciel5", "queen5_5", "queen6_6", "queen7_7", "huck", "jean", "david",
                "anna", "homer", "games120", "miles250", "miles500", "miles1000", "mulsol.i.1", "zeroin.i.1")
Item = tuple[GraphColoringPuzzle, tuple[int, ...]]
NAME, OFFICIAL = GraphColoringEngine.name, GraphColoringEngine.official_name  # ../shared/<name>/: reference graphs


# ---------------------------------------------------------------- the baseline
def baseline_solvable(puzzle: GraphColoringPuzzle, state: Sequence[int], budget: int) -> bool:
    """Plain backtracking: lowest-index uncolored vertex first, colors 1..k in order.

    Raises ``GaveUp`` past ``budget`` nodes.
    """
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
    records = read_jsonl(shared / "finereason_official" / f"{OFFICIAL}_states_sample.jsonl")
    items = [engine.item_from_official(r) for r in records]
    return [(item.puzzle, item.current) for item in items]


def tight_states(shared: Path, seed: int, per_graph: int = 6) -> list[Item]:
    """States on random lowest-uncolored paths of each question graph, with k = χ (seeded)."""
    engine = GraphColoringEngine()
    rng = random.Random(seed)
    items: list[Item] = []
    for record in read_jsonl(shared / "finereason_official" / f"{OFFICIAL}_questions.jsonl"):
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


def print_solvable(row: Row) -> None:
    """The oracle's solvable/unsolvable split, on a line under the row."""
    labels = [x for x in row.ours_labels if x is not None]
    print(f"{'':<{SET_WIDTH}} {'':>7} solvable {sum(labels)} / unsolvable {len(labels) - sum(labels)}")


def bench_states(args: argparse.Namespace) -> int:
    sets = {
        f"official {OFFICIAL} states": lambda: official_states(args.shared),
        f"tight (k = chi, seed {args.seed})": lambda: tight_states(args.shared, args.seed),
    }
    disagreements = compare(sets, GraphColoringEngine().is_solvable,
                            lambda puzzle, state: baseline_solvable(puzzle, state, args.budget),
                            columns=(STATES, ORACLE_RATE, BASELINE_RATE, GAVE_UP, SPEEDUP),
                            after_row=print_solvable, min_seconds=0.3)
    print("baseline/s and speedup cover the states the baseline finished within --budget nodes")
    return exit_status(disagreements)


def bench_chromatic(args: argparse.Namespace) -> int:
    table = args.shared / NAME / "chromatic_numbers.csv"
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
        adjacency = read_dimacs(args.shared / NAME / row["file"])
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
    add_shared_argument(parser)
    parser.add_argument("--seed", type=int, default=0, help="seed of the tight state set (default 0)")
    parser.add_argument("--budget", type=int, default=200_000,
                        help="baseline nodes per state before it gives up (default 200000)")
    parser.add_argument("--graphs", nargs="*", default=list(DIMACS_NAMES), help="DIMACS instances to time")
    args = parser.parse_args(argv)
    print(banner())
    status = bench_states(args)
    print()
    return bench_chromatic(args) or status


if __name__ == "__main__":
    raise SystemExit(main())
