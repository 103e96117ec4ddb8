"""``finereason domains``: the registered domains, built in and installed plugins (``puzzles``: deprecated
alias). A plugin's line names the package it came from."""
from __future__ import annotations

import argparse

from ..core.engine import domain_source, engine_names, get_engine

NAME = "domains"
HELP = "list the registered domains"
DEPRECATED_NAMES = ("puzzles",)


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    return subparsers.add_parser(NAME, aliases=list(DEPRECATED_NAMES), help=HELP)


def run(args: argparse.Namespace) -> int:
    for name in engine_names():
        source = domain_source(name)
        plugin = f"; plugin from {source}" if source else ""
        print(f"{name}\t(official name: {get_engine(name).official_name}{plugin})")
    return 0
