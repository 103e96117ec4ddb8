"""Where a model runs when the user does not say: the GPU when one is present, else the CPU.

``finereason eval`` leaves this to lm-eval (which falls back to the CPU when its default ``cuda:0``
is absent); ``loop``, ``arc`` and ``trainers/evaluate_checkpoint.py`` pass the device explicitly, so
they ask here and behave the same way on a CPU-only machine.
"""
from __future__ import annotations


def has_gpu() -> bool:
    """Whether torch is installed and sees a CUDA device (no torch: no GPU)."""
    try:
        import torch
    except ImportError:
        return False
    return bool(torch.cuda.is_available())


def default_device(device: str | None = None) -> str | None:
    """``device`` when given, else ``"cuda"`` with a GPU and ``"cpu"`` without one; ``None`` when
    torch is not installed (API and replay models need no device)."""
    if device:
        return device
    try:
        import torch  # noqa: F401
    except ImportError:
        return None
    return "cuda" if has_gpu() else "cpu"


__all__ = ["default_device", "has_gpu"]
