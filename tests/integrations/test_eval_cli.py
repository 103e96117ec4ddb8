"""``finereason eval`` speaks for itself: its own ``--help`` (our models and tasks, then lm-eval's
options), its own one-line errors (bad options, a missing local model folder, FOLIO offline), lm-eval's
INFO logs in a file unless ``--verbose``, no git noise outside a checkout, and a warning before a CPU run
that would take hours.

Runs are subprocesses (lm-eval installs process-wide logging handlers), except the CPU estimate, which is
checked on stand-in models and tasks.
"""
from __future__ import annotations

import os
import subprocess

import pytest

from conftest import shared_path

pytest.importorskip("lm_eval")


@pytest.fixture
def run(warm_python, tmp_path):
    """``run(eval arguments, env overrides; a value None removes the variable)`` in an empty folder outside
    any git checkout."""
    def go(argv, env=None):
        environ = {k: v for k, v in os.environ.items() if k not in {"FINEREASON_FOLIO", "FINEREASON_REFERENCE"}}
        environ["GIT_CEILING_DIRECTORIES"] = str(tmp_path.parent)
        for key, value in (env or {}).items():
            if value is None:
                environ.pop(key, None)
            else:
                environ[key] = value
        return subprocess.run([*warm_python, "-m", "finereason", "eval", *argv], capture_output=True, text=True,
                              env=environ, timeout=600, cwd=tmp_path)
    return go


def errors(proc: subprocess.CompletedProcess) -> list[str]:
    return [line for line in proc.stderr.splitlines() if line.startswith("finereason: error:")]


def test_help_names_our_models_and_tasks_then_lm_evals_options(run):
    proc = run(["--help"])
    assert proc.returncode == 0, proc.stderr[-2000:]
    text = proc.stdout
    assert text.startswith("usage: finereason eval")
    models, tasks, theirs = (text.index(s) for s in ("finereason-oracle", "finereason_state_checking", "lm-eval's options:"))
    assert models < tasks < theirs
    assert "finereason-replay" in text and "--max_gen_toks" not in text[:theirs] and "--model_args" in text[theirs:]
    assert "--verbose" in text[:theirs] and "--limit" in text[theirs:]


@pytest.mark.parametrize("argv, message", [
    (["--model", "finereason-oracle", "--tasks", "finereason", "--bogus"], "unrecognized arguments: --bogus"),
    (["--model", "hf", "--model_args", "pretrained=./no-such-model", "--tasks", "finereason_sudoku_state_checking"],
     "no model folder at ./no-such-model"),
    (["--model", "hf", "--model_args", "pretrained=/no/such/model,dtype=float32", "--tasks", "finereason"],
     "no model folder at /no/such/model"),
])
def test_bad_arguments_are_our_one_line_errors(run, argv, message):
    proc = run(argv)
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert len(errors(proc)) == 1 and message in errors(proc)[0], proc.stderr[-2000:]
    assert "usage: lm-eval" not in proc.stderr and "Traceback" not in proc.stderr and "Repo id" not in proc.stderr


def test_folio_tasks_offline_without_a_local_copy_stop_at_once(run):
    proc = run(["--model", "finereason-oracle", "--tasks", "finereason_folio_direct", "--limit", "1"],
               {"HF_HUB_OFFLINE": "1"})
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert len(errors(proc)) == 1 and "FINEREASON_FOLIO" in errors(proc)[0] and "offline" in errors(proc)[0]
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr


def test_logs_go_to_a_file_and_git_stays_quiet_outside_a_checkout(run, tmp_path):
    folio = str(shared_path("folio"))
    argv = ["--model", "finereason-oracle", "--tasks", "finereason_folio_direct", "--limit", "2"]
    proc = run([*argv, "--output_path", "out"], {"FINEREASON_FOLIO": folio})
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "fatal:" not in proc.stderr and " INFO " not in proc.stderr
    assert "|finereason_folio_direct|" in proc.stdout
    log = (tmp_path / "out" / "lm_eval.log").read_text(encoding="utf-8")
    assert " INFO " in log
    loud = run([*argv, "--verbose"], {"FINEREASON_FOLIO": folio})
    assert loud.returncode == 0, loud.stderr[-2000:]
    assert " INFO " in loud.stderr and "fatal:" not in loud.stderr


# ------------------------------------------------------------------ the CPU estimate
class _Task:
    def __init__(self, docs: int, max_gen_toks: int) -> None:
        self.eval_docs = list(range(docs))
        self.config = type("Config", (), {"generation_kwargs": {"max_gen_toks": max_gen_toks}})()


class _LM:
    def __init__(self, device: str, parameters: int) -> None:
        torch = pytest.importorskip("torch")
        self.device = device
        self.model = torch.nn.Linear(parameters, 1, bias=False)


def test_cpu_estimate_counts_documents_times_tokens():
    from finereason.integrations.lm_eval.eval_options import CPU_TOKENS_PER_S_MAX, cpu_estimate

    tasks = {"group": {"a": _Task(100, 4096), "b": _Task(50, 64)}}
    docs, per_doc, seconds = cpu_estimate(_LM("cpu", 1000), tasks, None)
    assert (docs, per_doc) == (150, (100 * 4096 + 50 * 64) // 150)
    assert seconds == pytest.approx((100 * 4096 + 50 * 64) / CPU_TOKENS_PER_S_MAX)  # a tiny model: the cap
    assert cpu_estimate(_LM("cpu", 1000), tasks, 2)[:2] == (4, (2 * 4096 + 2 * 64) // 4)
    assert cpu_estimate(_LM("cuda:0", 1000), tasks, None) is None


def test_a_long_cpu_run_is_announced_before_generation_starts(capsys, monkeypatch):
    import lm_eval.evaluator as evaluator

    from finereason.integrations.lm_eval.eval_options import around_lm_eval

    seen = []  # what stderr held when generation started
    monkeypatch.setattr(evaluator, "evaluate", lambda lm, task_dict, **kw: seen.append(capsys.readouterr().err))
    with around_lm_eval():
        evaluator.evaluate(lm=_LM("cpu", 1000), task_dict={"t": _Task(4400, 4096)}, limit=None)
        evaluator.evaluate(lm=_LM("cpu", 1000), task_dict={"t": _Task(4400, 4096)}, limit=2)
    warned, quiet = seen
    assert warned.startswith("finereason: warning: a local model on CPU: 4400 documents x up to 4096 tokens")
    assert "--limit 2 --gen_kwargs max_gen_toks=64" in warned and warned.count("\n") == 1
    assert quiet == ""


def test_loop_names_a_missing_model_folder(e2e_dataset, tmp_path, capsys):
    from finereason.commands import main

    code = main(["loop", "--model", "hf", "--model_args", f"pretrained={tmp_path / 'nope'}", "--domain", "sudoku",
                 "--data", str(e2e_dataset), "--limit", "1", "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2 and f"no model folder at {tmp_path / 'nope'}" in err and err.count("\n") == 1
