"""The one JSON Lines reader for files a user hands to finereason (states, responses, samples, replays),
and the one parser of a whole JSON file's text (:func:`parse_json`).

Every problem is raised as one exception of the caller's choice whose message names the file and
line: unreadable files, non-UTF-8 bytes (a binary file), invalid JSON, JSON nested too deeply for
the parser. Blank lines are skipped; ``-`` reads standard input.
"""
from __future__ import annotations

import json
import sys
from typing import Any, Iterable, Iterator


def json_lines(lines: Iterable[str], path: str, what: str = "JSON Lines",
               error: type[Exception] = ValueError) -> Iterator[tuple[int, Any]]:
    """``(line number, value)`` for each non-empty line of ``lines``, text already read from ``path``
    (named in the messages); a line that is not JSON raises ``error(message)``."""
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as err:
            raise error(f"{path}:{lineno}: {what} line is not valid JSON ({err.msg} at column {err.colno})") from None
        except RecursionError:
            raise error(f"{path}:{lineno}: {what} line is nested too deeply") from None
        yield lineno, value


def iter_json_lines(path: str, what: str = "JSON Lines", error: type[Exception] = ValueError) -> Iterator[tuple[int, Any]]:
    """``(line number, value)`` for each non-empty line of ``path``; problems raise ``error(message)``
    (bytes that are not UTF-8 name the line they are on)."""
    try:
        handle = getattr(sys.stdin, "buffer", sys.stdin) if str(path) == "-" else open(path, "rb")
    except OSError as err:
        raise error(f"cannot read {what} {path}: {err.strerror or err}") from None

    def decoded() -> Iterator[str]:
        for lineno, raw in enumerate(handle, start=1):
            try:
                yield raw.decode("utf-8") if isinstance(raw, bytes) else raw
            except UnicodeDecodeError:
                raise error(f"{path}:{lineno}: {what} file is not UTF-8 text (a binary file?)") from None

    with handle:
        try:
            yield from json_lines(decoded(), path, what, error)
        except OSError as err:
            raise error(f"cannot read {what} {path}: {err.strerror or err}") from None


def parse_json(text: str, where: str, error: type[Exception] = ValueError) -> Any:
    """The JSON value of ``text``, a whole file read from ``where`` (named in the message); invalid JSON
    or JSON nested too deeply for the parser raises ``error(message)``."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise error(f"{where}: not valid JSON ({err.msg} at line {err.lineno})") from None
    except RecursionError:
        raise error(f"{where}: not valid JSON (nested too deeply)") from None


__all__ = ["iter_json_lines", "json_lines", "parse_json"]
