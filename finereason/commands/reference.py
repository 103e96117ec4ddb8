"""``finereason reference list|fetch``: the public reference sets, pinned and checksummed."""
from __future__ import annotations

import argparse
from types import SimpleNamespace

from ..common.plural import count
from .options import progress

NAME = "reference"
HELP = "list the public reference sets or fetch one (pinned commit, sha256 per file)"
LIST = SimpleNamespace(NAME="list", HELP="the reference sets, their sources and whether FINEREASON_REFERENCE holds them")
FETCH = SimpleNamespace(NAME="fetch", HELP="download a reference set from its pinned public source, checking every file's sha256")
ACTIONS = (LIST, FETCH)  # one README row each, as for leaderboard


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = subparsers.add_parser(NAME, help=HELP)
    actions = p.add_subparsers(dest="reference_command", required=True, metavar="ACTION")
    actions.add_parser(LIST.NAME, help=LIST.HELP)
    f = actions.add_parser(FETCH.NAME, help=FETCH.HELP)
    f.add_argument("name", help="a set name from `finereason reference list`")
    f.add_argument("--to", help="the reference folder (default: FINEREASON_REFERENCE); the set goes in a folder inside it")
    f.add_argument("--mirror", help="a base URL laid out like raw.githubusercontent.com (owner/name/commit/path), "
                                    "e.g. file:///srv/mirror (default: raw.githubusercontent.com)")
    return p


def run(args: argparse.Namespace) -> int:
    """List the sets, or fetch one and say where it went."""
    from ..data.reference import ENV, check, fetch, reference_dir
    from ..data.reference_sets import RAW_BASE, SETS

    if args.reference_command == "list":
        root = reference_dir()
        print(f"{ENV}={root if root is not None else '(unset)'}")
        for s in SETS:
            here = ""
            if root is not None:
                bad = len(check(s.name, root))
                here = "  [present]" if not bad else (f"  [{bad} of {len(s.files)} files missing or different]"
                                                       if (root / s.folder).exists() else "")
            print(f"{s.name:<20} {s.folder + '/':<24} {count(len(s.files), 'file'):>11}  "
                  f"github.com/{s.repo}@{s.commit[:12]}  ({s.licence}){here}")
            print(f"{'':<21}{s.what}")
        return 0
    result = fetch(args.name, args.to, base=args.mirror or RAW_BASE, progress=progress)
    print(f"{args.name}: {count(result.written, 'file')} fetched, {result.present:,} already present, all sha256 "
          f"checked: {result.folder}")
    return 0
