"""``finereason eval``: one error path, truthfully. Bad input that lm-eval or our library rejects is
one line and exit 2; a bug (a KeyError in our own code) is a traceback, a "please report" line and
exit 1. The baselines answer every task the project ships, FOLIO included, and refuse a task whose
documents they cannot read up front, naming it.

Each run is a subprocess: lm-eval installs process-wide logging handlers.
"""
from __future__ import annotations

import os
import subprocess

import pytest

from conftest import shared_path
from finereason.models.baselines import STRATEGIES, answerer, check_answerable
from finereason.common.input_errors import InputError

pytest.importorskip("lm_eval")


@pytest.fixture
def run(warm_python):
    """``run(code or eval arguments, env, cwd)``: ``python -c CODE`` or ``finereason eval ARGS`` as a process."""
    return lambda *args, **kwargs: _run(warm_python, *args, **kwargs)


def _run(python: list[str], code_or_argv, env: dict | None = None, cwd=None) -> subprocess.CompletedProcess:
    cmd = ([*python, "-c", code_or_argv] if isinstance(code_or_argv, str)
           else [*python, "-m", "finereason", "eval", *code_or_argv])
    return subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, **(env or {})), timeout=600, cwd=cwd)


def errors(proc: subprocess.CompletedProcess) -> list[str]:
    return [line for line in proc.stderr.splitlines() if line.startswith("finereason: error:")]


def test_unknown_task_and_model_are_one_line_errors(tmp_path, run):
    for argv, needle in ((["--model", "finereason-oracle", "--tasks", "no_such_task"], "no_such_task"),
                         (["--model", "no-such-model", "--tasks", "finereason_sudoku_state_checking"], "no-such-model")):
        proc = run([*argv, "--limit", "1"], cwd=tmp_path)
        assert proc.returncode == 2, proc.stderr[-2000:]
        assert len(errors(proc)) == 1 and needle in errors(proc)[0] and "Traceback" not in proc.stderr


def test_a_bug_in_a_baseline_is_a_traceback_not_an_input_error(tmp_path, small_dataset, run):
    code = ("import sys, finereason.models.baselines as b\n"
            "def broken(row): return row['no such field']\n"
            "b.oracle = broken\n"
            "from finereason.commands import main\n"
            "sys.exit(main(['eval', '--model', 'finereason-oracle', '--tasks', 'finereason_sudoku_state_checking',"
            " '--limit', '1']))\n")
    proc = run(code, {"FINEREASON_DATA_DIR": str(small_dataset)}, cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr[-2000:]
    assert "Traceback" in proc.stderr and "KeyError: 'no such field'" in proc.stderr and "please report" in proc.stderr
    assert not errors(proc)


def test_baselines_answer_folio(tmp_path, run):
    """All three through lm-eval in one process (lm-eval's start-up dominates)."""
    folio = shared_path("folio")
    code = ("import sys\nfrom finereason.commands import main\n"
            f"sys.exit(max(main(['eval', '--model', 'finereason-' + m, '--tasks', 'finereason_folio_direct,finereason_folio_cot',"
            f" '--limit', '6']) for m in {STRATEGIES!r}))\n")
    proc = run(code, {"FINEREASON_FOLIO": str(folio)}, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = [line for line in proc.stdout.splitlines() if line.startswith("|finereason_folio")]
    assert len(rows) == 2 * len(STRATEGIES)
    assert all(line.split("|")[7].strip() == "1" for line in rows[:2]), rows  # the oracle: acc 1 on both tasks


def test_baseline_answers_on_folio_items():
    doc = {"id": "folio-validation-0", "premises": ["All cats are animals.", "Tom is a cat."],
           "conclusion": "Tom is an animal.", "label": "True"}
    assert answerer("oracle")(doc) == "Answer: True"
    assert answerer("oracle")({**doc, "label": "Uncertain"}) == "Answer: Uncertain"
    assert answerer("random", 3)(doc) == answerer("random", 3)(doc) in {"Answer: True", "Answer: False", "Answer: Uncertain"}
    assert answerer("shallow")(doc) == "Answer: Uncertain"  # "tom is an animal": "an" is not in the premises
    assert answerer("shallow")({**doc, "conclusion": "Tom is a cat."}) == "Answer: True"


def test_documents_no_baseline_can_read_are_refused_naming_the_task():
    with pytest.raises(InputError, match="'my_task'"):
        check_answerable([("finereason_sudoku_state_checking", {"puzzle": "sudoku", "task": "state_checking"}),
                          ("my_task", {"question": "2+2?", "answer": "4"})], "oracle")
