"""``finereason domains``: the registered domains (``puzzles``: deprecated alias)."""
from __future__ import annotations

import argparse

from ..core.engine import engine_names, get_engine

NAME = "domains"
HELP = "list the registered domains"
DEPRECATED_NAMES = ("puzzles",)


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    return subparsers.add_parser(NAME, aliases=list(DEPRECATED_NAMES), help=HELP)


def run(args: argparse.Namespace) -> int:
    for name in engine_names():
        print(f"{name}\t(official name: {get_engine(name).official_name})")
    return 0
