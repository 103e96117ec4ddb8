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


@pytest.fixture(scope="session")
def wheel(tmp_path_factory) -> Path:
    """A wheel of this checkout (built once per session)."""
    pytest.importorskip("setuptools")
    pytest.importorskip("wheel")
    tmp_path = tmp_path_factory.mktemp("wheel")
    # built from a copy of the sources: setuptools writes build/ and *.egg-info into the tree it builds, which
    # must not race with the other test processes that import finereason from this checkout (pytest-xdist),
    # and a stale build/ in the checkout cannot hide a file the wheel would miss
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", "__pycache__",
                                                             ".hypothesis", ".pytest_cache"))
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", str(src), "-w", str(tmp_path), "--no-deps",
                           "--no-build-isolation", "-q"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    (built,) = tmp_path.glob("finereason-*.whl")
    return built


@pytest.mark.slow
def test_builder_fingerprint_is_the_same_for_a_wheel_and_the_checkout(wheel, tmp_path):
    """The default benchmark's cache folder is keyed by this fingerprint: a wheel and an editable install
    of the same sources share one build."""
    from finereason.data.resolve import builder_fingerprint

    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    code = "import finereason.data.resolve as r; print(r.__file__); print(r.builder_fingerprint())"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                          env={**__import__("os").environ, "PYTHONPATH": str(site)})
    assert done.returncode == 0, done.stderr[-2000:]
    where, fingerprint = done.stdout.split()
    assert Path(where).is_relative_to(site)  # the wheel's copy was the one imported
    assert fingerprint == builder_fingerprint()


@pytest.mark.slow
def test_wheel_ships_every_runtime_file(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {
        "finereason/data/resolve.py", "finereason/data/folder.py", "finereason/integrations/evaluate_metrics.py",
        "finereason/metrics/__init__.py", "finereason/lm_eval_tasks/finereason/utils.py",
        "finereason/lm_eval_tasks/finereason/_common_template_yaml", "finereason/hub_cards/dataset_card.md",
        "finereason/dataset_builders/build.py", "finereason/dataset_builders/layout.py",
        "finereason/data/reference_checksums.tsv",
        *(f"finereason/reading/vocabulary/{p.name}" for p in (ROOT / "finereason" / "reading" / "vocabulary").glob("*.json")),
        *(f"finereason/metrics/finereason_{t}/{n}" for t in TASKS for n in (f"finereason_{t}.py", "README.md")),
    }
    assert expected <= names, sorted(expected - names)
    yamls = {n for n in names if n.startswith("finereason/lm_eval_tasks/finereason/finereason_") and n.endswith(".yaml")}
    assert yamls == {f"finereason/lm_eval_tasks/finereason/{p.name}" for p in (ROOT / "lm_eval_tasks" / "finereason").glob("finereason_*.yaml")}
    # the built-in domains are found through the same entry-point group as plugins (finereason.core.engine)
    (points,) = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
    assert "[finereason.domains]\nfinereason-builtins = finereason.domains" in zipfile.ZipFile(wheel).read(points).decode()
