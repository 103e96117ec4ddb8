"""``finereason build``: regenerate the benchmark and the training set from a seed, streaming.

Plan (a function of the arguments only, never of ``--num-proc`` or ``--shard``):

- A *group* is one puzzle instance (seeded by split, puzzle and index) from which a few
  state-checking and state-transition samples (and, for test, one end-to-end item) are drawn.
- A *test stream* per puzzle runs groups ``0, 1, ...`` in chunks of :data:`TEST_CHUNK_GROUPS` and
  fills ``<puzzle>_state_checking``, ``_state_transition`` (``--per-task`` rows each) and
  ``_end_to_end`` (``--e2e-size`` rows), one parquet file each.
- The ``train`` config is cut into files of :data:`TRAIN_FILE_ROWS` rows and chunks of
  :data:`TRAIN_CHUNK_ROWS` rows. Chunk ``g`` holds rows ``g*C ..``: an equal share of each
  (puzzle, task) part, drawn from puzzle instances seeded by ``g``, skipping any instance that is
  also a test puzzle, shuffled within the chunk. Each *train stream* is one file.

Chunks are independent jobs run by ``--num-proc`` worker processes (:class:`WorkerPool`); their
rows come back in plan order and stream into per-file parquet writers, so memory is bounded by a
few chunks whatever the row count, and the same seed gives the same bytes for any ``--num-proc``.
``--shard K/N`` builds the streams ``s`` with ``s % N == K`` only (0-based K); ``finereason
merge-shards`` puts the N shard folders together into a folder equal, byte for byte, to the
single-machine build. Card statistics are counted while rows stream past, never read back.
"""
from __future__ import annotations

import importlib
import math
import sys
from dataclasses import InitVar, dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Iterator

from finereason import __version__
from finereason.common.progress import progress_counter
from finereason.common.verdict import Undecided
from finereason.common.vocabulary import END_TO_END, ORDERS, PAPER, STATE_CHECKING, STATE_TRANSITION
from finereason.core.engine import default_names, engine_names, engines, get_engine, register, train_names
from finereason.core.prompts import PROMPT_VERSION
from finereason.core.puzzle_sources import SourcePuzzle, rng_for, source_identity
from finereason.data.sampling import moves, sample_states, solution_path

from .items import end_to_end_row, state_row
from .layout import ConfigStats, ShardWriter, rows_table, shard_name, stat_tuple, write_card
from .outdir import BuildError, check_target, output_folder, resolve_target
from .workers import WorkerPool

SAMPLES_PER_GROUP = 4          # test: state-checking samples per puzzle instance (and as many state-transition ones)
TEST_OVERSAMPLE = 1.1          # test groups planned per wanted row / SAMPLES_PER_GROUP (sampling may fall short)
TEST_CHUNK_GROUPS = 16         # test groups per job
TRAIN_CHUNK_ROWS = 1_000       # train rows per job
TRAIN_FILE_ROWS = 100_000      # train rows per parquet file
TRAIN_INDEX_STRIDE = 1_000_000  # train chunk g draws puzzle instances g * stride + t
KEYS_CHUNK = 32                # test puzzle identities computed per job
LIMITS = {"per_task": 100_000, "train_size": 100_000_000, "e2e_size": 100_000}


@dataclass(frozen=True)
class BuildConfig:
    out: Path
    seed: int = 0
    per_task: int = 500
    train_size: int = 10_000
    e2e_size: int = 100
    domains: tuple[str, ...] = field(default_factory=lambda: tuple(default_names()))
    num_proc: int = 1
    overwrite: bool = False
    order: str = PAPER
    source_options: tuple[tuple[str, Path], ...] = ()  # (option, file) pairs read by the domains' sources
    shard: tuple[int, int] = (0, 1)
    train_chunk_rows: int = TRAIN_CHUNK_ROWS
    train_file_rows: int = TRAIN_FILE_ROWS
    progress: bool = True
    command: str = field(default="finereason build", compare=False)
    puzzles: InitVar[tuple[str, ...] | None] = None  # the old name of ``domains``: deprecated

    def __post_init__(self, puzzles: tuple[str, ...] | None) -> None:
        if puzzles is not None:
            print("finereason: warning: BuildConfig(puzzles=...) is deprecated, use BuildConfig(domains=...) "
                  "(the old name goes in the next version)", file=sys.stderr)
            object.__setattr__(self, "domains", tuple(puzzles))

    def validate(self) -> None:
        for name, limit in LIMITS.items():
            value = getattr(self, name)
            if value < 0:
                raise BuildError(f"--{name.replace('_', '-')} must be >= 0, got {value}")
            if value > limit:
                raise BuildError(f"--{name.replace('_', '-')} must be at most {limit:,}, got {value:,}")
        if self.num_proc < 1:
            raise BuildError(f"--num-proc must be >= 1, got {self.num_proc}")
        if not self.domains:
            raise BuildError("--domains is empty")
        unknown = [p for p in self.domains if p not in engine_names()]
        if unknown:
            raise BuildError(f"unknown domain {unknown[0]!r}; choose from {', '.join(engine_names())}")
        if len(set(self.domains)) != len(self.domains):
            raise BuildError(f"--domains names a domain twice: {' '.join(self.domains)}")
        if not (self.per_task or self.e2e_size or self.train_size):
            raise BuildError("nothing to build: --per-task, --e2e-size and --train-size are all 0")
        if not 1 <= self.train_chunk_rows <= self.train_file_rows or self.train_file_rows % self.train_chunk_rows:
            raise BuildError("train files must hold a whole number of chunks")
        if self.order not in ORDERS:
            raise BuildError(f"--order must be {' or '.join(ORDERS)}, got {self.order!r}")
        k, n = self.shard
        if n < 1 or not 0 <= k < n:
            raise BuildError(f"--shard must be K/N with 0 <= K < N, got {k}/{n}")
        known = source_option_names()
        for name, _ in self.source_options:
            if name not in known:
                raise BuildError(f"unknown source option {name!r}; the registered domains read: {', '.join(known) or 'none'}")
        for engine in engines():
            try:
                engine.check_source_options(self.options())
            except ValueError as err:
                raise BuildError(str(err)) from None
        check_target(resolve_target(self.out), self.overwrite, self.out)

    def canonical(self) -> dict[str, Any]:
        """What defines the data (not where, how fast, or which shard it is built)."""
        return {"seed": self.seed, "per_task": self.per_task, "train_size": self.train_size, "e2e_size": self.e2e_size,
                "domains": list(self.domains), "order": self.order,
                **{name: Path(value).name if value else None for name, value in self.option_items()},
                "train_chunk_rows": self.train_chunk_rows, "train_file_rows": self.train_file_rows}

    def canonical_command(self) -> str:
        c = self.canonical()
        text = (f"finereason build --seed {c['seed']} --per-task {c['per_task']} --train-size {c['train_size']} "
                f"--e2e-size {c['e2e_size']} --domains {' '.join(c['domains'])} --order {c['order']}")
        return text + "".join(f" --{name.replace('_', '-')} {c[name]}" for name, _ in self.option_items() if c[name])

    def options(self) -> dict[str, str | None]:
        """Every registered source option with this build's file (absolute) or ``None``."""
        return {name: str(Path(value).resolve()) if value else None for name, value in self.option_items()}

    def option_items(self) -> list[tuple[str, Path | None]]:
        given = dict(self.source_options)
        return [(name, given.get(name)) for name in source_option_names()]


def source_option_names() -> list[str]:
    """The source options the registered domains read (``build --<option> FILE``), in registry order."""
    names: list[str] = []
    for engine in engines():
        names += [n for n in engine.source_options if n not in names]
    return names


# ------------------------------------------------------------------ sources
def _source(puzzle: str, split: str, seed: int, index: int, options: dict[str, Any]) -> SourcePuzzle:
    """The ``index``-th puzzle instance of a split; test and train draw from disjoint streams."""
    return get_engine(puzzle).source(split, seed, index, options)


# ------------------------------------------------------------------ groups
@dataclass(frozen=True)
class Group:
    split: str
    puzzle: str
    index: int
    sc: int          # state-checking samples wanted
    st: int          # state-transition samples wanted
    e2e: bool


def run_group(group: Group, seed: int, order: str, options: dict[str, Any], source: SourcePuzzle | None = None) -> dict[str, Any]:
    """Rows of one puzzle instance: ``{"key", "sc": [...], "st": [...], "e2e": row | None}``.

    State rows carry ``_child`` (``has`` / ``no_move`` / ``all_solvable``) for the card's counts.
    """
    engine = get_engine(group.puzzle)
    source = source or _source(group.puzzle, group.split, seed, group.index, options)
    puzzle = source.puzzle
    root = engine.initial(puzzle)
    out: dict[str, Any] = {"key": source_identity(engine, source), "sc": [], "st": [], "e2e": None}
    path = solution_path(engine, puzzle, root, rng_for(seed, group.split, group.puzzle, group.index, "path"), order) \
        if group.sc or group.st else None
    for task, count, part in ((STATE_CHECKING, group.sc, "sc"), (STATE_TRANSITION, group.st, "st")):
        if not count:
            continue
        rng = rng_for(seed, group.split, group.puzzle, group.index, task)
        labels = [(group.index * count + i) % 2 == 0 for i in range(count)]
        samples = sample_states(engine, puzzle, root, rng, labels, order, task == STATE_TRANSITION, path)
        out[part] = [dict(state_row(engine, task, s.item, s.depth, source.record, source.difficulty),
                          _child=_child_status(engine, s.item)) for s in samples]
    if group.e2e:
        out["e2e"] = end_to_end_row(engine, puzzle, source.record, source.difficulty)
    return out


def _child_status(engine, item) -> str:
    if item.unsolvable_child is not None:
        return "has"
    return "all_solvable" if next(moves(engine, item.puzzle, item.current, None), None) is not None else "no_move"


# ------------------------------------------------------------------ plan
def groups_per_test_stream(config: BuildConfig) -> int:
    """Puzzle instances planned per test stream."""
    wanted = math.ceil(config.per_task * TEST_OVERSAMPLE / SAMPLES_PER_GROUP) if config.per_task else 0
    return max(wanted, config.e2e_size)


def train_puzzles(config: BuildConfig) -> list[str]:
    return [p for p in train_names() if p in config.domains] if config.train_size else []


def train_files(config: BuildConfig) -> int:
    return math.ceil(config.train_size / config.train_file_rows) if train_puzzles(config) else 0


@dataclass(frozen=True)
class Stream:
    """One unit of ``--shard`` assignment: a test puzzle (3 files) or one train file."""

    kind: str        # "test" | "train"
    puzzle: str      # test: the puzzle; train: "train"
    index: int       # train: file index

    def files(self, config: BuildConfig) -> dict[str, str]:
        """config name -> file name written by this stream."""
        if self.kind == "train":
            return {"train": shard_name("train", self.index, train_files(config))}
        return {name: shard_name(name, 0, 1) for name, cap in caps_for(config, self.puzzle).items() if cap}


def caps_for(config: BuildConfig, puzzle: str) -> dict[str, int]:
    return {f"{puzzle}_state_checking": config.per_task, f"{puzzle}_state_transition": config.per_task,
            f"{puzzle}_end_to_end": config.e2e_size}


def streams(config: BuildConfig) -> list[Stream]:
    """Every stream of the build, in plan order."""
    out = [Stream("test", p, 0) for p in config.domains if groups_per_test_stream(config)]
    return out + [Stream("train", "train", f) for f in range(train_files(config))]


def my_streams(config: BuildConfig) -> list[Stream]:
    k, n = config.shard
    return [s for i, s in enumerate(streams(config)) if i % n == k]


# ------------------------------------------------------------------ jobs (run in worker processes)
@dataclass(frozen=True)
class Job:
    kind: str                   # "keys" | "test" | "train"
    puzzle: str
    start: int                  # keys/test: first group index; train: first row
    stop: int                   # keys/test: group index past the end; train: row past the end
    chunk: int                  # train: the chunk's number (seeds its puzzle instances and its order)
    settings: tuple             # (seed, order, source options, per_task, e2e_size, train puzzles)
    test_keys: frozenset = frozenset()


def run_job(job: Job) -> Any:
    seed, order, option_pairs, per_task, e2e_size, train_parts = job.settings
    options = dict(option_pairs)
    if job.kind == "keys":
        engine = get_engine(job.puzzle)
        return [source_identity(engine, _source(job.puzzle, "test", seed, i, options)) for i in range(job.start, job.stop)]
    if job.kind == "test":
        return _test_chunk(job, seed, order, options, per_task, e2e_size)
    return _train_chunk(job, seed, order, options, train_parts)


def domain_classes(puzzles: tuple[str, ...]) -> tuple[tuple[str, str, str], ...]:
    """(name, module, class) of each domain built: worker processes start fresh, so they register
    a domain that a plugin or a test registered at run time from these (its class takes no arguments)."""
    return tuple((p, type(get_engine(p)).__module__, type(get_engine(p)).__qualname__) for p in puzzles)


def run_job_with(domains: tuple[tuple[str, str, str], ...], job: Job) -> Any:
    """:func:`run_job`, first registering any domain of ``domains`` this process does not know."""
    for name, module, qualname in domains:
        if name not in engine_names():
            register(getattr(importlib.import_module(module), qualname)())
    return run_job(job)


def _packed(rows: list[dict]) -> tuple[Any, list[tuple]]:
    return rows_table(rows), [stat_tuple(r, r.get("_child")) for r in rows]


def _test_chunk(job: Job, seed: int, order: str, options: dict[str, Any], per_task: int, e2e_size: int) -> dict[str, Any]:
    k = SAMPLES_PER_GROUP
    parts: dict[str, list[dict]] = {"sc": [], "st": [], "e2e": []}
    for i in range(job.start, job.stop):
        n = k if i * k < per_task * TEST_OVERSAMPLE else 0
        try:
            result = run_group(Group("test", job.puzzle, i, n, n, i < e2e_size), seed, order, options)
        except Undecided:  # an oracle ran out of its work budget on this instance: leave it out
            continue
        parts["sc"] += result["sc"]
        parts["st"] += result["st"]
        if result["e2e"] is not None:
            parts["e2e"].append(result["e2e"])
    names = {"sc": STATE_CHECKING, "st": STATE_TRANSITION, "e2e": END_TO_END}
    return {f"{job.puzzle}_{names[p]}": _packed(rows) for p, rows in parts.items()}


def _train_chunk(job: Job, seed: int, order: str, options: dict[str, Any], puzzles: tuple[str, ...]) -> dict[str, Any]:
    parts = [(p, t) for p in puzzles for t in ("sc", "st")]
    need = {part: 0 for part in parts}
    for i in range(job.start, job.stop):
        need[parts[i % len(parts)]] += 1
    chunk = job.chunk
    rows: list[dict] = []
    instances = skipped = 0
    for puzzle in puzzles:
        got: dict[str, list[dict]] = {"sc": [], "st": []}
        t = 0
        while any(len(got[task]) < need[(puzzle, task)] for task in got):
            if t >= TRAIN_INDEX_STRIDE:
                raise BuildError(f"train chunk {chunk}: could not sample enough {puzzle} states")
            index = chunk * TRAIN_INDEX_STRIDE + t
            t += 1
            source = _source(puzzle, "train", seed, index, options)
            if source_identity(get_engine(puzzle), source) in job.test_keys:  # the identity GRPO checks too
                skipped += 1
                continue
            instances += 1
            k = get_engine(puzzle).train_samples
            wanted = {task: min(k, need[(puzzle, task)] - len(got[task])) for task in got}
            try:
                result = run_group(Group("train", puzzle, index, wanted["sc"], wanted["st"], False), seed, order, options, source)
            except Undecided:  # an oracle ran out of its work budget on this instance: leave it out
                continue
            for task in got:
                got[task] += result[task][: need[(puzzle, task)] - len(got[task])]
        rows += got["sc"] + got["st"]
    if len(rows) != job.stop - job.start:  # ids are global row numbers: every chunk must be exact
        raise BuildError(f"train chunk {chunk}: sampled {len(rows)} rows, expected {job.stop - job.start}")
    rng_for(seed, "train-order", chunk).shuffle(rows)
    return {"train": _packed(rows), "instances": instances, "skipped": skipped}


# ------------------------------------------------------------------ the parent: plan, route, write
def _settings(config: BuildConfig) -> tuple:
    return (config.seed, config.order, tuple(config.options().items()), config.per_task, config.e2e_size, tuple(train_puzzles(config)))


def _test_key_jobs(config: BuildConfig) -> Iterator[Job]:
    n = groups_per_test_stream(config)
    for puzzle in train_puzzles(config):
        if puzzle in config.domains:
            for start in range(0, n, KEYS_CHUNK):
                yield Job("keys", puzzle, start, min(start + KEYS_CHUNK, n), 0, _settings(config))


class _Router:
    """Writes job results into their files in plan order, assigning ids and counting stats."""

    def __init__(self, root: Path, config: BuildConfig) -> None:
        self.root, self.config = root, config
        self.written: dict[str, int] = {}
        self.stats: dict[str, ConfigStats] = {}
        self.report = {"train_instances": 0, "train_skipped": 0}
        self.bar = None

    def full(self, stream: Stream) -> bool:
        caps = caps_for(self.config, stream.puzzle)
        return all(self.written.get(name, 0) >= cap for name, cap in caps.items())

    def write_stream(self, stream: Stream, results: Iterator[dict[str, Any]]) -> None:
        files = stream.files(self.config)
        writers = {name: ShardWriter(self.root / rel) for name, rel in files.items()}
        for name in writers:
            self.stats.setdefault(name, ConfigStats())
        try:
            for result in results:
                for name, writer in writers.items():
                    table, facts = result[name]
                    self._write(name, writer, table, facts, stream)
                self.report["train_instances"] += result.get("instances", 0)
                self.report["train_skipped"] += result.get("skipped", 0)
        finally:
            for writer in writers.values():
                writer.close()

    def _write(self, name: str, writer: ShardWriter, table, facts: list[tuple], stream: Stream) -> None:
        import pyarrow as pa

        if stream.kind == "test":
            cap = caps_for(self.config, stream.puzzle)[name]
            keep = max(0, min(table.num_rows, cap - writer.rows))
            table, facts = table.slice(0, keep), facts[:keep]
        if not table.num_rows:
            return
        start = writer.rows + (stream.index * self.config.train_file_rows if stream.kind == "train" else 0)  # global row
        ids = pa.array([f"{name}-s{self.config.seed}-{i:05d}" for i in range(start, start + table.num_rows)], pa.string())
        writer.write(table.set_column(table.schema.get_field_index("id"), "id", ids))
        self.written[name] = self.written.get(name, 0) + table.num_rows
        self.stats[name].add(facts)
        if self.bar is not None:
            self.bar.update(table.num_rows)


def _jobs_for(stream: Stream, config: BuildConfig, router: _Router, test_keys: frozenset) -> Iterator[Job]:
    settings = _settings(config)
    if stream.kind == "test":
        n = groups_per_test_stream(config)
        for start in range(0, n, TEST_CHUNK_GROUPS):
            if router.full(stream):  # later chunks would only be dropped
                return
            yield Job("test", stream.puzzle, start, min(start + TEST_CHUNK_GROUPS, n), 0, settings)
        return
    first = stream.index * config.train_file_rows
    last = min(first + config.train_file_rows, config.train_size)
    for start in range(first, last, config.train_chunk_rows):
        stop = min(start + config.train_chunk_rows, last)
        yield Job("train", "train", start, stop, start // config.train_chunk_rows, settings, test_keys)


def build_info(config: BuildConfig, stats: dict[str, ConfigStats], report: dict[str, int],
               chosen: list[Stream] | None = None) -> dict[str, Any]:
    """The card's facts: a function of the plan and the counts only (equal builds, equal bytes).
    ``chosen``: the streams built (default: all); shortfalls are counted over those."""
    chosen = streams(config) if chosen is None else chosen
    tests = sum(groups_per_test_stream(config) for p in config.domains if p in train_puzzles(config))
    disjoint = (f"train uses {report['train_instances']} puzzle instances, none of them one of the {tests} test "
                f"puzzle instances of the same puzzles ({report['train_skipped']} candidates equal to a test puzzle were "
                f"skipped)" + "".join(f"; {e.split_note}" for e in engines() if e.split_note)
                if train_puzzles(config) else "no train config")
    summaries = {name: stats[name].summary() for name in sorted(stats, key=_order)}
    balance = "; ".join(f"{name} {s['solvable_share']:.1%} solvable" for name, s in summaries.items()
                        if name.endswith("_state_checking") and s["solvable_share"] is not None) or "no state-checking configs"
    wanted: dict[str, int] = {}
    for stream in chosen:
        for name in stream.files(config):
            wanted[name] = wanted.get(name, 0) + (planned_rows(config, [stream]) if name == "train"
                                                  else caps_for(config, stream.puzzle)[name])
    shortfalls = {name: cap - stats[name].rows for name, cap in wanted.items()
                  if name in stats and stats[name].rows < cap}
    return {"command": config.canonical_command(), "seed": config.seed, "finereason_version": __version__,
            "prompt_version": PROMPT_VERSION, "disjointness": disjoint, "balance_note": balance,
            "config": config.canonical(), "shortfalls": shortfalls, "report": dict(report),
            "layout": {"train_files": train_files(config)}}


def _progress(total: int, enabled: bool, desc: str):
    return progress_counter(total, desc, unit="row") if enabled else None


def planned_rows(config: BuildConfig, chosen: list[Stream]) -> int:
    total = 0
    for stream in chosen:
        if stream.kind == "test":
            total += sum(caps_for(config, stream.puzzle).values())
        else:
            total += min(config.train_file_rows, config.train_size - stream.index * config.train_file_rows)
    return total


def build(config: BuildConfig) -> dict[str, Any]:
    """Build the configs of ``config`` (all, or its ``--shard``) into ``config.out`` atomically."""
    config.validate()
    chosen = my_streams(config)
    with output_folder(config.out, config.overwrite) as (tmp, target):
        router = _Router(tmp, config)
        with WorkerPool(partial(run_job_with, domain_classes(config.domains)), config.num_proc) as pool:
            test_keys: frozenset = frozenset()
            if any(s.kind == "train" for s in chosen):
                test_keys = frozenset(k for keys in pool.map(_test_key_jobs(config)) for k in keys)
            router.bar = _progress(planned_rows(config, chosen), config.progress, "building")
            try:
                for stream in chosen:
                    router.write_stream(stream, pool.map(_jobs_for(stream, config, router, test_keys)))
            finally:
                if router.bar is not None:
                    router.bar.close()
        info = build_info(config, router.stats, router.report, chosen)
        if config.shard != (0, 1):
            info["shard"] = list(config.shard)
            info["files"] = sorted(rel for s in chosen for rel in s.files(config).values())
        write_card(tmp, info, router.stats)
    return {"out": str(target), "configs": {n: s.rows for n, s in sorted(router.stats.items(), key=lambda kv: _order(kv[0]))},
            "disjointness": info["disjointness"], "shortfalls": info["shortfalls"], "balance": info["balance_note"],
            "shard": info.get("shard")}


def _order(config: str) -> tuple:
    return (config == "train", config.startswith("official_"), config)


__all__ = ["BuildConfig", "BuildError", "Group", "LIMITS", "Stream", "build", "build_info", "run_group",
           "streams"]
