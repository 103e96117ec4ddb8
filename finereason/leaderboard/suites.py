"""The task suites a submission must cover, and the current version of every task (from the shipped YAML)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from . import LeaderboardError

SUITES = ("finereason", "finereason_end_to_end", "finereason_official")


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
    tasks = _yaml(_tasks_dir() / f"_{suite}.yaml").get("task") or []
    return tuple(t for t in tasks if isinstance(t, str))


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
