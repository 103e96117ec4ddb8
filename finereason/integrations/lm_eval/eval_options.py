"""What ``finereason eval`` adds around lm-eval's command line: its own ``--help`` (our models and
tasks first), ``--verbose`` (lm-eval's INFO logs go to a file otherwise), a check of a local model
folder before lm-eval reads it, lm-eval's ``git describe`` kept quiet outside a git checkout, and the
warning before a CPU run that would take hours."""
from __future__ import annotations

import contextlib
import io
import logging
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Iterator

from ...common.input_errors import InputError
from ...core.prompts import SMOKE_MAX_GEN_TOKS

PROG = "finereason eval"
MODELS = (
    ("finereason-oracle", "the exact solvers' answers (accuracy 1: checks the tasks end to end)"),
    ("finereason-random", "a seeded random answer of the right form"),
    ("finereason-shallow", "the answer a one-step look-ahead gives"),
    ("finereason-replay", "responses you recorded elsewhere: model_args path=RESPONSES.jsonl ({\"id\", \"response\"} lines)"),
)
GROUPS = (
    ("finereason", "the four puzzle domains x state checking and state transition (the paper's Tables 3-4)"),
    ("finereason_end_to_end", "solve each puzzle from its start"),
    ("finereason_state_checking", "is this state solvable? (every domain)"),
    ("finereason_state_transition", "the next state or a backtrack (every domain)"),
    ("finereason_official", "the official release's states (after finereason import-official)"),
    ("finereason_verify", "the model as a verifier of candidate answers"),
    ("finereason_folio_direct, _cot", "FOLIO (data: FINEREASON_FOLIO or $FINEREASON_REFERENCE/folio)"),
    ("finereason_<domain>_<task>[_v1]", "one domain and task (finereason tasks-dir lists the YAML files)"),
)
# generation speed assumed for a local model on CPU, tokens per second: at most this ...
CPU_TOKENS_PER_S_MAX = 200.0
# ... and otherwise this many parameter-FLOPs per second (2 FLOPs per parameter and token)
CPU_FLOPS = 3e10
WARN_AFTER_S = 3600.0
SMOKE = f"--limit 2 --gen_kwargs max_gen_toks={SMOKE_MAX_GEN_TOKS}"


class EvalError(InputError):
    """A ``finereason eval`` argument that cannot work (one line, exit 2)."""


def help_text(lm_eval_help: str) -> str:
    """``finereason eval --help``: usage, our models and tasks, then lm-eval's own options."""
    models = "\n".join(f"  {name:<20} {what}" for name, what in MODELS)
    groups = "\n".join(f"  {name:<34} {what}" for name, what in GROUPS)
    return (f"usage: {PROG} --model MODEL [--model_args ARGS] --tasks TASKS [--verbose] [lm-eval options]\n\n"
            "Runs lm-eval with the FineReason task folder included and the baseline models registered.\n"
            "lm-eval's INFO logs go to OUTPUT_PATH/lm_eval.log (or a temporary file named at the end);\n"
            "--verbose shows them on the terminal too. Data: FINEREASON_DATA_DIR (a folder from\n"
            "finereason build), else the default benchmark, built once into ~/.cache/finereason.\n\n"
            f"FineReason models (--model; any lm-eval model works too: hf, vllm, local-chat-completions, ...):\n{models}\n\n"
            f"FineReason tasks and groups (--tasks, comma-separated):\n{groups}\n\n"
            f"A quick run on CPU: add {SMOKE}.\n\n"
            f"lm-eval's options:\n{lm_eval_help.strip()}\n")


def lm_eval_help(cli_evaluate: Any) -> str:
    """lm-eval's own ``--help`` text, captured."""
    saved, buffer = sys.argv, io.StringIO()
    sys.argv = ["lm-eval", "run"]  # lm-eval prints the help of its run command and exits
    try:
        with contextlib.redirect_stdout(buffer):
            cli_evaluate()
    except SystemExit:
        pass
    finally:
        sys.argv = saved
    text = buffer.getvalue()
    return text.split("\n\n", 1)[1] if text.startswith("usage:") and "\n\n" in text else text  # without its usage


def model_args_dict(model_args: str | None) -> dict[str, str]:
    """``key=value,key=value`` as a dict (values as written)."""
    pairs = (part.split("=", 1) for part in (model_args or "").split(",") if "=" in part)
    return {k.strip(): v.strip() for k, v in pairs}


def looks_like_path(value: str) -> bool:
    """Whether a ``pretrained=`` value names a folder rather than a Hub id (``org/name``)."""
    return (value.startswith(("/", "./", "../", "~", ".\\")) or value in (".", "..") or value.count("/") > 1
            or value.endswith("/") or os.sep != "/" and os.sep in value)


def check_local_model(model_args: str | None) -> None:
    """A ``pretrained=``/``tokenizer=`` value that names a folder which does not exist is an error."""
    for key in ("pretrained", "tokenizer", "peft"):
        value = model_args_dict(model_args).get(key)
        if value and looks_like_path(value) and not Path(value).expanduser().exists():
            raise EvalError(f"no model folder at {value} ({key}= in --model_args)")


def quiet_git_hash() -> str | None:
    """lm-eval's ``get_git_commit_hash`` without git's "fatal: not a git repository" on the terminal."""
    try:
        out = subprocess.run(["git", "describe", "--always"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


@contextlib.contextmanager
def logs_to(path: Path | None) -> Iterator[None]:
    """lm-eval's log records go to ``path`` (appended); below WARNING they leave the terminal. With
    ``path`` None (``--verbose``) nothing changes."""
    if path is None:
        yield
        return
    from lm_eval.utils import setup_logging

    setup_logging()
    logger = logging.getLogger("lm_eval")
    terminal = [h for h in logger.handlers if isinstance(h, logging.StreamHandler) and not isinstance(h, logging.FileHandler)]
    quiet = logging.Filter()
    quiet.filter = lambda record: record.levelno >= logging.WARNING  # type: ignore[method-assign]
    path.parent.mkdir(parents=True, exist_ok=True)
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-8s [%(name)s] %(message)s"))
    logger.addHandler(handler)
    for h in terminal:
        h.addFilter(quiet)
    try:
        yield
    finally:
        for h in terminal:
            h.removeFilter(quiet)
        logger.removeHandler(handler)
        handler.close()


def log_path(output_path: str | None) -> Path:
    """Where lm-eval's log goes: ``OUTPUT_PATH/lm_eval.log`` (its folder, for a ``.json`` path), else a
    temporary file."""
    if output_path:
        out = Path(output_path)
        return (out.parent if out.suffix == ".json" else out) / "lm_eval.log"
    handle, name = tempfile.mkstemp(prefix="finereason-eval-", suffix=".log")
    os.close(handle)
    return Path(name)


def _tasks(task_dict: Any) -> Iterator[Any]:
    """The tasks (objects with ``eval_docs``) of lm-eval's nested task dict."""
    for value in (task_dict or {}).values():
        if isinstance(value, dict):
            yield from _tasks(value)
        elif hasattr(value, "eval_docs"):
            yield value


def _parameters(lm: Any) -> int | None:
    model = getattr(lm, "model", None) or getattr(lm, "_model", None)
    try:
        return int(sum(p.numel() for p in model.parameters()))
    except Exception:  # noqa: BLE001  (not a torch model: no estimate)
        return None


def cpu_estimate(lm: Any, task_dict: Any, limit: float | None) -> tuple[int, int, float] | None:
    """(documents, tokens per document at most, estimated seconds) of a run of a local torch model on
    the CPU, or None when the model is not one."""
    device = str(getattr(lm, "device", getattr(lm, "_device", "")))
    params = _parameters(lm)
    if not device.startswith("cpu") or params is None:
        return None
    docs = tokens = 0
    for task in _tasks(task_dict):
        try:
            n = len(task.eval_docs)
        except Exception:  # noqa: BLE001  (a task whose size is unknown counts nothing)
            continue
        if limit is not None:
            n = min(n, int(limit if limit >= 1 else limit * n) or 1)
        gen = dict(getattr(getattr(task, "config", None), "generation_kwargs", None) or {})
        per_doc = int(gen.get("max_gen_toks", getattr(lm, "max_gen_toks", 256)))
        docs += n
        tokens += n * per_doc
    rate = min(CPU_TOKENS_PER_S_MAX, CPU_FLOPS / (2 * max(params, 1)))
    return docs, (tokens // docs if docs else 0), tokens / rate


def warn_if_slow(lm: Any, task_dict: Any, limit: float | None) -> None:
    """The one-line warning before a CPU run estimated to take more than an hour."""
    estimate = cpu_estimate(lm, task_dict, limit)
    if estimate is None or estimate[2] < WARN_AFTER_S:
        return
    docs, per_doc, seconds = estimate
    print(f"finereason: warning: a local model on CPU: {docs} documents x up to {per_doc} tokens could take about "
          f"{seconds / 3600:.0f} hours; for a smoke run add {SMOKE}", file=sys.stderr, flush=True)


def _argument_error(parser: Any, message: str) -> None:
    raise EvalError(f"{message} (see: {PROG} --help)")


@contextlib.contextmanager
def around_lm_eval() -> Iterator[None]:
    """While lm-eval runs: its argument errors are ours (one line, exit 2), the CPU warning comes
    before generation starts and ``git describe`` stays quiet."""
    import argparse

    import lm_eval.evaluator as evaluator

    original, git, error = evaluator.evaluate, evaluator.get_git_commit_hash, argparse.ArgumentParser.error

    def evaluate(lm: Any, task_dict: Any, *args: Any, **kwargs: Any) -> Any:
        warn_if_slow(lm, task_dict, kwargs.get("limit"))
        return original(lm, task_dict, *args, **kwargs)

    evaluator.evaluate, evaluator.get_git_commit_hash = evaluate, quiet_git_hash
    argparse.ArgumentParser.error = _argument_error  # type: ignore[method-assign]
    try:
        yield
    finally:
        evaluator.evaluate, evaluator.get_git_commit_hash = original, git
        argparse.ArgumentParser.error = error  # type: ignore[method-assign]


__all__ = ["EvalError", "around_lm_eval", "check_local_model", "cpu_estimate", "help_text", "lm_eval_help", "log_path",
           "logs_to", "warn_if_slow"]
