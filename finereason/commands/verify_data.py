"""``finereason verify-data DIR``: re-check every stored label and unsolvable child with the oracles."""
from __future__ import annotations

import argparse
from pathlib import Path

from ..common.plural import count
from .options import need_builders, progress

NAME = "verify-data"
HELP = "re-check every label and stored child of a dataset folder with the oracles"


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = subparsers.add_parser(NAME, help=HELP)
    p.add_argument("dir", metavar="DIR", help="a folder written by build or import-official (Hub layout)")
    p.add_argument("--configs", nargs="+", help="only these configs (default: every config in the README)")
    p.add_argument("--max-findings", type=int, default=50, help="findings printed before the summary (default 50)")
    return p


def run(args: argparse.Namespace) -> int:
    """The findings, then a table per config; exit 1 when anything was found."""
    need_builders()
    from ..data.verify import verify_folder

    root = Path(args.dir)
    reports = verify_folder(root, args.configs, progress=lambda rows, n, name: progress(rows, n, name))
    findings = [f for r in reports for f in r.findings]
    for finding in findings[: args.max_findings]:
        print(finding.line(root))
    if len(findings) > args.max_findings:
        print(f"... and {len(findings) - args.max_findings} more findings")
    header = f"{'config':<36}{'rows':>7}{'checked':>9}{'findings':>10}"
    print(header)
    print("-" * len(header))
    for r in reports:
        print(f"{r.config:<36}{r.rows:>7}{r.checked:>9}{len(r.findings):>10}")
    rows = sum(r.rows for r in reports)
    print(f"verified: {count(rows, 'row')} in {count(len(reports), 'config')}, {count(len(findings), 'finding')}")
    return 1 if findings else 0
