"""The procedural datasets API at scale: every task of every registered domain.

    python benchmarks/bench_rl_datasets.py [--n 10000] [--seed 0] [--names NAME ...] [--workers N]

For each dataset (``finereason.list_datasets()``, the ``<domain>_<task>`` ones): generate ``--n`` entries,
score each entry's own answer with ``dataset.score_answer`` (bar: 1.0 on every task), and score the
shallow baseline's answer to each row twice, through ``score_answer`` and through lm-eval's
``process_results`` hook (what ``finereason eval`` computes per row, ``lm_eval_tasks/finereason/utils.py``).
Bar: the two accuracies are equal. Prints one line per dataset with its rate (entries per second of
one process, generation and the three scorings); exits 1 when a bar is missed. ``--workers N`` spreads
chunks of 500 entries over N processes (entries depend on their index only, so the figures are the
same). A chunk runs the tasks of one domain index by index, so each puzzle instance is generated once
for all of them; a task's rate is then its share (the first task of a domain pays for the instance),
and ``wall s`` (on a domain's last line) is the domain's elapsed time.
"""
from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


CHUNK = 500


def run_chunk(job: tuple[tuple[str, ...], int, int, int, int]) -> list[tuple[float, float, float, float]]:
    """For each dataset of ``names`` (one domain's tasks), over entries ``start..stop``: (own answers'
    score, shallow via score_answer, shallow via lm-eval's hook, seconds spent). Index-major, so entry
    ``i`` of every task is made from the one puzzle instance generated for it (``source_of``'s cache)."""
    import finereason
    from finereason.lm_eval_tasks.finereason.utils import process_results
    from finereason.models.baselines import shallow

    names, size, seed, start, stop = job
    datasets = [finereason.create_dataset(name, size=size, seed=seed) for name in names]
    totals = [[0.0, 0.0, 0.0, 0.0] for _ in names]
    for i in range(start, stop):
        for dataset, total in zip(datasets, totals):
            began = time.perf_counter()
            e = dataset[i]
            row = e["metadata"]["row"]
            total[0] += dataset.score_answer(e["answer"], e)
            response = shallow(row)
            total[1] += dataset.score_answer(response, e)
            total[2] += float(process_results(row, [response])["acc"])
            total[3] += time.perf_counter() - began
    return [tuple(t) for t in totals]


def by_domain(names: list[str]) -> list[tuple[str, ...]]:
    """``names`` grouped by domain, in order of first appearance."""
    from finereason.integrations.rl.datasets import resolve_name

    groups: dict[str, list[str]] = {}
    for name in names:
        groups.setdefault(resolve_name(name)[0].name, []).append(name)
    return [tuple(g) for g in groups.values()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000, help="entries per dataset")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--names", nargs="*", help="datasets to run (default: every task of every domain)")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    args = parser.parse_args(argv)

    import finereason

    names = args.names or [n for n in finereason.list_datasets() if n not in ("train", "composite")]
    failures = 0
    print(f"{'dataset':40s} {'entries':>8s} {'own':>6s} {'shallow':>8s} {'lm-eval':>8s} {'entries/s':>10s} {'wall s':>7s}")
    with ProcessPoolExecutor(args.workers) as pool:
        for group in by_domain(names):
            jobs = [(group, args.n, args.seed, a, min(a + CHUNK, args.n)) for a in range(0, args.n, CHUNK)]
            start = time.perf_counter()
            parts = list(pool.map(run_chunk, jobs))
            wall = time.perf_counter() - start
            for k, name in enumerate(group):
                own, ours, theirs, seconds = (sum(p[k][j] for p in parts) for j in range(4))
                own, ours, theirs = own / args.n, ours / args.n, theirs / args.n
                ok = own == 1.0 and ours == theirs
                failures += not ok
                print(f"{name:40s} {args.n:8d} {own:6.3f} {ours:8.4f} {theirs:8.4f} {args.n / max(seconds, 1e-9):10.0f} "
                      f"{wall if k == len(group) - 1 else 0:7.0f}{'' if ok else '  MISSED'}", flush=True)
    print("bars met" if not failures else f"{failures} dataset(s) missed a bar")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
