"""What a non-editable install ships: metric modules, lm-eval tasks, builders and cards (issue 9.5)."""
from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import finereason

ROOT = Path(__file__).resolve().parents[1]
TASKS = ("state_checking", "state_transition", "end_to_end")


@pytest.mark.parametrize("task", TASKS)
def test_metric_path_names_an_evaluate_module(task):
    folder = Path(finereason.metric_path(task))
    assert folder.name == f"finereason_{task}" and (folder / f"finereason_{task}.py").is_file()
    assert finereason.metric_path(f"finereason_{task}") == str(folder)


def test_metric_path_rejects_unknown_tasks():
    with pytest.raises(ValueError, match="no metric module for 'sudoku'"):
        finereason.metric_path("sudoku")


def test_metric_path_loads_with_evaluate():
    evaluate = pytest.importorskip("evaluate")
    metric = evaluate.load(finereason.metric_path("end_to_end"))
    assert type(metric).__name__ == "FinereasonEndToEnd"


@pytest.mark.slow
def test_wheel_ships_every_runtime_file(tmp_path):
    pytest.importorskip("setuptools")
    pytest.importorskip("wheel")
    # built from a copy of the sources: setuptools writes build/ and *.egg-info into the tree it builds, which
    # must not race with the other test processes that import finereason from this checkout (pytest-xdist),
    # and a stale build/ in the checkout cannot hide a file the wheel would miss
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", "__pycache__",
                                                             ".hypothesis", ".pytest_cache"))
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", str(src), "-w", str(tmp_path), "--no-deps",
                           "--no-build-isolation", "-q"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    (wheel,) = tmp_path.glob("finereason-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {
        "finereason/data/resolve.py", "finereason/data/folder.py", "finereason/integrations/evaluate_metrics.py",
        "finereason/metrics/__init__.py", "finereason/lm_eval_tasks/finereason/utils.py",
        "finereason/lm_eval_tasks/finereason/_common_template_yaml", "finereason/hub_cards/dataset_card.md",
        "finereason/dataset_builders/build.py", "finereason/dataset_builders/layout.py",
        *(f"finereason/reading/vocabulary/{p.name}" for p in (ROOT / "finereason" / "reading" / "vocabulary").glob("*.json")),
        *(f"finereason/metrics/finereason_{t}/{n}" for t in TASKS for n in (f"finereason_{t}.py", "README.md")),
    }
    assert expected <= names, sorted(expected - names)
    yamls = {n for n in names if n.startswith("finereason/lm_eval_tasks/finereason/finereason_") and n.endswith(".yaml")}
    assert yamls == {f"finereason/lm_eval_tasks/finereason/{p.name}" for p in (ROOT / "lm_eval_tasks" / "finereason").glob("finereason_*.yaml")}
