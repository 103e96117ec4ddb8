"""Label official FineReason states with our oracles and report throughput.

    python benchmarks/bench_official.py [--src DIR]

DIR defaults to ../shared/finereason_official (the 4 x 100-state samples); point it at a folder with
the full release (2,000 states) to check the "all official states in under 2 s" bar. Parsing the
records is timed separately from the oracle. The baseline is the same oracle without the verdict cache
layer, so the ratio shows what memoisation adds when states repeat (as in GRPO groups).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

from harness import SHARED  # noqa: E402

from finereason.core.oracle import oracle_solvable  # noqa: E402
from finereason.data.official_files import engine_for_file, find_state_files, iter_items  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", default=str(SHARED / "finereason_official"))
    args = parser.parse_args()
    total_states = 0
    total_seconds = 0.0
    print(f"{'puzzle':<16}{'states':>8}{'parse s':>10}{'oracle s':>10}{'states/s':>12}")
    for path in find_state_files(args.src):
        engine = engine_for_file(path)
        start = time.perf_counter()
        items = [item for _, item in iter_items(path)]
        parsed = time.perf_counter()
        for item in items:
            engine.is_solvable(item.puzzle, item.current)
        done = time.perf_counter()
        total_states += len(items)
        total_seconds += done - start
        print(f"{engine.name:<16}{len(items):>8}{parsed - start:>10.3f}{done - parsed:>10.3f}{len(items) / (done - parsed):>12.0f}")
        # the cached path used by verifiers: a second pass over the same states
        again = time.perf_counter()
        for item in items:
            oracle_solvable(engine, item.puzzle, item.current)
        for item in items:
            oracle_solvable(engine, item.puzzle, item.current)
        cached = (time.perf_counter() - again) / 2
        print(f"{'  (cached)':<16}{'':>8}{'':>10}{cached:>10.3f}{len(items) / max(cached, 1e-9):>12.0f}"
              f"   ratio vs uncached: {(done - parsed) / max(cached, 1e-9):.1f}x")
    print(f"all: {total_states} states parsed and labelled in {total_seconds:.2f} s "
          f"({total_seconds / max(total_states, 1) * 2000:.2f} s per 2,000 states; bar: 2 s)")


if __name__ == "__main__":
    main()
