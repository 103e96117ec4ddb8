"""What a board may rank together: runs on one data set, read in one context, over every item.

The results files here are written by hand in lm-eval's layout (``results``, ``versions``, ``configs``
with the ``metadata`` our tasks record, ``config.limit``, ``n-samples``), so each case states exactly
which fact differs; the real lm-eval runs are in test_leaderboard.py."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from finereason.commands import main
from finereason.integrations.leaderboard.suites import suite_tasks, task_version

pytest.importorskip("yaml")

DATA_A = "a" * 64
DATA_B = "b" * 64
N = 200


def write_run(root: Path, model: str, acc: float, *, fingerprint: str | None = DATA_A, think: bool | None = None,
              limit: int | None = None, stamp: str = "2026-01-01T00-00-00.000001") -> Path:
    """An lm-eval results file of ``model`` (a baseline name) on the generated suite with accuracy ``acc``."""
    tasks = suite_tasks("finereason_full")
    n = limit or N
    configs = {}
    for task in tasks:
        meta: dict = {"version": float(task_version(task))}
        if fingerprint is not None:
            meta["data_source"] = {"kind": "folder", "fingerprint": fingerprint, "config_fingerprint": "c" * 64}
        if think is not None:
            meta["starts_in_think"] = think
        configs[task] = {"task": task, "metadata": meta}
    data = {"results": {t: {"alias": t, "sample_len": n, "acc,none": acc, "acc_stderr,none": 0.01,
                            "parse_error_rate,none": 0.0} for t in tasks},
            "configs": configs, "versions": {t: float(task_version(t)) for t in tasks},
            "n-samples": {t: {"original": N, "effective": n} for t in tasks},
            "config": {"model": model, "model_args": {}, "limit": None if limit is None else float(limit)},
            "date": 1767225600.0}
    path = root / model / f"results_{stamp}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def build(root: Path, out: Path, capsys) -> tuple[int, str]:
    code = main(["leaderboard", "build", str(root), "--out", str(out)])
    return code, capsys.readouterr().err.strip()


def test_runs_on_different_data_are_never_ranked_together(tmp_path, capsys):
    write_run(tmp_path / "runs", "finereason-oracle", 1.0, fingerprint=DATA_A)
    write_run(tmp_path / "runs", "finereason-random", 0.4, fingerprint=DATA_B)
    code, err = build(tmp_path / "runs", tmp_path / "board", capsys)
    assert code == 2 and len(err.splitlines()) == 1 and err.startswith("finereason: error:"), err
    assert DATA_A[:12] in err and DATA_B[:12] in err and "finereason-oracle" in err and "finereason-random" in err
    assert not (tmp_path / "board" / "leaderboard.json").exists()
    # a run that recorded no fingerprint cannot be shown to be on the same data either
    write_run(tmp_path / "runs2", "finereason-oracle", 1.0, fingerprint=DATA_A)
    write_run(tmp_path / "runs2", "finereason-random", 0.4, fingerprint=None)
    code, err = build(tmp_path / "runs2", tmp_path / "board2", capsys)
    assert code == 2 and "no data fingerprint" in err and DATA_A[:12] in err, err


def test_one_data_set_is_named_on_the_board(tmp_path, capsys):
    write_run(tmp_path / "runs", "finereason-oracle", 1.0)
    write_run(tmp_path / "runs", "finereason-random", 0.4)
    code, err = build(tmp_path / "runs", tmp_path / "board", capsys)
    assert code == 0, err
    table = json.loads((tmp_path / "board" / "leaderboard.json").read_text())
    assert table["data"]["generated"] == {"fingerprint": DATA_A, "starts_in_think": False}
    assert {r["data_fingerprint"] for r in table["rows"]} == {DATA_A}
    md = (tmp_path / "board" / "leaderboard.md").read_text()
    assert f"`{DATA_A[:12]}`" in md


def test_runs_read_in_different_contexts_are_never_ranked_together(tmp_path, capsys):
    write_run(tmp_path / "runs", "finereason-oracle", 1.0, think=True)
    write_run(tmp_path / "runs", "finereason-random", 0.4)
    code, err = build(tmp_path / "runs", tmp_path / "board", capsys)
    assert code == 2 and len(err.splitlines()) == 1 and "starts_in_think" in err, err
    assert "finereason-oracle" in err and "finereason-random" in err


def test_limit_runs_are_marked_and_never_ranked(tmp_path, capsys):
    write_run(tmp_path / "runs", "finereason-shallow", 0.9, limit=5)   # shallow at --limit 5 looks best
    write_run(tmp_path / "runs", "finereason-oracle", 0.6)
    write_run(tmp_path / "runs", "finereason-random", 0.3)
    code, err = build(tmp_path / "runs", tmp_path / "board", capsys)
    assert code == 0, err
    rows = {r["model"]: r for r in json.loads((tmp_path / "board" / "leaderboard.json").read_text())["rows"]}
    assert rows["finereason-shallow"]["rank"] is None and rows["finereason-shallow"]["limit"] == 5
    assert (rows["finereason-oracle"]["rank"], rows["finereason-random"]["rank"]) == (1, 2)
    assert rows["finereason-oracle"]["limit"] is None
    md = (tmp_path / "board" / "leaderboard.md").read_text()
    line = next(x for x in md.splitlines() if "finereason-shallow" in x)
    assert "--limit 5" in line and line.startswith("| —"), line
    page = (tmp_path / "board" / "index.html").read_text()
    assert "--limit 5" in page


def test_baselines_have_no_weight_precision(tmp_path, capsys):
    write_run(tmp_path / "runs", "finereason-oracle", 1.0)
    code, err = build(tmp_path / "runs", tmp_path / "board", capsys)
    assert code == 0, err
    md = (tmp_path / "board" / "leaderboard.md").read_text()
    line = next(x for x in md.splitlines() if "finereason-oracle" in x)
    cells = [c.strip() for c in line.strip("|").split("|")]
    assert cells[3] == "—" and "Missing" not in md, line
    page = (tmp_path / "board" / "index.html").read_text()
    assert '<td data-col="precision" class="left">—</td>' in page and ">Missing<" not in page


def test_submissions_record_the_read_context_and_the_board_keeps_it_apart(tmp_path, capsys):
    run = write_run(tmp_path / "think", "finereason-oracle", 1.0, think=True)
    out = tmp_path / "sub"
    assert main(["leaderboard", "submit", str(run), "--repo-id", "me/requests", "--out", str(out), "--dry-run"]) == 0
    capsys.readouterr()
    results = json.loads(next((out / "results").rglob("results_*.json")).read_text())
    request = json.loads(next((out / "requests").rglob("*.json")).read_text())
    assert results["config"]["read_context"]["starts_in_think"] is True
    assert request["read_context"]["starts_in_think"] is True
    assert results["config"]["data_source"]["fingerprint"] == DATA_A
    # the submission (read with starts_in_think) and a plain lm-eval run on the same data: refused
    write_run(out / "results" / "plain", "finereason-random", 0.4)
    code, err = build(out / "results", tmp_path / "board", capsys)
    assert code == 2 and "starts_in_think true" in err and "starts_in_think false" in err, err


def test_a_suite_read_in_two_contexts_is_not_submitted(tmp_path, capsys):
    run = write_run(tmp_path / "mixed", "finereason-oracle", 1.0, think=True)
    data = json.loads(run.read_text())
    first = next(iter(data["configs"]))
    data["configs"][first]["metadata"]["starts_in_think"] = False
    run.write_text(json.dumps(data))
    out = tmp_path / "sub"
    assert main(["leaderboard", "submit", str(run), "--repo-id", "me/requests", "--out", str(out), "--dry-run"]) == 2
    err = capsys.readouterr().err.strip()
    assert "different read contexts" in err and len(err.splitlines()) == 1 and not out.exists()
