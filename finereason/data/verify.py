"""``finereason verify-data DIR``: re-check a dataset folder's stored answers with the exact oracles.

A folder written by ``finereason build`` / ``import-official`` (or downloaded from the Hub) stores,
per row, a ``label`` and an ``outputs.current_status`` for the current state and an
``inputs.unsolvable_child``. Models are scored against the oracles, never against those stored
values, but other tools read them, and a flipped label silently changes any metric computed from
it. :func:`verify_folder` reads every config through :func:`finereason.data.folder.open_data_folder`
(paths outside the folder, schema, duplicate ids) and reports each problem as a :class:`Finding`:

- ``fingerprint``: a data file whose bytes differ from the build's SHA-256 manifest;
- ``unreadable``: a config or row that cannot be read (schema, bad JSON, not a state of its puzzle);
- ``label`` / ``status``: a stored label or ``current_status`` the oracle contradicts;
- ``child``: a stored ``unsolvable_child`` the oracle finds solvable;
- ``unsolvable_puzzle``: an end-to-end puzzle with no solution;
- ``undecided``: a state the oracle could not decide within its work budget (not verified).

Any finding is a failure (``verify-data`` exits 1).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from ..common.verdict import Undecided, label_solvable
from ..common.vocabulary import END_TO_END
from ..core.oracle import oracle_solvable
from ..core.rows import RowError, decode_row
from .state_labels import check_label

# Errors a tampered row can raise while it is read as a state of its puzzle.
_ROW_ERRORS = (ValueError, TypeError, KeyError, AttributeError, RecursionError)


@dataclass(frozen=True)
class Finding:
    """One problem: the config, the row id (``None`` for the whole config), a kind and a sentence."""

    config: str
    row: str | None
    kind: str
    message: str

    def line(self, root: Path) -> str:
        where = f"{root}/{self.config}" + (f": row {self.row}" if self.row is not None else "")
        return f"{where}: {self.kind}: {self.message}"


@dataclass
class ConfigReport:
    config: str
    rows: int = 0
    checked: int = 0
    findings: list[Finding] = field(default_factory=list)


def check_row(row: dict) -> list[tuple[str, str]]:
    """``(kind, message)`` for each stored value of ``row`` the oracles contradict (empty: all agree)."""
    try:
        decoded = decode_row(row)
    except RowError as err:
        return [("unreadable", str(err))]
    engine = decoded.engine
    problems: list[tuple[str, str]] = []
    try:
        if decoded.task == END_TO_END:
            puzzle = engine.puzzle_from_official(decoded.record)
            if not oracle_solvable(engine, puzzle, engine.initial(puzzle)):  # the budgeted oracle, not solve()
                problems.append(("unsolvable_puzzle", "the puzzle has no solution"))
            return problems
        item = engine.item_from_official(decoded.record)
    except Undecided as err:
        return [("undecided", str(err))]
    except _ROW_ERRORS as err:
        return [("unreadable", f"not a {engine.name} item: {err or type(err).__name__}")]
    try:
        stored = label_solvable(row.get("label"))
    except ValueError as err:
        return [("label", str(err))]
    current = check_label(engine, item.puzzle, item.current, stored)
    if current.truth is None:
        return [("undecided", current.undecided or "")]
    for kind, what, stored_value in (("label", "label", stored), ("status", "outputs.current_status", item.solvable)):
        problem = check_label(engine, item.puzzle, item.current, stored_value).problem(what)
        if problem:
            problems.append((kind, problem))
    if item.unsolvable_child is not None:
        child = check_label(engine, item.puzzle, item.unsolvable_child, False)
        if child.truth is None:
            problems.append(("undecided", f"unsolvable_child: {child.undecided}"))
        elif not child.agrees:
            problems.append(("child", "inputs.unsolvable_child is solvable by the oracle"))
    return problems


def verify_folder(root: Path | str, configs: Iterable[str] | None = None,
                  progress: Callable[[Iterable[Any], int, str], Iterable[Any]] | None = None) -> list[ConfigReport]:
    """Check every row of every config (or of ``configs``) of the folder at ``root``.

    Raises :class:`~finereason.data.folder.DataFolderError` when the folder itself cannot be
    opened (no README ``configs:``); problems inside configs become findings.
    """
    from .folder import DataFolderError, open_data_folder

    root = Path(root)
    checked = open_data_folder(root)                 # fingerprints verified
    raw = open_data_folder(root, verify=False)       # the same rows, to re-check even if tampered
    names = list(configs) if configs is not None else sorted(raw.configs)
    reports = []
    for config in names:
        report = ConfigReport(config)
        reports.append(report)
        try:
            table = checked.read_table(config)
        except DataFolderError as err:
            kind = "fingerprint" if "fingerprint" in str(err) else "unreadable"
            report.findings.append(Finding(config, None, kind, str(err)))
            if kind != "fingerprint":
                continue
            try:  # the same rows, re-checked even though their bytes changed
                table = raw.read_table(config)
            except DataFolderError:
                continue
        rows = table.to_pylist()
        report.rows = len(rows)
        for row in (progress(rows, len(rows), config) if progress else rows):
            for kind, message in check_row(row):
                report.findings.append(Finding(config, str(row.get("id")), kind, message))
            report.checked += 1
    return reports


__all__ = ["ConfigReport", "Finding", "check_row", "verify_folder"]
