"""lm-eval's own command line with the FineReason tasks and baseline models added
(``finereason eval ...``), with credentials redacted from what it prints and logs."""
from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import Any, Iterator

EXIT_BAD_INPUT = 2       # every expected failure: bad file, bad value, I/O error (one line on stderr)
EXIT_INTERRUPTED = 130   # Ctrl-C


def tasks_dir() -> Path:
    """The folder to pass to ``lm_eval --include_path`` (shipped inside the package)."""
    from importlib import resources

    return Path(str(resources.files("finereason.lm_eval_tasks")))


def run_lm_eval(argv: list[str]) -> int:
    """``finereason eval ...``: lm-eval's own CLI with our tasks and baseline models added; returns
    its exit status (2 with a one-line error for bad arguments, 130 on Ctrl-C)."""
    try:
        from . import lm_eval_models  # noqa: F401  (registers finereason-* models)
        from lm_eval.__main__ import cli_evaluate
    except ImportError as err:
        print(f"finereason: error: eval needs lm-eval: pip install 'finereason[eval]' ({err.name} missing)", file=sys.stderr)
        return EXIT_BAD_INPUT
    args = list(argv)
    if not any(a == "--include_path" or a.startswith("--include_path=") for a in args) and args[:1] not in (["-h"], ["--help"]):
        args += ["--include_path", str(tasks_dir())]
    saved = sys.argv
    sys.argv = ["lm_eval", *args]
    try:
        with redacted_output(), folders_named_after(_option(args, "--model")):
            cli_evaluate()
    except SystemExit as exc:
        return int(exc.code or 0) if not isinstance(exc.code, str) else 1
    except KeyboardInterrupt:
        print("finereason: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except (OSError, ValueError, KeyError) as err:  # bad model_args, missing files, unknown tasks
        from .redact import redact

        print(f"finereason: error: {type(err).__name__}: {redact(str(err).splitlines()[0]) if str(err) else ''}", file=sys.stderr)
        return EXIT_BAD_INPUT
    finally:
        sys.argv = saved
    return 0


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


class _RedactingStream:
    """A text stream that redacts credentials from each write (lm-eval prints ``model_args`` verbatim)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        from .redact import redact

        return self._stream.write(redact(text))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextlib.contextmanager
def redacted_output() -> Iterator[None]:
    """Redact credentials from stdout and every log record while lm-eval runs."""
    import logging

    from .redact import RedactingFilter

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


__all__ = ["EXIT_BAD_INPUT", "EXIT_INTERRUPTED", "redacted_output", "run_lm_eval", "tasks_dir"]
