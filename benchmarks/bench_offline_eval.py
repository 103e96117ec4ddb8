"""No network and no ``HF_HUB_OFFLINE`` must cost nothing: ``finereason eval`` on the embedded default.

Runs ``finereason eval --model finereason-random --tasks finereason --limit 10`` alternately with
``HF_HUB_OFFLINE=1`` (the baseline) and with every offline variable unset, ``--rounds`` times each, in
fresh subprocesses sharing one prepared cache (the embedded default is built once before timing).
``--blackhole`` also points ``HTTP(S)_PROXY`` at a non-routable address, so any network attempt hangs
until its timeout instead of failing fast at DNS (the worst kind of "no network"). Each run's results
must name the data source (``metadata.data_source``). Bar: median(no offline flag) / median(offline) <= 1.2.

    python benchmarks/bench_offline_eval.py [--rounds 2] [--blackhole] [--keep DIR]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMMAND = ["finereason", "eval", "--model", "finereason-random", "--tasks", "finereason", "--limit", "10"]
OFFLINE_VARS = ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_EVALUATE_OFFLINE")
BAR = 1.2


def environment(root: Path, offline: bool, blackhole: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in OFFLINE_VARS + ("FINEREASON_DATA_DIR", "FINEREASON_HUB_ID")}
    env.update(HF_HOME=str(root / "hf"), FINEREASON_CACHE=str(root / "finereason"), OMP_NUM_THREADS="1")
    if offline:
        env["HF_HUB_OFFLINE"] = "1"
    if blackhole:
        for name in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"):
            env[name] = "http://10.255.255.1:9"
        env.pop("NO_PROXY", None)
        env.pop("no_proxy", None)
    return env


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(root: Path, index: int, offline: bool, blackhole: bool) -> float:
    out = root / f"run{index}-{'offline' if offline else 'online'}"
    shutil.rmtree(out, ignore_errors=True)
    start, cpu = time.perf_counter(), _child_cpu()
    done = subprocess.run([*COMMAND, "--output_path", str(out)], env=environment(root, offline, blackhole),
                          capture_output=True, text=True)
    seconds, cpu = time.perf_counter() - start, _child_cpu() - cpu
    if done.returncode:
        sys.exit(f"run failed ({'HF_HUB_OFFLINE=1' if offline else 'no offline flag'}):\n{done.stderr[-3000:]}")
    results = json.loads(next(out.rglob("results_*.json")).read_text())
    sources = {json.dumps({k: v for k, v in (c.get("metadata", {}).get("data_source") or {}).items()
                           if k not in ("config", "config_fingerprint")} or None, sort_keys=True)
               for name, c in results["configs"].items() if name.startswith("finereason_")}
    if len(sources) != 1 or "null" in sources:
        sys.exit(f"results do not name one data source: {sources}")
    line = next((l for l in done.stderr.splitlines() if l.startswith("finereason data:")), None)
    if line is None:
        sys.exit("no 'finereason data:' line on stderr")
    # wall time minus CPU time is waiting: network timeouts show up there, not in CPU time
    print(f"  {'HF_HUB_OFFLINE=1 ' if offline else 'no offline flag  '} {seconds:7.1f} s wall, {cpu:6.1f} s CPU   {line}",
          flush=True)
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2, help="timed runs per setting (default 2)")
    parser.add_argument("--blackhole", action="store_true", help="route HTTP(S) to a non-routable proxy")
    parser.add_argument("--keep", type=Path, help="use and keep this folder for caches and results")
    args = parser.parse_args()
    if shutil.which("finereason") is None:
        sys.exit("finereason is not on PATH (pip install '.[eval]')")
    root = args.keep or Path(tempfile.mkdtemp(prefix="bench-offline-eval-"))
    root.mkdir(parents=True, exist_ok=True)
    try:
        print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, blackhole proxy: {args.blackhole}")
        print("preparing the embedded default (untimed) ...", flush=True)
        subprocess.run([sys.executable, "-c", "from finereason.data.resolve import ensure_default_build; ensure_default_build()"],
                       env=environment(root, True, False), check=True, capture_output=True)
        times: dict[bool, list[float]] = {True: [], False: []}
        for index in range(args.rounds):
            for offline in (True, False):
                times[offline].append(run(root, index, offline, args.blackhole))
        base, test = statistics.median(times[True]), statistics.median(times[False])
        ratio = test / base
        print(f"median: HF_HUB_OFFLINE=1 {base:.1f} s, no offline flag {test:.1f} s, ratio {ratio:.2f} (bar <= {BAR})")
        return 0 if ratio <= BAR else 1
    finally:
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
