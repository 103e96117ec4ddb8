"""Trainer callbacks and reward wrappers of a GRPO run: logs that last (``log_history.jsonl``, the
trainer state at every checkpoint) and each reward's mean per row kind."""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Callable

from ....common.atomic_io import atomic_path
from ....common.jsonl_log import append_records, read_records, rewrite_records

LOG_HISTORY = "log_history.jsonl"


def _json_value(value: Any) -> Any:
    """A log value as strict JSON (NaN and infinities become ``None``)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def read_log_history(output_dir: str | Path) -> list[dict]:
    """The entries of ``log_history.jsonl`` in ``output_dir`` (one dict per logged step); a torn last
    line (a run killed mid-write) is left out (:mod:`finereason.common.jsonl_log`)."""
    return [entry for _, entry in read_records(Path(output_dir) / LOG_HISTORY, LOG_HISTORY) if isinstance(entry, dict)]


def persistent_logs(output_dir: str):
    """A ``TrainerCallback`` that appends every log entry to ``output_dir/log_history.jsonl`` as it is
    logged, flushed and fsync'd (so a crash loses nothing that was logged; a torn last line is cut), writes ``trainer_state.json`` to ``output_dir``
    at every checkpoint, and on a resume drops the entries after the restored step (they are re-run)."""
    from transformers import TrainerCallback

    path = Path(output_dir) / LOG_HISTORY

    class PersistentLogs(TrainerCallback):
        def on_train_begin(self, args, state, control, **kwargs):
            if not state.is_world_process_zero:
                return
            path.parent.mkdir(parents=True, exist_ok=True)
            kept = [e for e in read_log_history(output_dir) if (e.get("step") or 0) <= state.global_step]
            rewrite_records(path, kept)

        def on_log(self, args, state, control, logs=None, **kwargs):
            if state.is_world_process_zero and logs:
                entry = {"step": state.global_step, "epoch": state.epoch,
                         **{k: _json_value(v) for k, v in logs.items()}}
                append_records(path, [entry])

        def on_save(self, args, state, control, **kwargs):
            if state.is_world_process_zero:  # replaced whole or not at all (a kill mid-write keeps the last one)
                with atomic_path(Path(output_dir) / "trainer_state.json") as tmp:
                    state.save_to_json(str(tmp))

    return PersistentLogs()


def per_task(reward: Callable[..., list], name: str, log_task_column: bool = False) -> Callable[..., list]:
    """``reward`` that also logs its mean per row kind (``finereason/reward/<task>/<name>``: math,
    state_checking, ...) and, for the first reward, a ``task`` column in the completions table."""

    def wrapped(completions: list, **kwargs: Any) -> list:
        values = reward(completions, **kwargs)
        tasks = list(kwargs.get("task") or [None] * len(values))
        log_metric = kwargs.get("log_metric")
        if log_metric is not None:
            by_task: dict[str, list[float]] = {}
            for task, value in zip(tasks, values):
                if value is not None:
                    by_task.setdefault(str(task), []).append(float(value))
            for task, got in sorted(by_task.items()):
                log_metric(f"finereason/reward/{task}/{name}", sum(got) / len(got))
        if log_task_column and kwargs.get("log_extra") is not None:
            kwargs["log_extra"]("task", tasks)
        return values

    wrapped.__name__ = getattr(reward, "__name__", name)  # TRL logs rewards/<__name__>/mean
    return wrapped
