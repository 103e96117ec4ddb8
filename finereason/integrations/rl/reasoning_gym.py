"""reasoning-gym interop: our datasets registered in reasoning-gym's registry as ``finereason/<dataset>``.

``import finereason.integrations.rl.reasoning_gym`` (or :func:`register`) adds every ``<domain>_<task>``
dataset of :func:`finereason.list_datasets` to reasoning-gym's registry when the ``reasoning_gym`` package
is installed (``pip install 'finereason[reasoning-gym]'``), so ``reasoning_gym.create_dataset(
"finereason/sudoku_state_checking", size=..., seed=..., min_empty_cells=...)`` and its composite configs
give our entries and our verdict. Each name gets a flat config dataclass (``size``, ``seed``, ``split``,
``order`` and the domain's difficulty knobs) and a ``ProceduralDataset`` subclass whose entries are
:class:`~finereason.integrations.rl.datasets.FineReasonDataset`'s with ``metadata["source_dataset"]`` set to
the registered name (reasoning-gym's composite routes ``score_answer`` by it).
"""
from __future__ import annotations

from dataclasses import field, make_dataclass
from typing import Any, Optional

from ...common.vocabulary import PAPER
from .datasets import DatasetConfig, FineReasonDataset, score_entry, task_names

PREFIX = "finereason/"


def available() -> bool:
    """Whether the ``reasoning_gym`` package can be imported."""
    try:
        import reasoning_gym  # noqa: F401
    except ImportError:
        return False
    return True


def _classes(name: str, knobs: tuple[str, ...]) -> tuple[type, type]:
    """(dataset class, config class) of one dataset, for reasoning-gym's registry."""
    from reasoning_gym.dataset import ProceduralDataset

    registered = PREFIX + name

    def options(config: Any) -> dict[str, Any]:
        out = {"split": config.split, "order": config.order}
        return out | {k: getattr(config, k) for k in knobs if getattr(config, k) is not None}

    def validate(config: Any) -> None:
        DatasetConfig.make(name, config.size, 0 if config.seed is None else config.seed, **options(config))

    config_cls = make_dataclass(
        f"FineReason_{name}_Config",
        [("size", int, field(default=500)), ("seed", Optional[int], field(default=None)),
         ("split", str, field(default="test")), ("order", str, field(default=PAPER)),
         *[(k, Any, field(default=None)) for k in knobs]],
        namespace={"validate": validate, "__doc__": f"reasoning-gym config of {registered}"},
    )

    def __init__(self: Any, config: Any) -> None:
        ProceduralDataset.__init__(self, config=config, seed=config.seed, size=config.size)
        self._inner = FineReasonDataset(DatasetConfig.make(name, config.size, self.seed, **options(config)))

    def __getitem__(self: Any, idx: int) -> dict[str, Any]:
        entry = self._inner[idx]
        return {**entry, "metadata": {**entry["metadata"], "source_dataset": registered}}

    def score_answer(self: Any, answer: Optional[str], entry: dict[str, Any]) -> float:
        return score_entry(answer, entry)

    dataset_cls = type(f"FineReason_{name}_Dataset", (ProceduralDataset,), {
        "__init__": __init__, "__getitem__": __getitem__, "score_answer": score_answer,
        "__doc__": f"{registered}: finereason's {name} dataset (our entries, our verdict)",
        "__module__": __name__})
    return dataset_cls, config_cls


def register() -> list[str]:
    """Register every ``finereason/<dataset>`` name not registered yet; the names added (none without
    reasoning-gym)."""
    if not available():
        return []
    from reasoning_gym.factory import DATASETS, register_dataset

    added = []
    for name, engine, _task in task_names():
        if PREFIX + name not in DATASETS:
            register_dataset(PREFIX + name, *_classes(name, engine.difficulty_config.knobs()))
            added.append(PREFIX + name)
    return added


REGISTERED = register()

__all__ = ["PREFIX", "REGISTERED", "available", "register"]
