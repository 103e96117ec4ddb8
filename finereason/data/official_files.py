"""Reading the official FineReason release (``<puzzle>_states.json`` / ``_questions.json``).

The official files are JSON Lines despite the ``.json`` suffix; a JSON array is accepted too.
"""
from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Iterator, Sequence

from ..common.deprecated import renamed_names
from ..common.input_errors import InputError
from ..common.jsonl import json_lines, parse_json
from ..core.engine import Engine, get_engine, official_names


def _states_file(name: str) -> bool:
    """Whether ``name`` is an official states file (``<official_name>_states[_sample].json[l]``)."""
    match = re.match(r"^(.+)_states(?:_sample)?\.jsonl?$", name)
    return bool(match) and match.group(1) in official_names()


class OfficialDataError(InputError):
    """An official file that cannot be read; the message names the file and line."""


def read_official_records(path: str | Path) -> list[dict]:
    """All records of an official file (JSON Lines or a JSON array)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise OfficialDataError(f"cannot read {path}: {err.strerror or err}") from None
    except UnicodeDecodeError as err:
        raise OfficialDataError(f"{path}: not UTF-8 text (a binary file?): {err.reason} at byte {err.start}") from None
    stripped = text.lstrip()
    if stripped.startswith("["):
        data = parse_json(stripped, str(path), OfficialDataError)
        if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
            raise OfficialDataError(f"{path}: expected a list of objects")
        return data
    records = []
    for lineno, record in json_lines(io.StringIO(text), str(path), "official", OfficialDataError):
        if not isinstance(record, dict):
            raise OfficialDataError(f"{path}:{lineno}: expected a JSON object")
        records.append(record)
    return records


def engine_for_file(path: str | Path) -> Engine:
    """The engine for an official file, from its name (``sudoku_states.json`` -> sudoku)."""
    name = Path(path).name
    for official in official_names():
        if name.startswith(official + "_"):
            return get_engine(official)
    raise OfficialDataError(
        f"cannot tell the puzzle of {name}: official files are named <puzzle>_states.json with puzzle in {', '.join(official_names())}"
    )


def find_state_files(directory: str | Path) -> list[Path]:
    """The official ``*_states`` files in ``directory`` (full release or samples), sorted."""
    directory = Path(directory)
    if not directory.is_dir():
        raise OfficialDataError(f"{directory} is not a directory")
    files = sorted(p for p in directory.iterdir() if _states_file(p.name))
    if not files:
        raise OfficialDataError(f"no official *_states.json files in {directory}")
    return files


def iter_items(path: str | Path, records: Sequence[dict] | None = None) -> Iterator[tuple[int, object]]:
    """(line index, StateItem) for each record of an official states file (``records``: the file's
    records when the caller has already read them with :func:`read_official_records`)."""
    engine = engine_for_file(path)
    for index, record in enumerate(read_official_records(path) if records is None else records):
        try:
            yield index, engine.item_from_official(record)
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as err:
            raise OfficialDataError(f"{path}: record {index}: {err or type(err).__name__}") from None


# ``read_records`` is the resumable log's reader (:func:`finereason.common.jsonl_log.read_records`)
__getattr__ = renamed_names(__name__, {"read_records": "read_official_records"}, globals())
