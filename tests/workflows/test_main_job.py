"""The main job (``finereason baselines``) on the terminal: one line (a bar on a terminal) per model
and the summary table; lm-eval's logs and tables only in ``OUT/lm_eval.log`` unless ``--verbose``;
a failed model's error line repeated; the data source named truthfully; the cache under
``XDG_CACHE_HOME`` when set.

Each run is a subprocess: lm-eval installs process-wide logging handlers.
"""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from finereason.data.resolve import cache_dir

pytest.importorskip("lm_eval")
pytest.importorskip("matplotlib")


@pytest.fixture
def baselines(warm_python):
    """``finereason baselines --data DATA --out OUT --limit 1 --models oracle random EXTRA...`` as a process."""
    return lambda *args, **kwargs: _baselines(warm_python, *args, **kwargs)


def _baselines(python: list[str], data: Path, out: Path, *extra: str, env: dict | None = None) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k != "FINEREASON_DATA_DIR"}
    return subprocess.run([*python, "-m", "finereason", "baselines", "--data", str(data), "--out", str(out),
                           "--limit", "1", "--models", "oracle", "random", *extra], capture_output=True, text=True,
                          env={**environ, **(env or {})}, timeout=600)


def test_quiet_by_default_logs_in_the_output_folder(small_dataset, tmp_path, baselines):
    proc = baselines(small_dataset, tmp_path / "out")
    assert proc.returncode == 0, proc.stderr[-3000:]
    err = proc.stderr.splitlines()
    assert err[0] == f"finereason baselines: data {small_dataset} (from --data)"
    assert [line.split(":")[0] for line in err[1:3]] == ["finereason-oracle", "finereason-random"]
    assert len(err) == 4 and "lm_eval.log" in err[-1], proc.stderr
    assert proc.stdout.startswith("# FineReason report") and "|Version|" not in proc.stdout  # no per-task tables
    log = (tmp_path / "out" / "lm_eval.log").read_text(encoding="utf-8")
    assert "INFO" in log and "finereason_sudoku_state_checking" in log and "|Version|" in log  # logs and tables kept


def test_verbose_shows_lm_eval(small_dataset, tmp_path, baselines):
    proc = baselines(small_dataset, tmp_path / "out", "--verbose", "--tasks", "finereason_sudoku_state_checking")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "INFO" in proc.stderr and "|finereason_sudoku_state_checking" in proc.stdout and "|Version|" in proc.stdout
    assert "INFO" in (tmp_path / "out" / "lm_eval.log").read_text(encoding="utf-8")


def test_a_failing_model_says_why_on_the_terminal(small_dataset, tmp_path, baselines):
    proc = baselines(small_dataset, tmp_path / "out", "--tasks", "no_such_task")
    assert proc.returncode == 2
    assert "finereason: error: Tasks not found: no_such_task" in proc.stderr and "lm_eval.log" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_the_data_source_names_the_environment_only_when_set(small_dataset, tmp_path, warm_python):
    proc = subprocess.run([*warm_python, "-m", "finereason", "baselines", "--out", str(tmp_path / "out"), "--limit", "1",
                           "--models", "oracle", "--tasks", "finereason_sudoku_state_checking"], capture_output=True,
                          text=True, env={**os.environ, "FINEREASON_DATA_DIR": str(small_dataset)}, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stderr.splitlines()[0] == (f"finereason baselines: data {small_dataset} "
                                           "(from FINEREASON_DATA_DIR (set in your environment))")


def test_the_cache_follows_xdg_cache_home(monkeypatch, tmp_path):
    monkeypatch.delenv("FINEREASON_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "finereason"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache_dir() == Path.home() / ".cache" / "finereason"
    monkeypatch.setenv("FINEREASON_CACHE", str(tmp_path / "mine"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "mine"
