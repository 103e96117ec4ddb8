"""lm-eval group scores: ``acc`` of a group is the mean over all its rows (``weight_by_size``), not the
mean of its tasks' accuracies, on tasks of unequal sizes and accuracies.

lm-eval 0.4.13 (``lm_eval.api.metrics.aggregate_subtask_metrics``) computes a group's metric as
``sum(metric_i * size_i) / sum(size_i)``, or the plain mean of the tasks' numbers with
``weight_by_size: false``. The ``finereason_official`` group has twelve tasks of 46 to 100 rows; the
replayed answers below are chosen from the official files' stored labels,
so each task's accuracy is known by construction, and the two ways of averaging differ.
"""
from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from conftest import shared_path
from finereason.commands import main

pytest.importorskip("lm_eval")
yaml = pytest.importorskip("yaml")

from test_lm_eval_tasks import run_eval  # noqa: E402

TASK_DIR = Path(__file__).resolve().parents[2] / "lm_eval_tasks" / "finereason"
PUZZLES = ("sudoku", "graph_coloring", "game_of_24", "grid_puzzle")
TASKS = ("state_checking", "state_transition", "end_to_end")
# how many state-checking rows of each puzzle get the stored label as their answer (the rest the other
# choice, or for grid puzzles no answer at all). The replay file is keyed by row id, and an official row's
# id (official-<puzzle>-<line>) is shared by its state-checking, state-transition and end-to-end rows, so
# every other task sees these (A)/(B) answers and scores 0.
RIGHT_CHOICES = {"sudoku": 100, "graph_coloring": 30, "game_of_24": 70, "grid_puzzle": 0}


@pytest.fixture(scope="session")
def official_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("groups") / "official"
    assert main(["import-official", "--src", str(shared_path("finereason_official")), "--out", str(out)]) == 0
    return out


def answers(folder: Path) -> tuple[list[dict], dict[str, tuple[int, int]]]:
    """Replay lines, and (right answers, rows) per task, from the official rows alone."""
    from finereason.dataset_builders.layout import read_config

    lines, tally = [], {}
    for puzzle in PUZZLES:
        for task in TASKS:
            rows = read_config(folder, f"official_{puzzle}_{task}")
            right = min(RIGHT_CHOICES[puzzle], len(rows)) if task == "state_checking" else 0
            tally[f"finereason_official_{puzzle}_{task}"] = (right, len(rows))
            if task != "state_checking":
                continue
            for k, row in enumerate(rows):
                if puzzle == "grid_puzzle":
                    response = "I cannot tell."
                else:
                    solvable = (row["label"] == "Solvable") == (k < RIGHT_CHOICES[puzzle])
                    response = "Answer: (A)" if solvable else "Answer: (B)"
                lines.append({"id": row["id"], "response": response})
    return lines, tally


def test_official_group_acc_is_weighted_by_task_size(official_dir, tmp_path, monkeypatch):
    monkeypatch.setenv("FINEREASON_DATA_DIR", str(official_dir))
    lines, tally = answers(official_dir)
    sizes = sorted({n for _, n in tally.values()})
    assert sizes == [46, 51, 98, 100], "the official sample's task sizes changed; revisit the expected numbers"
    responses = tmp_path / "responses.jsonl"
    responses.write_text("".join(json.dumps(x) + "\n" for x in lines))
    results = run_eval(tmp_path, "finereason-replay", "finereason_official", "--model_args", f"path={responses}")["results"]

    for task, (right, n) in tally.items():
        assert results[task]["acc,none"] == pytest.approx(right / n), task
    weighted = Fraction(sum(r for r, _ in tally.values()), sum(n for _, n in tally.values()))
    unweighted = sum(Fraction(r, n) for r, n in tally.values()) / len(tally)
    assert weighted == Fraction(200, 1046)  # 100 + 30 + 70 right answers of 8 x 100 + 51 + 51 + 98 + 46 rows
    assert abs(weighted - unweighted) > Fraction(1, 100)
    assert results["finereason_official"]["acc,none"] == pytest.approx(float(weighted), abs=1e-12)


def test_every_group_weights_acc_by_size():
    """Each group YAML asks for the mean of ``acc`` weighted by size, over the tasks its name says."""
    groups = {}
    for path in sorted(TASK_DIR.glob("_finereason*.yaml")):
        config = yaml.safe_load(path.read_text())
        groups[config["group"]] = config
        assert config["aggregate_metric_list"] == [{"metric": "acc", "aggregation": "mean", "weight_by_size": True}], path.name
    every = {f"finereason_{p}_{t}" for p in PUZZLES for t in TASKS}
    want = {
        "finereason": {t for t in every if not t.endswith("end_to_end")},
        "finereason_state_checking": {t for t in every if t.endswith("state_checking")},
        "finereason_state_transition": {t for t in every if t.endswith("state_transition")},
        "finereason_end_to_end": {t for t in every if t.endswith("end_to_end")},
        "finereason_official": {t.replace("finereason_", "finereason_official_", 1) for t in every},
    }
    want |= {f"{name}_v1": {f"{t}_v1" for t in tasks} for name, tasks in want.items()}  # prompt-version twins
    want["finereason_verify"] = {f"finereason_verify_{p}" for p in PUZZLES}  # LLM-as-verifier tasks
    assert {name: set(config["task"]) for name, config in groups.items()} == want
