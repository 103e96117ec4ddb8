"""lm-eval's index of its built-in tasks, parsed once per test run.

Every lm-eval run builds a TaskManager, which parses lm-eval's ~15,000 built-in task YAML files (about 8
CPU seconds) before it reads ours. Those installed files cannot change during a test run, so the first
process that needs them (a pytest worker, or a command run by a warm server: ``warm_python.py``) parses
them and leaves the result in a file of the run's folder; later ones load it (under a second). Each
TaskManager still reads the project's own task folder (``--include_path``) afresh and gets its own
entries (lm-eval deep-copies a config before using it)."""
from __future__ import annotations

import fcntl
import os
import pickle
from pathlib import Path

_BUILTIN_INDEX: dict = {}


def index_builtin_tasks_once(_index, cache: Path) -> None:
    """Patch ``_index.TaskIndex.build`` (``lm_eval.tasks._index``) to take the built-in folder's entries
    from this process's memory, else from ``cache``, else by parsing it (then written to ``cache``)."""
    from dataclasses import replace

    if getattr(_index.TaskIndex.build, "finereason_tests_once", False):
        return
    builtin = Path(_index.__file__).parent
    original = _index.TaskIndex.build

    def build(paths, *, resolve_includes=True):
        paths = [Path(p) for p in paths]
        if not paths or paths[0] != builtin or not resolve_includes:
            return original(paths, resolve_includes=resolve_includes)
        if "entries" not in _BUILTIN_INDEX:
            _BUILTIN_INDEX["entries"] = _load_or_parse(cache, lambda: original([builtin]))
        index = {name: replace(entry, tags=set(entry.tags)) for name, entry in _BUILTIN_INDEX["entries"].items()}
        for name, entry in original(paths[1:]).items():
            if name in index:
                _index.log.warning("Task '%s' from %s overrides existing task from %s", name, entry.yaml_path,
                                   index[name].yaml_path)
            index[name] = entry
        return index

    build.finereason_tests_once = True
    _index.TaskIndex.build = staticmethod(build)


def _load_or_parse(cache: Path, parse):
    with open(cache.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another process parsing: wait for its file
        if cache.exists():
            with open(cache, "rb") as f:
                return pickle.load(f)  # written by this test run (below), never by anything else
        entries = parse()
        partial = cache.with_name(f"{cache.name}.{os.getpid()}.partial")
        with open(partial, "wb") as f:
            pickle.dump(entries, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(partial, cache)
        return entries
