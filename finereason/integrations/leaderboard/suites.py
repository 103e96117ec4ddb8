"""The task suites a submission must cover, and the current version of every task (from the shipped YAML)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from . import LeaderboardError

SUITES = ("finereason_full", "finereason", "finereason_end_to_end", "finereason_official")
DEFAULT_SUITE = "finereason_full"
COMBINED = {"finereason_full": ("finereason", "finereason_end_to_end")}
"""Suites made of several lm-eval groups: ``finereason_full`` is the generated benchmark's state
checking, state transition and end-to-end tasks (``--tasks finereason,finereason_end_to_end``)."""


def _tasks_dir() -> Path:
    from importlib import resources

    return Path(str(resources.files("finereason.lm_eval_tasks"))) / "finereason"


def _yaml(path: Path) -> dict[str, Any]:
    import yaml

    class Loader(yaml.SafeLoader):  # lm-eval's `!function` tags are irrelevant here
        pass

    Loader.add_constructor("!function", lambda loader, node: None)
    return yaml.load(path.read_text(encoding="utf-8"), Loader=Loader) or {}


@lru_cache(maxsize=None)
def suite_tasks(suite: str) -> tuple[str, ...]:
    """The tasks of a group (``_<suite>.yaml``), in the group's order."""
    if suite not in SUITES:
        raise LeaderboardError(f"unknown suite {suite!r}; choose one of {', '.join(SUITES)}")
    if suite in COMBINED:
        return tuple(t for group in COMBINED[suite] for t in suite_tasks(group))
    return group_tasks(suite)


@lru_cache(maxsize=None)
def group_tasks(group: str) -> tuple[str, ...]:
    """The member tasks of one of our lm-eval groups (``_<group>.yaml``), in order; ``()`` for a name that
    is not one of our groups."""
    if not group.replace("_", "").isalnum():
        return ()
    path = _tasks_dir() / f"_{group}.yaml"
    if not path.is_file():
        return ()
    tasks = _yaml(path).get("task") or []
    return tuple(t for t in tasks if isinstance(t, str))


def suite_view(task: str) -> str:
    """The board view a task belongs to: ``official`` for the official release, else ``generated``."""
    return "official" if task.startswith("finereason_official_") else "generated"


@lru_cache(maxsize=None)
def task_version(task: str) -> str | None:
    """``metadata.version`` of a task, following its ``include`` chain."""
    path = _tasks_dir() / f"{task}.yaml"
    seen = 0
    while path.is_file() and seen < 10:
        data = _yaml(path)
        version = (data.get("metadata") or {}).get("version")
        if version is not None:
            return str(version)
        if not data.get("include"):
            return None
        path, seen = path.parent / data["include"], seen + 1
    return None
