"""lm-eval's own command line with the FineReason tasks and baseline models added
(``finereason eval ...``), with credentials redacted from what it prints and logs."""
from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path
from typing import Any, Iterator

from ...common.input_errors import EXIT_BAD_INPUT, EXIT_BUG, EXIT_INTERRUPTED, expected_failure, failure_status

# Where lm-eval checks its own arguments (task names, model names, --config, --seed, ...): a
# ValueError or KeyError raised there is bad user input; raised anywhere else it is a bug.
_LM_EVAL_ARGUMENT_CODE = tuple(os.path.join("lm_eval", *p) for p in (
    ("_cli",), ("config",), ("evaluator.py",), ("api", "registry.py"), ("tasks", "manager.py"), ("__main__.py",)))


def tasks_dir() -> Path:
    """The folder to pass to ``lm_eval --include_path`` (shipped inside the package)."""
    from importlib import resources

    return Path(str(resources.files("finereason.lm_eval_tasks")))


def run_lm_eval(argv: list[str]) -> int:
    """``finereason eval ...``: lm-eval's own CLI with our tasks and baseline models added; returns
    its exit status (2 with a one-line error for bad arguments, 130 on Ctrl-C)."""
    try:
        from lm_eval.__main__ import cli_evaluate

        from . import models as lm_eval_models  # registers finereason-* models
    except ImportError as err:
        print(f"finereason: error: eval needs lm-eval: pip install '.[eval]' in the finereason checkout ({err.name} missing)", file=sys.stderr)
        return EXIT_BAD_INPUT
    from .eval_options import around_lm_eval, check_local_model, help_text, lm_eval_help, log_path, logs_to

    args = list(argv)
    if not args or "-h" in args or "--help" in args:
        print(help_text(lm_eval_help(cli_evaluate)))
        return 0
    verbose = "--verbose" in args
    args = [a for a in args if a != "--verbose"]
    if args[:1] == ["run"]:  # lm-eval's own subcommand name
        args = args[1:]
    include = _option(args, "--include_path")
    if include is None:
        include = str(tasks_dir())
        args += ["--include_path", include]
    log = None if verbose else log_path(_option(args, "--output_path"))
    temporary = log is not None and _option(args, "--output_path") is None
    saved = sys.argv
    sys.argv = ["lm-eval", *args] if args[0] in ("ls", "validate") else ["lm-eval", "run", *args]  # lm-eval's commands
    status = 0
    try:
        check_local_model(_option(args, "--model_args"))
        # a run of included tasks alone skips indexing lm-eval's ~15,000 built-in task files (~10 CPU s)
        fast = lm_eval_models.our_tasks_only() if needs_only_included_tasks(args, include) else contextlib.nullcontext()
        with redacted_output(), folders_named_after(_option(args, "--model")), fast, logs_to(log), around_lm_eval():
            cli_evaluate()
    except SystemExit as exc:
        status = int(exc.code or 0) if not isinstance(exc.code, str) else 1
    except (KeyboardInterrupt, Exception) as err:  # noqa: BLE001  (sorted into bad input and bugs)
        from ...common.redact import redact

        status = failure_status(err, lm_eval_failure, redact)
        if status == EXIT_BUG and log is not None and log.is_file() and log.stat().st_size:  # errors stay one line
            print(f"finereason: lm-eval's log: {log}", file=sys.stderr)
    finally:
        sys.argv = saved
    if temporary and status != EXIT_BUG:  # a temporary log is kept only for a bug report
        log.unlink(missing_ok=True)
    return status


TASK_PREFIX = "finereason"  # every task, group and tag in our task folder is named finereason...


def _task_names(args: list[str]) -> list[str]:
    """The task names of ``--tasks``/``-t`` (space- or comma-separated, possibly several options)."""
    names: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg.startswith("--tasks="):
            names += arg.split("=", 1)[1].split(",")
        elif arg in ("--tasks", "-t"):
            while i + 1 < len(args) and not args[i + 1].startswith("-"):
                i += 1
                names += args[i].split(",")
        i += 1
    return [n.strip() for n in names if n.strip()]


def needs_only_included_tasks(args: list[str], include_path: str | None) -> bool:
    """Whether a run needs none of lm-eval's built-in tasks: no ``--config``, and every ``--tasks`` name
    is in the ``--include_path`` folder, as a task, tag or group whose members (at any depth) are all
    there too. Our own folder is taken on the names alone (``finereason...``); another folder is indexed
    (a few files: milliseconds). Anything this does not recognise needs the full index."""
    names = _task_names(args)
    if include_path is None or "--config" in args or not names:
        return False
    if include_path == str(tasks_dir()):
        return all(n.startswith(TASK_PREFIX) for n in names)
    try:
        from lm_eval.tasks import TaskManager

        index = TaskManager(include_defaults=False, include_path=include_path).task_index
    except Exception:  # noqa: BLE001  (an unreadable folder: lm-eval's own run reports it)
        return False
    return _all_in(index, names)


def _all_in(index: dict[str, Any], names: list[str]) -> bool:
    """Whether ``names`` and every member of the groups among them are entries of ``index``."""
    todo, seen = list(names), set()
    while todo:
        name = todo.pop()
        if not isinstance(name, str):
            return False
        if name in seen:
            continue
        seen.add(name)
        entry = index.get(name)
        if entry is None:
            return False
        if entry.kind.name == "GROUP":
            for member in (entry.cfg or {}).get("task", []):
                if isinstance(member, dict):  # {task: name, overrides...}, or an inline group
                    if "group" in member:
                        return False  # its members may be anywhere
                    member = member.get("task")
                todo.append(member)
    return True


def _option(args: list[str], name: str) -> str | None:
    """The value of ``name`` in ``args`` (``--name VALUE`` or ``--name=VALUE``)."""
    for i, arg in enumerate(args):
        if arg == name and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith(name + "="):
            return arg.split("=", 1)[1]
    return None


@contextlib.contextmanager
def folders_named_after(model: str | None) -> Iterator[None]:
    """lm-eval names a run's output folder after ``pretrained=``/``path=``/... of ``model_args``, else a
    random id; while this is active the fallback is the ``--model`` name (``finereason-oracle``)."""
    try:
        from lm_eval.loggers.evaluation_tracker import GeneralConfigTracker
    except ImportError:
        yield
        return
    original = GeneralConfigTracker.__dict__.get("_get_model_name")
    if model is None or not isinstance(original, staticmethod):
        yield
        return
    GeneralConfigTracker._get_model_name = staticmethod(lambda model_args: original.__func__(model_args) or model)
    try:
        yield
    finally:
        GeneralConfigTracker._get_model_name = original


def lm_eval_failure(err: BaseException) -> str | None:
    """The one-line message of an expected failure of an lm-eval run (our :class:`InputError`, an
    unreadable file or model folder, or a ValueError/KeyError that lm-eval raised while checking its
    own arguments: unknown task or model, bad ``--config``), or ``None`` for a bug."""
    message = expected_failure(err)
    if message is not None:
        return message
    if isinstance(err, (ValueError, KeyError)) and _raised_in(err, _LM_EVAL_ARGUMENT_CODE):
        text = str(err.args[0]) if isinstance(err, KeyError) and err.args else str(err)
        return text.splitlines()[0] if text else type(err).__name__
    return None


def _raised_in(err: BaseException, places: tuple[str, ...]) -> bool:
    """Whether the innermost frame of ``err``'s traceback is in a file under one of ``places``."""
    tb = err.__traceback__
    if tb is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    filename = tb.tb_frame.f_code.co_filename
    return any(place in filename for place in places)


class _RedactingStream:
    """A text stream that redacts credentials from each write (lm-eval prints ``model_args`` verbatim)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        from ...common.redact import redact

        return self._stream.write(redact(text))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextlib.contextmanager
def redacted_output() -> Iterator[None]:
    """Redact credentials from stdout and every log record while lm-eval runs."""
    import logging

    from ...common.redact import RedactingFilter

    make_record = logging.getLogRecordFactory()
    scrub = RedactingFilter()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = make_record(*args, **kwargs)
        scrub.filter(record)
        return record

    stdout = sys.stdout
    logging.setLogRecordFactory(factory)
    sys.stdout = _RedactingStream(stdout)
    try:
        yield
    finally:
        sys.stdout = stdout
        logging.setLogRecordFactory(make_record)


__all__ = ["EXIT_BAD_INPUT", "EXIT_BUG", "EXIT_INTERRUPTED", "lm_eval_failure", "redacted_output", "run_lm_eval", "tasks_dir"]
