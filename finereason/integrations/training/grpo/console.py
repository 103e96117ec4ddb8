"""One-line messages of the GRPO script on stderr, from the main process only."""
from __future__ import annotations

import os
import sys

EXIT_BAD_INPUT = 2


def is_main_process() -> bool:
    """Whether this is rank 0 of the launch (or not a distributed launch at all)."""
    return os.environ.get("RANK", os.environ.get("LOCAL_RANK", "0")) in ("0", "")


def warn(message: str) -> None:
    if is_main_process():
        print(f"grpo: warning: {message}", file=sys.stderr)


def info(message: str) -> None:
    if is_main_process():
        print(f"grpo: {message}", file=sys.stderr)


def fail(message: str) -> int:
    """Print ``grpo: error: <message>`` and return the bad-input exit status."""
    if is_main_process():
        print(f"grpo: error: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT
