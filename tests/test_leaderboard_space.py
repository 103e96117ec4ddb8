"""The Gradio Space app (hub_cards/leaderboard/app.py): its table from a local results folder; the UI
itself only when gradio is installed."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from finereason.leaderboard.suites import suite_tasks

APP = Path(__file__).resolve().parents[1] / "hub_cards" / "leaderboard" / "app.py"


def _app():
    spec = importlib.util.spec_from_file_location("leaderboard_space_app", APP)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _results(folder: Path, model: str, acc: float) -> None:
    """A submission results file as `leaderboard submit` writes it (template layout)."""
    metrics = {"acc": acc, "acc_paper": acc, "parse_error_rate": 0.25, "precision_unsolvable": 0.5,
               "recall_unsolvable": 0.5, "f1_unsolvable": 0.5}
    target = folder / "results" / model / "results_2026-01-01T00-00-00Z.json"
    target.parent.mkdir(parents=True)
    target.write_text(json.dumps({"config": {"model_name": model}, "results": {t: metrics for t in suite_tasks("finereason")}}))


def test_space_table_reads_a_results_folder(tmp_path, monkeypatch):
    _results(tmp_path, "org/weak", 0.25)
    _results(tmp_path, "org/strong", 0.75)
    monkeypatch.setenv("RESULTS_DIR", str(tmp_path))
    app = _app()
    headers, rows = app.load_table(app.results_folder())
    assert headers[0] == "Model" and "ST strict" in headers and "Parse err" in headers
    assert [r[0] for r in rows] == ["org/strong", "org/weak"]
    assert rows[0][headers.index("ST strict")] == 75.0 and rows[1][headers.index("Parse err")] == 25.0


def test_space_readme_has_space_metadata():
    text = (APP.parent / "README.md").read_text()
    front = text.split("---", 2)[1]
    for key in ("sdk: gradio", "app_file: app.py", "title:"):
        assert key in front


def test_space_ui_builds_when_gradio_is_installed(tmp_path, monkeypatch):
    gr = pytest.importorskip("gradio", reason="gradio is not installed (the Space installs it from requirements.txt)")
    _results(tmp_path, "org/m", 0.5)
    monkeypatch.setenv("RESULTS_DIR", str(tmp_path))
    monkeypatch.setattr(gr.Blocks, "launch", lambda self, *a, **k: None)
    _app().main()
