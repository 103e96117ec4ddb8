"""Progress reporting for long library work: a library function takes a ``progress`` callable
``(items, total, description) -> items`` and iterates what it returns; the command line passes
:func:`progress_bar`, tests and quiet callers the default :func:`no_progress`. Work counted as it is
done rather than iterated (rows written by workers) advances a :func:`progress_counter` by hand."""
from __future__ import annotations

import sys
from typing import Any, Callable, Iterable

Progress = Callable[[Iterable[Any], int, str], Iterable[Any]]


def no_progress(items: Iterable[Any], total: int | None, desc: str) -> Iterable[Any]:
    """``items`` unchanged (no progress shown)."""
    return items


def progress_bar(items: Iterable[Any], total: int | None, desc: str, *, file: Any = None, leave: bool = False,
                 unit: str = "state") -> Iterable[Any]:
    """``items`` behind a tqdm bar on ``file`` (default standard error; off when it is not a terminal,
    or without tqdm)."""
    try:
        from tqdm import tqdm
    except ImportError:  # the core runs without tqdm too
        return items
    return tqdm(items, total=total, desc=desc, unit=unit, file=file or sys.stderr, disable=None, leave=leave)


class _NoCounter:
    """A counter that shows nothing (no tqdm installed)."""

    def update(self, n: int = 1) -> None:
        """Count ``n`` more (nothing shown)."""

    def close(self) -> None:
        """Nothing to close."""


def progress_counter(total: int | None, desc: str, *, unit: str = "item", file: Any = None, leave: bool = True) -> Any:
    """A bar advanced by hand (``update(n)``, ``close()``) on ``file`` (default standard error; off when it
    is not a terminal, or without tqdm)."""
    try:
        from tqdm import tqdm
    except ImportError:  # the core runs without tqdm too
        return _NoCounter()
    return tqdm(total=total, desc=desc, unit=unit, file=file or sys.stderr, disable=None, leave=leave, dynamic_ncols=True)


__all__ = ["Progress", "no_progress", "progress_bar", "progress_counter"]
