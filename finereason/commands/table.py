"""The README's table of ``finereason`` commands, generated from the argument parser.

``python -m finereason.commands.table`` prints it; ``python -m finereason.commands.table --write README.md``
replaces the table between the ``<!-- commands:start -->`` and ``<!-- commands:end -->`` markers.
``tests/test_doc_examples.py`` checks that the README holds exactly this table.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Iterator, Sequence

from ..common.atomic_io import write_text

START, END = "<!-- commands:start -->", "<!-- commands:end -->"


def commands(parser: argparse.ArgumentParser, prefix: str = "") -> Iterator[tuple[str, str]]:
    """``(command, help)`` for every command of ``parser``, nested actions spelled out
    (``leaderboard submit``); deprecated aliases are left out."""
    for action in parser._actions:  # argparse keeps sub-commands and their help here
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:  # one per command, under its own name (aliases are not)
                name, sub = choice.dest, action.choices[choice.dest]
                nested = any(isinstance(a, argparse._SubParsersAction) for a in sub._actions)
                if nested:
                    yield from commands(sub, f"{prefix}{name} ")
                else:
                    yield f"{prefix}{name}", choice.help or ""


def _cell(text: str) -> str:
    """Help text as a Markdown table cell (no pipes, no angle brackets read as HTML)."""
    return text.replace("|", "/").replace("<", "&lt;").replace(">", "&gt;")


def command_table(parser: argparse.ArgumentParser | None = None) -> str:
    """A Markdown table: one row per command (``leaderboard submit`` and friends spelled out)."""
    if parser is None:
        from . import build_parser

        parser = build_parser()
    rows = ["| command | what it does |", "|---|---|"]
    rows += [f"| `finereason {name}` | {_cell(text)} |" for name, text in commands(parser)]
    return "\n".join(rows) + "\n"


def replace_table(text: str, table: str) -> str:
    """``text`` with the part between the markers replaced by ``table``."""
    head, start, rest = text.partition(START)
    _, end, tail = rest.partition(END)
    if not start or not end:
        raise ValueError(f"the markers {START} and {END} are missing")
    return f"{head}{START}\n{table}{END}{tail}"


def table_in(text: str) -> str:
    """The part of ``text`` between the markers (without the newline after the start marker)."""
    return text.partition(START)[2].partition(END)[0].removeprefix("\n")


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m finereason.commands.table", description=__doc__.splitlines()[0])
    p.add_argument("--write", metavar="README", help="replace the table between the markers in this file")
    args = p.parse_args(argv)
    table = command_table()
    if args.write:
        path = Path(args.write)
        write_text(path, replace_table(path.read_text(encoding="utf-8"), table))
    else:
        sys.stdout.write(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
