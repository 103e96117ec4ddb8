"""Time and peak memory of ``finereason build``.

    python benchmarks/bench_build.py [--num-proc 2] [--keep DIR]
        the default build with the worker pool against the same build in one process (same run);
        checks that both give identical files. Bar: under 120 s and 4 GB (moonshot 30 s).
    python benchmarks/bench_build.py --train-size 1000000 [--num-proc 2] [--baseline-train-size N]
        the scale bar: a 1M-row training set in under 15 minutes with peak memory under 2 GB. The
        baseline is the same build with a tenth of the rows, in the same run: equal peak memory and
        equal time per row show that memory does not grow with the row count and time is linear.

Peak memory is the largest sum of resident memory over the build's whole process tree (the CLI
process, the fork server and every worker), sampled every 0.2 s from ``/proc``; CPU seconds are
summed over the same tree. The load average before and after is printed: other work on a shared
machine slows the build down (wall time), while CPU seconds stay comparable.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def _tree(root: int) -> list[int]:
    """``root`` and its descendants, from ``/proc/*/stat``."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
                children.setdefault(int(fields[1]), []).append(int(entry))
            except (OSError, IndexError, ValueError):
                continue
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo += children.get(pid, [])
    return out


def _cpu(pids: list[int], seen: dict[int, float]) -> None:
    """Record the CPU seconds (user + system) each process of the tree has used so far."""
    tick = os.sysconf("SC_CLK_TCK")
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
            seen[pid] = max(seen.get(pid, 0.0), (int(fields[11]) + int(fields[12])) / tick)
        except (OSError, IndexError, ValueError):
            continue


def _rss(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/statm", encoding="ascii") as fh:
                total += int(fh.read().split()[1]) * PAGE
        except (OSError, IndexError, ValueError):
            continue
    return total


def run(args: list[str]) -> tuple[float, float, float]:
    """Wall seconds, peak resident memory (GB) and CPU seconds of one ``finereason`` run, over its
    whole process tree (CPU seconds: as last sampled, so a process's final 0.2 s may be missed)."""
    cmd = [sys.executable, "-m", "finereason", *args]
    peak = [0]
    cpu: dict[int, float] = {}
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            pids = _tree(proc.pid)
            peak[0] = max(peak[0], _rss(pids))
            _cpu(pids, cpu)
            done.wait(0.2)

    watcher = threading.Thread(target=sample, daemon=True)
    watcher.start()
    code = proc.wait()
    wall = time.perf_counter() - start
    done.set()
    watcher.join()
    if code:
        raise SystemExit(f"finereason {' '.join(args)} failed with exit code {code}")
    return wall, peak[0] / 1024**3, sum(cpu.values())


def _same_files(a: Path, b: Path) -> bool:
    files = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    return files == sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file()) and \
        all((a / f).read_bytes() == (b / f).read_bytes() for f in files)


def _load() -> str:
    try:
        return " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "-"


def default_mode(args: argparse.Namespace, tmp: Path) -> None:
    out = Path(args.keep) if args.keep else tmp / "parallel"
    wall, peak, cpu = run(["build", "--out", str(out), "--num-proc", str(args.num_proc), "--overwrite"])
    base_wall, base_peak, base_cpu = run(["build", "--out", str(tmp / "serial"), "--num-proc", "1"])
    same = _same_files(out, tmp / "serial")
    print(f"{'build':<26}{'wall s':>8}{'CPU s':>8}{'peak GB':>9}")
    print(f"{f'--num-proc {args.num_proc}':<26}{wall:>8.1f}{cpu:>8.1f}{peak:>9.2f}")
    print(f"{'--num-proc 1 (baseline)':<26}{base_wall:>8.1f}{base_cpu:>8.1f}{base_peak:>9.2f}")
    print(f"speed-up {base_wall / wall:.2f}x; files identical across process counts: {same}")
    print(f"bar: under 120 s and 4 GB -> {'met' if wall < 120 and peak < 4 else 'NOT met'}; "
          f"moonshot 30 s -> {'met' if wall < 30 else 'not met'}")


def scale_mode(args: argparse.Namespace, tmp: Path) -> None:
    base_n = args.baseline_train_size or max(args.train_size // 10, 1)
    common = ["--num-proc", str(args.num_proc), "--overwrite", *args.build_args.split()]
    print(f"{'build (--num-proc ' + str(args.num_proc) + ')':<32}{'wall s':>9}{'CPU s':>9}{'rows/s':>9}{'peak GB':>9}", flush=True)
    base_wall, base_peak, base_cpu = run(["build", "--out", str(tmp / "baseline"), "--train-size", str(base_n), *common])
    print(f"{f'--train-size {base_n} (baseline)':<32}{base_wall:>9.1f}{base_cpu:>9.1f}{base_n / base_wall:>9.0f}{base_peak:>9.2f}",
          flush=True)
    out = Path(args.keep) if args.keep else tmp / "big"
    wall, peak, cpu = run(["build", "--out", str(out), "--train-size", str(args.train_size), *common])
    size = sum(p.stat().st_size for p in out.rglob("*.parquet")) / 1024**3
    print(f"{f'--train-size {args.train_size}':<32}{wall:>9.1f}{cpu:>9.1f}{args.train_size / wall:>9.0f}{peak:>9.2f}")
    print(f"time per train row vs baseline: {(wall / args.train_size) / (base_wall / base_n):.2f}x; "
          f"CPU per row vs baseline: {(cpu / args.train_size) / (base_cpu / base_n):.2f}x; "
          f"peak memory vs baseline: {peak / base_peak:.2f}x; parquet on disk: {size:.2f} GB")
    idle = cpu / args.num_proc  # what the CPU seconds take on num_proc otherwise idle cores
    print(f"CPU seconds per 1,000 rows: {1000 * cpu / args.train_size:.2f}; on {args.num_proc} idle cores that is about "
          f"{idle:.0f} s wall for this build, {idle * 1_000_000 / args.train_size:.0f} s for 1,000,000 rows")
    print(f"bar: under 900 s and 2 GB -> {'met' if wall < 900 and peak < 2 else 'NOT met'} (measured wall)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--num-proc", type=int, default=2)
    parser.add_argument("--train-size", type=int, help="scale mode: train rows of the measured build")
    parser.add_argument("--baseline-train-size", type=int, help="scale mode: train rows of the baseline (default a tenth)")
    parser.add_argument("--keep", help="keep the measured build in this folder")
    parser.add_argument("--build-args", default="", help="scale mode: more build arguments, e.g. \"--per-task 0\"")
    args = parser.parse_args()
    print(f"load average before: {_load()}; {os.cpu_count()} CPUs", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        (scale_mode if args.train_size else default_mode)(args, Path(tmp))
    print(f"load average after: {_load()}")


if __name__ == "__main__":
    main()
