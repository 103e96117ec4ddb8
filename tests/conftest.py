"""Shared fixtures: the reference data in ../shared (skipped with a reason when absent)."""
from __future__ import annotations

import atexit
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

os.environ.setdefault("OMP_NUM_THREADS", "1")

# Every test run gets its own Hugging Face and finereason caches, set before `datasets` or
# `huggingface_hub` is imported (they read these variables once): a stale ~/.cache/huggingface
# or ~/.cache/finereason on the machine can never leak old rows into a test, and nothing here
# may download from the Hub.
_CACHE_ROOT = Path(tempfile.mkdtemp(prefix="finereason-tests-cache-"))
atexit.register(shutil.rmtree, _CACHE_ROOT, True)
for _var, _sub in (("HF_HOME", "hf"), ("HF_DATASETS_CACHE", "hf/datasets"), ("HF_HUB_CACHE", "hf/hub"),
                   ("FINEREASON_CACHE", "finereason")):
    os.environ[_var] = str(_CACHE_ROOT / _sub)
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["HF_DATASETS_OFFLINE"] = "1"

# Tests live in folders that mirror the package's layers (tests/reading/, tests/verification/, ...);
# helper modules sit here and some test modules import helpers from one another across folders
# (``from test_cli_errors import tamper``), so every folder is importable.
for _folder in sorted(p for p in Path(__file__).resolve().parent.iterdir() if p.is_dir() and any(p.glob("test_*.py"))):
    if str(_folder) not in sys.path:
        sys.path.append(str(_folder))

SHARED = Path(os.environ.get("FINEREASON_SHARED", Path(__file__).resolve().parents[1].parent / "shared"))


def shared_path(*parts: str) -> Path:
    """A path under ../shared, or skip the test when the reference data is absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"reference data {path} is absent (expected ../shared beside the checkout)")
    return path


def read_jsonl(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


@pytest.fixture
def official_states():
    """Loader: official_states('sudoku') -> list of the sample's records."""

    def load(official_name: str) -> list[dict]:
        return read_jsonl(shared_path("finereason_official", f"{official_name}_states_sample.jsonl"))

    return load


# Small builds that several modules only read: built once per test session. Never write into them
# (copy one first, as the tamper tests do with their own build).
@pytest.fixture(scope="session")
def small_dataset(tmp_path_factory) -> Path:
    """A small build of the default puzzles: 8 rows per state config, 2 end-to-end, no train rows."""
    from finereason.commands import main

    out = tmp_path_factory.mktemp("small-dataset") / "ds"
    assert main(["build", "--out", str(out), "--per-task", "8", "--train-size", "0", "--e2e-size", "2"]) == 0
    return out


@pytest.fixture(scope="session")
def e2e_dataset(tmp_path_factory) -> Path:
    """A small build of the default puzzles for the end-to-end loops: 3 end-to-end instances each (seed 5)."""
    from finereason.dataset_builders.build import BuildConfig, build

    out = tmp_path_factory.mktemp("e2e-dataset") / "data"
    build(BuildConfig(out=out, seed=5, per_task=1, train_size=0, e2e_size=3, train_chunk_rows=4, train_file_rows=8,
                      progress=False))
    return out


# ------------------------------------------------------------------ running on every core (pytest-xdist)
# The suite runs with `-n auto --dist worksteal` (pyproject.toml): a worker that runs out of tests takes half
# of the other one's queue. The long modules (subprocess lm-eval runs, model conversions, the doc examples)
# are queued first, so no worker starts a two-minute test while the other one has finished. (xdist's
# `loadgroup` cannot keep a module's tests together under pytest 9.2: it renames item._nodeid, which
# pytest 9 no longer reads; a module- or session-scoped fixture is built at most once per worker.)
FIRST = ("test_smol_model", "test_evaluate_checkpoint", "test_doc_examples", "test_eval_errors", "test_lm_eval_hf",
         "test_grpo", "test_main_job", "test_cli_errors", "test_lm_eval_tasks", "test_leaderboard", "test_report")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    rank = {name: i for i, name in enumerate(FIRST)}
    items.sort(key=lambda item: rank.get(getattr(item, "module", None) and item.module.__name__, len(FIRST)))


# ------------------------------------------------------------------ lm-eval's task index, read once per worker
_BUILTIN_INDEX: dict = {}


def _index_builtin_tasks_once(_index) -> None:
    """Make ``TaskIndex.build`` parse lm-eval's built-in task folder once in this process.

    Every in-process lm-eval run builds a TaskManager, which parses lm-eval's ~15,000 built-in task YAML
    files (about 10 CPU seconds) before it reads ours. Those installed files cannot change during a test
    session, so a worker parses them once; each TaskManager still reads the project's own task folder
    (``--include_path``) afresh and gets its own entries (lm-eval deep-copies a config before using it).
    Subprocess runs are untouched: they build the whole index as a user's run does."""
    from dataclasses import replace

    builtin = Path(_index.__file__).parent
    original = _index.TaskIndex.build

    def build(paths, *, resolve_includes=True):
        paths = [Path(p) for p in paths]
        if not paths or paths[0] != builtin or not resolve_includes:
            return original(paths, resolve_includes=resolve_includes)
        if "entries" not in _BUILTIN_INDEX:
            _BUILTIN_INDEX["entries"] = original([builtin])
        index = {name: replace(entry, tags=set(entry.tags)) for name, entry in _BUILTIN_INDEX["entries"].items()}
        for name, entry in original(paths[1:]).items():
            if name in index:
                _index.log.warning("Task '%s' from %s overrides existing task from %s", name, entry.yaml_path,
                                   index[name].yaml_path)
            index[name] = entry
        return index

    build.finereason_tests_once = True
    _index.TaskIndex.build = staticmethod(build)


@pytest.fixture(autouse=True)
def _lm_eval_builtin_index_once():
    """Patch lm-eval's task index once it is imported (importing it up front would slow every worker)."""
    _index = sys.modules.get("lm_eval.tasks._index")
    if _index is not None and not getattr(_index.TaskIndex.build, "finereason_tests_once", False):
        _index_builtin_tasks_once(_index)
    yield
