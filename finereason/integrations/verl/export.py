"""``finereason export verl``: datasets as verl's RL parquet files (``train.parquet``, ``validation.parquet``).

One row per entry of :func:`finereason.create_dataset` (train rows from the train split's puzzle
instances, validation rows from the test split's), in verl's schema:

- ``data_source``: ``finereason/<dataset>`` (e.g. ``finereason/sudoku_state_checking``);
- ``prompt``: the chat messages (one user turn holding the row's prompt);
- ``ability``: ``logic_puzzle`` (a convention; verl does not read it);
- ``reward_model``: ``{"style": "rule", "ground_truth": <JSON string>}``; the JSON object holds the row's
  ``task``, ``puzzle``, ``label``, ``inputs``, ``outputs`` and reference ``answer``, so every domain shares
  one parquet schema;
- ``extra_info``: ``split``, ``index``, ``id``, ``dataset``, ``task``, ``puzzle`` and the reference ``answer``.

:func:`finereason.integrations.verl.compute_score` reads ``ground_truth`` back.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable, Sequence

from ...common.atomic_io import atomic_dir, check_output
from ...common.input_errors import InputError
from ...core.rows import row_domain
from ..rl.composite import COMPOSITE, create_dataset

ABILITY = "logic_puzzle"
SPLITS = (("train", "train"), ("validation", "test"))  # (file, the split its puzzle instances come from)


def verl_row(entry: dict[str, Any], dataset: str, split: str, index: int) -> dict[str, Any]:
    """One verl row of a dataset entry."""
    row = entry["metadata"]["row"]
    domain = row_domain(row)
    truth = {"task": row["task"], "domain": domain, "puzzle": domain, "label": row["label"], "inputs": row["inputs"],
             "outputs": row["outputs"], "answer": entry["answer"]}
    return {
        "data_source": f"finereason/{dataset}",
        "prompt": [{"role": "user", "content": entry["question"]}],
        "ability": ABILITY,
        "reward_model": {"style": "rule", "ground_truth": json.dumps(truth, ensure_ascii=False)},
        "extra_info": {"split": split, "index": index, "id": row["id"], "dataset": dataset, "task": row["task"],
                       "domain": domain, "puzzle": domain, "answer": entry["answer"]},
    }


def export_rows(tasks: Sequence[str], size: int, seed: int, split: str) -> list[dict[str, Any]]:
    """``size`` rows of each dataset in ``tasks`` from ``split`` (``train`` or ``test``), dataset by dataset."""
    out: list[dict[str, Any]] = []
    for name in tasks:
        dataset = create_dataset(name, size=size, seed=seed, split=split)
        out += [verl_row(entry, name, "train" if split == "train" else "validation", i) for i, entry in enumerate(dataset)]
    return out


def check_tasks(tasks: Iterable[str]) -> list[str]:
    """The dataset names (``finereason/`` prefix dropped), each checked; one-line errors."""
    from ..rl.datasets import resolve_name

    names = [t.removeprefix("finereason/") for t in tasks]
    if not names:
        raise InputError("--tasks names no dataset")
    for name in names:
        if name == COMPOSITE or name == "train":
            raise InputError(f"--tasks takes <domain>_<task> datasets, not {name!r}; list the tasks to mix")
        resolve_name(name)
    if len(set(names)) != len(names):
        raise InputError(f"--tasks names a dataset twice: {' '.join(names)}")
    return names


def export_verl(tasks: Sequence[str], out: str | Path, *, train_size: int = 1000, val_size: int = 100,
                seed: int = 0) -> dict[str, int]:
    """Write ``train.parquet`` and ``validation.parquet`` into the folder ``out`` (atomically); the row counts."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    names = check_tasks(tasks)
    for option, value in (("--train-size", train_size), ("--val-size", val_size)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InputError(f"{option} must be an integer >= 0, got {value!r}")
    check_output(out, [])
    counts = {}
    with atomic_dir(out) as tmp:
        for file, split in SPLITS:
            rows = export_rows(names, train_size if split == "train" else val_size, seed, split)
            pq.write_table(pa.Table.from_pylist(rows, schema=schema()), Path(tmp) / f"{file}.parquet")
            counts[file] = len(rows)
    return counts


def schema() -> Any:
    """The one Arrow schema of every exported file (whatever the domains)."""
    import pyarrow as pa

    text = pa.string()
    return pa.schema([
        ("data_source", text),
        ("prompt", pa.list_(pa.struct([("role", text), ("content", text)]))),
        ("ability", text),
        ("reward_model", pa.struct([("style", text), ("ground_truth", text)])),
        ("extra_info", pa.struct([("split", text), ("index", pa.int64()), ("id", text), ("dataset", text), ("task", text),
                                  ("domain", text), ("puzzle", text), ("answer", text)])),
    ])


__all__ = ["ABILITY", "export_rows", "export_verl", "schema", "verl_row"]
