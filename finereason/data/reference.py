"""Reference data: the public sets of :mod:`.reference_sets`, fetched from their pinned commits and
checked file by file against the manifest's sha256, and the one setting that points at them.

``FINEREASON_REFERENCE`` names the reference folder (``<folder>/finereason_official``,
``<folder>/folio``, ...); commands that read a reference set default to it.
"""
from __future__ import annotations

import hashlib
import os
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..common.atomic_io import write_bytes
from ..common.input_errors import InputError
from ..common.progress import Progress, no_progress
from .reference_sets import RAW_BASE, SETS, ReferenceFile, ReferenceSet, reference_set

ENV = "FINEREASON_REFERENCE"
Opener = Callable[[str], bytes]


class ReferenceError(InputError):
    """A reference set that cannot be fetched or does not match its manifest; the message says which file."""


def reference_dir() -> Path | None:
    """The folder ``FINEREASON_REFERENCE`` names, or None when it is unset."""
    value = os.environ.get(ENV, "").strip()
    return Path(value).expanduser() if value else None


def reference_path(name: str, *parts: str) -> Path | None:
    """``$FINEREASON_REFERENCE/<folder of set name>/<parts>``, or None when the setting is unset."""
    root = reference_dir()
    return None if root is None else root.joinpath(find_set(name).folder, *parts)


def find_set(name: str) -> ReferenceSet:
    """The set called ``name``; an unknown name is an input error listing the known ones."""
    try:
        return reference_set(name)
    except KeyError:
        raise ReferenceError(f"unknown reference set {name!r} (known: {', '.join(s.name for s in SETS)})") from None


def sha256(data: bytes) -> str:
    """The hex sha256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


def _urlopen(url: str) -> bytes:
    try:
        with urllib.request.urlopen(url, timeout=60) as response:  # noqa: S310 (a fixed https or a user's mirror)
            return response.read()
    except (urllib.error.URLError, OSError, ValueError) as err:
        reason = getattr(err, "reason", None) or err
        raise ReferenceError(f"cannot fetch {url}: {reason}") from None


@dataclass
class FetchResult:
    """What a fetch did: the set's folder, files written and files already present with the right sha256."""

    folder: Path
    written: int
    present: int


def _matches(path: Path, expected: str) -> bool:
    return path.is_file() and sha256(path.read_bytes()) == expected


def fetch(name: str, to: str | os.PathLike | None = None, *, base: str = RAW_BASE, opener: Opener | None = None,
          workers: int = 8, progress: Progress = no_progress) -> FetchResult:
    """Fetch set ``name`` into ``TO/<folder>`` (``TO`` defaults to ``FINEREASON_REFERENCE``).

    Each file comes from ``BASE/owner/name/commit/path`` (``base`` may be a mirror with that layout, such
    as a ``file://`` folder) and is written only when its sha256 is the manifest's; files already there
    with the right sha256 are kept. A mismatch stops the fetch with an error naming the file and both sums.
    """
    chosen = find_set(name)
    root = Path(to).expanduser() if to is not None else reference_dir()
    if root is None:
        raise ReferenceError(f"say where to put it: --to DIR, or set {ENV}")
    folder = root / chosen.folder
    if folder.exists() and not folder.is_dir():
        raise ReferenceError(f"{folder} exists and is not a folder")
    todo = [f for f in chosen.files if not _matches(folder / f.path, f.sha256)]
    get = opener or _urlopen

    def one(file: ReferenceFile) -> ReferenceFile:
        url = chosen.url(file, base)
        data = get(url)
        got = sha256(data)
        if got != file.sha256:
            raise ReferenceError(f"{chosen.folder}/{file.path}: sha256 mismatch (expected {file.sha256}, got {got}) "
                                 f"from {url}; not written")
        target = folder / file.path
        target.parent.mkdir(parents=True, exist_ok=True)
        write_bytes(target, data)
        return file

    pool = ThreadPoolExecutor(max_workers=max(1, workers))
    try:
        for _ in progress(pool.map(one, todo), len(todo), f"fetching {chosen.name}"):
            pass
    finally:  # after an error, the files not started are not fetched
        pool.shutdown(wait=True, cancel_futures=True)
    return FetchResult(folder, len(todo), len(chosen.files) - len(todo))


def check(name: str, root: str | os.PathLike) -> list[str]:
    """The files of set ``name`` under ``root`` that are missing or differ from the manifest."""
    chosen = find_set(name)
    folder = Path(root) / chosen.folder
    return [f.path for f in chosen.files if not _matches(folder / f.path, f.sha256)]


__all__ = ["ENV", "FetchResult", "ReferenceError", "check", "fetch", "find_set", "reference_dir", "reference_path",
           "sha256"]
