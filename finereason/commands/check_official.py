"""``finereason check-official``: re-label the official release's states with our oracles."""
from __future__ import annotations

import argparse

from ..common.plural import count
from .options import progress, reference_folder

NAME = "check-official"
HELP = "re-label the official release's states with our oracles"


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = subparsers.add_parser(NAME, help=HELP)
    p.add_argument("--src", help="folder holding <puzzle>_states.json files (default: $FINEREASON_REFERENCE/finereason_official)")
    return p


def run(args: argparse.Namespace) -> int:
    """A table per official file, then ``agreement: N/M``; exit 1 when a state disagrees."""
    from ..data.official_check import check_official

    check = check_official(reference_folder(args.src, "finereason-official", "--src"), progress=progress)
    header = f"{'puzzle':<16}{'states':>8}{'labels agree':>14}{'solvable':>10}{'children unsolvable':>21}{'seconds':>9}"
    print(header)
    print("-" * len(header))
    for f in check.files:
        print(f"{f.puzzle:<16}{f.states:>8}{f'{f.labels_agree}/{f.states}':>14}{f.solvable:>10}"
              f"{f'{f.children_unsolvable}/{f.children}':>21}{f.seconds:>9.2f}")
    if check.undecided:
        print(f"undecided: {count(check.undecided, 'state')} (the oracle's work budget ran out; counted as disagreeing)")
    print(f"agreement: {check.agreeing}/{check.states}")
    return 0 if check.ok else 1
