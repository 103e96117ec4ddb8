"""``finereason leaderboard build RESULTS_ROOT --out DIR``: static HTML page, CSV, JSON and Markdown."""
from __future__ import annotations

import argparse
from pathlib import Path

from ...common.atomic_io import check_output
from ..options import add_out

NAME = "build"
HELP = "static HTML leaderboard (search, filters, drill-down pages), CSV, JSON and Markdown"


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = subparsers.add_parser(NAME, help=HELP)
    p.add_argument("results_root", metavar="RESULTS_ROOT", help="folder of lm-eval output and/or submission results files")
    add_out(p, "folder for index.html, leaderboard.csv/.json/.md and models/*.html", required=True)
    return p


def run(args: argparse.Namespace) -> int:
    from ...integrations.leaderboard.build import build

    check_output(args.out, [("RESULTS_ROOT", args.results_root)])
    written = build(args.results_root, args.out)
    print(f"wrote {', '.join(p.name for p in written)} to {Path(args.out).resolve()}")
    return 0
