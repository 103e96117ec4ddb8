"""Throughput of the Sudoku oracle against a plain bitmask-MRV backtracking baseline, on one core.

Usage: ``python benchmarks/bench_sudoku.py [--limit N] [--shared PATH]``

Both solvers run in this process, one after the other, on the same inputs:
- *oracle*: ``SudokuEngine.is_solvable`` (naked and hidden singles, then MRV search);
- *baseline*: MRV backtracking over int bitmasks with no propagation beyond what MRV does
  (it picks a one-candidate cell first, so naked singles come free; hidden singles never).

Sets: tdoku's 17-clue puzzles (the first ``--limit``), Norvig's top95 and the official FineReason
Sudoku states sample. Each row reports states per second for both and the speedup ratio; both
solvers must agree on every verdict.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Callable, Sequence

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from finereason.engines.sudoku import (  # noqa: E402
    ALL, CELL_UNITS, SudokuEngine, SudokuPuzzle, parse_grid, unit_masks,
)

DEFAULT_SHARED = ROOT.parent / "shared"


# ---------------------------------------------------------------- the baseline
def baseline_solvable(grid: Sequence[int]) -> bool:
    """Plain MRV backtracking: place, recurse, undo; no hidden singles, no look-ahead."""
    cells = list(grid)
    used = unit_masks(cells)
    if used is None:
        return False
    empties = [i for i in range(81) if not cells[i]]
    units = [CELL_UNITS[i] for i in empties]
    return _baseline(cells, used, empties, units)


def _baseline(cells: list[int], used: list[int], empties: list[int], units: list[tuple[int, int, int]]) -> bool:
    best, best_cand, fewest = -1, 0, 10
    for k, i in enumerate(empties):
        if cells[i]:
            continue
        r, c, b = units[k]
        cand = ALL & ~(used[r] | used[c] | used[b])
        n = cand.bit_count()
        if n < fewest:
            if not n:
                return False
            best, best_cand, fewest = k, cand, n
            if n == 1:
                break
    if best < 0:
        return True
    i = empties[best]
    r, c, b = units[best]
    while best_cand:
        bit = best_cand & -best_cand
        best_cand ^= bit
        cells[i] = bit.bit_length()
        used[r] |= bit
        used[c] |= bit
        used[b] |= bit
        if _baseline(cells, used, empties, units):
            return True
        used[r] ^= bit
        used[c] ^= bit
        used[b] ^= bit
    cells[i] = 0
    return False


# ---------------------------------------------------------------- inputs
def read_lines(path: Path, limit: int | None) -> list[tuple[SudokuPuzzle, tuple[int, ...]]]:
    """(puzzle, state) pairs from a one-puzzle-per-line file (comments and blanks skipped)."""
    items = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            line = line.strip()
            if len(line) >= 81 and not line.startswith("#"):
                grid = parse_grid(line[:81])
                items.append((SudokuPuzzle(grid), grid))
                if limit is not None and len(items) >= limit:
                    break
    return items


def read_states(path: Path) -> list[tuple[SudokuPuzzle, tuple[int, ...]]]:
    """(puzzle, current) pairs of the official states sample."""
    engine = SudokuEngine()
    with open(path, encoding="utf-8") as fh:
        items = [engine.item_from_official(json.loads(line)) for line in fh if line.strip()]
    return [(item.puzzle, item.current) for item in items]


# ---------------------------------------------------------------- timing
def timed(solver: Callable[[SudokuPuzzle, tuple[int, ...]], bool], items: list) -> tuple[float, list[bool]]:
    """Seconds taken to label every item, and the labels."""
    start = time.perf_counter()
    labels = [solver(puzzle, state) for puzzle, state in items]
    return time.perf_counter() - start, labels


def pin_one_core() -> str:
    """Restrict this process to one CPU when the OS allows it."""
    if hasattr(os, "sched_setaffinity"):
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    return "not pinned (no sched_setaffinity)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=300,
                        help="17-clue puzzles to time (default 300: the baseline takes about a minute)")
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED, help="the reference data folder")
    args = parser.parse_args(argv)

    sets = {
        f"tdoku 17-clue (first {args.limit})": lambda: read_lines(
            args.shared / "sudoku/tdoku/puzzles2_17_clue.first10000.txt", args.limit),
        "norvig top95": lambda: read_lines(args.shared / "sudoku/norvig/top95.txt", None),
        "official sudoku states sample": lambda: read_states(
            args.shared / "finereason_official/sudoku_states_sample.jsonl"),
    }
    engine = SudokuEngine()
    print(f"Python {sys.version.split()[0]}, {pin_one_core()}")
    header = f"{'set':<32} {'states':>7} {'oracle/s':>10} {'baseline/s':>11} {'speedup':>8}"
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
        base, base_labels = timed(lambda p, s: baseline_solvable(s), items)
        disagreements += sum(a != b for a, b in zip(ours_labels, base_labels))
        n = len(items)
        print(f"{name:<32} {n:>7} {n / ours:>10.1f} {n / base:>11.1f} {base / ours:>7.1f}x")
    if disagreements:
        print(f"ERROR: the solvers disagree on {disagreements} states")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
