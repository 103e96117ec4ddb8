"""The one exception for bad user input met by the library behind the command line.

Its message is one line naming the file and line (or the option) at fault; ``finereason`` prints it
and exits with status 2. The library's own error classes (``DataFolderError``, ``OfficialDataError``,
``ReportError``, ``LeaderboardError``, ``BuildError``, ...) subclass it, so the command line needs no
wrapper per command.
"""
from __future__ import annotations


class InputError(ValueError):
    """A file or value a user handed to finereason that cannot be used (one-line message)."""


__all__ = ["InputError"]
