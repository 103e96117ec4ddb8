"""``finereason eval``: which runs may skip indexing lm-eval's built-in tasks (included tasks alone)."""
from __future__ import annotations

from pathlib import Path

import pytest

from finereason.integrations.lm_eval.cli import _task_names, needs_only_included_tasks, tasks_dir


def test_task_names_are_read_as_lm_eval_reads_them():
    args = ["--model", "x", "--tasks", "finereason_a,finereason_b", "finereason_c", "--limit", "2"]
    assert _task_names(args) == ["finereason_a", "finereason_b", "finereason_c"]
    assert _task_names(["-t", "gsm8k", "--tasks=finereason,"]) == ["gsm8k", "finereason"]
    assert _task_names(["--model", "hf"]) == []


OURS = str(tasks_dir())


@pytest.mark.parametrize("args, include, expected", [
    (["--tasks", "finereason,finereason_end_to_end"], OURS, True),
    (["-t", "finereason_verify_sudoku"], OURS, True),
    (["--tasks", "finereason,gsm8k"], OURS, False),          # a built-in task needs lm-eval's index
    (["--config", "run.yaml"], OURS, False),                 # tasks named in a file we do not read
    (["--tasks", "./my_tasks/finereason.yaml"], OURS, False),
    ([], OURS, False),
    (["--tasks", "finereason"], None, False),
])
def test_only_runs_of_included_tasks_skip_the_builtin_index(args, include, expected):
    assert needs_only_included_tasks(args, include) is expected


def test_a_folder_of_the_users_own_is_indexed_alone(tmp_path):
    """A task that includes a built-in task file by path needs no index; a group with a built-in member
    does, and so does a name the folder lacks."""
    pytest.importorskip("lm_eval")
    from lm_eval import tasks as lm_tasks

    gsm8k = Path(lm_tasks.__file__).parent / "gsm8k" / "gsm8k.yaml"
    (tmp_path / "local.yaml").write_text(f"include: {gsm8k}\ntask: gsm8k_local\ntag: []\n")
    (tmp_path / "mine.yaml").write_text("group: mine\ntask:\n  - gsm8k_local\n  - task: gsm8k_local\n    num_fewshot: 0\n")
    (tmp_path / "mixed.yaml").write_text("group: mixed\ntask:\n  - gsm8k_local\n  - hellaswag\n")
    folder = str(tmp_path)
    assert needs_only_included_tasks(["--tasks", "gsm8k_local,mine"], folder)
    assert not needs_only_included_tasks(["--tasks", "mixed"], folder)
    assert not needs_only_included_tasks(["--tasks", "gsm8k_local,gsm8k"], folder)
    assert not needs_only_included_tasks(["--tasks", "finereason"], folder)  # our tasks are not in it
    assert not needs_only_included_tasks(["--tasks", "gsm8k_local"], str(tmp_path / "missing"))
