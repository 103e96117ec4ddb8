"""The one resumable JSON Lines log: a file of records appended as a run goes, that survives a kill.

* :func:`append_records` writes whole lines, flushed and fsync'd before it returns, so a record
  that was appended is on disk; before writing it cuts a torn last line (a record a killed run
  left half written), so the next record always starts on a fresh line;
* :func:`read_records` returns the complete lines' records and ignores a torn last line (it never
  changes the file: a reader may look at a log while its run is still writing);
* :func:`rewrite_records` replaces the whole log atomically (for a resume that drops records).

Used by the self-correction loop's transcripts and by the GRPO trainer's ``log_history.jsonl``.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterable

from .atomic_io import write_text
from .jsonl import json_lines


def _line(record: Any) -> str:
    return json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n"


def cut_torn_line(path: str | os.PathLike) -> int:
    """Remove an unfinished last line (no newline) from ``path``; returns the bytes removed."""
    try:
        with open(path, "r+b") as handle:
            size = handle.seek(0, os.SEEK_END)
            if size == 0:
                return 0
            handle.seek(size - 1)
            if handle.read(1) == b"\n":
                return 0
            handle.seek(0)
            keep = handle.read().rfind(b"\n") + 1
            handle.truncate(keep)
            handle.flush()
            os.fsync(handle.fileno())
            return size - keep
    except FileNotFoundError:
        return 0


def read_records(path: str | os.PathLike, what: str = "log", error: type[Exception] = ValueError) -> list[tuple[int, Any]]:
    """``(line number, record)`` of every complete line of ``path`` (``[]`` if it is absent); a torn
    last line is left out; a complete line that is not JSON raises ``error(message)``."""
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        return []
    keep = raw.rfind(b"\n") + 1
    text = raw[:keep].decode("utf-8", "replace")
    return list(json_lines(text.splitlines(), str(path), what, error))


def append_records(path: str | os.PathLike, records: Iterable[Any]) -> None:
    """Append one JSON line per record to ``path`` (created if absent), flushed and fsync'd; a torn
    last line left by a killed run is cut first."""
    data = "".join(_line(r) for r in records)
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    cut_torn_line(target)
    with open(target, "a", encoding="utf-8") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def rewrite_records(path: str | os.PathLike, records: Iterable[Any]) -> None:
    """Replace ``path`` with these records, atomically."""
    write_text(path, "".join(_line(r) for r in records))


__all__ = ["append_records", "cut_torn_line", "read_records", "rewrite_records"]
