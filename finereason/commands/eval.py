"""``finereason eval``: lm-eval with the FineReason tasks and models; every argument goes to lm-eval
unparsed (``finereason eval --help`` is lm-eval's help), so :func:`main` takes the raw argument list."""
from __future__ import annotations

import argparse
from typing import Sequence

from ..integrations.lm_eval.cli import run_lm_eval

NAME = "eval"
HELP = "run lm-eval with the FineReason tasks and models (takes every lm_eval argument)"


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = subparsers.add_parser(NAME, help=HELP)
    p.add_argument("lm_eval_args", nargs=argparse.REMAINDER, help="lm_eval's own arguments")
    return p


def main(argv: Sequence[str]) -> int:
    """Run lm-eval on ``argv`` (what follows ``finereason eval``)."""
    return run_lm_eval(list(argv))


def run(args: argparse.Namespace) -> int:
    return main(args.lm_eval_args)
