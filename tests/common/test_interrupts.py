"""Interrupt stress, short: random SIGINT/SIGKILL points during ``label`` and ``score`` leave the
target old or complete-new, never partial, and no run hangs (the full 200-point run over
score/label/tiny-model/build is ``benchmarks/stress_interrupts.py``)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import shared_path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "stress_interrupts.py"


@pytest.mark.slow
def test_random_interrupts_never_leave_a_partial_output(tmp_path):
    shared_path("finereason_official", "sudoku_states_sample.jsonl")
    proc = subprocess.run([sys.executable, str(SCRIPT), "--points", "6", "--commands", "label", "score", "--seed", "3",
                           "--hang-after", "60", "--work", str(tmp_path)], capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "result: PASS" in proc.stdout and "PARTIAL" not in proc.stdout and "HANG" not in proc.stdout
