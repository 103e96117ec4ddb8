"""Domains as pip plugins: the ``finereason.domains`` entry-point group.

The demo domain (``tests/demo_domain``, its own ``pyproject.toml``) is installed for real with pip into a
temporary ``--target`` folder (never into the environment running the suite, where the demo is registered
only by the tests that use it), and a fresh interpreter with that folder on its path finds it with no
``register`` call and no file of this repository naming it: ``finereason domains`` lists it, ``finereason
build`` builds it (with worker processes), the lm-eval task generator writes its tasks, and
``finereason.create_dataset`` makes and scores its entries. In-process checks cover what an entry point
may hold and that a broken plugin is a warning, not a failure.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from finereason.core.engine import ENTRY_POINT_GROUP, domain_source, engine_names, load_entry_point, unregister

ROOT = Path(__file__).resolve().parents[2]
DEMO_SRC = ROOT / "tests" / "demo_domain"


def pip_install_target(src: Path, target: Path) -> None:
    """``pip install --no-deps --target`` of a copy of ``src`` (the build leaves files beside its source);
    without build isolation first (offline), then with it; skip with pip's last line when neither works."""
    copy = target.parent / f"{src.name}-src"
    shutil.copytree(src, copy, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
    errors = []
    for isolation in (["--no-build-isolation"], []):
        run = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--disable-pip-version-check",
                              *isolation, "--target", str(target), str(copy)], capture_output=True, text=True)
        if run.returncode == 0:
            return
        errors.append((run.stderr.strip().splitlines() or ["?"])[-1])
    pytest.skip(f"cannot pip-install the demo plugin here: {errors[-1]}")


@pytest.fixture(scope="session")
def plugin_path(tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("plugin") / "site"
    pip_install_target(DEMO_SRC, target)
    return target


def run_with_plugin(plugin_path: Path, code: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(plugin_path), str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=cwd, env=env, timeout=600)


def test_an_installed_plugin_is_found_everywhere(plugin_path, tmp_path):
    entry_points = (next(plugin_path.glob("*.dist-info")) / "entry_points.txt").read_text()
    assert f"[{ENTRY_POINT_GROUP}]" in entry_points and "demo_latin" in entry_points
    code = f"""
import json, sys
from finereason.commands import main
main(["domains"])
status = main(["build", "--out", "ds", "--domains", "demo_latin", "--per-task", "6", "--e2e-size", "2",
               "--train-size", "4", "--num-proc", "2"])
assert status == 0, status
from finereason.lm_eval_tasks.generate_configs import main as generate
assert generate(["--out", "tasks"]) == 0
import finereason
data = finereason.create_dataset("demo_latin_state_transition", size=20, seed=0)
print("SCORES", json.dumps([data.score_answer(e["answer"], e) for e in data]))
"""
    run = run_with_plugin(plugin_path, code, tmp_path)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "demo_latin\t(official name: demolatin; plugin from finereason-demo-latin)" in run.stdout.splitlines()
    built = {str(p.relative_to(tmp_path / "ds")) for p in (tmp_path / "ds").rglob("*.parquet")}
    assert any(name.startswith("demo_latin_state_checking") for name in built), sorted(built)
    assert any("demo_latin" in p.name for p in (tmp_path / "tasks").iterdir())
    scores = json.loads(next(line for line in run.stdout.splitlines() if line.startswith("SCORES"))[len("SCORES"):])
    assert scores == [1.0] * 20
    # nothing was written into the repository's copy of the plugin
    assert not list(DEMO_SRC.glob("*.egg-info")) and not (DEMO_SRC / "build").exists()


def test_without_the_plugin_the_registry_holds_the_builtins_only(tmp_path):
    run = subprocess.run([sys.executable, "-m", "finereason", "domains"], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0 and "demo_latin" not in run.stdout and "plugin from" not in run.stdout


def _point(value: str, name: str = "demo_latin") -> EntryPoint:
    return EntryPoint(name=name, value=value, group=ENTRY_POINT_GROUP)


@pytest.mark.parametrize("value", ["demo_domain.domain:LatinDomain", "demo_domain:DEMO"])
def test_an_entry_point_holds_a_domain_class_or_instance(value):
    try:
        assert load_entry_point(_point(value)) == ["demo_latin"]
        assert "demo_latin" in engine_names()
        assert domain_source("demo_latin") == "?"  # a bare EntryPoint has no distribution
    finally:
        unregister("demo_latin")
    assert "demo_latin" not in engine_names() and domain_source("demo_latin") is None


@pytest.mark.parametrize("value, words", [
    ("no_such_plugin_module:Domain", "ModuleNotFoundError"),
    ("json:dumps", "not an Engine, an Engine subclass or a module"),
    ("finereason.domains.sudoku.domain:SudokuDomain", None),  # the same class again: replaces itself, no clash
])
def test_a_broken_plugin_is_a_warning_naming_it(value, words):
    before = engine_names()
    if words is None:
        load_entry_point(_point(value, "sudoku_again"))
    else:
        with pytest.warns(RuntimeWarning, match=words) as caught:
            assert load_entry_point(_point(value, "broken")) == []
        assert "domain plugin 'broken'" in str(caught[0].message)
    assert engine_names() == before


def test_a_plugin_may_not_take_a_builtin_name():
    from demo_domain import LatinDomain

    class Impostor(LatinDomain):
        name = "sudoku"

    import demo_domain

    demo_domain.Impostor = Impostor
    try:
        with pytest.warns(RuntimeWarning, match="already registered"):
            assert load_entry_point(_point("demo_domain:Impostor", "impostor")) == []
    finally:
        del demo_domain.Impostor
    assert type(__import__("finereason.core.engine", fromlist=["get_engine"]).get_engine("sudoku")).__name__ == "SudokuDomain"
