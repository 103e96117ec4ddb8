"""Decoding dataset rows: the one reader of a row (``puzzle``, ``task``, ``inputs``, ``outputs``).

:func:`decode_row` checks a row and decodes its ``inputs``/``outputs`` (JSON strings in the official
schema, or already-parsed objects) for every tool that reads rows: scoring (:func:`row_item`,
:func:`row_puzzle`, cached per row content), ``verify-data``, the ``evaluate`` metric modules and
GRPO's disjointness check (:func:`row_identity`). A row that cannot be read raises :class:`RowError`.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .engine import Engine, StateItem, get_engine
from .puzzle_sources import puzzle_identity

ROW_COLUMNS = ("puzzle", "task", "inputs", "outputs")  # what every row needs


class RowError(ValueError):
    """A row that cannot be read (missing column, unknown domain, ``inputs``/``outputs`` not JSON objects)."""


@dataclass(frozen=True)
class DecodedRow:
    """A row read: its engine, task and the decoded official ``inputs``/``outputs`` objects."""

    engine: Engine
    task: str
    inputs: dict
    outputs: dict

    @property
    def record(self) -> dict:
        """The official record (``{"inputs": ..., "outputs": ...}``) the engine reads."""
        return {"inputs": self.inputs, "outputs": self.outputs}


def row_json(value: Any, column: str) -> dict:
    """A row's ``inputs`` or ``outputs`` as an object: a JSON string (or bytes) is parsed, a mapping
    copied; anything else raises :class:`RowError`."""
    if isinstance(value, bytes):
        value = value.decode("utf-8", errors="replace")
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except (ValueError, RecursionError) as err:
            raise RowError(f"{column} is not a JSON object ({err})") from None
    if not isinstance(value, Mapping):
        raise RowError(f"{column} is not a JSON object (got {type(value).__name__})")
    return dict(value)


def decode_row(row: Mapping[str, Any], columns: tuple[str, ...] = ROW_COLUMNS) -> DecodedRow:
    """Check ``row`` has ``columns`` and a registered ``puzzle``, and decode its ``inputs``/``outputs``."""
    if not isinstance(row, Mapping):
        raise RowError(f"a row must be a dataset row (dict), got {type(row).__name__}")
    missing = [name for name in columns if name not in row]
    if missing:
        raise RowError(f"row lacks column(s) {', '.join(missing)}; pass rows of a built FineReason dataset")
    try:
        engine = get_engine(row.get("puzzle"))
    except (KeyError, TypeError) as err:
        raise RowError(err.args[0] if err.args else f"unknown domain {row.get('puzzle')!r}") from None
    return DecodedRow(engine, row.get("task"), row_json(row.get("inputs", {}), "inputs"),
                      row_json(row.get("outputs", {}), "outputs"))


def row_identity(row: Mapping[str, Any]) -> str | None:
    """The puzzle instance a row is about (:func:`~finereason.core.puzzle_sources.puzzle_identity` of its
    ``inputs``): ``None`` for a row that is not a readable puzzle row (math rows, unknown domains)."""
    try:
        decoded = decode_row(row, ("puzzle", "inputs"))
    except RowError:
        return None
    return puzzle_identity(decoded.engine, decoded.inputs)


@lru_cache(maxsize=4096)
def _item(puzzle: str, inputs: str, outputs: str) -> StateItem:
    return get_engine(puzzle).item_from_official({"inputs": json.loads(inputs), "outputs": json.loads(outputs)})


@lru_cache(maxsize=4096)
def _puzzle(puzzle: str, inputs: str, outputs: str) -> Any:
    return get_engine(puzzle).puzzle_from_official({"inputs": json.loads(inputs), "outputs": json.loads(outputs)})


def _key(row: Mapping[str, Any]) -> tuple[str, str, str]:
    """The cache key of a row: its domain and its ``inputs``/``outputs`` as JSON strings."""
    inputs, outputs = row["inputs"], row["outputs"]
    if not isinstance(inputs, str) or not isinstance(outputs, str):
        decoded = decode_row(row)
        inputs, outputs = json.dumps(decoded.inputs, sort_keys=True), json.dumps(decoded.outputs, sort_keys=True)
    return row["puzzle"], inputs, outputs


def row_item(row: Mapping[str, Any]) -> StateItem:
    """The state item of a state-checking or state-transition row (cached)."""
    return _item(*_key(row))


def row_puzzle(row: Mapping[str, Any]) -> Any:
    """The puzzle of any row (cached)."""
    return _puzzle(*_key(row))


__all__ = ["ROW_COLUMNS", "DecodedRow", "RowError", "decode_row", "row_identity", "row_item", "row_json", "row_puzzle"]
