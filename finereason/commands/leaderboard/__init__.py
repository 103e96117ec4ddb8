"""``finereason leaderboard ACTION``: submissions and the static leaderboard page; one action per module."""
from __future__ import annotations

import argparse

from ..options import register_group, run_action
from . import build, space, submit

NAME = "leaderboard"
HELP = "leaderboard submissions and a static leaderboard page"
ACTIONS = (submit, build, space)


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    return register_group(subparsers, NAME, HELP, ACTIONS, "leaderboard_command", "ACTION")


def run(args: argparse.Namespace) -> int:
    """Run the action named on the command line."""
    return run_action(ACTIONS, args.leaderboard_command, args)
