"""Puzzle environments for RL trainers: procedural datasets in reasoning-gym's shape.

``create_dataset(name, size, seed, **config)`` gives a lazy dataset of ``{"question", "answer",
"metadata"}`` entries and ``dataset.score_answer(answer, entry)``, our verdict (see :mod:`.datasets`);
``list_datasets()`` names them; :mod:`.composite` mixes them with weights.
"""
from __future__ import annotations

from .composite import CompositeDataset, DatasetSpec, create_dataset
from .datasets import DatasetConfig, FineReasonDataset, list_datasets

__all__ = ["CompositeDataset", "DatasetConfig", "DatasetSpec", "FineReasonDataset", "create_dataset", "list_datasets"]
