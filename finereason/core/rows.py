"""Decoding dataset rows: the one reader of a row (``domain``, ``task``, ``inputs``, ``outputs``).

:func:`row_domain` is the one reader of a row's domain: the ``domain`` column, or ``puzzle``, its old
name (datasets, results and samples written before the rename keep working; builds write both until
the next major version). :func:`decode_row` checks a row and decodes its ``inputs``/``outputs`` (JSON strings in the official
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

DOMAIN = "domain"  # the column holding a row's domain (``sudoku``, ``game_of_24``, ...)
LEGACY_DOMAIN = "puzzle"  # the old name of ``domain``: read as a fallback, written until the next major version
ROW_COLUMNS = (DOMAIN, "task", "inputs", "outputs")  # what every row needs (``puzzle`` stands in for ``domain``)
_UNSET: Any = object()


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


def has_domain_column(columns: Any) -> bool:
    """Whether a set of column names (a table's, a batch's) holds a domain: ``domain`` or old ``puzzle``."""
    return DOMAIN in columns or LEGACY_DOMAIN in columns


def row_domain(row: Mapping[str, Any], default: Any = _UNSET) -> Any:
    """The domain of ``row``: its ``domain`` column, else its old ``puzzle`` column (both present must
    agree). When neither holds a value, ``default`` if given (math rows of a training mix have none),
    else :class:`RowError`."""
    if not isinstance(row, Mapping):
        raise RowError(f"a row must be a dataset row (dict), got {type(row).__name__}")
    value, legacy = row.get(DOMAIN), row.get(LEGACY_DOMAIN)
    if value is None:
        value = legacy
    elif legacy is not None and legacy != value:
        raise RowError(f"row's {DOMAIN!r} ({value!r}) and {LEGACY_DOMAIN!r} (its old name, {legacy!r}) disagree")
    if value is None:
        if default is not _UNSET:
            return default
        raise RowError(f"row has no domain: it needs a {DOMAIN!r} column (or {LEGACY_DOMAIN!r}, its old name); "
                       "pass rows of a built FineReason dataset")
    return value


def column_domains(columns: Mapping[str, Any], n: int) -> list:
    """The domain of each of ``n`` rows given column-wise (TRL's reward keyword arguments, a
    ``datasets`` batch): per row, the ``domain`` value, else the old ``puzzle`` value, else ``None``."""
    domains = columns.get(DOMAIN) or [None] * n
    legacy = columns.get(LEGACY_DOMAIN) or [None] * n
    return [d if d is not None else p for d, p in zip(domains, legacy)]


def with_domain(row: Mapping[str, Any]) -> dict:
    """A copy of ``row`` with both ``domain`` and old ``puzzle`` set to its domain (what writers store
    while ``puzzle`` is kept as a deprecated duplicate); a row without a domain is copied unchanged."""
    out = dict(row)
    domain = row_domain(row, None)
    if domain is not None:
        out[DOMAIN] = out[LEGACY_DOMAIN] = domain
    return out


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
    """Check ``row`` has ``columns`` and a registered domain (:func:`row_domain`), and decode its
    ``inputs``/``outputs``."""
    if not isinstance(row, Mapping):
        raise RowError(f"a row must be a dataset row (dict), got {type(row).__name__}")
    missing = [name for name in columns if name != DOMAIN and name not in row]
    if missing:
        raise RowError(f"row lacks column(s) {', '.join(missing)}; pass rows of a built FineReason dataset")
    domain = row_domain(row)
    try:
        engine = get_engine(domain)
    except (KeyError, TypeError) as err:
        raise RowError(err.args[0] if err.args else f"unknown domain {domain!r}") from None
    return DecodedRow(engine, row.get("task"), row_json(row.get("inputs", {}), "inputs"),
                      row_json(row.get("outputs", {}), "outputs"))


def row_identity(row: Mapping[str, Any]) -> str | None:
    """The puzzle instance a row is about (:func:`~finereason.core.puzzle_sources.puzzle_identity` of its
    ``inputs``): ``None`` for a row that is not a readable puzzle row (math rows, unknown domains)."""
    try:
        decoded = decode_row(row, (DOMAIN, "inputs"))
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
    return row_domain(row), inputs, outputs


def row_item(row: Mapping[str, Any]) -> StateItem:
    """The state item of a state-checking or state-transition row (cached)."""
    return _item(*_key(row))


def row_puzzle(row: Mapping[str, Any]) -> Any:
    """The puzzle of any row (cached)."""
    return _puzzle(*_key(row))


__all__ = ["DOMAIN", "LEGACY_DOMAIN", "ROW_COLUMNS", "DecodedRow", "RowError", "column_domains", "decode_row",
           "has_domain_column", "row_domain", "row_identity", "row_item", "row_json", "row_puzzle", "with_domain"]
