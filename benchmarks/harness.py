"""Shared pieces of the oracle-versus-baseline benchmarks: CPU pinning, timing and the result table.

A benchmark script builds named sets of ``(puzzle, state)`` items, an oracle and a baseline (both
``solver(puzzle, state) -> bool``), and hands them to :func:`compare`, which times both on every set in
this process, one after the other, prints one row per set and returns the number of states on which
they disagree. A baseline may raise :class:`GaveUp` on a state (a node budget ran out): that state is
labelled ``None``, left out of the agreement check, and the baseline rate and the speedup are then
taken over the states it finished, with the oracle re-timed on those same states.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, NamedTuple, Sequence

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
"""The reference-data folder beside the checkout (``../shared``)."""

Item = tuple[Any, Any]
"""One ``(puzzle, state)`` pair."""
Solver = Callable[[Any, Any], bool]
"""``solver(puzzle, state)``: whether the state can still be completed."""
Labels = list[bool | None]


class GaveUp(Exception):
    """Raised by a baseline that ran past its budget on a state; the state's label becomes ``None``."""


def add_shared_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--shared PATH`` (default: :data:`SHARED`) to ``parser``."""
    parser.add_argument("--shared", type=Path, default=SHARED, help="the reference data folder")


def pin_one_core() -> str:
    """Restrict this process to one CPU when the OS allows it; say what was done."""
    if hasattr(os, "sched_setaffinity"):
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    return "not pinned (no sched_setaffinity)"


def banner(*notes: str) -> str:
    """The first line of a report: the Python version, the pinning (done now) and ``notes``."""
    return ", ".join([f"Python {sys.version.split()[0]}", pin_one_core(), *notes])


def best_of(fn: Callable[[], object], repeat: int = 3, *, setup: Callable[[], object] | None = None) -> float:
    """Seconds of the fastest of ``repeat`` calls of ``fn()``; ``setup()`` (when given) runs, untimed, before each."""
    best = float("inf")
    for _ in range(max(repeat, 1)):
        if setup is not None:
            setup()
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def timed(fn: Solver, items: Sequence[Item], repeat: int = 1, *, setup: Callable[[], object] | None = None,
          min_seconds: float = 0.0) -> tuple[float, Labels]:
    """Seconds for one pass labelling every item, best of ``repeat`` runs, and the labels.

    Each run repeats passes until they add up to at least ``min_seconds`` and keeps the mean per pass;
    ``setup()`` (when given) is called, untimed, before each pass. A :class:`GaveUp` labels the item ``None``.
    """
    if not items:
        return 0.0, []
    best, labels = float("inf"), []
    for _ in range(max(repeat, 1)):
        passes, elapsed = 0, 0.0
        while not passes or elapsed < min_seconds:
            if setup is not None:
                setup()
            labels = []
            start = time.perf_counter()
            for puzzle, state in items:
                try:
                    labels.append(fn(puzzle, state))
                except GaveUp:
                    labels.append(None)
            elapsed += time.perf_counter() - start
            passes += 1
        best = min(best, elapsed / passes)
    return best, labels


@dataclass
class Row:
    """The measurements of one set.

    ``ours``/``base``: seconds per pass over all the items; ``ours_done``/``base_done``: the same over
    the items the baseline finished (equal to the former when it finished them all).
    """

    name: str
    items: Sequence[Item]
    ours: float
    ours_labels: Labels
    base: float
    base_labels: Labels
    finished: int
    ours_done: float
    base_done: float

    @property
    def n(self) -> int:
        return len(self.items)

    @property
    def gave_up(self) -> int:
        return self.n - self.finished

    @property
    def disagreements(self) -> int:
        return sum(b is not None and a != b for a, b in zip(self.ours_labels, self.base_labels))


class Column(NamedTuple):
    """A table column: its title, its width and how to render a row's cell (right-aligned)."""

    title: str
    width: int
    cell: Callable[[Row], str]


SET_WIDTH = 32
STATES = Column("states", 7, lambda r: f"{r.n}")
SOLVABLE = Column("solvable", 9, lambda r: f"{sum(x for x in r.ours_labels if x is not None)}")
ORACLE_RATE = Column("oracle/s", 10, lambda r: f"{r.n / r.ours:.1f}")
BASELINE_RATE = Column("baseline/s", 11, lambda r: f"{r.finished / r.base_done:.1f}" if r.finished else "-")
GAVE_UP = Column("gave up", 8, lambda r: f"{r.gave_up}")
SPEEDUP = Column("speedup", 8, lambda r: f"{r.base_done / r.ours_done:.1f}x" if r.finished else "-")
DEFAULT_COLUMNS = (STATES, ORACLE_RATE, BASELINE_RATE, SPEEDUP)


def compare(sets: Mapping[str, Callable[[], Sequence[Item]]], ours: Solver, baseline: Solver, *,
            columns: Sequence[Column] = DEFAULT_COLUMNS, after_row: Callable[[Row], None] | None = None,
            repeat: int = 1, setup: Callable[[], object] | None = None, min_seconds: float = 0.0) -> int:
    """Time ``ours`` and ``baseline`` on every set, print the table, return the number of disagreements.

    ``sets`` maps a row name to a loader; a loader raising ``FileNotFoundError`` skips its row.
    ``repeat``, ``setup`` and ``min_seconds`` go to :func:`timed`; ``after_row`` may print more about a row.
    """
    header = " ".join([f"{'set':<{SET_WIDTH}}", *(f"{c.title:>{c.width}}" for c in columns)])
    print(header)
    print("-" * len(header))
    disagreements = 0
    for name, load in sets.items():
        try:
            items = load()
        except FileNotFoundError as err:
            print(f"{name:<{SET_WIDTH}} skipped: {err.filename} is absent")
            continue
        ours_s, ours_labels = timed(ours, items, repeat, setup=setup, min_seconds=min_seconds)
        base_s, base_labels = timed(baseline, items, repeat, setup=setup, min_seconds=min_seconds)
        finished = [item for item, label in zip(items, base_labels) if label is not None]
        if not finished:
            ours_done = base_done = float("nan")
        elif len(finished) < len(items):  # rates over the states the baseline finished, ours on the same
            ours_done, _ = timed(ours, finished, repeat, setup=setup, min_seconds=min_seconds)
            base_done, _ = timed(baseline, finished, repeat, setup=setup, min_seconds=min_seconds)
        else:
            ours_done, base_done = ours_s, base_s
        row = Row(name, items, ours_s, ours_labels, base_s, base_labels, len(finished), ours_done, base_done)
        disagreements += row.disagreements
        print(" ".join([f"{name:<{SET_WIDTH}}", *(f"{c.cell(row):>{c.width}}" for c in columns)]))
        if after_row is not None:
            after_row(row)
    return disagreements


def exit_status(disagreements: int, who: str = "the solvers") -> int:
    """0 when ``who`` agreed on every state; else print an error line and return 1."""
    if disagreements:
        print(f"ERROR: {who} disagree on {disagreements} states")
        return 1
    return 0


def built_rows(data: str | None, configs: Sequence[str], build_args: Sequence[str]) -> list[dict]:
    """Rows of ``configs`` from a built dataset folder, or from a temporary build with ``build_args``."""
    import tempfile

    from finereason.commands import main as cli
    from finereason.dataset_builders.layout import read_config

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(data) if data else Path(tmp) / "ds"
        if not data:
            cli(["build", "--out", str(folder), *build_args])
        return [row for config in configs for row in read_config(folder, config)]
