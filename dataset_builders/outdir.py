"""Writing a dataset folder safely: a lock, a temporary folder beside the target, an atomic swap.

For a target ``P/X`` (``--out``; a symlink is followed, so the folder it points to is replaced and
the link stays):

- ``P/.X.lock`` is locked (``flock``) for the whole run: a second writer of the same target is
  refused at once with one line. The lock file is removed when the run ends.
- The new content is written into ``P/.X.partial-<random>`` and swapped in at the end with
  renames: ``X -> .X.old``, ``.X.partial-* -> X``, then ``.X.old`` is deleted. A run killed between
  the two renames leaves ``.X.old``; the next run on ``X`` puts it back (or deletes it when ``X`` is
  complete), so ``X`` is never lost.
- Leftovers of killed runs (``.X.partial-*``, a stale ``.X.lock``) are removed by the next run: as
  it holds the lock, no other run can own them.
- An existing non-empty ``X`` is replaced only with ``overwrite``; on any failure or interrupt the
  temporary folder is removed and ``X`` is left as it was.
"""
from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import secrets
import shutil
from pathlib import Path
from typing import Iterator

from finereason.common.atomic_io import fsync_dir
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


def _names(target: Path) -> tuple[Path, Path, str]:
    return target.with_name(f".{target.name}.lock"), target.with_name(f".{target.name}.old"), f".{target.name}.partial-"


@contextlib.contextmanager
def _locked(lock: Path, shown: str | os.PathLike) -> Iterator[None]:
    while True:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as err:
            os.close(fd)
            if err.errno in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                raise BuildError(f"--out {shown} is being written by another finereason run (lock {lock}); "
                                  "wait for it to finish") from None
            raise
        try:  # the file may have been removed by the previous holder after we opened it: retry
            same = os.stat(lock).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            os.unlink(lock)
        os.close(fd)


def recover(target: Path) -> list[Path]:
    """Repair what killed runs left beside ``target`` (the caller holds the lock); return what was done."""
    _, old, partial = _names(target)
    touched = []
    if old.exists() or old.is_symlink():
        if target.exists():
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.rename(old, target)  # killed between the two renames of a swap: the old folder comes back
        touched.append(old)
    for entry in target.parent.iterdir():
        if entry.name.startswith(partial):
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                with contextlib.suppress(OSError):
                    entry.unlink()
            touched.append(entry)
    return touched


def link_or_copy(src: str | os.PathLike, dst: str | os.PathLike) -> None:
    """Hard-link ``src`` to ``dst`` (same file system: instant, no extra space), else copy it."""
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def swap_into_place(tmp: Path, target: Path) -> None:
    """Replace ``target`` by ``tmp`` with renames only; the old folder is deleted last."""
    _, old, _ = _names(target)
    fsync_dir(tmp)
    if target.exists():
        os.rename(target, old)
        os.rename(tmp, target)
        fsync_dir(target.parent)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.rename(tmp, target)
    fsync_dir(target.parent)


@contextlib.contextmanager
def output_folder(out: str | os.PathLike, overwrite: bool, overwrite_does: str = "replace it") -> Iterator[tuple[Path, Path]]:
    """``(tmp, target)``: write into ``tmp``; when the block completes, ``tmp`` replaces ``target``.

    Raises :class:`BuildError` (before anything is written) for a busy, unusable or non-empty
    target without ``overwrite``. On any exception (Ctrl-C included) ``tmp`` is removed.
    """
    target = resolve_target(out)
    check_target(target, overwrite=True, shown=out)  # shape and permissions, before creating anything
    target.parent.mkdir(parents=True, exist_ok=True)
    lock, _, partial = _names(target)
    with _locked(lock, out):
        recover(target)
        check_target(target, overwrite, out, overwrite_does)
        tmp = target.with_name(partial + secrets.token_hex(4))
        tmp.mkdir()
        try:
            yield tmp, target
            swap_into_place(tmp, target)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
