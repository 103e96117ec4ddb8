"""The demo domain (``tests/demo_domain``, a 4x4 Latin square) plugs in from the tests alone.

Registered only here (and in the contract suite, ``test_domain_contract.py``), it builds a data set
whose rows load through ``finereason.data.resolve``, gets lm-eval task YAMLs generated into a temporary
folder, and scores through lm-eval: the oracle baseline gets every row right, the random one does not.
No file of the package names it.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

import pytest

from demo_domain import DEMO, registered
from finereason.core.engine import engine_names, get_engine

TASKS = ("state_checking", "state_transition", "end_to_end")


@pytest.fixture(scope="module")
def demo() -> Iterator[object]:
    with registered() as engine:
        yield engine
    assert DEMO.name not in engine_names(), "the demo leaves the registry as it found it"


def build_demo(out: Path, **overrides) -> dict:
    from finereason.dataset_builders.build import BuildConfig, build

    settings = dict(out=out, seed=0, per_task=8, train_size=8, e2e_size=3, domains=(DEMO.name,), progress=False)
    return build(BuildConfig(**{**settings, **overrides}))


@pytest.fixture(scope="module")
def data_dir(demo, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("demo") / "ds"
    result = build_demo(out)
    assert result["configs"] == {f"{DEMO.name}_{task}": (3 if task == "end_to_end" else 8) for task in TASKS} | {"train": 8}
    return out


def test_registered_under_every_name(demo):
    assert get_engine("latin4") is get_engine(DEMO.official_name) is demo
    assert DEMO.name in engine_names()


def test_build_rows_load_from_the_folder(data_dir, monkeypatch):
    from finereason.data.resolve import load_config

    monkeypatch.setenv("FINEREASON_DATA_DIR", str(data_dir))
    for task in TASKS:
        rows = list(load_config(f"{DEMO.name}_{task}")["test"])
        assert rows and {r["puzzle"] for r in rows} == {DEMO.name} and {r["task"] for r in rows} == {task}
        for row in rows:
            inputs = json.loads(row["inputs"])
            puzzle = DEMO.puzzle_from_official({"inputs": inputs})
            assert row["prompt"].startswith(DEMO.rules(puzzle))
            assert row["empty_cells"] == puzzle.givens.count(0)
        if task == "state_checking":
            assert {r["label"] for r in rows} == {"Solvable", "Unsolvable"}
    train = list(load_config("train")["train"])
    assert len(train) == 8 and {r["puzzle"] for r in train} == {DEMO.name}


def test_build_is_deterministic_in_worker_processes(data_dir, tmp_path):
    """Worker processes start fresh: they register the demo themselves and write the same bytes."""
    again = tmp_path / "again"
    build_demo(again, num_proc=2)
    files = sorted(p.relative_to(data_dir) for p in data_dir.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(again) for p in again.rglob("*") if p.is_file())
    for rel in files:
        assert (data_dir / rel).read_bytes() == (again / rel).read_bytes(), rel


def run_eval(tasks_dir: Path, out: Path, model: str) -> dict:
    from finereason.commands import main
    from finereason.integrations.lm_eval.models import our_tasks_only

    tasks = ",".join(f"finereason_{DEMO.name}_{task}" for task in TASKS)
    with our_tasks_only():
        code = main(["eval", "--model", model, "--tasks", tasks, "--include_path", str(tasks_dir),
                     "--output_path", str(out)])
    assert code == 0
    results = sorted(out.rglob("results_*.json"))
    assert results, "lm-eval wrote no results"
    return json.loads(results[-1].read_text())["results"]


def test_scores_through_lm_eval(demo, data_dir, tmp_path, monkeypatch):
    pytest.importorskip("lm_eval")
    from finereason.lm_eval_tasks.generate_configs import write_configs

    monkeypatch.setenv("FINEREASON_DATA_DIR", str(data_dir))
    tasks_dir = tmp_path / "tasks"
    written = write_configs(tasks_dir)
    assert {f"finereason_{DEMO.name}_{task}.yaml" for task in TASKS} <= set(written)
    oracle = run_eval(tasks_dir, tmp_path / "oracle", "finereason-oracle")
    random = run_eval(tasks_dir, tmp_path / "random", "finereason-random")
    for task in TASKS:
        name = f"finereason_{DEMO.name}_{task}"
        assert oracle[name]["acc,none"] == 1.0, name
        assert random[name]["acc,none"] < 1.0, name
