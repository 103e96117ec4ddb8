"""Writing a dataset folder: the builders' checks and messages around the one output-folder protocol,
:func:`finereason.common.atomic_io.atomic_dir` (a lock refusing a second writer, a temporary folder beside
the target, a two-rename swap whose ``.X.old`` the next run puts back, leftovers of killed runs
removed). An existing non-empty target is replaced only with ``overwrite``.
"""
from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path
from typing import Iterator

from finereason.common.atomic_io import atomic_dir
from finereason.common.input_errors import InputError


class BuildError(InputError):
    """Bad build arguments, or an unusable or busy output folder (one clear line)."""


def resolve_target(out: str | os.PathLike) -> Path:
    """The folder actually written: ``out`` with symlinks followed, absolute."""
    return Path(os.path.realpath(os.path.expanduser(str(out))))


def check_target(target: Path, overwrite: bool, shown: str | os.PathLike, overwrite_does: str = "replace it") -> None:
    """Refuse a file, a non-empty folder without ``overwrite`` (the message says what ``--overwrite``
    does: ``overwrite_does``) and an unwritable parent."""
    if target.exists() and not target.is_dir():
        raise BuildError(f"--out {shown} exists and is not a folder")
    if target.is_dir() and any(target.iterdir()) and not overwrite:
        raise BuildError(f"--out {shown} exists and is not empty (use --overwrite to {overwrite_does})")
    probe = target.parent
    while not probe.exists():
        probe = probe.parent
    if not probe.is_dir():
        raise BuildError(f"cannot create {shown}: {probe} is not a folder")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise BuildError(f"cannot write under {probe}: permission denied")


def link_or_copy(src: str | os.PathLike, dst: str | os.PathLike) -> None:
    """Hard-link ``src`` to ``dst`` (same file system: instant, no extra space), else copy it."""
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


@contextlib.contextmanager
def output_folder(out: str | os.PathLike, overwrite: bool, overwrite_does: str = "replace it") -> Iterator[tuple[Path, Path]]:
    """``(tmp, target)``: write into ``tmp``; when the block completes, ``tmp`` replaces ``target``
    (:func:`finereason.common.atomic_io.atomic_dir`).

    Raises :class:`BuildError` (before anything is written) for an unusable or non-empty target without
    ``overwrite``, and :class:`~finereason.common.atomic_io.OutputBusy` for a target another run is
    writing. On any exception (Ctrl-C included) ``tmp`` is removed.
    """
    target = resolve_target(out)
    check_target(target, overwrite=True, shown=out)  # shape and permissions, before creating anything
    with atomic_dir(target, replace=overwrite, shown=f"--out {out}",
                    check=lambda t: check_target(t, overwrite, out, overwrite_does)) as tmp:
        yield tmp, target
