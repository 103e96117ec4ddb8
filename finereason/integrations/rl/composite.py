"""Mixtures of task datasets with weights, and :func:`create_dataset`, the one entry point.

Entry ``i`` of a composite picks its dataset with a random stream seeded by (seed, ``i``) in proportion
to the weights, then takes that dataset's entry ``i``: deterministic per (seed, index), whatever the
size, and scored by the same verdict as every other entry.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Mapping, Sequence

from ...common.input_errors import InputError
from ...common.vocabulary import STATE_TASKS
from ...core.puzzle_sources import rng_for
from .datasets import TRAIN, DatasetConfig, EntrySequence, FineReasonDataset, score_entry, train_names

COMPOSITE = "composite"


@dataclass(frozen=True)
class DatasetSpec:
    """One part of a composite: a dataset name, its weight (> 0) and its options (split, order, knobs)."""

    name: str
    weight: float = 1.0
    config: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if isinstance(self.weight, bool) or not isinstance(self.weight, (int, float)) or not self.weight > 0 \
                or self.weight == float("inf"):
            raise InputError(f"the weight of {self.name!r} must be a positive number, got {self.weight!r}")
        if not isinstance(self.config, Mapping):
            raise InputError(f"the config of {self.name!r} must be a mapping of options, got {type(self.config).__name__}")
        for key in ("size", "seed"):
            if key in self.config:
                raise InputError(f"the config of {self.name!r} sets {key}; a composite's parts share its {key}")

    @classmethod
    def of(cls, value: Any) -> "DatasetSpec":
        """A spec from a spec, a name, a (name, weight) pair or a ``{"name", "weight", "config"}`` mapping."""
        if isinstance(value, DatasetSpec):
            return value
        if isinstance(value, str):
            return cls(value)
        if isinstance(value, Mapping):
            unknown = set(value) - {"name", "weight", "config"}
            if unknown or "name" not in value:
                raise InputError(f"a composite part is {{'name', 'weight', 'config'}}, got keys {sorted(value)}")
            return cls(value["name"], value.get("weight", 1.0), value.get("config") or {})
        if isinstance(value, Sequence) and len(value) == 2 and isinstance(value[0], str):
            return cls(value[0], value[1])
        raise InputError(f"a composite part is a name, a (name, weight) pair or a mapping, got {value!r}")


class CompositeDataset(EntrySequence):
    """A weighted mixture of task datasets (same ``len``, indexing, iteration and ``score_answer``)."""

    def __init__(self, specs: Sequence[Any], size: int = 500, seed: int = 0, name: str = COMPOSITE) -> None:
        self.specs = tuple(DatasetSpec.of(s) for s in specs)
        if not self.specs:
            raise InputError("a composite dataset needs at least one part")
        names = [s.name for s in self.specs]
        if len(set(names)) != len(names):
            raise InputError(f"a composite names a dataset twice: {', '.join(names)}")
        self.name, self.size, self.seed = name, size, seed
        self.parts = [FineReasonDataset(DatasetConfig.make(s.name, size, seed, **dict(s.config))) for s in self.specs]
        total = sum(s.weight for s in self.specs)
        self._cumulative = []
        running = 0.0
        for spec in self.specs:
            running += spec.weight / total
            self._cumulative.append(running)
        self._entry = lru_cache(maxsize=1024)(self._make_entry)

    def __len__(self) -> int:
        return self.size


    def part_of(self, index: int) -> FineReasonDataset:
        """The part entry ``index`` is drawn from."""
        x = rng_for(self.seed, self.name, index).random()
        return self.parts[next((k for k, c in enumerate(self._cumulative) if x < c), len(self.parts) - 1)]

    def _make_entry(self, index: int) -> dict[str, Any]:
        entry = self.part_of(index)[index]
        return {**entry, "metadata": {**entry["metadata"], "composite": self.name, "composite_index": index}}

    def score_answer(self, answer: str | None, entry: Mapping[str, Any]) -> float:
        """Our verdict on ``answer`` for ``entry`` (whichever part it came from)."""
        return score_entry(answer, entry)


def train_specs(**options: Any) -> list[DatasetSpec]:
    """The training set's mix: state checking and state transition of every domain with train samples,
    equal weights, from the train split (``options``: the order and knobs every part shares)."""
    return [DatasetSpec(f"{name}_{task}", 1.0, {"split": "train", **options}) for name in train_names() for task in STATE_TASKS]


def create_dataset(name: str, size: int = 500, seed: int = 0, **config: Any) -> FineReasonDataset | CompositeDataset:
    """A lazy dataset: ``<domain>_<task>`` (options ``split``, ``order`` and the domain's difficulty
    knobs), ``train`` (the training mix) or ``composite`` (``datasets=[(name, weight), ...]``)."""
    bare = name.removeprefix("finereason/") if isinstance(name, str) else name
    if bare == COMPOSITE:
        datasets = config.pop("datasets", None)
        if config:
            raise InputError(f"a composite takes datasets=[...] only, not {', '.join(sorted(config))}")
        if not datasets:
            raise InputError("a composite needs datasets=[(name, weight), ...]")
        return CompositeDataset(datasets, size, seed)
    if bare == TRAIN:
        return CompositeDataset(train_specs(**config), size, seed, name=TRAIN)
    return FineReasonDataset(DatasetConfig.make(name, size, seed, **config))


__all__ = ["COMPOSITE", "CompositeDataset", "DatasetSpec", "create_dataset", "train_specs"]
