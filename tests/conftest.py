"""Shared fixtures: the reference data in ../shared (skipped with a reason when absent)."""
from __future__ import annotations

import atexit
import fcntl
import functools
import importlib.abc
import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from lm_eval_index import index_builtin_tasks_once

os.environ.setdefault("OMP_NUM_THREADS", "1")

# Every test run gets its own Hugging Face and finereason caches, set before `datasets` or
# `huggingface_hub` is imported (they read these variables once): a stale ~/.cache/huggingface
# or ~/.cache/finereason on the machine can never leak old rows into a test, and nothing here
# may download from the Hub.
# The run's main pytest process makes the folder and removes it at exit; its xdist workers inherit the
# variables and share the caches (and so one warm Python, below).
if os.environ.get("FINEREASON_TESTS_CACHE_ROOT") and Path(os.environ["FINEREASON_TESTS_CACHE_ROOT"]).is_dir():
    _CACHE_ROOT = Path(os.environ["FINEREASON_TESTS_CACHE_ROOT"])
else:
    _CACHE_ROOT = Path(tempfile.mkdtemp(prefix="finereason-tests-cache-"))
    os.environ["FINEREASON_TESTS_CACHE_ROOT"] = str(_CACHE_ROOT)
    atexit.register(shutil.rmtree, _CACHE_ROOT, True)
for _var, _sub in (("HF_HOME", "hf"), ("HF_DATASETS_CACHE", "hf/datasets"), ("HF_HUB_CACHE", "hf/hub"),
                   ("FINEREASON_CACHE", "finereason")):
    os.environ[_var] = str(_CACHE_ROOT / _sub)
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["HF_DATASETS_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
os.environ["TOKENIZERS_PARALLELISM"] = "false"

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


@functools.lru_cache(maxsize=None)
def planbench_puzzle(problem: str, domain: str):
    """The puzzle of a PlanBench instance under ../shared (paths relative to it), read and solved once
    per test process: the recorded responses of several models, checked by several modules, answer the
    same instances. Puzzles are frozen, so sharing one is safe."""
    from finereason.domains.blocksworld.source import read_instance

    return read_instance(shared_path(problem), shared_path(domain)).puzzle


def read_jsonl(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


@pytest.fixture
def official_states():
    """Loader: official_states('sudoku') -> list of the sample's records."""

    def load(official_name: str) -> list[dict]:
        return read_jsonl(shared_path("finereason_official", f"{official_name}_states_sample.jsonl"))

    return load


# ------------------------------------------------------------------ once per test run, across xdist workers
def run_folder(tmp_path_factory: pytest.TempPathFactory, config: pytest.Config) -> Path:
    """This test run's temporary folder, shared by its xdist workers (each has a subfolder of it)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if hasattr(config, "workerinput") else base


def once_per_run(request: pytest.FixtureRequest, name: str, make):
    """``make(folder)``'s result (JSON), made by the first test of this run on any worker to ask for
    ``name``, in a folder the workers share; a worker asking while another makes it waits for that.
    For what is the same whichever worker makes it (seeded builds) and is only read afterwards."""
    root = run_folder(request.getfixturevalue("tmp_path_factory"), request.config) / "once-per-run"
    root.mkdir(exist_ok=True)
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = root / f"{name}.json"
        if done.exists():
            return json.loads(done.read_text(encoding="utf-8"))
        folder = root / name
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        result = make(folder)
        done.write_text(json.dumps(result), encoding="utf-8")
        return result


# Small builds that several modules only read: built once per test run. Never write into them
# (copy one first, as the tamper tests do with their own build).
@pytest.fixture(scope="session")
def small_dataset(request) -> Path:
    """A small build of the default puzzles: 8 rows per state config, 2 end-to-end, no train rows."""
    from finereason.commands import main

    def make(folder: Path) -> str:
        assert main(["build", "--out", str(folder / "ds"), "--per-task", "8", "--train-size", "0", "--e2e-size", "2"]) == 0
        return str(folder / "ds")

    return Path(once_per_run(request, "small-dataset", make))


@pytest.fixture(scope="session")
def e2e_dataset(request) -> Path:
    """A small build of the default puzzles for the end-to-end loops: 3 end-to-end instances each (seed 5)."""
    from finereason.dataset_builders.build import BuildConfig, build

    def make(folder: Path) -> str:
        build(BuildConfig(out=folder / "data", seed=5, per_task=1, train_size=0, e2e_size=3, train_chunk_rows=4,
                          train_file_rows=8, progress=False))
        return str(folder / "data")

    return Path(once_per_run(request, "e2e-dataset", make))


# ------------------------------------------------------------------ a warm Python for command-line runs
WARM = Path(__file__).resolve().parent / "warm_python.py"


def start_warm_python(preload: str, env: dict[str, str], *options: str):
    """Start a warm server (``tests/warm_python.py``) with ``preload`` under ``env``; yield the argv
    prefix that runs ``python ARGS...`` as its child (this interpreter when the server did not start)."""
    folder = Path(tempfile.mkdtemp(prefix="warm-"))  # short: a socket path has at most 107 bytes
    sock = folder / "socket"
    server = subprocess.Popen([sys.executable, str(WARM), "serve", str(sock), preload, *options], cwd=folder,
                              env={k: v for k, v in env.items() if k != "PYTHONPATH"},
                              stdout=subprocess.PIPE, stdin=subprocess.DEVNULL)
    ready = server.stdout.readline().strip() == b"ready"
    try:
        yield [sys.executable, "-S", str(WARM), "run", str(sock)] if ready else [sys.executable]
    finally:
        server.kill()
        server.wait()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def warm_python(request):
    """``python ARGS...`` with torch, transformers, datasets, lm-eval and the rest already imported
    (~5 CPU s saved per command) for commands run in this session's environment (other ``FINEREASON_*``
    variables, ``HOME`` or ``PYTHONPATH`` are fine); any other environment gets a fresh interpreter.
    One server per test run: the first worker to ask starts it (and stops it when its session ends;
    a command after that runs cold)."""
    started = []

    def start(_folder: Path) -> list[str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
        index = lm_eval_index_file(request.getfixturevalue("tmp_path_factory"), request.config)
        server = start_warm_python("hub", env, str(index))
        started.append(server)
        return next(server)

    yield once_per_run(request, "warm-python", start)
    for server in started:
        server.close()  # runs the generator's cleanup: kill the server, remove its folder


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


# ------------------------------------------------------------------ lm-eval's task index, read once per run
def lm_eval_index_file(tmp_path_factory: pytest.TempPathFactory, config: pytest.Config) -> Path:
    """Where this run keeps lm-eval's parsed built-in task index (``tests/lm_eval_index.py``)."""
    return run_folder(tmp_path_factory, config) / "lm-eval-builtin-index.pickle"


class _PatchIndexOnImport(importlib.abc.MetaPathFinder):
    """Patches lm-eval's task index as soon as it is imported, inside a test too: the first test of a
    worker that imports lm-eval's tasks would otherwise parse the built-in tasks itself (~8 CPU s)."""

    NAME = "lm_eval.tasks._index"

    def __init__(self, cache: Path) -> None:
        self.cache = cache

    def find_spec(self, name, path, target=None):
        if name != self.NAME or name in sys.modules:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        load, cache = spec.loader.exec_module, self.cache

        def exec_module(module) -> None:
            load(module)
            index_builtin_tasks_once(module, cache)

        spec.loader.exec_module = exec_module  # this spec's own loader
        return spec


_INDEX_HOOK: list[_PatchIndexOnImport] = []


@pytest.fixture(autouse=True)
def _lm_eval_builtin_index_once(request):
    """Patch lm-eval's task index once it is imported; until then, a finder patches it on import
    (importing it up front would slow every worker that never runs lm-eval)."""
    _index = sys.modules.get("lm_eval.tasks._index")
    if _index is not None and not getattr(_index.TaskIndex.build, "finereason_tests_once", False):
        index_builtin_tasks_once(_index, lm_eval_index_file(request.getfixturevalue("tmp_path_factory"), request.config))
    elif _index is None and not _INDEX_HOOK:
        _INDEX_HOOK.append(_PatchIndexOnImport(lm_eval_index_file(request.getfixturevalue("tmp_path_factory"),
                                                                  request.config)))
        sys.meta_path.insert(0, _INDEX_HOOK[0])
    yield
