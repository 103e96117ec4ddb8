"""Resuming a GRPO run: ``--resume_from_checkpoint`` checked before any model is loaded."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from finereason.integrations.training.grpo.config import GrpoError


def resume_path(value: Any, output_dir: str) -> Any:
    """``--resume_from_checkpoint true`` resumes from the last checkpoint in ``output_dir``."""
    if isinstance(value, str) and value.lower() in ("true", "last"):
        from transformers.trainer_utils import get_last_checkpoint

        last = get_last_checkpoint(output_dir) if os.path.isdir(output_dir) else None
        if last is None:
            raise GrpoError(f"--resume_from_checkpoint {value}: no checkpoint-* folder in {output_dir}")
        value = last
    if isinstance(value, str) and value and not os.path.isdir(value):
        raise GrpoError(f"--resume_from_checkpoint {value}: no such folder")
    if isinstance(value, str) and value and not has_optimizer_state(value):
        raise GrpoError(f"{value} holds only the model (save_only_model: true), so training cannot resume exactly: "
                        f"start a new run from its weights with --model_name_or_path {value}, or train with "
                        f"--save_only_model false to write resumable checkpoints")
    return value


def has_optimizer_state(checkpoint: str | Path) -> bool:
    """Whether a checkpoint folder can resume training: optimizer state from the Trainer
    (``optimizer.pt``/``.bin``), DeepSpeed (``global_step*``) or FSDP (``optimizer_0``)."""
    folder = Path(checkpoint)
    return any((folder / name).exists() for name in ("optimizer.pt", "optimizer.bin", "optimizer_0")) or \
        any(folder.glob("global_step*"))
