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
import sys
from pathlib import Path
from typing import Sequence

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

from harness import add_shared_argument, banner, compare, exit_status  # noqa: E402

from finereason.domains.sudoku.engine import ALL, CELL_UNITS, SudokuEngine, SudokuPuzzle, parse_grid, unit_masks  # noqa: E402

NAME, OFFICIAL = SudokuEngine.name, SudokuEngine.official_name  # ../shared/<name>/: reference puzzle sets


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=300,
                        help="17-clue puzzles to time (default 300: the baseline takes about a minute)")
    add_shared_argument(parser)
    args = parser.parse_args(argv)

    sets = {
        f"tdoku 17-clue (first {args.limit})": lambda: read_lines(
            args.shared / NAME / "tdoku/puzzles2_17_clue.first10000.txt", args.limit),
        "norvig top95": lambda: read_lines(args.shared / NAME / "norvig/top95.txt", None),
        f"official {OFFICIAL} states sample": lambda: read_states(
            args.shared / "finereason_official" / f"{OFFICIAL}_states_sample.jsonl"),
    }
    print(banner())
    disagreements = compare(sets, SudokuEngine().is_solvable, lambda puzzle, state: baseline_solvable(state))
    return exit_status(disagreements)


if __name__ == "__main__":
    raise SystemExit(main())
