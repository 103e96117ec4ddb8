"""``finereason eval``: which runs may skip indexing lm-eval's built-in tasks (ours alone)."""
from __future__ import annotations

import pytest

from finereason.integrations.lm_eval.cli import _task_names, needs_only_our_tasks


def test_task_names_are_read_as_lm_eval_reads_them():
    args = ["--model", "x", "--tasks", "finereason_a,finereason_b", "finereason_c", "--limit", "2"]
    assert _task_names(args) == ["finereason_a", "finereason_b", "finereason_c"]
    assert _task_names(["-t", "gsm8k", "--tasks=finereason,"]) == ["gsm8k", "finereason"]
    assert _task_names(["--model", "hf"]) == []


@pytest.mark.parametrize("args, our_folder_only, expected", [
    (["--tasks", "finereason,finereason_end_to_end"], True, True),
    (["-t", "finereason_verify_sudoku"], True, True),
    (["--tasks", "finereason,gsm8k"], True, False),          # a built-in task needs lm-eval's index
    (["--tasks", "finereason"], False, False),               # the user's own --include_path
    (["--config", "run.yaml"], True, False),                 # tasks named in a file we do not read
    (["--tasks", "./my_tasks/finereason.yaml"], True, False),
    ([], True, False),
])
def test_only_runs_of_our_tasks_skip_the_builtin_index(args, our_folder_only, expected):
    assert needs_only_our_tasks(args, our_folder_only) is expected
