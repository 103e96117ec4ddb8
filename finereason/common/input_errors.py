"""The one error path of the command line: bad user input versus bugs.

:class:`InputError` is the exception for bad user input met by the library behind the command
line. Its message is one line naming the file and line (or the option) at fault; ``finereason``
prints it and exits with status 2. The library's own error classes (``DataFolderError``,
``OfficialDataError``, ``ReportError``, ``LeaderboardError``, ``BuildError``, ``LoopError``,
``UnsafeOutput``, the CLI's ``CliError``, ...) subclass it, so the command line needs no wrapper per
command. Anything else (a ``KeyError`` or ``ValueError`` from our own code) is a bug: a traceback and
a "please report" line, exit 1 (:func:`report_bug`).
"""
from __future__ import annotations

import sys
from typing import Callable

EXIT_BUG = 1             # a bug: a traceback and a "please report" line
EXIT_BAD_INPUT = 2       # every expected failure: bad file, bad value, I/O error (one line on stderr)
EXIT_INTERRUPTED = 130   # Ctrl-C


class InputError(ValueError):
    """A file or value a user handed to finereason that cannot be used (one-line message)."""


def expected_failure(err: BaseException) -> str | None:
    """The one-line message of an expected failure (an :class:`InputError`, an unknown registry
    name, an I/O error on a named file, input too large or too deep), or ``None`` for anything
    else, which is a bug and gets a traceback."""
    if isinstance(err, InputError):
        return str(err).splitlines()[0] if str(err) else type(err).__name__
    if isinstance(err, KeyError) and err.args and str(err.args[0]).startswith("unknown "):
        return str(err.args[0])  # get_engine and friends: "unknown domain 'x' (known: ...)"
    if isinstance(err, UnicodeDecodeError):
        return f"input is not UTF-8 text ({err.reason} at byte {err.start})"
    if isinstance(err, OSError):
        where = f"{err.filename}: " if err.filename else ""
        text = err.strerror or str(err)
        return f"{where}{text.splitlines()[0] if text else type(err).__name__}"
    if isinstance(err, MemoryError):
        return "out of memory: the input is too large"
    if isinstance(err, RecursionError):
        return "the input is nested too deeply"
    return None


def report_bug(err: BaseException) -> int:
    """Print the traceback of ``err`` (being handled) and the "please report" line; :data:`EXIT_BUG`."""
    import traceback

    traceback.print_exception(type(err), err, err.__traceback__)
    print(f"finereason: internal error ({type(err).__name__}): this is a bug; please report it to the "
          "finereason maintainers with the command line and the traceback above", file=sys.stderr)
    return EXIT_BUG


def failure_status(err: BaseException, classify: Callable[[BaseException], str | None] = expected_failure,
                   clean: Callable[[str], str] = str) -> int:
    """The exit status of a command that stopped on ``err`` (being handled): Ctrl-C is
    :data:`EXIT_INTERRUPTED`; an error ``classify`` names is one line on stderr (passed through
    ``clean``) and :data:`EXIT_BAD_INPUT`; anything else is a bug (:func:`report_bug`)."""
    if isinstance(err, KeyboardInterrupt):
        print("finereason: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    message = classify(err)
    if message is None:
        return report_bug(err)
    print(f"finereason: error: {clean(message)}", file=sys.stderr)
    return EXIT_BAD_INPUT


__all__ = ["EXIT_BAD_INPUT", "EXIT_BUG", "EXIT_INTERRUPTED", "InputError", "expected_failure", "failure_status", "report_bug"]
