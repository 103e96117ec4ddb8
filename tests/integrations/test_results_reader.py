"""One lm-eval results reader: the report, the leaderboard's board, ``leaderboard submit`` and
``trainers/evaluate_checkpoint.py`` read the same results folder to the same numbers.

The folder holds two runs of one model: an older full run of ``--tasks finereason,finereason_end_to_end``
and a newer re-run of one task (its file's modification time made *older*, so only lm-eval's recorded
``date`` tells which is newer). Every task carries a decoy filter (``acc,a-decoy``, sorted before
``none`` and listed first) and one end-to-end task has its accuracy only under ``strict-match``. The
expected numbers are computed by hand below from the rules the reader documents: newest run per task,
``none`` filter first, else the alphabetically first filter that has the metric."""
from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from finereason.commands import main

pytest.importorskip("yaml")

REPO = Path(__file__).resolve().parents[2]
FINGERPRINT = "b" * 64

# (accuracy, rows) of the first run; the `finereason` group's 8 tasks, then end-to-end
OLD = {"finereason_sudoku_state_checking": (0.5, 40), "finereason_sudoku_state_transition": (0.25, 80),
       "finereason_graph_coloring_state_checking": (0.75, 20), "finereason_graph_coloring_state_transition": (0.1, 100),
       "finereason_game_of_24_state_checking": (1.0, 10), "finereason_game_of_24_state_transition": (0.5, 30),
       "finereason_grid_puzzle_state_checking": (0.2, 50), "finereason_grid_puzzle_state_transition": (0.6, 70),
       "finereason_sudoku_end_to_end": (0.0, 5), "finereason_graph_coloring_end_to_end": (1.0, 5),
       "finereason_game_of_24_end_to_end": (0.6, 5), "finereason_grid_puzzle_end_to_end": (0.4, 5)}
ONLY_STRICT = "finereason_grid_puzzle_end_to_end"   # its accuracy only under the `strict-match` filter
RERUN = {"finereason_sudoku_state_checking": (0.9, 40)}  # the newer run
NEWEST = {**OLD, **RERUN}
# by hand: correct answers of the group's tasks, newest run: 36+20+15+10+10+15+10+42 = 158 of 400
OVERALL = 158 / 400
SC = (36 + 15 + 10 + 10) / (40 + 20 + 10 + 50)   # size-weighted state checking (evaluate_checkpoint's column)


def _metrics(task: str, acc: float, n: int) -> dict:
    if task == ONLY_STRICT:
        return {"alias": task, "acc,strict-match": acc, "acc_stderr,strict-match": 0.01, "sample_len": n}
    return {"alias": task, "acc,a-decoy": 0.99, "acc,none": acc, "acc_stderr,none": 0.01, "sample_len": n}


def _write_run(folder: Path, tasks: dict, date: float, stamp: str, groups: dict | None = None) -> Path:
    from finereason.integrations.leaderboard.suites import task_version

    meta = {"data_source": {"kind": "folder", "fingerprint": FINGERPRINT}}
    groups = groups or {}
    data = {"results": {**{t: _metrics(t, a, n) for t, (a, n) in tasks.items()}, **groups}, "groups": groups,
            "configs": {t: {"task": t, "metadata": {**meta, "version": task_version(t)}} for t in tasks},
            "versions": {t: task_version(t) for t in tasks},
            "n-samples": {t: {"original": n, "effective": n} for t, (_, n) in tasks.items()},
            "config": {"model": "finereason-random", "model_args": {}, "limit": None}, "date": date}
    path = folder / f"results_{stamp}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.fixture
def runs(tmp_path) -> Path:
    root = tmp_path / "runs"
    group = {"finereason": {"alias": "finereason", "acc,none": 142 / 400, "sample_len": 400},  # lm-eval's, of this run
             "finereason_end_to_end": {"alias": "finereason_end_to_end", "acc,none": 0.5, "sample_len": 20}}
    old = _write_run(root / "a", OLD, 1767225600.0, "2026-01-01T00-00-00.000001", group)
    new = _write_run(root / "b", RERUN, 1767312000.0, "2026-01-02T00-00-00.000001")
    os.utime(new, (os.stat(old).st_mtime - 3600,) * 2)  # the newer run's file looks older on disk
    return root


def _evaluate_checkpoint():
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))
    from trainers import evaluate_checkpoint

    return evaluate_checkpoint


def test_report_board_submit_and_evaluate_checkpoint_read_the_same_numbers(runs, tmp_path, capsys):
    # the report
    from finereason.integrations.report.results import load_models, metric_value
    from finereason.integrations.report.tables import group_score

    (model,), _ = load_models([runs])
    assert {t: metric_value(r.metrics, "acc") for t, r in model.tasks.items()} == pytest.approx({t: a for t, (a, _) in NEWEST.items()})
    assert group_score(model, "finereason") == (pytest.approx(OVERALL), 400)
    # the board
    assert main(["leaderboard", "build", str(runs), "--out", str(tmp_path / "board")]) == 0, capsys.readouterr().err
    (row,) = json.loads((tmp_path / "board" / "leaderboard.json").read_text())["rows"]
    assert row["average"] == pytest.approx(OVERALL)
    for task, (acc, _) in NEWEST.items():
        puzzle, kind = task[len("finereason_"):].rsplit("_state_", 1) if "_state_" in task else (task[11:-11], "e2e")
        key = {"checking": "sc", "transition": "st", "e2e": "e2e"}[kind]
        assert row[f"{key}_{puzzle}"] == pytest.approx(acc), task
    # leaderboard submit
    from finereason.integrations.leaderboard.submit import submit

    done = submit([runs], "me/requests", out=tmp_path / "sub", suite="finereason_full", dry_run=True)
    assert {t: m.get("acc") for t, m in done.results["results"].items()} == pytest.approx({t: a for t, (a, _) in NEWEST.items()})
    assert done.results["config"]["n_samples"] == {t: n for t, (_, n) in NEWEST.items()}
    # trainers/evaluate_checkpoint.py
    E = _evaluate_checkpoint()
    scores = E.scores_from_results(E.read_results(runs))
    assert scores["FineReason"] == pytest.approx(OVERALL)
    assert scores["FineReason SC"] == pytest.approx(SC)


def test_the_one_filter_rule():
    from finereason.integrations.lm_eval.results import clean_metrics, metric_value

    metrics = {"acc,c": 0.3, "acc,b": 0.2, "acc_stderr,a": 0.1, "f1,none": "N/A", "f1,a": 0.1, "pe,none": 0.25,
               "alias": "t", "sample_len": 4}
    assert metric_value(metrics, "acc") == 0.2           # no `none`: the alphabetically first filter
    assert metric_value(metrics, "acc", ("c", "none")) == 0.3
    assert metric_value(metrics, "f1") is None            # undefined under `none`: never another filter's value
    assert metric_value(metrics, "recall") is None
    assert clean_metrics(metrics) == {"acc": 0.2, "pe": 0.25}
    assert clean_metrics({"acc": 0.5, "n": True}) == {"acc": 0.5}  # a submission's clean metrics stay as they are


def test_undefined_is_a_dash_or_null_everywhere(runs, tmp_path, capsys):
    """One group task without an accuracy: the board's Overall is null, the report's group table and
    evaluate_checkpoint's table show "—", its comparison.json holds null."""
    path = runs / "b" / "results_2026-01-02T00-00-00.000001.json"
    data = json.loads(path.read_text())
    data["results"]["finereason_sudoku_state_checking"]["acc,none"] = "N/A"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["leaderboard", "build", str(runs), "--out", str(tmp_path / "board")]) == 0, capsys.readouterr().err
    (row,) = json.loads((tmp_path / "board" / "leaderboard.json").read_text())["rows"]
    assert row["average"] is None and row["rank"] is None
    from finereason.integrations.report.results import load_models
    from finereason.integrations.report.tables import group_section

    models, _ = load_models([runs])
    (line,) = [x for x in "\n".join(group_section(models)).splitlines() if x.startswith("| finereason-random")]
    assert line.split("|")[2].strip() == "—" and line.split("|")[3].strip() != "—"  # finereason, end-to-end
    E = _evaluate_checkpoint()
    out = tmp_path / "eval"
    shutil.copytree(runs, out / "base")  # modification times kept
    assert E.main(["--base_model", "m", "--skip", "GSM8K", "MATH", "--output_dir", str(out), "--table_only"]) == 0
    table = (out / "comparison.md").read_text(encoding="utf-8")
    assert "| base (`m`) | — | — | " in table and table.splitlines()[2].endswith("| — |")
    assert json.loads((out / "comparison.json").read_text())["scores"]["base"]["FineReason"] is None
