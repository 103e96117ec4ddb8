"""``finereason build``: regenerate the benchmark and the training set from a seed.

Work is split into *groups*: one group is one puzzle instance (seeded by split, puzzle and group
index) from which a few state-checking and state-transition samples and one end-to-end item are
drawn. Groups are independent, so they run in parallel and any group can be rebuilt alone; results
are assembled in group order, so the same seed gives the same rows and byte-identical parquet files.
The folder is written under a temporary name beside ``--out`` and moved into place at the end.
"""
from __future__ import annotations

import math
import os
import shutil
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator

from finereason import __version__
from finereason.engines import get_engine
from finereason.prompts import PROMPT_VERSION
from finereason.sampling import sample_states
from finereason.sources import SourcePuzzle, rng_for

from .items import end_to_end_row, state_row
from .layout import write_card, write_config

PUZZLES = ("sudoku", "graph_coloring", "game_of_24", "grid_puzzle")
STATE_TASKS = ("state_checking", "state_transition")
TRAIN_PUZZLES = ("sudoku", "graph_coloring", "game_of_24")
SAMPLES_PER_GROUP = 4          # state-checking samples per puzzle instance (and as many state-transition ones)
GAME24_TEST_SHARE = 0.25       # share of the 1,362 Game-of-24 multisets reserved for test configs


class BuildError(ValueError):
    """Bad build arguments or an unusable output folder (one clear line)."""


@dataclass(frozen=True)
class BuildConfig:
    out: Path
    seed: int = 0
    per_task: int = 500
    train_size: int = 10_000
    e2e_size: int = 100
    puzzles: tuple[str, ...] = PUZZLES
    num_proc: int = 1
    overwrite: bool = False
    order: str = "paper"
    tot_csv: Path | None = None
    progress: bool = True
    command: str = field(default="finereason build", compare=False)

    def validate(self) -> None:
        for name in ("per_task", "train_size", "e2e_size"):
            if getattr(self, name) < 0:
                raise BuildError(f"--{name.replace('_', '-')} must be >= 0, got {getattr(self, name)}")
        if self.num_proc < 1:
            raise BuildError(f"--num-proc must be >= 1, got {self.num_proc}")
        unknown = [p for p in self.puzzles if p not in PUZZLES]
        if unknown:
            raise BuildError(f"unknown puzzle {unknown[0]!r}; choose from {', '.join(PUZZLES)}")
        if not self.puzzles:
            raise BuildError("--puzzles is empty")
        if self.order not in ("paper", "mrv"):
            raise BuildError(f"--order must be paper or mrv, got {self.order!r}")
        if self.tot_csv is not None and not Path(self.tot_csv).is_file():
            raise BuildError(f"--tot-csv {self.tot_csv} is not a file")
        check_out(self.out, self.overwrite)


def check_out(out: Path, overwrite: bool) -> None:
    """Refuse an existing non-empty folder without ``overwrite`` and an unwritable parent."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise BuildError(f"--out {out} exists and is not a folder")
    if out.is_dir() and any(out.iterdir()) and not overwrite:
        raise BuildError(f"--out {out} exists and is not empty (use --overwrite to replace it)")
    parent = out.resolve().parent
    probe = parent
    while not probe.exists():
        probe = probe.parent
    if not probe.is_dir():
        raise BuildError(f"cannot create {out}: {probe} is not a folder")
    if not os.access(probe, os.W_OK):
        raise BuildError(f"cannot write under {probe}: permission denied")


# ------------------------------------------------------------------ sources
def _source(puzzle: str, split: str, seed: int, index: int, tot_csv: str | None) -> SourcePuzzle:
    """The ``index``-th puzzle instance of a split; test and train draw from disjoint streams."""
    stream = seed * 4 + (1 if split == "test" else 2)
    if puzzle == "sudoku":
        from finereason.sources import sudoku

        return sudoku.generate(stream, index, search_steps=0)  # targets past ~58 stop where greedy digging does
    if puzzle == "graph_coloring":
        from finereason.sources import graph_coloring

        kind = "planar" if rng_for(stream, "graph-kind", index).random() < 0.3 else "erdos_renyi"
        return graph_coloring.generate(stream, index, kind=kind, preset="official")
    if puzzle == "game_of_24":
        part = game24_partition(seed, split, tot_csv)
        return part[index % len(part)]
    from finereason.sources import grid_puzzle

    return grid_puzzle.generate(stream, index)


_GAME24_CACHE: dict[tuple, list[SourcePuzzle]] = {}


def game24_partition(seed: int, split: str, tot_csv: str | None) -> list[SourcePuzzle]:
    """The seed-shuffled 1,362 solvable multisets, split into test and train parts."""
    key = (seed, split, tot_csv)
    if key not in _GAME24_CACHE:
        from finereason.sources import game24

        ranks = game24.read_tot_ranks(tot_csv) if tot_csv else None
        everything = list(game24.puzzles(ranks))
        rng_for(seed, "game24-partition").shuffle(everything)
        cut = round(len(everything) * GAME24_TEST_SHARE)
        _GAME24_CACHE[key] = everything[:cut] if split == "test" else everything[cut:]
    return _GAME24_CACHE[key]


# ------------------------------------------------------------------ groups
@dataclass(frozen=True)
class Group:
    split: str
    puzzle: str
    index: int
    sc: int          # state-checking samples wanted
    st: int          # state-transition samples wanted
    e2e: bool


def run_group(group: Group, seed: int, order: str, tot_csv: str | None) -> dict[str, Any]:
    """Rows of one puzzle instance: ``{"key", "sc": [...], "st": [...], "e2e": row | None}``."""
    engine = get_engine(group.puzzle)
    source = _source(group.puzzle, group.split, seed, group.index, tot_csv)
    puzzle = source.puzzle
    root = engine.initial(puzzle)
    rng = rng_for(seed, group.split, group.puzzle, group.index, "states")
    out: dict[str, Any] = {"key": source.key, "sc": [], "st": [], "e2e": None}
    for task, count, need_dead_end in (("state_checking", group.sc, False), ("state_transition", group.st, True)):
        if not count:
            continue
        labels = [(group.index * count + i) % 2 == 0 for i in range(count)]
        samples = sample_states(engine, puzzle, root, rng, labels, order, need_dead_end=need_dead_end)
        rows = [state_row(engine, task, s.item, s.depth, source.record, source.difficulty) for s in samples]
        out["sc" if task == "state_checking" else "st"] = rows
    if group.e2e:
        out["e2e"] = end_to_end_row(engine, puzzle, source.record, source.difficulty)
    return out


def plan(config: BuildConfig) -> list[Group]:
    """Every group of a build, in a fixed order."""
    groups: list[Group] = []
    k = SAMPLES_PER_GROUP
    for puzzle in config.puzzles:
        n_groups = max(math.ceil(config.per_task * 1.1 / k), config.e2e_size)
        groups += [Group("test", puzzle, i, k if i * k < config.per_task * 1.1 else 0,
                         k if i * k < config.per_task * 1.1 else 0, i < config.e2e_size) for i in range(n_groups)]
    train_puzzles = [p for p in TRAIN_PUZZLES if p in config.puzzles]
    if config.train_size and train_puzzles:
        per_part = math.ceil(config.train_size / (2 * len(train_puzzles)))
        n_groups = math.ceil(per_part * 1.1 / k)
        for puzzle in train_puzzles:
            groups += [Group("train", puzzle, i, k, k, False) for i in range(n_groups)]
    return groups


def _run(args: tuple[Group, int, str, str | None]) -> dict[str, Any]:
    return run_group(*args)


def _execute(groups: list[Group], config: BuildConfig) -> Iterator[dict[str, Any]]:
    tot = str(config.tot_csv) if config.tot_csv else None
    jobs = [(g, config.seed, config.order, tot) for g in groups]
    if config.num_proc == 1:
        yield from map(_run, jobs)
        return
    with ProcessPoolExecutor(max_workers=config.num_proc) as pool:
        yield from pool.map(_run, jobs, chunksize=8)


def _progress(items: Iterable[Any], total: int, enabled: bool) -> Iterable[Any]:
    if not enabled:
        return items
    from tqdm import tqdm

    return tqdm(items, total=total, desc="building", unit="puzzle", file=sys.stderr, disable=None)


# ------------------------------------------------------------------ assembly
def assemble(groups: list[Group], results: list[dict[str, Any]], config: BuildConfig) -> tuple[dict[str, list[dict]], dict[str, Any]]:
    """Rows per config (truncated to the requested sizes, ids assigned) and a build report."""
    configs: dict[str, list[dict]] = {}
    test_keys: set[str] = set()
    train_keys: set[str] = set()
    for group, result in zip(groups, results):
        (test_keys if group.split == "test" else train_keys).add(result["key"])
        if group.split == "test":
            for task, part in (("state_checking", "sc"), ("state_transition", "st")):
                configs.setdefault(f"{group.puzzle}_{task}", []).extend(result[part])
            if result["e2e"] is not None:
                configs.setdefault(f"{group.puzzle}_end_to_end", []).append(result["e2e"])
    train_parts: dict[str, list[dict]] = {}
    overlap = train_keys & test_keys
    for group, result in zip(groups, results):
        if group.split == "train" and result["key"] not in overlap:
            for task, part in (("state_checking", "sc"), ("state_transition", "st")):
                train_parts.setdefault(f"{group.puzzle}_{task}", []).extend(result[part])
    sized: dict[str, list[dict]] = {}
    for name, rows in configs.items():
        limit = config.e2e_size if name.endswith("_end_to_end") else config.per_task
        if limit:
            sized[name] = _with_ids(name, rows[:limit], config.seed)
    if train_parts:
        per_part = math.ceil(config.train_size / len(train_parts))
        train: list[dict] = []
        for name in sorted(train_parts):
            train.extend(train_parts[name][:per_part])
        rng_for(config.seed, "train-order").shuffle(train)
        sized["train"] = _with_ids("train", train[: config.train_size], config.seed)
    report = {
        "disjointness": f"{len(train_keys)} train puzzles, {len(test_keys)} test puzzles, "
                        f"{len(overlap)} shared (dropped from train)",
        "shortfalls": {n: (config.e2e_size if n.endswith("_end_to_end") else config.per_task) - len(r)
                       for n, r in sized.items() if n != "train"
                       and len(r) < (config.e2e_size if n.endswith("_end_to_end") else config.per_task)},
    }
    return sized, report


def _with_ids(config_name: str, rows: list[dict], seed: int) -> list[dict]:
    return [dict(row, id=f"{config_name}-s{seed}-{i:05d}") for i, row in enumerate(rows)]


def _balance_note(sized: dict[str, list[dict]]) -> str:
    parts = []
    for name, rows in sized.items():
        labels = [r["label"] for r in rows if r["label"] is not None]
        if labels and name.endswith("_state_checking"):
            parts.append(f"{name} {labels.count('Solvable') / len(labels):.1%} solvable")
    return "; ".join(parts) or "no state-checking configs"


# ------------------------------------------------------------------ entry point
def build(config: BuildConfig) -> dict[str, Any]:
    """Build every config into ``config.out`` atomically; return the build report."""
    config.validate()
    out = Path(config.out).resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    groups = plan(config)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.partial-", dir=out.parent))
    try:
        results = list(_progress(_execute(groups, config), len(groups), config.progress))
        sized, report = assemble(groups, results, config)
        for name, rows in sized.items():
            write_config(tmp, name, rows)
        info = {
            "command": config.command,
            "seed": config.seed,
            "finereason_version": __version__,
            "prompt_version": PROMPT_VERSION,
            "disjointness": report["disjointness"],
            "balance_note": _balance_note(sized),
            "config": {k: str(v) if isinstance(v, Path) else v for k, v in asdict(config).items() if k != "progress"},
            "shortfalls": report["shortfalls"],
        }
        write_card(tmp, info)
        _swap_into_place(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return {"out": str(out), "configs": {n: len(r) for n, r in sized.items()}, **report, "balance": info["balance_note"]}


def _swap_into_place(tmp: Path, out: Path) -> None:
    """Replace ``out`` by ``tmp`` with renames only (the old folder is removed last)."""
    if out.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
        old.rmdir()
        out.rename(old)
        tmp.rename(out)
        shutil.rmtree(old, ignore_errors=True)
    else:
        tmp.rename(out)
