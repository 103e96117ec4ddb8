"""The Gradio Space (hub_cards/leaderboard/app.py): its board from a local results folder, its controls
(the rules of the static page), the Space folder that `leaderboard space` writes, and the app in
headless Chromium when gradio is installed."""
from __future__ import annotations

import importlib.util
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

from finereason.commands import main
from finereason.integrations.leaderboard.suites import suite_tasks

APP = Path(__file__).resolve().parents[2] / "hub_cards" / "leaderboard" / "app.py"


def _app():
    spec = importlib.util.spec_from_file_location("leaderboard_space_app", APP)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up
    spec.loader.exec_module(module)
    return module


def _results(folder: Path, model: str, acc: float, precision: str = "bfloat16", suite: str = "finereason_full",
             params: float | None = None) -> None:
    """A submission results file as `leaderboard submit` writes it (template layout), 100 rows a task."""
    metrics = {"acc": acc, "acc_paper": acc, "parse_error_rate": 0.25, "precision_unsolvable": 0.0,
               "recall_unsolvable": 0.0, "f1_unsolvable": 0.0}
    counts = {"n_solvable": 50, "n_unsolvable": 50, "n_pred_unsolvable": 0}  # never says unsolvable: P undefined
    tasks = suite_tasks(suite)
    target = folder / "results" / model / f"main_{precision}_{suite}" / "results_2026-01-01T00-00-00Z.json"
    target.parent.mkdir(parents=True)
    target.write_text(json.dumps({"config": {"model_name": model, "revision": "main", "precision": precision,
                                             "model_type": "pretrained", "params": params, "suite": suite,
                                             "submitted_time": "2026-01-01T00:00:00Z",
                                             "n_samples": {t: 100 for t in tasks}, "counts": {t: counts for t in tasks}},
                                  "results": {t: metrics for t in tasks}}))


@pytest.fixture
def folder(tmp_path, monkeypatch) -> Path:
    _results(tmp_path, "org/weak", 0.25, "float16", params=0.5)
    _results(tmp_path, "org/strong", 0.75, params=7)
    _results(tmp_path, "org/strong", 0.70, "float32", params=7)
    _results(tmp_path, "org/strong", 0.6, suite="finereason_official", params=7)
    monkeypatch.setenv("RESULTS_DIR", str(tmp_path))
    return tmp_path


def _models(markup: str) -> list[str]:
    return [part.split("<", 1)[0].strip() for part in markup.split('data-col="model">')[1:]]


def test_space_board_ranks_and_formats_like_the_static_page(folder):
    app = _app()
    board = app.load_board(app.results_folder())
    markup = app.render(board, view="generated")
    assert _models(markup) == ["org/strong", "org/strong", "org/weak"]
    assert "3 of 4 rows shown" in markup
    assert "75.0" in markup and "± " in markup  # value ± half-width, interval and n in the tooltip
    assert "95 % CI" in markup and "n = 400" in markup  # SC mean: 4 puzzles of 100
    assert 'data-col="precision_unsolvable" data-value="" title="undefined' in markup  # 0 of 0: a dash, never 0
    assert 'data-col="recall_unsolvable" data-value="0.0"' in markup  # a real 0 stays 0
    assert 'aria-sort="ascending"' in markup  # the order is shown; the Sort by control changes it
    assert 'tabindex="0"' not in markup  # no header pretends to sort on a click
    assert "word-break:keep-all" in app.CSS  # headers never break mid-word


def test_space_controls_search_filter_select_columns_and_sort(folder):
    app = _app()
    board = app.load_board(app.results_folder())
    assert [k for k, _, _ in board.filters] == ["view", "puzzle", "type", "size", "precision"]
    assert _models(app.render(board, "weak", view="generated")) == ["org/weak"]  # search narrows rows
    assert _models(app.render(board, view="official")) == ["org/strong"]
    assert len(_models(app.render(board, view=""))) == 4
    assert _models(app.render(board, view="generated", precision="float16")) == ["org/weak"]
    assert _models(app.render(board, view="generated", size="<1B")) == ["org/weak"]
    assert len(_models(app.render(board, view="generated", type="pretrained"))) == 3
    sudoku = app.render(board, view="generated", puzzle="sudoku")
    assert 'data-col="sc_sudoku"' in sudoku and 'data-col="sc_game_of_24"' not in sudoku
    assert 'data-col="sc_sudoku"' not in app.render(board, view="generated")  # per-puzzle columns off by default
    few = app.render(board, view="generated", columns=["average", "precision"])
    assert 'data-col="average"' in few and 'data-col="st_strict"' not in few and 'data-col="revision"' not in few
    ascending = _models(app.render(board, view="generated", sort="average"))
    assert ascending == ["org/weak", "org/strong", "org/strong"]
    assert _models(app.render(board, view="generated", sort="average", descending=True))[0] == "org/strong"
    assert board.csv().splitlines()[0].startswith("rank,rank_tied,model,revision,precision")


def test_space_readme_has_space_metadata():
    text = (APP.parent / "README.md").read_text()
    front = text.split("---", 2)[1]
    for key in ("sdk: gradio", "app_file: app.py", "title:"):
        assert key in front
    project = (APP.parents[2] / "pyproject.toml").read_text()
    licence = project.split('license = { text = "', 1)[1].split('"', 1)[0]
    assert f"\nlicense: {licence.lower()}\n" in front  # the project's licence (MIT)


def test_space_folder_installs_from_its_own_files(tmp_path, capsys):
    out = tmp_path / "space"
    scratch = APP.parents[2] / "build"
    had_scratch = scratch.exists()
    assert main(["leaderboard", "space", "--out", str(out)]) == 0
    assert scratch.exists() == had_scratch  # no build/ left behind in the checkout
    assert "pip install -r requirements.txt" in capsys.readouterr().out
    lines = (out / "requirements.txt").read_text().splitlines()
    wheel = out / lines[0].removeprefix("./").removesuffix("[hub]")
    assert lines[0].startswith("./finereason-") and lines[0].endswith(".whl[hub]") and wheel.is_file()
    assert "gradio>=5" in lines and not any(line.startswith("finereason[") for line in lines)
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        meta = archive.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert "Name: finereason" in meta and "Provides-Extra: hub" in meta
    assert "finereason/integrations/leaderboard/page.js" in names and "finereason/hub_cards/leaderboard/app.py" in names
    assert (out / "app.py").read_text() == APP.read_text()
    # the wheel line resolves from inside the folder, with no package index at all
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--dry-run", "--force-reinstall", "--no-deps", "--no-index", lines[0]],
                          cwd=out, capture_output=True, text=True)
    assert done.returncode == 0 and "Would install finereason" in done.stdout, done.stderr[-1000:]


def test_space_folder_from_a_non_editable_install(tmp_path):
    """Installed from a wheel (no source tree beside the package), the Space folder still gets a wheel: the
    installed files packed again, which installs with no package index."""
    first = tmp_path / "first"
    assert main(["leaderboard", "space", "--out", str(first)]) == 0
    (built,) = first.glob("finereason-*.whl")
    site = tmp_path / "site"
    zipfile.ZipFile(built).extractall(site)
    env = {**os.environ, "PYTHONPATH": str(site)}
    code = "import finereason, sys; from finereason.commands import main; print(finereason.__file__); sys.exit(main(sys.argv[1:]))"
    done = subprocess.run([sys.executable, "-c", code, "leaderboard", "space", "--out", "space"], cwd=tmp_path, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    assert Path(done.stdout.splitlines()[0]).is_relative_to(site)  # the installed copy ran
    lines = (tmp_path / "space" / "requirements.txt").read_text().splitlines()
    wheel = tmp_path / "space" / lines[0].removeprefix("./").removesuffix("[hub]")
    with zipfile.ZipFile(built) as a, zipfile.ZipFile(wheel) as b:
        assert sorted(a.namelist()) == sorted(b.namelist())
        assert all(a.read(n) == b.read(n) for n in a.namelist() if not n.endswith("/RECORD"))
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--dry-run", "--force-reinstall", "--no-deps", "--no-index", lines[0]],
                          cwd=tmp_path / "space", capture_output=True, text=True)
    assert done.returncode == 0 and "Would install finereason" in done.stdout, done.stderr[-1000:]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_space_app_in_headless_chromium(folder, tmp_path):
    pytest.importorskip("gradio", reason="gradio is not installed (the Space installs it from requirements.txt; "
                                         "pip install gradio to run this test)")
    chromium = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)
    if chromium is None:
        pytest.skip("headless Chromium is absent (Debian: apt-get install chromium)")
    port = _free_port()
    env = dict(os.environ, GRADIO_SERVER_PORT=str(port), GRADIO_SERVER_NAME="127.0.0.1", GRADIO_ANALYTICS_ENABLED="False")
    server = subprocess.Popen([sys.executable, str(APP)], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        url = f"http://127.0.0.1:{port}/"
        for _ in range(120):
            try:
                if urllib.request.urlopen(url, timeout=2).status == 200:
                    break
            except OSError:
                time.sleep(0.5)
        else:
            pytest.fail("the Space did not start: " + (server.stdout.read() if server.poll() is not None else ""))
        done = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                               "--disable-dev-shm-usage", f"--user-data-dir={tmp_path / 'profile'}",
                               "--window-size=1400,1000", "--virtual-time-budget=20000", "--enable-logging=stderr",
                               "--v=0", "--dump-dom", url], capture_output=True, text=True, timeout=120)
    finally:
        server.terminate()
        server.wait(timeout=30)
    dom = done.stdout
    assert done.returncode == 0
    assert "3 of 4 rows shown" in dom and dom.count('data-col="model">org/strong <a') == 2  # the rendered board
    for control in ('id="search"', 'id="f-view"', 'id="f-puzzle"', 'id="f-precision"', 'id="column-selector"', 'id="sort"'):
        assert control in dom, control
    assert "± " in dom and ">—<" in dom
    assert not [line for line in done.stderr.splitlines() if "Uncaught" in line]
