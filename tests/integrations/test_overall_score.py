"""The one overall score: for one run, the leaderboard's Overall, the report's group table,
``trainers/evaluate_checkpoint.py``'s FineReason column and lm-eval's own group aggregation give the
same number, checked against a results file whose overall is computed by hand."""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest

from finereason.commands import main
from finereason.verification.metrics import overall

pytest.importorskip("yaml")

REPO = Path(__file__).resolve().parents[2]

# (accuracy, rows) of the `finereason` group's tasks; correct answers: 20+20+15+10+10+15+10+42 = 142 of 400
GROUP = {("sudoku", "state_checking"): (0.5, 40), ("sudoku", "state_transition"): (0.25, 80),
         ("graph_coloring", "state_checking"): (0.75, 20), ("graph_coloring", "state_transition"): (0.1, 100),
         ("game_of_24", "state_checking"): (1.0, 10), ("game_of_24", "state_transition"): (0.5, 30),
         ("grid_puzzle", "state_checking"): (0.2, 50), ("grid_puzzle", "state_transition"): (0.6, 70)}
BY_HAND = 142 / 400  # 0.355; the unweighted mean of the eight accuracies would be 0.4875
E2E = {"sudoku": (0.0, 5), "graph_coloring": (1.0, 5), "game_of_24": (1.0, 5), "grid_puzzle": (0.0, 5)}


def _results_file(root: Path) -> Path:
    """An lm-eval results file (its layout: results, groups, configs, versions, n-samples) of one run of
    ``--tasks finereason,finereason_end_to_end``; the group's value is the hand-computed one."""
    tasks = {f"finereason_{p}_{t}": v for (p, t), v in GROUP.items()}
    tasks.update({f"finereason_{p}_end_to_end": v for p, v in E2E.items()})
    results = {t: {"alias": t, "acc,none": acc, "acc_stderr,none": 0.01, "sample_len": n} for t, (acc, n) in tasks.items()}
    groups = {"finereason": {"alias": "finereason", "acc,none": BY_HAND, "sample_len": 400}}
    meta = {"version": 3.0, "data_source": {"kind": "folder", "fingerprint": "a" * 64}}
    data = {"results": {**results, **groups}, "groups": groups,
            "configs": {t: {"task": t, "metadata": meta} for t in tasks}, "versions": {t: 3.0 for t in tasks},
            "n-samples": {t: {"original": n, "effective": n} for t, (_, n) in tasks.items()},
            "config": {"model": "finereason-random", "model_args": {}, "limit": None}, "date": 1767225600.0}
    path = root / "run" / "results_2026-01-01T00-00-00.000001.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_registry_and_lm_eval_group_agree_with_the_hand_computed_value():
    parts = list(GROUP.values())
    assert overall(parts) == pytest.approx(BY_HAND)
    metrics = pytest.importorskip("lm_eval.api.metrics")
    assert metrics.aggregate_subtask_metrics([a for a, _ in parts], [n for _, n in parts], True) == pytest.approx(BY_HAND)
    assert math.isnan(overall([(0.5, 10), (float("nan"), 10)])) and math.isnan(overall([]))
    assert math.isnan(overall([(0.5, 10), (0.5, None)]))


def test_board_report_and_evaluate_checkpoint_show_the_same_overall(tmp_path, capsys):
    results = _results_file(tmp_path / "runs")
    # the board: its headline (key `average`, titled Overall) is the group's number
    assert main(["leaderboard", "build", str(tmp_path / "runs"), "--out", str(tmp_path / "board")]) == 0, capsys.readouterr().err
    board = json.loads((tmp_path / "board" / "leaderboard.json").read_text())
    (row,) = board["rows"]
    assert row["average"] == pytest.approx(BY_HAND) and row["average_n"] == 400
    assert next(c["title"] for c in board["columns"] if c["key"] == "average") == "Overall"
    assert row["e2e"] == pytest.approx(0.5)  # end-to-end stays a column of its own
    # the report's group table
    from finereason.integrations.report.results import load_models
    from finereason.integrations.report.tables import group_score, group_section

    models, _ = load_models([results])
    assert group_score(models[0], "finereason") == (pytest.approx(BY_HAND), 400)
    assert f"{100 * BY_HAND:.1f} (n=400)" in "\n".join(group_section(models))
    # trainers/evaluate_checkpoint.py
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))
    from trainers import evaluate_checkpoint as E

    scores = E.scores_from_results([json.loads(results.read_text())])
    assert scores["FineReason"] == pytest.approx(BY_HAND)


def test_a_missing_or_undefined_task_leaves_the_overall_undefined(tmp_path, capsys):
    results = _results_file(tmp_path / "runs")
    data = json.loads(results.read_text())
    data["results"]["finereason_sudoku_state_checking"]["acc,none"] = float("nan")
    results.write_text(json.dumps(data).replace("NaN", "NaN"), encoding="utf-8")
    assert main(["leaderboard", "build", str(tmp_path / "runs"), "--out", str(tmp_path / "board")]) == 0, capsys.readouterr().err
    (row,) = json.loads((tmp_path / "board" / "leaderboard.json").read_text())["rows"]
    assert row["average"] is None and row["rank"] is None
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))
    from trainers import evaluate_checkpoint as E

    assert E.scores_from_results([data])["FineReason"] is None
