"""``finereason leaderboard space --out DIR``: the Gradio Space folder with a finereason wheel beside the app."""
from __future__ import annotations

import argparse
from pathlib import Path

from ...common.atomic_io import check_output
from ..options import add_out

NAME = "space"
HELP = "a Gradio Space folder (app, README, requirements naming a finereason wheel built beside it)"


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = subparsers.add_parser(NAME, help=HELP)
    add_out(p, "folder for app.py, README.md, requirements.txt and the wheel", required=True)
    p.add_argument("--source", help="finereason checkout to build the wheel from (default: the one running)")
    return p


def run(args: argparse.Namespace) -> int:
    from ...integrations.leaderboard.space import prepare_space

    check_output(args.out, [("--source", args.source)])
    written = prepare_space(args.out, args.source)
    print(f"wrote {', '.join(p.name for p in written)} to {Path(args.out).resolve()}; "
          f"install with: cd {args.out} && pip install -r requirements.txt && python app.py")
    return 0
