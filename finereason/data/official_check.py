"""Re-labelling the official release's states with our oracles: the library behind
``finereason check-official``.

For each ``<puzzle>_states`` file: does our oracle agree with the stored ``current_status``, and is
every stored unsolvable child unsolvable for our oracle? A state whose oracle ran out of its work
budget (undecided) counts as disagreeing.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from ..common.progress import Progress, no_progress
from .official_files import OfficialDataError, engine_for_file, find_state_files, iter_items, read_official_records
from .state_labels import check_label


@dataclass(frozen=True)
class StatesFileCheck:
    """The check of one official states file."""

    puzzle: str            # the registered name of its puzzle
    states: int
    labels_agree: int      # our oracle gives the stored label (undecided never agrees)
    solvable: int          # states our oracle calls solvable
    children_unsolvable: int  # stored unsolvable children our oracle calls unsolvable
    children: int          # states with a stored unsolvable child
    agreeing: int          # states whose label and child both agree
    undecided: int         # states whose oracle ran out of its work budget
    seconds: float


@dataclass(frozen=True)
class OfficialCheck:
    """The check of every states file of a folder, in file-name order."""

    files: tuple[StatesFileCheck, ...]

    @property
    def states(self) -> int:
        return sum(f.states for f in self.files)

    @property
    def agreeing(self) -> int:
        return sum(f.agreeing for f in self.files)

    @property
    def undecided(self) -> int:
        return sum(f.undecided for f in self.files)

    @property
    def ok(self) -> bool:
        """Every state agrees."""
        return self.agreeing == self.states


def check_states_file(path: str | Path, *, progress: Progress = no_progress) -> StatesFileCheck:
    """Re-label every state of one official states file (raises
    :class:`~finereason.data.official_files.OfficialDataError` for an unreadable or empty file)."""
    engine = engine_for_file(path)
    records = read_official_records(path)
    if not records:
        raise OfficialDataError(f"{path}: no states (an empty file)")
    start = time.perf_counter()
    agree = child_ok = n_solvable = ok = children = undecided = 0
    for _, item in progress(iter_items(path, records), len(records), engine.name):
        current = check_label(engine, item.puzzle, item.current, item.solvable)
        ours, label_ok = current.truth, current.agrees
        child_good = item.unsolvable_child is None or check_label(engine, item.puzzle, item.unsolvable_child, False).agrees
        undecided += ours is None
        agree += label_ok
        n_solvable += ours is True
        children += item.unsolvable_child is not None
        child_ok += item.unsolvable_child is not None and child_good
        ok += label_ok and child_good
    return StatesFileCheck(engine.name, len(records), agree, n_solvable, child_ok, children, ok, undecided,
                           time.perf_counter() - start)


def check_official(src: str | Path, *, progress: Progress = no_progress) -> OfficialCheck:
    """Re-label the states of every official ``*_states`` file in ``src`` (full release or samples)."""
    return OfficialCheck(tuple(check_states_file(path, progress=progress) for path in find_state_files(src)))


__all__ = ["OfficialCheck", "StatesFileCheck", "check_official", "check_states_file"]
