"""Leaderboard submissions (validation, template layout, offline) and the static page, on real
lm-eval runs of the three baselines over a small local build."""
from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from finereason.reading import ReadContext, read_context_of
from finereason.commands import main
from finereason.integrations.leaderboard.suites import DEFAULT_SUITE, suite_tasks, task_version
from finereason.core.prompts import PROMPT_VERSION

pytest.importorskip("lm_eval")
pytest.importorskip("datasets")

BASELINES = ("finereason-oracle", "finereason-random", "finereason-shallow")


def _official_sample(src: Path, dest: Path, states: int = 12, questions: int = 6) -> Path:
    """The first rows of each official file (a quick official suite; the import checks every row it gets)."""
    dest.mkdir()
    for path in src.glob("*.jsonl"):
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        (dest / path.name).write_text("".join(lines[:questions if "questions" in path.name else states]), encoding="utf-8")
    return dest


@pytest.fixture(scope="session")
def runs(request) -> dict[str, Path]:
    """A small build with a trimmed official release, the baselines on every suite (full, with
    samples), and one run with --limit (made once per test run; tests only read them)."""
    from conftest import once_per_run

    made = once_per_run(request, "leaderboard-runs", _make_runs)
    return {k: v if k == "official" else Path(v) for k, v in made.items()}


def _make_runs(root: Path) -> dict:
    from finereason.integrations.lm_eval.models import our_tasks_only

    from conftest import SHARED

    data = root / "ds"
    assert main(["build", "--out", str(data), "--per-task", "8", "--train-size", "0", "--e2e-size", "2"]) == 0
    have_official = (SHARED / "finereason_official").is_dir()  # without it: no official suite, those tests skip
    if have_official:
        official = _official_sample(SHARED / "finereason_official", root / "official")
        assert main(["import-official", "--src", str(official), "--out", str(data), "--overwrite"]) == 0
    tasks = "finereason,finereason_end_to_end" + (",finereason_official" if have_official else "")
    saved = {k: os.environ.get(k) for k in ("FINEREASON_DATA_DIR",)}
    os.environ["FINEREASON_DATA_DIR"] = str(data)
    try:
        for model in BASELINES:
            with our_tasks_only():
                assert main(["eval", "--model", model, "--tasks", tasks,
                             "--output_path", str(root / "runs"), "--log_samples"]) == 0
        with our_tasks_only():
            assert main(["eval", "--model", "finereason-oracle", "--tasks", "finereason", "--output_path",
                         str(root / "limited"), "--log_samples", "--limit", "3"]) == 0
    finally:
        for key, value in saved.items():
            os.environ.pop(key, None) if value is None else os.environ.__setitem__(key, value)
    return {"root": str(root), "data": str(data), "runs": str(root / "runs"), "limited": str(root / "limited"),
            "official": have_official}


def _suites(runs) -> tuple[str, ...]:
    """The suites submitted: the official one only when ../shared has the official release."""
    return ("finereason_full", "finereason_official") if runs["official"] else ("finereason_full",)


def _need_official(runs) -> None:
    if not runs["official"]:
        pytest.skip("reference data ../shared/finereason_official is absent: no official-suite runs")


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
        assert request["suite"] == DEFAULT_SUITE == "finereason_full" and request["model_type"] == "baseline"
        assert set(results["results"]) == set(suite_tasks("finereason")) | set(suite_tasks("finereason_end_to_end"))
        samples = sorted(p.name for p in (out / "results").rglob("samples_*.jsonl"))  # copied beside the results
        assert len(samples) == len(results["results"]) and all(p.endswith(".jsonl") for p in samples)
        counts = results["config"]["counts"]["finereason_sudoku_state_checking"]
        assert counts["n_solvable"] + counts["n_unsolvable"] == results["config"]["n_samples"]["finereason_sudoku_state_checking"]
        assert results["config"]["prompt_version"] == PROMPT_VERSION
        # the read context the runs were scored in is recorded, and the board reads it back
        assert request["read_context"] == results["config"]["read_context"] == ReadContext().to_dict()
        assert read_context_of(results) == ReadContext()
        assert all(v == task_version(t) for t, v in results["config"]["task_versions"].items())
        assert "path" not in results["config"]["data_source"]  # no local paths leak into a public data set
        # the numbers are lm-eval's own, without filters or stderr entries
        raw = json.loads(next(runs["runs"].rglob("results_*.json")).read_text())
        if raw["config"]["model"] == model:
            task = "finereason_sudoku_state_checking"
            assert results["results"][task]["acc"] == raw["results"][task]["acc,none"]
    assert json.loads(next((tmp_path / "finereason-oracle" / "results").rglob("results_*.json")).read_text())["results"][
        "finereason_sudoku_state_transition"]["acc"] == 1.0


def test_limit_is_refused_with_the_reason(runs, tmp_path, capsys):
    out = tmp_path / "sub"
    assert submit(str(runs["limited"]), "--repo-id", "me/requests", "--suite", "finereason", "--out", str(out), "--dry-run") == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("finereason: error:") and "\n" not in err
    assert "--limit 3" in err and "every item" in err
    assert not out.exists()


def test_several_models_need_model_and_missing_suite_tasks_are_refused(runs, tmp_path, capsys):
    assert submit(str(runs["runs"]), "--repo-id", "me/requests", "--out", str(tmp_path / "a"), "--dry-run") == 2
    assert "choose one with --model" in capsys.readouterr().err
    assert submit(str(runs["limited"]), "--repo-id", "me/requests", "--out", str(tmp_path / "b"), "--dry-run") == 2
    assert "missing finereason_sudoku_end_to_end" in capsys.readouterr().err  # the default suite has end-to-end
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
    assert len(list(out.rglob("*_eval_request_*.json"))) == len(list(out.rglob("results_*.json"))) == 1
    assert len(list(out.rglob("samples_*.jsonl"))) == len(suite_tasks(DEFAULT_SUITE))


def test_online_submission_uploads_both_files(runs, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "0")
    import huggingface_hub

    calls = []
    monkeypatch.setattr(huggingface_hub.HfApi, "upload_file", lambda self, **k: calls.append(k))
    assert submit(str(runs["runs"]), "--repo-id", "me/requests", "--model", "finereason-random",
                  "--model-name", "org/my-model", "--precision", "bfloat16", "--out", str(tmp_path)) == 0
    assert [(c["repo_id"], c["path_in_repo"].split("/")[0]) for c in calls[:2]] == [("me/requests", "org"), ("me/results", "org")]
    assert calls[0]["path_in_repo"] == "org/my-model_eval_request_False_bfloat16_Original_main_finereason_full.json"
    assert calls[1]["path_in_repo"].startswith("org/my-model/main_bfloat16_finereason_full/results_")
    assert len(calls) == 2 + len(suite_tasks(DEFAULT_SUITE))  # and the logged samples, to the results data set
    assert {c["repo_id"] for c in calls[2:]} == {"me/results"}
    assert "uploaded: https://huggingface.co/datasets/me/requests/" in capsys.readouterr().out


# ------------------------------------------------------------------ round trips and the board
def _submissions(runs, out: Path) -> Path:
    """The bar's submissions: the oracle at two precisions, random and shallow, each on both suites."""
    plan = [("finereason-oracle", ["--precision", "float32"]), ("finereason-oracle", ["--precision", "bfloat16"]),
            ("finereason-random", ["--model-name", "org/random-model", "--params", "0.1", "--model-type", "pretrained"]),
            ("finereason-shallow", [])]
    for model, extra in plan:
        for suite in _suites(runs):
            assert submit(str(runs["runs"]), "--repo-id", "me/requests", "--model", model, "--suite", suite,
                          "--out", str(out), "--dry-run", *extra) == 0
    return out


@pytest.fixture(scope="session")
def board(runs, tmp_path_factory) -> Path:
    sub = _submissions(runs, tmp_path_factory.mktemp("submissions"))
    out = tmp_path_factory.mktemp("page")
    assert main(["leaderboard", "build", str(sub / "results"), "--out", str(out)]) == 0
    return out


def test_submissions_round_trip_two_precisions_and_both_suites(runs, board, tmp_path):
    """The bar: four rows (two precisions of one model), both views populated."""
    _need_official(runs)
    sub = _submissions(runs, tmp_path / "sub")
    requests = sorted(p.name for p in (sub / "requests").rglob("*.json"))
    assert len(requests) == 8  # one per (model, revision, precision, suite): nothing overwritten
    assert "finereason-oracle_eval_request_False_float32_Original_main_finereason_official.json" in requests
    assert len(list((sub / "results").rglob("results_*.json"))) == 8
    _submissions(runs, tmp_path / "sub")  # a re-submission replaces its own files only
    assert len(list((sub / "results").rglob("results_*.json"))) == 8
    table = json.loads((board / "leaderboard.json").read_text())
    keys = {(r["model"], r["revision"], r["precision"]) for r in table["rows"]}
    assert keys == {("finereason-oracle", "main", "float32"), ("finereason-oracle", "main", "bfloat16"),
                    ("org/random-model", "main", "Missing"), ("finereason-shallow", "main", "Missing")}
    for view in ("generated", "official"):
        rows = [r for r in table["rows"] if r["view"] == view]
        assert len(rows) == 4 and all(r["average"] is not None and r["e2e"] is not None for r in rows)
        assert [r["model"] for r in rows][:2] == ["finereason-oracle"] * 2 and rows[0]["rank"] == rows[1]["rank"] == 1
        assert rows[0]["rank_tied"] and rows[0]["average"] == 1.0
        for r in rows:  # every defined cell has an n and an interval that holds the value
            for c in table["columns"]:
                if r[c["key"]] is not None and r[f"{c['key']}_lo"] is not None:
                    assert r[f"{c['key']}_lo"] <= r[c["key"]] <= r[f"{c['key']}_hi"] and r[f"{c['key']}_n"] > 0
    assert len(list((board / "models").glob("*.html"))) == 4


def test_csv_equals_json(runs, board):
    import csv

    table = json.loads((board / "leaderboard.json").read_text())
    with open(board / "leaderboard.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == len(table["rows"]) == 4 * len(_suites(runs))
    for got, want in zip(rows, table["rows"]):
        assert list(got) == list(want)
        for key, value in want.items():
            if value is None:
                assert got[key] == ""
            elif isinstance(value, bool):
                assert got[key] == str(value)
            elif isinstance(value, float):
                assert float(got[key]) == value
            else:
                assert got[key] == str(value)


def test_undefined_metrics_are_dashes_never_zero_and_never_averaged():
    from finereason.integrations.leaderboard.stats import Cell, mean, metric_cell, proportion

    undefined = metric_cell("precision_unsolvable", {"precision_unsolvable": 0.0}, 8, {"n_pred_unsolvable": 0})
    assert undefined.value is None and undefined.text() == "—"
    assert metric_cell("precision_unsolvable", {"precision_unsolvable": 0.0}, 8, {}).value is None  # 0 of maybe 0
    assert metric_cell("f1_unsolvable", {"f1_unsolvable": 0.0, "precision_unsolvable": 0.0}, 8,
                       {"n_pred_unsolvable": 0, "n_unsolvable": 4}).value is None
    defined = metric_cell("precision_unsolvable", {"precision_unsolvable": 0.0}, 8, {"n_pred_unsolvable": 3})
    assert defined.value == 0.0 and defined.n == 3 and defined.text().startswith("0.0 ± ")
    assert mean([proportion(1.0, 8), undefined]).value is None
    both = mean([proportion(0.5, 100), proportion(0.5, 100)])
    single = proportion(0.5, 100)
    assert both.value == 0.5 and both.n == 200
    assert abs((both.hi - both.lo) - (single.hi - single.lo) / 2 ** 0.5) < 1e-12  # halves combined in quadrature
    assert Cell(None).tip().startswith("undefined")


def test_markdown_lists_every_row_with_intervals(runs, board):
    md = (board / "leaderboard.md").read_text()
    table = json.loads((board / "leaderboard.json").read_text())
    assert "## Generated benchmark" in md and ("## Official release" in md) == runs["official"] and "Overall" in md
    for r in table["rows"]:
        shown = "—" if r["precision"] == "Missing" else r["precision"]  # no weights' precision to name: "—"
        assert f"| {r['model']} | main | {shown} |" in md
    assert " ± " in md and "| 0 |" not in md


def test_page_links_hub_models_only_and_is_otherwise_self_contained(board):
    page = (board / "index.html").read_text()
    lowered = page.lower()
    assert " src=" not in lowered and "@import" not in lowered and "url(" not in lowered
    hrefs = re.findall(r'href="([^"]+)"', page)
    external = {h for h in hrefs if "://" in h}
    assert external == {"https://huggingface.co/org/random-model"}
    for h in hrefs:
        if "://" not in h:
            assert (board / h).is_file(), h
    for needle in ('<input type="search"', 'id="f-view"', 'id="f-puzzle"', 'id="f-precision"', 'id="f-type"',
                   'id="f-size"', 'id="column-selector"', 'href="leaderboard.csv"', "Submit a model", "Ranked by"):
        assert needle in page, needle


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    pytest.skip("headless Chromium is absent (Debian: apt-get install chromium)")


def _headless(page: Path, *args: str, tmp: Path, fragment: str = "#selftest") -> subprocess.CompletedProcess:
    return subprocess.run([_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                           "--disable-dev-shm-usage", f"--user-data-dir={tmp / 'profile'}", "--enable-logging=stderr",
                           "--v=0", *args, page.as_uri() + fragment], capture_output=True, text=True, timeout=120)


def _console_errors(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]


def _selftest(board: Path, tmp: Path, width: int = 900) -> tuple[bool, dict, str]:
    done = _headless(board / "index.html", "--dump-dom", f"--window-size={width},1000", tmp=tmp)
    assert done.returncode == 0, done.stderr[-2000:]
    text = html.unescape(done.stdout.split('id="selftest-result">', 1)[1].split("<", 1)[0])
    return text.startswith("PASS "), json.loads(text.split(" ", 1)[1]), done.stderr


def test_page_in_headless_chromium(runs, board, tmp_path):
    ok, result, stderr = _selftest(board, tmp_path)
    assert ok, result
    assert result["window_width"] == 900 and not result["page_overflow"]  # the table scrolls, the page does not
    k = len(_suites(runs))
    assert result["rows_shown"] == 4 and result["rows_total"] == 4 * k  # the generated view first
    assert 0 < result["search_rows"] < result["rows_shown"]  # the search box narrows rows
    assert result["filters"]["view"] == ({"generated": 4, "official": 4, "all": 8} if k == 2 else {"generated": 4, "all": 4})
    assert result["filters"]["precision"] == {"all": 4 * k, "Missing": 2 * k, "bfloat16": k, "float32": k}
    assert result["filters"]["size"] == {"all": 4 * k, "<1B": k, "unknown": 3 * k}
    assert result["filters"]["type"] == {"all": 4 * k, "baseline": 3 * k, "pretrained": k}
    assert set(result["puzzles"]) == {"sudoku", "graph_coloring", "game_of_24", "grid_puzzle"}
    columns = len(json.loads((board / "leaderboard.json").read_text())["columns"]) + 7  # rank, model, 5 facts
    assert result["sorted_by_mouse"] == result["sorted_by_keyboard"] == columns
    assert result["column_toggled"]
    assert (board / result["csv_href"]).read_bytes() == (board / "leaderboard.csv").read_bytes()
    assert _console_errors(stderr) == []
    shot = tmp_path / "leaderboard.png"
    done = _headless(board / "index.html", f"--screenshot={shot}", "--window-size=1400,900", tmp=tmp_path, fragment="")
    assert done.returncode == 0 and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_every_drill_down_link_resolves_and_loads_cleanly(runs, board, tmp_path):
    page = (board / "index.html").read_text()
    drills = sorted(set(re.findall(r'class="drill" href="([^"]+)"', page)))
    assert len(drills) == 4
    for link in drills:
        target = board / link
        assert target.is_file(), link
        text = target.read_text()
        assert 'href="../index.html"' in text and "Every task metric" in text and "State-transition error categories" in text
        samples = set(re.findall(r'class="samples" href="([^"]+)"', text))
        assert len(samples) == sum(len(suite_tasks(s)) for s in _suites(runs))
        for s in samples:
            assert (target.parent / s).resolve().is_file(), s
        assert "rate_invalid_move" in text and "<td>—</td>" not in text.split("Every task metric")[0][-10:]
        done = _headless(target, "--dump-dom", tmp=tmp_path, fragment="")
        assert done.returncode == 0 and _console_errors(done.stderr) == []


def test_selftest_catches_a_broken_sort_and_console_errors(board, tmp_path):
    page = (board / "index.html").read_text()
    broken = tmp_path / "broken"
    shutil.copytree(board, broken)
    (broken / "index.html").write_text(page.replace("return descending ? -c : c;", "return c;"))
    ok, result, _ = _selftest(broken, tmp_path)
    assert not ok and any(f.startswith("mouse sort") for f in result["failures"])
    (broken / "index.html").write_text(page.replace('h.addEventListener("keydown"', 'h.addEventListener("keyup"'))
    ok, result, _ = _selftest(broken, tmp_path)
    assert not ok and any(f.startswith("keyboard sort") for f in result["failures"])
    (broken / "index.html").write_text(page.replace('if (f.value && r.getAttribute', 'if (false && r.getAttribute'))
    ok, result, _ = _selftest(broken, tmp_path)
    assert not ok and any(f.startswith("filter ") for f in result["failures"])
    (broken / "index.html").write_text(page.replace("</body>", "<script>console.error('boom'); undefinedFunction();</script></body>"))
    done = _headless(broken / "index.html", "--dump-dom", tmp=tmp_path)
    assert len(_console_errors(done.stderr)) >= 1


def test_build_reads_lm_eval_output_too(runs, tmp_path):
    assert main(["leaderboard", "build", str(runs["runs"]), "--out", str(tmp_path / "page")]) == 0
    table = json.loads((tmp_path / "page" / "leaderboard.json").read_text())
    assert sorted({r["model"] for r in table["rows"]}) == sorted(BASELINES)
    assert {r["view"] for r in table["rows"]} == ({"generated", "official"} if runs["official"] else {"generated"})
    assert main(["leaderboard", "build", str(tmp_path / "nothing"), "--out", str(tmp_path / "p2")]) == 2


def test_ranks_share_a_place_only_where_intervals_overlap():
    """Rank = 1 + rows whose Overall interval lies wholly above; overlapping rows tie (marked)."""
    from finereason.integrations.leaderboard.board import Entry, TaskData, columns, rows
    from finereason.integrations.leaderboard.suites import suite_tasks

    def entry(name: str, acc: float, n: int) -> Entry:
        return Entry(name, tasks={t: TaskData({"acc": acc}, n) for t in suite_tasks("finereason_full")})

    cols = columns(["sudoku", "graph_coloring", "game_of_24", "grid_puzzle"])
    ranked = rows([entry("a", 0.9, 500), entry("b", 0.5, 500), entry("c", 0.51, 500), entry("d", 0.5, 5)], cols)
    got = {r.entry.model: (r.rank, r.tied) for r in ranked}
    assert got["a"] == (1, False)
    assert got["b"] == got["c"] == (2, True)  # 50 % and 51 % of 4,000 answers: intervals overlap
    assert got["d"][0] == 2  # 5 rows a task: its wide interval overlaps b and c, not a
    avg = next(r for r in ranked if r.entry.model == "b").cells["average"]
    assert avg.n == 4000 and avg.lo < 0.5 < avg.hi  # the `finereason` group: SC and ST of four puzzles


def test_bad_submission_options_are_one_line_errors(runs, tmp_path, capsys):
    assert submit(str(runs["runs"]), "--repo-id", "me/requests", "--model", "finereason-oracle", "--params", "-3",
                  "--out", str(tmp_path / "s"), "--dry-run") == 2
    assert "--params must be a positive number of billions" in capsys.readouterr().err
    (tmp_path / "src").mkdir()
    assert main(["leaderboard", "space", "--out", str(tmp_path / "sp"), "--source", str(tmp_path / "src")]) == 2
    err = capsys.readouterr().err.strip()
    assert "not a finereason source tree" in err and "\n" not in err


def test_a_submission_names_one_read_context():
    """The suite's tasks must have been read in one context, the one the submission records."""
    from types import SimpleNamespace

    from finereason.integrations.leaderboard import LeaderboardError
    from finereason.integrations.leaderboard.submit import _read_context

    def model(*flags):
        return SimpleNamespace(tasks={f"t{i}": SimpleNamespace(context=ReadContext(f)) for i, f in enumerate(flags)})

    assert _read_context(model(True, True), ["t0", "t1"]) == ReadContext(True)
    with pytest.raises(LeaderboardError, match="different read contexts"):
        _read_context(model(True, False), ["t0", "t1"])
