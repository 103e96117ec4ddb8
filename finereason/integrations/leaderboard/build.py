"""``finereason leaderboard build``: a static leaderboard folder (no network, nothing fetched) from lm-eval
output folders and/or submission results files.

Written into ``--out``: ``index.html`` (search, filters for suite / puzzle / model type / size /
precision, a column selector, keyboard-sortable headers, n and 95 % intervals on every cell),
``leaderboard.csv`` and ``leaderboard.json`` (the same rows), ``leaderboard.md``, one drill-down page
per model (``models/<model>.html``: every task metric with n and interval, the error-category
breakdown, links to the logged samples, copied into ``samples/<model>/``). Opened with ``#selftest``
the main page exercises itself and writes the outcome into ``#selftest-result`` (used by the tests).
"""
from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

from ...common.atomic_io import OwnedFiles, owned_files
from ..report.results import md_table
from .board import (INFO_KEYS, RANKED_BY, VIEWS, Column, Entry, Row, board_puzzles, check_comparable, collect, columns, flat,
                    rows, shown_precision, unranked_note)
from .html import detail_page, main_page

__all__ = ["build", "collect", "board_puzzles", "columns", "table"]


def table(entries: list[Entry]) -> tuple[list[Column], list[Row], list[str]]:
    """(columns, ranked rows, puzzles) of the board."""
    puzzles = board_puzzles(entries)
    cols = columns(puzzles)
    return cols, rows(entries, cols), puzzles


def to_csv(records: list[dict]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(records[0]) if records else list(INFO_KEYS), lineterminator="\n")
    writer.writeheader()
    for record in records:
        writer.writerow({k: "" if v is None else v for k, v in record.items()})
    return buffer.getvalue()


def data_line(facts: dict | None) -> str:
    """The data set and read context of one view, in words."""
    if not facts:
        return ""
    fingerprint = facts.get("fingerprint")
    data = f"data `{fingerprint[:12]}`" if fingerprint else "data of unknown fingerprint"
    return f"Every row: {data}, read with starts_in_think {str(bool(facts.get('starts_in_think'))).lower()}."


def markdown(board_rows: list[Row], cols: list[Column], data: dict | None = None) -> str:
    parts = ["# FineReason leaderboard", "",
             f"Accuracies in %, ± the half-width of the 95 % interval; — is undefined. {RANKED_BY}. "
             "Runs with --limit are listed but not ranked.", ""]
    shown = [c for c in cols if c.puzzle is None]
    for view, (_, title) in VIEWS.items():
        group = [r for r in board_rows if r.view == view]
        if not group:
            continue
        body = [[(f"{r.rank}=" if r.tied else str(r.rank)) if r.rank else "—",
                 r.entry.model + (f" ({unranked_note(r)})" if r.limit is not None else ""), r.entry.revision,
                 shown_precision(r.entry)] + [r.cells[c.key].text() for c in shown] for r in group]
        note = data_line((data or {}).get(view))
        parts += [f"## {title[0].upper() + title[1:]}", ""] + ([note, ""] if note else []) + [
                  md_table(["Rank", "Model", "Revision", "Precision"] + [c.title for c in shown], body, left=4), ""]
    return "\n".join(parts)


def _copy_samples(entries: list[Entry], out: OwnedFiles) -> dict[tuple[str, str], str]:
    """Copy every logged samples file into ``samples/<slug>/``; ``{(slug, task): relative path}``."""
    links: dict[tuple[str, str], str] = {}
    for entry in entries:
        for task, data in sorted(entry.tasks.items()):
            if data.samples is None or not data.samples.is_file():
                continue
            relative = f"samples/{entry.slug}/{task}.jsonl"
            out.copy(data.samples, relative)
            links[(entry.slug, task)] = relative
    return links


def build(root: str | os.PathLike, out: str | os.PathLike) -> list[Path]:
    """Write the board into ``out``; return the paths of the files written (samples copies excepted).

    ``out`` may hold other files: the board records its files in ``out/.finereason-files.json`` and a
    rebuild replaces or removes only those (pages of models no longer on the board go); a file it did
    not write is never overwritten or deleted (:func:`finereason.common.atomic_io.owned_files`).
    """
    entries = collect(root)
    cols, board_rows, puzzles = table(entries)
    facts = check_comparable(entries)
    with owned_files(out) as files:
        return _write_board(files, entries, cols, board_rows, puzzles, facts)


def _write_board(files: OwnedFiles, entries: list[Entry], cols: list[Column], board_rows: list[Row],
                 puzzles: list[str], facts: dict) -> list[Path]:
    links = _copy_samples(entries, files)
    records = [flat(r, cols) for r in board_rows]
    data = {"ranked_by": RANKED_BY, "views": {v: t for v, (_, t) in VIEWS.items()}, "data": facts,
            "columns": [{"key": c.key, "title": c.title, "description": c.tip, "puzzle": c.puzzle,
                         "higher_is_better": c.higher_is_better} for c in cols],
            "rows": records}
    written = [files.write_text("index.html", main_page(board_rows, cols, puzzles, [data_line(f) for f in facts.values()])),
               files.write_text("leaderboard.csv", to_csv(records)),
               files.write_text("leaderboard.json", json.dumps(data, indent=2) + "\n"),
               files.write_text("leaderboard.md", markdown(board_rows, cols, facts))]
    for entry in entries:
        written.append(files.write_text(f"models/{entry.slug}.html",
                                        detail_page(entry, [r for r in board_rows if r.entry is entry], cols, puzzles, links)))
    return written
