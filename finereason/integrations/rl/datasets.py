"""Procedural datasets in the shape RL trainers expect: ``create_dataset(name, size, seed, **config)``.

A dataset is one task of one registered domain (``<domain>_<task>``: state checking, state
transition, end to end), or ``train`` (the training set's mix: every domain with train samples, state
checking and state transition in equal parts, from the train split's puzzle instances). Entries are made
lazily, one at a time, and depend only on (name, seed, index, config): entry ``i`` is the row that the
dataset builder makes from the ``i``-th seeded puzzle instance of the split (``finereason build``'s own
sampler and row maker), with one state sampled per instance.

Each entry is ``{"question", "answer", "metadata"}``: the row's prompt, an answer that earns full credit
(written the way the prompt asks for it, e.g. ``Answer: (A)`` or ``Next state: [...]``), and metadata
holding the row itself (``metadata["row"]``). :meth:`FineReasonDataset.score_answer` is the project's
verdict on a response (:func:`finereason.verification.scoring.score_row`, the same reader and verifiers as
every other path): 1.0 when correct, else 0.0. Pass the whole response: the reader finds the final
answer itself and honours retractions after it.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterator, Mapping

from ...common.input_errors import InputError
from ...common.verdict import Undecided
from ...common.vocabulary import END_TO_END, ORDERS, PAPER, STATE_CHECKING, STATE_TRANSITION, TASKS
from ...core.difficulty import DifficultyConfig
from ...core.engine import Engine, engines, get_engine, train_names
from ...core.puzzle_sources import SourcePuzzle
from ...core.rows import row_domain

SPLITS = ("test", "train")
TRAIN = "train"                 # the training set's mix (state tasks of every domain with train samples)
MAX_SIZE = 100_000_000
ATTEMPTS = 8                    # puzzle instances tried for one entry before giving up
ATTEMPT_STRIDE = 1 << 40        # instance index of attempt a for entry i: i + a * stride (never another entry's)
_PART = {STATE_CHECKING: "sc", STATE_TRANSITION: "st", END_TO_END: "e2e"}


def task_names() -> list[tuple[str, Engine, str]]:
    """(dataset name, domain, task) of every task of every registered domain, in registry order."""
    return [(f"{engine.name}_{task}", engine, task) for engine in engines() for task in TASKS]


def list_datasets() -> list[str]:
    """The names :func:`create_dataset` accepts: ``<domain>_<task>`` for every registered domain and
    task, then ``train`` and ``composite``."""
    return [name for name, _, _ in task_names()] + [TRAIN, "composite"]


def resolve_name(name: str) -> tuple[Engine, str]:
    """(domain, task) of a dataset name; a one-line :class:`InputError` naming close matches otherwise."""
    if not isinstance(name, str):
        raise InputError(f"a dataset name is a string, got {type(name).__name__}")
    bare = name.removeprefix("finereason/")
    for full, engine, task in task_names():
        if bare == full:
            return engine, task
    names = [n for n, _, _ in task_names()]
    near = difflib.get_close_matches(bare, names, n=3)
    hint = f"; did you mean {' or '.join(near)}?" if near else "; finereason.list_datasets() lists them"
    raise InputError(f"unknown dataset {name!r}{hint}")


@dataclass(frozen=True)
class DatasetConfig:
    """What defines a dataset: its name, size, seed, split (``test`` or ``train`` puzzle instances,
    disjoint streams), tree order and the domain's difficulty knobs."""

    name: str
    size: int = 500
    seed: int = 0
    split: str = "test"
    order: str = PAPER
    difficulty: DifficultyConfig = field(default_factory=DifficultyConfig)

    def __post_init__(self) -> None:
        for key in ("size", "seed"):
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, int):
                raise InputError(f"{key} must be an integer, got {value!r}")
        if not 0 <= self.size <= MAX_SIZE:
            raise InputError(f"size must be in 0..{MAX_SIZE:,}, got {self.size}")
        if self.split not in SPLITS:
            raise InputError(f"split must be {' or '.join(SPLITS)}, got {self.split!r}")
        if self.order not in ORDERS:
            raise InputError(f"order must be {' or '.join(ORDERS)}, got {self.order!r}")

    @classmethod
    def make(cls, name: str, size: int = 500, seed: int = 0, **options: Any) -> "DatasetConfig":
        """The config of ``create_dataset(name, size, seed, **options)``: ``split``, ``order`` and the
        domain's difficulty knobs (``Engine.difficulty_config``) by name."""
        engine, _ = resolve_name(name)
        split, order = options.pop("split", "test"), options.pop("order", PAPER)
        difficulty = engine.difficulty_config.from_options(options, engine.name)
        return cls(name.removeprefix("finereason/"), size, seed, split, order, difficulty)


class EntrySequence:
    """A lazily generated sequence of entries: ``len()``, iteration and (negative) indices, each entry made
    once by ``_make_entry(index)`` and cached; subclasses set ``_entry`` and ``__len__``."""

    _entry: Any

    def __len__(self) -> int:
        raise NotImplementedError

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return (self[i] for i in range(len(self)))

    def __getitem__(self, index: int) -> dict[str, Any]:
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError(f"dataset indices are integers, got {type(index).__name__}")
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(f"index {index} out of range for a dataset of {len(self)} entries")
        return self._entry(index)


class FineReasonDataset(EntrySequence):
    """A lazy, indexable dataset of one task (reasoning-gym's ``ProceduralDataset`` protocol: ``len``,
    indexing, iteration, ``score_answer``)."""

    def __init__(self, config: DatasetConfig) -> None:
        self.config = config
        self.engine, self.task = resolve_name(config.name)
        self.size, self.seed = config.size, config.seed
        self._entry = lru_cache(maxsize=1024)(self._make_entry)

    def __len__(self) -> int:
        return self.config.size


    def _make_entry(self, index: int) -> dict[str, Any]:
        row = make_row(self.engine, self.task, self.config, index)
        return entry_of(row, self.config.name, index, self.config.difficulty.as_dict())

    def score_answer(self, answer: str | None, entry: Mapping[str, Any]) -> float:
        """Our verdict on ``answer`` (a whole response) for ``entry``: 1.0 when correct, else 0.0."""
        return score_entry(answer, entry)


def make_row(engine: Engine, task: str, config: DatasetConfig, index: int) -> dict[str, Any]:
    """The dataset row of entry ``index``: the builder's row from the ``index``-th seeded instance
    (another instance, at a fixed stride, when the sampler finds no state or an oracle gives up)."""
    try:
        from finereason.dataset_builders.build import Group, run_group
    except ImportError as err:  # a source tree used without installing it: dataset_builders/ is mapped at install
        raise InputError(f"the datasets API needs finereason installed (pip install -e .): {err}") from None

    wanted = {STATE_CHECKING: 0, STATE_TRANSITION: 0, END_TO_END: 0, task: 1}
    for attempt in range(ATTEMPTS):
        at = index + attempt * ATTEMPT_STRIDE
        try:
            source = source_of(engine, config.split, config.seed, at, config.difficulty)
            group = Group(config.split, engine.name, at, wanted[STATE_CHECKING], wanted[STATE_TRANSITION],
                          bool(wanted[END_TO_END]))
            result = run_group(group, config.seed, config.order, {}, source)
        except Undecided:
            continue
        rows = [result["e2e"]] if task == END_TO_END and result["e2e"] else result[_PART[task]]
        if rows:
            row = {k: v for k, v in rows[0].items() if not k.startswith("_")}
            row["id"] = f"{config.name}-{config.split}-s{config.seed}-{index:06d}"
            return row
    raise InputError(f"{config.name}: no {task} item found in {ATTEMPTS} puzzle instances for entry {index}; "
                     "loosen the difficulty options")


_SOURCES = 2048  # puzzle instances kept per process (the three tasks of a domain share each one)


@lru_cache(maxsize=_SOURCES)
def _cached_source(engine_name: str, split: str, seed: int, index: int, difficulty: DifficultyConfig) -> SourcePuzzle:
    return get_engine(engine_name).configured_source(split, seed, index, difficulty)


def source_of(engine: Engine, split: str, seed: int, index: int, difficulty: DifficultyConfig) -> SourcePuzzle:
    """The ``index``-th seeded puzzle instance (``Engine.configured_source``), made once per process:
    entry ``i`` of every task of a domain is sampled from the same instance, so a dataset of each task
    (or a composite of them) generates it once. A source is a value (same inputs, same instance), so
    the cache changes no entry; a difficulty config that cannot be hashed is not cached."""
    try:
        hash(difficulty)
    except TypeError:
        return engine.configured_source(split, seed, index, difficulty)
    return _cached_source(engine.name, split, seed, index, difficulty)


def entry_of(row: dict[str, Any], name: str, index: int, knobs: dict[str, Any]) -> dict[str, Any]:
    """The reasoning-gym-shaped entry of a row: its prompt, a full-credit answer and the row in metadata."""
    from ...models.baselines import oracle

    domain = row_domain(row)
    difficulty = {k: row[k] for k in ("depth", *get_engine(domain).difficulty_fields) if row.get(k) is not None}
    return {
        "question": row["prompt"],
        "answer": oracle(row),
        "metadata": {"source_dataset": name, "source_index": index, "domain": domain, "puzzle": domain, "task": row["task"],
                     "difficulty": {**difficulty, **knobs}, "row": row},
    }


def score_entry(answer: str | None, entry: Mapping[str, Any]) -> float:
    """1.0 when our verdict on the response ``answer`` to the entry's row is correct, else 0.0 (``None``
    or non-text answers earn 0.0)."""
    from ...verification.scoring import score_row

    if not isinstance(answer, str):
        return 0.0
    try:
        row = entry["metadata"]["row"]
    except (KeyError, TypeError):
        raise InputError("the entry has no metadata['row']: score entries made by finereason.create_dataset") from None
    return 1.0 if score_row(row, answer).correct else 0.0


__all__ = ["DatasetConfig", "FineReasonDataset", "SPLITS", "TRAIN", "entry_of", "list_datasets", "make_row",
           "resolve_name", "score_entry", "source_of", "task_names", "train_names"]
