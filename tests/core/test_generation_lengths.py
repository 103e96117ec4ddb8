"""Generation lengths: one constant per purpose in ``finereason.core.prompts``, read by every path.

Each path's effective default is read where it takes effect (the task file as lm-eval resolves it,
the parsed command line, the function signature, the trainer's constant), and the package's sources
hold no other literal length.
"""
from __future__ import annotations

import inspect
import re
import sys
from pathlib import Path

import pytest

from finereason.core import prompts
from finereason.core.prompts import (ONE_WORD_MAX_GEN_TOKS, PAPER_MAX_GEN_TOKS, SMOKE_MAX_GEN_TOKS, TASK_MAX_GEN_TOKS,
                                     TURN_MAX_GEN_TOKS)

ROOT = Path(__file__).resolve().parents[2]


def test_one_constant_per_purpose_each_with_its_reason():
    assert (TASK_MAX_GEN_TOKS, TURN_MAX_GEN_TOKS, PAPER_MAX_GEN_TOKS) == (4096, 2048, 1024)
    assert (ONE_WORD_MAX_GEN_TOKS, SMOKE_MAX_GEN_TOKS) == (64, 64)
    source = inspect.getsource(prompts)
    for name in ("TASK_MAX_GEN_TOKS", "TURN_MAX_GEN_TOKS", "PAPER_MAX_GEN_TOKS", "ONE_WORD_MAX_GEN_TOKS", "SMOKE_MAX_GEN_TOKS"):
        assert re.search(rf"#: .+\n(#: .+\n)*{name} = ", source), f"{name} has no stated reason"


def test_lm_eval_tasks_use_the_task_length():
    pytest.importorskip("lm_eval")
    from lm_eval.tasks._yaml_loader import load_yaml

    from finereason.lm_eval_tasks.generate_configs import TASK_FOLDER, render_configs
    from finereason.verification.llm_verifier import verify_configs
    from finereason.core.engine import engines

    for name in ("finereason_sudoku_end_to_end.yaml", "finereason_game_of_24_state_checking.yaml",
                 "finereason_verify_sudoku.yaml", "finereason_folio_cot.yaml"):
        config = load_yaml(str(TASK_FOLDER / name), resolve_func=False)  # includes merged, as lm-eval reads it
        assert config["generation_kwargs"]["max_gen_toks"] == TASK_MAX_GEN_TOKS, name
    direct = load_yaml(str(TASK_FOLDER / "finereason_folio_direct.yaml"), resolve_func=False)
    assert direct["generation_kwargs"]["max_gen_toks"] == ONE_WORD_MAX_GEN_TOKS  # a one-word answer
    generated = render_configs()
    assert all(f"max_gen_toks: {TASK_MAX_GEN_TOKS}\n" in generated[f"_{t}_template_yaml"]
               for t in ("state_checking", "state_transition", "end_to_end"))
    assert all(f"max_gen_toks: {TASK_MAX_GEN_TOKS}\n" in text for name, text in verify_configs(engines()).items()
               if not name.startswith("_"))
    assert "max_gen_toks" not in (TASK_FOLDER / "_common_template_yaml").read_text(encoding="utf-8")


def test_the_workflows_use_the_turn_length():
    from finereason.commands import build_parser
    from finereason.workflows.loop import run_loop

    parser = build_parser()
    for argv in (["loop", "--model", "m", "--domain", "sudoku"], ["arc", "--model", "m"]):
        assert parser.parse_args(argv).max_gen_toks == TURN_MAX_GEN_TOKS, argv[0]
    assert inspect.signature(run_loop).parameters["max_gen_toks"].default == TURN_MAX_GEN_TOKS
    pytest.importorskip("lm_eval")
    from finereason.integrations.lm_eval.generate import lm_eval_generator

    assert inspect.signature(lm_eval_generator).parameters["max_gen_toks"].default == TURN_MAX_GEN_TOKS


def test_evaluate_checkpoint_uses_the_papers_length():
    sys.path.insert(0, str(ROOT / "trainers"))
    try:
        import evaluate_checkpoint
    finally:
        sys.path.remove(str(ROOT / "trainers"))
    assert evaluate_checkpoint.DEFAULT_MAX_GEN_TOKS == PAPER_MAX_GEN_TOKS


def test_the_smoke_suggestion_uses_the_smoke_length():
    from finereason.integrations.lm_eval.eval_options import SMOKE

    assert SMOKE.split() == ["--limit", "2", "--gen_kwargs", f"max_gen_toks={SMOKE_MAX_GEN_TOKS}"]


def test_no_other_literal_length_in_the_sources():
    pattern = re.compile(r"max_gen_toks(?:\s*:\s*int)?\s*[=:]\s*\d|max_gen_toks: \d|DEFAULT_MAX_GEN_TOKS = \d")
    found = []
    for folder in ("finereason", "lm_eval_tasks", "trainers", "dataset_builders"):
        for path in (ROOT / folder).rglob("*.py"):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if pattern.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, found
