"""``finereason merge-shards``: combine the folders of ``build --shard K/N`` into one dataset folder."""
from __future__ import annotations

import argparse
from pathlib import Path

from ..common.atomic_io import check_output
from ..common.plural import count
from .options import add_out, need_builders

NAME = "merge-shards"
HELP = "combine the folders of build --shard 0/N .. N-1/N into one dataset folder"


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = subparsers.add_parser(NAME, help=HELP)
    p.add_argument("shards", nargs="+", metavar="SHARD_DIR", help="folders written by build --shard K/N")
    add_out(p, "output folder (equal, byte for byte, to the single-machine build)", required=True)
    p.add_argument("--overwrite", action="store_true", help="replace an existing non-empty --out")
    return p


def run(args: argparse.Namespace) -> int:
    need_builders()
    from ..dataset_builders.merge import merge_shards

    check_output(args.out, [("SHARD_DIR", s) for s in args.shards])
    report = merge_shards([Path(s) for s in args.shards], Path(args.out), args.overwrite)
    for name, rows in report["configs"].items():
        print(f"  {name:<36}{rows:>7}")
    print(f"merged {count(len(args.shards), 'shard')} ({count(sum(report['configs'].values()), 'row')}) into {report['out']}")
    return 0
