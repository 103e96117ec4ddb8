"""``finereason import-official``: the official release as ``official_<domain>_<task>`` configs."""
from __future__ import annotations

import argparse
from pathlib import Path

from ..common.atomic_io import check_output
from ..common.plural import count
from .options import add_out, need_builders, reference_folder

NAME = "import-official"
HELP = "the official release as official_<domain>_<task> configs"


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = subparsers.add_parser(NAME, help=HELP)
    p.add_argument("--src", help="folder with the official <puzzle>_states.json / _questions.json files (default: $FINEREASON_REFERENCE/finereason_official)")
    add_out(p, "dataset folder to write (other configs there are kept)", required=True)
    p.add_argument("--overwrite", action="store_true", help="write into a non-empty --out: replace its official configs and card, keep the rest")
    return p


def run(args: argparse.Namespace) -> int:
    need_builders()
    from ..dataset_builders.official_configs import import_official

    src = reference_folder(args.src, "finereason-official", "--src")
    check_output(args.out, [("--src", src)])
    counts = import_official(Path(src), Path(args.out), args.overwrite)
    for name, rows in counts.items():
        print(f"  {name:<44}{rows:>6}")
    print(f"imported {count(sum(counts.values()), 'row')} into {Path(args.out).resolve()}")
    return 0
