"""``finereason report``: paper-style tables and plots from lm-eval output."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..common.atomic_io import check_output
from ..common.plural import count
from .options import add_out

NAME = "report"
HELP = "paper-style tables and plots from lm-eval output (needs the eval extra)"


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = subparsers.add_parser(NAME, help=HELP)
    p.add_argument("paths", nargs="+", metavar="RESULTS_PATH", help="lm-eval output folders (searched recursively) or results_*.json files")
    add_out(p, "folder for summary.md and the plots (default ./finereason_report)", default="finereason_report")
    return p


def run(args: argparse.Namespace) -> int:
    from ..integrations.report.build import build_report

    check_output(args.out, [("RESULTS_PATH", p) for p in args.paths])
    report = build_report(args.paths, args.out)
    sys.stdout.write(report.markdown)
    print(f"wrote {count(len(report.written), 'file')} to {Path(args.out).resolve()}", file=sys.stderr)
    return 0
