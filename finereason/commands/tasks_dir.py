"""``finereason tasks-dir``: the lm-eval task folder (for ``lm_eval --include_path``)."""
from __future__ import annotations

import argparse

from ..integrations.lm_eval.cli import tasks_dir

NAME = "tasks-dir"
HELP = "print the lm-eval task folder (for lm_eval --include_path)"


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    return subparsers.add_parser(NAME, help=HELP)


def run(args: argparse.Namespace) -> int:
    print(tasks_dir())
    return 0
