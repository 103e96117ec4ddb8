"""Time and peak memory of the default ``finereason build`` (bar: under 120 s wall on 2 cores and
under 4 GB peak; moonshot 30 s).

    python benchmarks/bench_build.py [--num-proc 2] [--keep DIR]

The baseline is the same build with one process, measured in the same run, so the ratio shows what
the worker pool buys on this machine.
"""
from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run(out: Path, num_proc: int) -> tuple[float, float]:
    """Wall seconds and peak resident memory (GB, largest process) of one build."""
    cmd = [sys.executable, "-m", "finereason", "build", "--out", str(out), "--num-proc", str(num_proc), "--overwrite"]
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return wall, peak_kb / 1024 / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--num-proc", type=int, default=2)
    parser.add_argument("--keep", help="keep the parallel build in this folder")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(args.keep) if args.keep else Path(tmp) / "parallel"
        wall, peak = run(out, args.num_proc)
        base_wall, base_peak = run(Path(tmp) / "serial", 1)
        same = all((out / p.relative_to(Path(tmp) / "serial")).read_bytes() == p.read_bytes()
                   for p in (Path(tmp) / "serial").rglob("*.parquet"))
    print(f"{'build':<22}{'wall s':>8}{'peak GB':>9}")
    print(f"{f'--num-proc {args.num_proc}':<22}{wall:>8.1f}{peak:>9.2f}")
    print(f"{'--num-proc 1 (baseline)':<22}{base_wall:>8.1f}{base_peak:>9.2f}")
    print(f"speed-up {base_wall / wall:.2f}x; parquet identical across process counts: {same}")
    print(f"bar: under 120 s and 4 GB -> {'met' if wall < 120 and peak < 4 else 'NOT met'}; moonshot 30 s -> {'met' if wall < 30 else 'not met'}")


if __name__ == "__main__":
    main()
