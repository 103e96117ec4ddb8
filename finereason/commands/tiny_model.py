"""``finereason tiny-model``: a random 2-layer model + trained tokenizer for offline smoke tests."""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from .options import CliError, add_out, add_seed

NAME = "tiny-model"
HELP = "write a tiny random model + tokenizer for offline smoke tests (needs [eval] or [train])"


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = subparsers.add_parser(NAME, help=HELP)
    add_out(p, "new or empty folder for the model (from_pretrained layout)", required=True)
    p.add_argument("--arch", default="llama", choices=("llama", "qwen2"), help="model architecture (default llama)")
    add_seed(p, "initialisation and tokenizer-corpus seed (default 0)")
    return p


def run(args: argparse.Namespace) -> int:
    out = Path(args.out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise CliError(f"{out} exists and is not an empty folder")
    from ..models.tiny import check_seed

    try:
        check_seed(args.seed)
    except ValueError as err:
        raise CliError(f"--seed: {err}") from None
    try:
        import tokenizers  # noqa: F401
        import torch  # noqa: F401
        import transformers  # noqa: F401
    except ImportError as err:
        raise CliError(f"tiny-model needs torch and transformers: python3 -m pip install '.[eval]' in the finereason checkout ({err.name} missing)") from None
    from ..models.tiny import build_tiny_model

    start = time.perf_counter()
    try:
        build_tiny_model(out, arch=args.arch, seed=args.seed)
    except OSError as err:
        raise CliError(f"cannot write {out}: {err.strerror or err}") from None
    size = sum(f.stat().st_size for f in out.iterdir() if f.is_file())
    print(f"wrote a tiny {args.arch} model ({size / 1e6:.2f} MB) into {out} in {time.perf_counter() - start:.1f} s")
    return 0
