"""``finereason build``: the benchmark and training set as a Hub dataset folder."""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from ..common.atomic_io import check_output
from ..common.plural import count
from ..common.vocabulary import ORDERS, PAPER
from ..core.engine import default_names, engine_names, engines
from .options import CliError, add_domains, add_out, add_seed, need_builders

NAME = "build"
HELP = "generate the benchmark and training set as a Hub dataset folder"


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = subparsers.add_parser(NAME, help=HELP)
    add_out(p, "output folder (Hub layout: parquet + README configs)", required=True)
    add_seed(p)
    p.add_argument("--per-task", type=int, default=500, help="items per state-checking / state-transition config (default 500)")
    p.add_argument("--train-size", type=int, default=10_000, help="items in the train config (default 10000; 0 for none)")
    p.add_argument("--e2e-size", type=int, default=100, help="items per end-to-end config (default 100)")
    add_domains(p, f"subset of {' '.join(engine_names())} (default: {' '.join(default_names())})")
    p.add_argument("--num-proc", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--order", default=PAPER, choices=ORDERS, help=f"tree branching order (default {PAPER})")
    seen: set[str] = set()
    for engine in engines():  # each domain's source files (``source_options``)
        for option, text in engine.source_options.items():
            if option not in seen:
                seen.add(option)
                p.add_argument(f"--{option.replace('_', '-')}", dest=option, help=text)
    p.add_argument("--shard", metavar="K/N", help="build only part K of N (0-based) of the data set; combine the N folders with merge-shards")
    p.add_argument("--overwrite", action="store_true", help="replace an existing non-empty --out")
    return p


def run(args: argparse.Namespace) -> int:
    need_builders()
    from ..dataset_builders.build import BuildConfig, source_option_names

    domains = tuple(default_names())
    if args.domains is not None:
        domains = tuple(p.strip() for chunk in args.domains for p in chunk.split(","))
        if not domains or "" in domains:
            raise CliError(f"--domains {' '.join(args.domains)!r} has an empty name; give names like {','.join(engine_names()[:2])}")
    sources = tuple((n, Path(getattr(args, n))) for n in source_option_names() if getattr(args, n, None))
    check_output(args.out, [(f"--{n.replace('_', '-')}", path) for n, path in sources])
    config = BuildConfig(
        out=Path(args.out), seed=args.seed, per_task=args.per_task, train_size=args.train_size,
        e2e_size=args.e2e_size, domains=domains, num_proc=args.num_proc,
        overwrite=args.overwrite, order=args.order,
        source_options=sources,
        shard=shard(args.shard),
    )
    build_and_print(config)
    return 0


def build_and_print(config: Any) -> None:
    """Build ``config`` (a ``BuildConfig``) and print what was built (``build``, ``baselines``)."""
    from ..dataset_builders.build import build

    start = time.perf_counter()
    report = build(config)
    for name, rows in report["configs"].items():
        print(f"  {name:<36}{rows:>7}")
    print(f"train/test: {report['disjointness']}")
    print(f"balance: {report['balance']}")
    for name, missing in report["shortfalls"].items():
        print(f"warning: {name} has {missing} fewer rows than asked", file=sys.stderr)
    part = f" (shard {report['shard'][0]}/{report['shard'][1]}; combine with merge-shards)" if report.get("shard") else ""
    print(f"built {count(sum(report['configs'].values()), 'row')} in {count(len(report['configs']), 'config')} into {report['out']}{part} "
          f"in {time.perf_counter() - start:.1f} s")


def shard(text: str | None) -> tuple[int, int]:
    """``K/N`` (0 <= K < N) from ``--shard``."""
    if text is None:
        return (0, 1)
    k, sep, n = text.partition("/")
    if not sep or not k.strip().isdigit() or not n.strip().isdigit() or not 0 <= int(k) < int(n):
        raise CliError(f"--shard must be K/N with 0 <= K < N (e.g. 0/4), got {text!r}")
    return int(k), int(n)
