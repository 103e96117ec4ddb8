"""The one reader of lm-eval results files (``results_*.json``): the report, the leaderboard (board and
``submit``) and ``trainers/evaluate_checkpoint.py`` read runs only through here, so one run gives the
same numbers everywhere.

Three rules, stated once:

* **Files.** A folder is searched recursively for ``results_*.json``; a file is read as named. A results
  file is a JSON object with a ``"results"`` object. Finding none is one error, :data:`NO_RESULTS`.
* **Newest wins, per task.** Runs are ordered by the results file's ``date`` (the time lm-eval started
  the run), else the file's modification time, then the timestamp in the file name, then the path.
  When several runs hold the same task (or group), the newest run's entry for it is used whole: its
  metrics, size, configuration and logged samples. Tasks only an older run has keep that run's entry.
* **One filter.** A metric is read under the first filter of ``filters`` the task has it under (default:
  ``none``, the filter of tasks that define no filters, as every FineReason task); else under the
  alphabetically first filter it has it under. ``*_stderr`` keys are metrics of their own, never values
  of the metric. A value that is not a finite number (NaN, ``"N/A"``, a bool) is undefined: ``None``,
  never replaced by another filter's value.

A task's size is its ``sample_len``, else lm-eval's ``n-samples`` (``effective``, else ``original``).
"""
from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from ...common.input_errors import InputError
from ...common.jsonl import parse_json

DEFAULT_FILTERS = ("none",)
STAMP = re.compile(r"(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d+)?)")
NO_RESULTS = "no lm-eval results files (results_*.json) found"
_BY_TASK = ("results", "groups", "n-samples", "configs", "versions", "higher_is_better")


class ResultsError(InputError):
    """An unreadable or malformed results file (one line naming it)."""


# ------------------------------------------------------------------ files
def find_results_files(paths: Sequence[str | os.PathLike], error: type[Exception] = ResultsError) -> list[Path]:
    """Every results file named by ``paths`` (folders are searched recursively), each once."""
    if not paths:
        raise error("no results path given (an lm-eval output folder or a results_*.json file)")
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files = sorted(p for p in path.rglob("results_*.json") if p.is_file())
            if not files:
                raise error(f"{path}: {NO_RESULTS}")
            found.extend(files)
        elif path.is_file():
            found.append(path)
        else:
            raise error(f"{path}: no such file or folder")
    unique: dict[Path, None] = {}
    for p in found:
        unique.setdefault(p.resolve(), None)
    return list(unique)


def load_results_file(path: Path, error: type[Exception] = ResultsError, *, require_results: bool = True) -> Any:
    """The JSON object of a results file; ``error`` (one line) when it is unreadable, not JSON or (with
    ``require_results``) has no ``"results"`` object; without it any JSON value is returned."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise error(f"cannot read {path}: {err.strerror or err}") from None
    except UnicodeDecodeError:
        raise error(f"{path}: not valid JSON (not UTF-8 text)") from None
    data = parse_json(text, str(path), error)
    if require_results and (not isinstance(data, dict) or not isinstance(data.get("results"), dict)):
        raise error(f"{path}: not an lm-eval results file (no \"results\" object)")
    return data


@dataclass
class Run:
    """One results file: its path, content, the timestamp of its name and its place in time."""

    path: Path
    data: dict
    stamp: str | None
    order: tuple

    @classmethod
    def of(cls, path: Path, data: dict) -> "Run":
        """The run of a results file already read (``data``)."""
        match = STAMP.search(path.name)
        stamp = match.group(1) if match else None
        date = data.get("date")
        when = float(date) if isinstance(date, (int, float)) and not isinstance(date, bool) else _mtime(path)
        return cls(path, data, stamp, (when, stamp or "", str(path)))

    @property
    def config(self) -> dict:
        config = self.data.get("config")
        return config if isinstance(config, dict) else {}


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def read_runs(paths: Sequence[str | os.PathLike], error: type[Exception] = ResultsError, *,
              skip_other_json: bool = False) -> list[Run]:
    """The runs of every results file under ``paths``, oldest first (the newest-wins order).

    A ``results_*.json`` that is JSON but not a results file is ``error``; with ``skip_other_json`` it is
    passed over (a folder may hold other JSON files of that name), and ``error`` (:data:`NO_RESULTS`) is
    raised when no results file is left."""
    runs = []
    for path in find_results_files(paths, error):
        data = load_results_file(path, error, require_results=not skip_other_json)
        if isinstance(data, dict) and isinstance(data.get("results"), dict):
            runs.append(Run.of(path, data))
    if not runs:
        raise error(f"{', '.join(str(p) for p in paths)}: {NO_RESULTS}")
    return sort_runs(runs)


def sort_runs(runs: Iterable[Run]) -> list[Run]:
    """``runs`` oldest first: by ``date``, else modification time, then file-name timestamp, then path."""
    return sorted(runs, key=lambda r: r.order)


def newest_per_task(runs: Iterable[Run]) -> dict[str, Run]:
    """``{task or group name: the newest run whose "results" hold it}`` (``runs`` in any order)."""
    out: dict[str, Run] = {}
    for run in sort_runs(runs):
        for name, metrics in run.data["results"].items():
            if isinstance(metrics, dict):
                out[name] = run
    return out


def merged(runs: Iterable[Run | Mapping[str, Any]]) -> dict[str, Any]:
    """One results file's layout holding, for every task and group, the newest run's entries
    (``results``, ``groups``, ``n-samples``, ``configs``, ``versions``, ``higher_is_better``; for
    ``group_subtasks`` the newest run's non-empty list); ``runs`` may be :class:`Run` objects or results
    files' contents, these in oldest-first order."""
    runs = [r if isinstance(r, Run) else Run(Path(""), dict(r), None, (float(i), "", "")) for i, r in enumerate(runs)]
    runs = [r for r in runs if isinstance(r.data.get("results"), dict)]
    out: dict[str, Any] = {key: {} for key in (*_BY_TASK, "group_subtasks")}
    for name, run in newest_per_task(runs).items():
        for key in _BY_TASK:
            section = run.data.get(key)
            if isinstance(section, dict) and name in section:
                out[key][name] = section[name]
    for run in sort_runs(runs):
        for name, metrics in (run.data.get("groups") or {}).items():  # a group lm-eval lists only under "groups"
            if isinstance(metrics, dict) and name not in out["results"]:
                out["groups"][name] = metrics
        for name, members in (run.data.get("group_subtasks") or {}).items():
            if members or name not in out["group_subtasks"]:  # the newest run that ran some of them
                out["group_subtasks"][name] = members
    return out


# ------------------------------------------------------------------ values
def number(value: Any) -> float | None:
    """A finite number as a float, else ``None`` (undefined)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value) or math.isinf(value):
        return None
    return float(value)


def metric_value(metrics: Mapping[str, Any] | None, name: str, filters: Sequence[str] = DEFAULT_FILTERS) -> float | None:
    """``name`` of one task's metrics under the filter rule (the module's docstring): the first of
    ``filters`` the task has the metric under, else the alphabetically first filter it has it under (a
    key without a filter, as submission files hold, counts as one); ``None`` when the task has no such
    metric or its value there is undefined (never replaced by another filter's)."""
    if not isinstance(metrics, Mapping):
        return None
    for filt in filters:
        if f"{name},{filt}" in metrics:
            return number(metrics[f"{name},{filt}"])
    if name in metrics:
        return number(metrics[name])
    others = sorted(key for key in metrics if isinstance(key, str) and key.partition(",")[0] == name)
    return number(metrics[others[0]]) if others else None


_NOT_METRICS = ("alias", "name", "sample_len", "samples")


def clean_metrics(metrics: Mapping[str, Any]) -> dict[str, float]:
    """``{"acc,none": 0.5, "acc_stderr,none": ...}`` -> ``{"acc": 0.5}``: every metric of one task under
    the filter rule (undefined ones left out)."""
    names = {key.partition(",")[0] for key in metrics}
    out: dict[str, float] = {}
    for name in sorted(names):
        if name in _NOT_METRICS or name.endswith("_stderr"):
            continue
        value = metric_value(metrics, name)
        if value is not None:
            out[name] = value
    return out


def task_size(data: Mapping[str, Any], task: str) -> int | None:
    """The number of documents ``task`` was run on: its ``sample_len``, else lm-eval's ``n-samples``
    (``effective``, else ``original``); ``None`` when unknown."""
    metrics = (data.get("results") or {}).get(task)
    n = metrics.get("sample_len") if isinstance(metrics, Mapping) else None
    if not _count(n):
        counts = (data.get("n-samples") or {}).get(task)
        n = counts.get("effective", counts.get("original")) if isinstance(counts, Mapping) else counts
    return n if _count(n) else None


def _count(n: Any) -> bool:
    return isinstance(n, int) and not isinstance(n, bool) and n > 0


__all__ = ["DEFAULT_FILTERS", "NO_RESULTS", "ResultsError", "Run", "clean_metrics", "find_results_files", "load_results_file",
           "merged", "metric_value", "newest_per_task", "number", "read_runs", "sort_runs", "task_size"]
