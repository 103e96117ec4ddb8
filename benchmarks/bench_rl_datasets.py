"""The procedural datasets API at scale: every task of every registered domain.

    python benchmarks/bench_rl_datasets.py [--n 10000] [--seed 0] [--names NAME ...] [--workers N]

For each dataset (``finereason.list_datasets()``, the ``<domain>_<task>`` ones): generate ``--n`` entries,
score each entry's own answer with ``dataset.score_answer`` (bar: 1.0 on every task), and score the
shallow baseline's answer to each row twice, through ``score_answer`` and through lm-eval's
``process_results`` hook (what ``finereason eval`` computes per row, ``lm_eval_tasks/finereason/utils.py``).
Bar: the two accuracies are equal. Prints one line per dataset with the generation rate; exits 1 when
a bar is missed. ``--workers N`` spreads chunks of 500 entries over N processes (entries depend on
their index only, so the figures are the same); the rate is then entries per second of all of them.
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


def run_chunk(job: tuple[str, int, int, int, int]) -> tuple[float, float, float, int]:
    """(own answers' score, shallow via score_answer, shallow via lm-eval's hook, entries) of entries
    ``start..stop`` of a dataset."""
    import finereason
    from finereason.lm_eval_tasks.finereason.utils import process_results
    from finereason.models.baselines import shallow

    name, size, seed, start, stop = job
    dataset = finereason.create_dataset(name, size=size, seed=seed)
    own = ours = theirs = 0.0
    for i in range(start, stop):
        e = dataset[i]
        row = e["metadata"]["row"]
        own += dataset.score_answer(e["answer"], e)
        response = shallow(row)
        ours += dataset.score_answer(response, e)
        theirs += float(process_results(row, [response])["acc"])
    return own, ours, theirs, stop - start


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
    print(f"{'dataset':40s} {'entries':>8s} {'own':>6s} {'shallow':>8s} {'lm-eval':>8s} {'entries/s':>10s}")
    with ProcessPoolExecutor(args.workers) as pool:
        for name in names:
            jobs = [(name, args.n, args.seed, a, min(a + CHUNK, args.n)) for a in range(0, args.n, CHUNK)]
            start = time.perf_counter()
            parts = list(pool.map(run_chunk, jobs))
            rate = args.n / max(time.perf_counter() - start, 1e-9)
            own, ours, theirs = (sum(p[k] for p in parts) / args.n for k in range(3))
            ok = own == 1.0 and ours == theirs
            failures += not ok
            print(f"{name:40s} {args.n:8d} {own:6.3f} {ours:8.4f} {theirs:8.4f} {rate:10.0f}{'' if ok else '  MISSED'}",
                  flush=True)
    print("bars met" if not failures else f"{failures} dataset(s) missed a bar")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
