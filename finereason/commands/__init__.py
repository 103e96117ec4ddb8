"""The ``finereason`` command line: JSON Lines in and out, one-line errors, non-zero exit on bad input.

One command per module of this package; each defines ``NAME``, ``HELP``, ``register(subparsers)``
(adds its parser and returns it) and ``run(args) -> int`` (parses nothing more, calls the library,
prints). :data:`COMMANDS` is the ordered list the parser (and the README's command table,
:mod:`.table`) is built from: a new command is a new module and one line here. A module may name
``DEPRECATED_NAMES`` (old names that still work, with a warning) and a raw ``main(argv)`` that takes
every argument after its name unparsed (``eval``).
"""
from __future__ import annotations

import argparse
import sys
from types import ModuleType
from typing import Sequence

from .. import __version__
from ..common.input_errors import failure_status
from . import (arc, baselines, build, check_official, domains, eval, export, import_official, label, leaderboard, loop,
               merge_shards, plan_check, push, reference, report, rescore, score, smol_model, tasks_dir, tiny_model, verify_data)
from .options import warn_deprecated

COMMANDS: tuple[ModuleType, ...] = (
    check_official, score, rescore, label, plan_check, build, merge_shards, import_official, push, export, tasks_dir, eval,
    baselines, tiny_model, smol_model, report, arc, loop, verify_data, leaderboard, reference, domains,
)

__all__ = ["COMMANDS", "build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The ``finereason`` parser: one sub-parser per module of :data:`COMMANDS`, in that order."""
    parser = argparse.ArgumentParser(prog="finereason", description="Sound step-level evaluation of LLM reasoning on logic puzzles.")
    parser.add_argument("--version", action="version", version=f"finereason {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in COMMANDS:
        module.register(sub).set_defaults(func=module.run, command_module=module)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; its exit status (0 done, 1 a finding or a bug, 2 bad input, 130 interrupted)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    raw = {m.NAME: m for m in COMMANDS if hasattr(m, "main")}
    if argv[:1] and argv[0] in raw:
        return raw[argv[0]].main(argv[1:])
    args = build_parser().parse_args(argv)
    if args.command != args.command_module.NAME:
        warn_deprecated(f"the command {args.command!r}", repr(args.command_module.NAME))
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:
        return 0
    except (KeyboardInterrupt, Exception) as err:  # noqa: BLE001  (sorted into expected failures and bugs)
        return failure_status(err)
