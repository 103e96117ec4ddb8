"""The main job (``finereason baselines``): the baseline models through lm-eval on the default
benchmark, then the report (summary table and plots).

Needs the eval extra (lm-eval, matplotlib); a missing benchmark is built with the dataset extras.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from .lm_eval_cli import run_lm_eval
from .vocabulary import PAPER

DATA_ENV = "FINEREASON_DATA_DIR"


@dataclass(frozen=True)
class BaselinesRun:
    """What :func:`run_baselines` did: lm-eval's exit status (non-zero: the first model that failed;
    no report then) and the report of the runs."""

    code: int
    report: Any | None  # a finereason.report.Report


def default_build_config(out: Path, num_proc: int) -> Any:
    """The :class:`~finereason.dataset_builders.build.BuildConfig` of the default benchmark (seed 0,
    500 items per state task, 100 per end-to-end config, no train split) written into ``out``."""
    from .dataset_builders.build import BuildConfig

    return BuildConfig(out=Path(out), seed=0, per_task=500, train_size=0, e2e_size=100, num_proc=num_proc, order=PAPER)


def baselines_data(data: str | os.PathLike | None) -> Path:
    """The dataset folder to evaluate: ``data`` when given, else ``FINEREASON_DATA_DIR``, else the
    cached default build (built once)."""
    if data:
        return Path(data)
    if os.environ.get(DATA_ENV):
        return Path(os.environ[DATA_ENV])
    from .data_sources import ensure_default_build

    return ensure_default_build()


def run_baselines(data: Path, out: Path, models: Sequence[str], tasks: str, limit: int | None = None) -> BaselinesRun:
    """Run each baseline model (``oracle``, ``random``, ``shallow``) through lm-eval on ``tasks`` of
    ``data`` (offline, lm-eval output in ``out/runs``), then write the report into ``out``.

    Raises :class:`~finereason.report.ReportError` when the runs give no report.
    """
    from .lm_eval_models import our_tasks_only
    from .report import build_report

    runs = Path(out) / "runs"
    saved = {k: os.environ.get(k) for k in (DATA_ENV, "HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE")}
    os.environ.update({DATA_ENV: str(Path(data).resolve()), "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"})
    try:
        for model in models:
            extra = ["--limit", str(limit)] if limit else []
            with our_tasks_only():
                code = run_lm_eval(["--model", f"finereason-{model}", "--tasks", tasks, "--output_path", str(runs),
                                    "--log_samples", *extra])
            if code:
                return BaselinesRun(code, None)
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return BaselinesRun(0, build_report([runs], out))


__all__ = ["BaselinesRun", "baselines_data", "default_build_config", "run_baselines"]
