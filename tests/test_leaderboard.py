"""Leaderboard submissions (validation, template layout, offline) and the static page, on real
lm-eval runs of the three baselines over a small local build."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from finereason.cli import main
from finereason.leaderboard.suites import suite_tasks, task_version
from finereason.prompts import PROMPT_VERSION

pytest.importorskip("lm_eval")
pytest.importorskip("datasets")

BASELINES = ("finereason-oracle", "finereason-random", "finereason-shallow")


@pytest.fixture(scope="module")
def runs(tmp_path_factory, small_dataset) -> dict[str, Path]:
    """A small build, the baselines on the `finereason` group (full), and one run with --limit."""
    from finereason.lm_eval_models import our_tasks_only

    root = tmp_path_factory.mktemp("board")
    data = small_dataset
    saved = {k: os.environ.get(k) for k in ("FINEREASON_DATA_DIR",)}
    os.environ["FINEREASON_DATA_DIR"] = str(data)
    try:
        for model in BASELINES:
            with our_tasks_only():
                assert main(["eval", "--model", model, "--tasks", "finereason", "--output_path", str(root / "runs"),
                             "--log_samples"]) == 0
        with our_tasks_only():
            assert main(["eval", "--model", "finereason-oracle", "--tasks", "finereason", "--output_path",
                         str(root / "limited"), "--log_samples", "--limit", "3"]) == 0
    finally:
        for key, value in saved.items():
            os.environ.pop(key, None) if value is None else os.environ.__setitem__(key, value)
    return {"root": root, "data": data, "runs": root / "runs", "limited": root / "limited"}


def submit(*args: str) -> int:
    return main(["leaderboard", "submit", *args])


def test_dry_run_submission_of_every_baseline_validates(runs, tmp_path, capsys):
    fingerprint = json.loads((runs["data"] / "build_info.json").read_text())["data"]["fingerprint"]
    for model in BASELINES:
        out = tmp_path / model
        assert submit(str(runs["runs"]), "--repo-id", "me/requests", "--model", model, "--out", str(out), "--dry-run") == 0
        captured = capsys.readouterr()
        assert "--dry-run: wrote the submission locally only" in captured.err
        request = json.loads(next((out / "requests").rglob("*.json")).read_text())
        results = json.loads(next((out / "results").rglob("results_*.json")).read_text())
        assert request["model"] == model and request["status"] == "PENDING"
        for key in ("base_model", "revision", "precision", "weight_type", "submitted_time"):
            assert key in request
        assert request["data_fingerprint"] == fingerprint == results["config"]["data_source"]["fingerprint"]
        assert set(results["results"]) == set(suite_tasks("finereason"))
        assert results["config"]["prompt_version"] == PROMPT_VERSION
        assert all(v == task_version(t) for t, v in results["config"]["task_versions"].items())
        assert "path" not in results["config"]["data_source"]  # no local paths leak into a public data set
        # the numbers are lm-eval's own, without filters or stderr entries
        raw = json.loads(next(runs["runs"].rglob("results_*.json")).read_text())
        if raw["config"]["model"] == model:
            task = "finereason_sudoku_state_checking"
            assert results["results"][task]["acc"] == raw["results"][task]["acc,none"]
    assert json.loads(next((tmp_path / "finereason-oracle" / "results").rglob("*.json")).read_text())["results"][
        "finereason_sudoku_state_transition"]["acc"] == 1.0


def test_limit_is_refused_with_the_reason(runs, tmp_path, capsys):
    out = tmp_path / "sub"
    assert submit(str(runs["limited"]), "--repo-id", "me/requests", "--out", str(out), "--dry-run") == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("finereason: error:") and "\n" not in err
    assert "--limit 3" in err and "every item" in err
    assert not out.exists()


def test_several_models_need_model_and_missing_suite_tasks_are_refused(runs, tmp_path, capsys):
    assert submit(str(runs["runs"]), "--repo-id", "me/requests", "--out", str(tmp_path / "a"), "--dry-run") == 2
    assert "choose one with --model" in capsys.readouterr().err
    assert submit(str(runs["runs"]), "--repo-id", "me/requests", "--model", "finereason-oracle", "--suite",
                  "finereason_end_to_end", "--out", str(tmp_path / "b"), "--dry-run") == 2
    assert "missing finereason_sudoku_end_to_end" in capsys.readouterr().err
    assert submit(str(runs["runs"]), "--repo-id", "not-a-repo", "--dry-run") == 2
    assert "--repo-id must be ORG/NAME" in capsys.readouterr().err


def _one_model_copy(runs, tmp_path: Path, model: str = "finereason-oracle") -> tuple[Path, Path]:
    """A copy of the run folder holding only ``model``'s results file and samples."""
    copy = tmp_path / "copy"
    for results in runs["runs"].rglob("results_*.json"):
        if json.loads(results.read_text())["config"]["model"] == model:
            stamp = results.name[len("results_"):-len(".json")]
            copy.mkdir()
            for f in results.parent.glob(f"*{stamp}*"):
                shutil.copy(f, copy / f.name)
            return copy, copy / results.name
    raise AssertionError(model)


@pytest.mark.parametrize("tamper, reason", [
    (lambda d: d["versions"].__setitem__("finereason_sudoku_state_transition", 1.0), "task version 1.0 is not the current"),
    (lambda d: d["configs"]["finereason_game_of_24_state_checking"]["metadata"].pop("data_source"), "no data fingerprint"),
    (lambda d: d["configs"]["finereason_game_of_24_state_checking"]["metadata"]["data_source"].__setitem__("fingerprint", "0" * 64),
     "2 different data sets"),
])
def test_stale_or_mixed_results_are_refused(runs, tmp_path, capsys, tamper, reason):
    copy, results = _one_model_copy(runs, tmp_path)
    assert submit(str(copy), "--repo-id", "me/requests", "--out", str(tmp_path / "ok"), "--dry-run") == 0
    data = json.loads(results.read_text())
    tamper(data)
    results.write_text(json.dumps(data))
    capsys.readouterr()
    assert submit(str(copy), "--repo-id", "me/requests", "--out", str(tmp_path / "sub"), "--dry-run") == 2
    assert reason in capsys.readouterr().err


def test_old_prompt_version_in_samples_is_refused(runs, tmp_path, capsys):
    copy, _ = _one_model_copy(runs, tmp_path)
    samples = next(copy.glob("samples_finereason_grid_puzzle_state_checking_*.jsonl"))
    lines = [json.loads(line) for line in samples.read_text().splitlines() if line.strip()]
    lines[0]["doc"]["prompt_version"] = "v1"
    samples.write_text("".join(json.dumps(r) + "\n" for r in lines))
    assert submit(str(copy), "--repo-id", "me/requests", "--out", str(tmp_path / "sub"), "--dry-run") == 2
    assert "1 rows were made with an old prompt version" in capsys.readouterr().err
    samples.unlink()  # without samples the prompt version cannot be checked: said, not hidden
    assert submit(str(copy), "--repo-id", "me/requests", "--out", str(tmp_path / "sub"), "--dry-run") == 0
    assert "prompt version not checked for 1 tasks" in capsys.readouterr().err


def test_offline_submission_writes_locally_and_says_so(runs, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    import huggingface_hub

    monkeypatch.setattr(huggingface_hub.HfApi, "upload_file", lambda *a, **k: pytest.fail("uploaded while offline"))
    out = tmp_path / "sub"
    assert submit(str(runs["runs"]), "--repo-id", "me/requests", "--model", "finereason-random", "--out", str(out)) == 0
    assert "offline (HF_HUB_OFFLINE is set): wrote the submission locally only" in capsys.readouterr().err
    assert len(list(out.rglob("*.json"))) == 2


def test_online_submission_uploads_both_files(runs, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "0")
    import huggingface_hub

    calls = []
    monkeypatch.setattr(huggingface_hub.HfApi, "upload_file", lambda self, **k: calls.append(k))
    assert submit(str(runs["runs"]), "--repo-id", "me/requests", "--model", "finereason-random",
                  "--model-name", "org/my-model", "--precision", "bfloat16", "--out", str(tmp_path)) == 0
    assert [(c["repo_id"], c["path_in_repo"].split("/")[0]) for c in calls] == [("me/requests", "org"), ("me/results", "org")]
    assert calls[0]["path_in_repo"] == "org/my-model_eval_request_False_bfloat16_Original.json"
    assert "uploaded: https://huggingface.co/datasets/me/requests/" in capsys.readouterr().out


# ------------------------------------------------------------------ the static page
@pytest.fixture(scope="module")
def board(runs, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("page")
    assert main(["leaderboard", "build", str(runs["runs"]), "--out", str(out)]) == 0
    return out


def test_markdown_and_json_list_every_baseline(board):
    md = (board / "leaderboard.md").read_text()
    table = json.loads((board / "leaderboard.json").read_text())
    for model in BASELINES:
        assert f"| {model} |" in md
    assert [m["model"] for m in table["models"]][0] == "finereason-oracle"  # ranked by ST strict
    oracle = table["models"][0]
    assert oracle["st_strict"] == oracle["sc_mean"] == 1.0 and oracle["parse_error_rate"] == 0.0
    for key in ("st_paper", "precision_unsolvable", "recall_unsolvable", "f1_unsolvable", "sc_sudoku", "st_grid_puzzle"):
        assert key in oracle


def test_page_is_self_contained(board):
    page = (board / "index.html").read_text()
    for model in BASELINES:
        assert f"<td>{model}</td>" in page
    lowered = page.lower()
    assert " src=" not in lowered and " href=" not in lowered and "@import" not in lowered and "url(" not in lowered
    assert page.count("<svg") == 4 + 3  # a chart per puzzle, a breakdown per model


def test_build_accepts_submission_results_files(runs, tmp_path):
    for model in BASELINES:
        assert submit(str(runs["runs"]), "--repo-id", "me/requests", "--model", model, "--out", str(tmp_path / "sub"), "--dry-run") == 0
    assert main(["leaderboard", "build", str(tmp_path / "sub" / "results"), "--out", str(tmp_path / "page")]) == 0
    md = (tmp_path / "page" / "leaderboard.md").read_text()
    assert all(f"| {m} |" in md for m in BASELINES)
    assert main(["leaderboard", "build", str(tmp_path / "nothing"), "--out", str(tmp_path / "p2")]) == 2


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    pytest.skip("headless Chromium is absent (Debian: apt-get install chromium)")


def _headless(page: Path, *args: str, tmp: Path) -> subprocess.CompletedProcess:
    return subprocess.run([_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                           "--disable-dev-shm-usage", f"--user-data-dir={tmp / 'profile'}", "--enable-logging=stderr",
                           "--v=0", *args, page.as_uri() + "#selftest"], capture_output=True, text=True, timeout=120)


def _console_errors(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]


def test_page_in_headless_chromium_sorts_every_column_without_console_errors(board, tmp_path):
    done = _headless(board / "index.html", "--dump-dom", tmp=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    result = done.stdout.split('id="selftest-result">', 1)[1].split("<", 1)[0]
    columns = len(json.loads((board / "leaderboard.json").read_text())["columns"]) + 1  # + the model column
    assert columns == 16 and result.startswith(f"PASS {columns} columns sorted both ways"), result
    assert "models: " + " | ".join(sorted(BASELINES)) in result
    assert _console_errors(done.stderr) == []
    shot = tmp_path / "leaderboard.png"
    done = _headless(board / "index.html", f"--screenshot={shot}", "--window-size=1400,1000", tmp=tmp_path)
    assert done.returncode == 0 and shot.stat().st_size > 10_000
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    if os.environ.get("FINEREASON_SCREENSHOT_DIR"):  # docs/leaderboard.png is made this way
        shutil.copy(shot, Path(os.environ["FINEREASON_SCREENSHOT_DIR"]) / "leaderboard.png")


def test_selftest_catches_a_broken_sort_and_console_errors(board, tmp_path):
    page = (board / "index.html").read_text()
    broken = tmp_path / "broken.html"
    broken.write_text(page.replace("return descending ? -c : c;", "return c;"))
    done = _headless(broken, "--dump-dom", tmp=tmp_path)
    assert 'id="selftest-result">FAIL' in done.stdout
    noisy = tmp_path / "noisy.html"
    noisy.write_text(page.replace("</body>", "<script>console.error('boom'); undefinedFunction();</script></body>"))
    done = _headless(noisy, "--dump-dom", tmp=tmp_path)
    assert len(_console_errors(done.stderr)) >= 1
