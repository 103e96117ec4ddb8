"""The main job (``finereason baselines``): the baseline models through lm-eval on the default
benchmark, then the report (summary table and plots).

The terminal shows one progress bar (or, off a terminal, one line) per model and then the summary
table; lm-eval's own logs, per-task tables and warnings go to ``OUT/lm_eval.log`` (and, with
``verbose``, to the terminal as well). Needs the eval extra (lm-eval, matplotlib); a missing
benchmark is built with the dataset extras.
"""
from __future__ import annotations

import contextlib
import logging
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Sequence, TextIO

from ..common.vocabulary import PAPER
from ..integrations.lm_eval.cli import run_lm_eval

DATA_ENV = "FINEREASON_DATA_DIR"
LOG_FILE = "lm_eval.log"


@dataclass(frozen=True)
class BaselinesRun:
    """What :func:`run_baselines` did: lm-eval's exit status (non-zero: the first model that failed;
    no report then) and the report of the runs."""

    code: int
    report: Any | None  # a finereason.integrations.report.results.Report


def default_build_config(out: Path, num_proc: int) -> Any:
    """The :class:`~finereason.dataset_builders.build.BuildConfig` of the default benchmark (seed 0,
    500 items per state task, 100 per end-to-end config, no train split) written into ``out``."""
    from ..dataset_builders.build import BuildConfig

    return BuildConfig(out=Path(out), seed=0, per_task=500, train_size=0, e2e_size=100, num_proc=num_proc, order=PAPER)


def baselines_data(data: str | os.PathLike | None) -> Path:
    """The dataset folder to evaluate: ``data`` when given, else ``FINEREASON_DATA_DIR``, else the
    cached default build (built once)."""
    return data_origin(data)[0]


def data_origin(data: str | os.PathLike | None) -> tuple[Path, str]:
    """The dataset folder to evaluate and where that choice came from, in words: ``--data``, the
    ``FINEREASON_DATA_DIR`` environment variable, or the cached default build."""
    if data:
        return Path(data), "--data"
    if os.environ.get(DATA_ENV):
        return Path(os.environ[DATA_ENV]), f"{DATA_ENV} (set in your environment)"
    from ..data.resolve import cache_dir, ensure_default_build

    return ensure_default_build(), f"the default benchmark, built once into the cache ({cache_dir()})"


def _swap_stream(handler: logging.StreamHandler, stream: Any) -> Any:
    """Point ``handler`` at ``stream``; returns the old stream (not flushed: it may be closed)."""
    handler.acquire()
    try:
        old, handler.stream = handler.stream, stream
    finally:
        handler.release()
    return old


@contextlib.contextmanager
def lm_eval_output(log_path: Path, verbose: bool = False) -> Iterator[TextIO]:
    """Send what lm-eval prints and logs (tables, INFO lines, its own bars, subprocess noise) to
    ``log_path``, and with ``verbose`` to the terminal as well. Yields the terminal stream, where the
    caller's own progress goes."""
    from lm_eval.utils import setup_logging

    setup_logging()  # lm-eval's handler exists now, so it can be pointed at the log
    logger = logging.getLogger("lm_eval")
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "a", encoding="utf-8") as log:
        if verbose:  # the terminal as lm-eval sets it up, plus a copy of the log records in the file
            file_handler = logging.StreamHandler(log)
            file_handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-8s [%(name)s] %(message)s"))
            logger.addHandler(file_handler)
            try:
                yield sys.stderr
            finally:
                logger.removeHandler(file_handler)
            return
        handlers = [h for h in logger.handlers if isinstance(h, logging.StreamHandler)]
        streams = [_swap_stream(h, log) for h in handlers]
        sys.stdout.flush()
        sys.stderr.flush()
        saved = os.dup(1), os.dup(2)
        terminal = os.fdopen(os.dup(saved[1]), "w", encoding="utf-8", errors="replace")
        real_stderr = sys.stderr
        try:
            os.dup2(log.fileno(), 1)  # subprocesses (git) and C-level writes
            os.dup2(log.fileno(), 2)
            with contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
                yield terminal if real_stderr is sys.__stderr__ else real_stderr
        finally:
            sys.stdout.flush()
            log.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            for fd in saved:
                os.close(fd)
            terminal.close()
            for handler, stream in zip(handlers, streams):
                _swap_stream(handler, stream)


def _echo_failure(log_path: Path, model: str, code: int) -> None:
    """Repeat on the terminal the error line that went to the log, and where the log is."""
    lines = log_path.read_text(encoding="utf-8", errors="replace").splitlines() if log_path.is_file() else []
    errors = [line for line in lines if line.startswith(("finereason: error:", "finereason: internal error"))]
    if errors:
        print(errors[-1], file=sys.stderr)
    print(f"finereason baselines: finereason-{model} failed (exit {code}); lm-eval's log: {log_path}", file=sys.stderr)


def run_baselines(data: Path, out: Path, models: Sequence[str], tasks: str, limit: int | None = None,
                  verbose: bool = False) -> BaselinesRun:
    """Run each baseline model (``oracle``, ``random``, ``shallow``) through lm-eval on ``tasks`` of
    ``data`` (offline, lm-eval output in ``out/runs``, its logs in ``out/lm_eval.log``), then write
    the report into ``out``.

    Raises :class:`~finereason.integrations.report.results.ReportError` when the runs give no report.
    """
    from ..integrations.lm_eval.models import our_tasks_only, progress_to
    from ..integrations.report.build import build_report

    runs = Path(out) / "runs"
    log_path = Path(out) / LOG_FILE
    saved = {k: os.environ.get(k) for k in (DATA_ENV, "HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE")}
    os.environ.update({DATA_ENV: str(Path(data).resolve()), "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"})
    try:
        for model in models:
            extra = ["--limit", str(limit)] if limit else []
            start = time.perf_counter()
            with lm_eval_output(log_path, verbose) as terminal, progress_to(terminal), our_tasks_only():
                # --verbose: lm-eval's logging stays as lm_eval_output set it (into OUT/lm_eval.log)
                code = run_lm_eval(["--model", f"finereason-{model}", "--tasks", tasks, "--output_path", str(runs),
                                    "--log_samples", "--verbose", *extra])
            if code:
                _echo_failure(log_path, model, code)
                return BaselinesRun(code, None)
            print(f"finereason-{model}: done in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return BaselinesRun(0, build_report([runs], out))


__all__ = ["BaselinesRun", "LOG_FILE", "baselines_data", "data_origin", "default_build_config", "lm_eval_output",
           "run_baselines"]
