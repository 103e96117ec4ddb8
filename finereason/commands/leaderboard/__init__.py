"""``finereason leaderboard ACTION``: submissions and the static leaderboard page; one action per module."""
from __future__ import annotations

import argparse

from . import build, space, submit

NAME = "leaderboard"
HELP = "leaderboard submissions and a static leaderboard page"
ACTIONS = (submit, build, space)


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    board = subparsers.add_parser(NAME, help=HELP)
    actions = board.add_subparsers(dest="leaderboard_command", required=True, metavar="ACTION")
    for action in ACTIONS:
        action.register(actions)
    return board


def run(args: argparse.Namespace) -> int:
    """Run the action named on the command line."""
    action = next(a for a in ACTIONS if a.NAME == args.leaderboard_command)
    return action.run(args)
