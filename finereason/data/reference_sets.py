"""The manifest of the public reference sets: where each comes from, pinned to one commit, and the
sha256 of every file (``reference_sets.tsv`` and ``reference_checksums.tsv`` beside this module).

A set is fetched into ``<reference folder>/<folder>/``; the files keep their upstream bytes (only
their names may differ, e.g. the official ``.json`` files, which are JSON Lines, become ``.jsonl``).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

RAW_BASE = "https://raw.githubusercontent.com"
CHECKSUMS = Path(__file__).with_name("reference_checksums.tsv")
SETS_TABLE = Path(__file__).with_name("reference_sets.tsv")


@dataclass(frozen=True)
class ReferenceFile:
    """One file of a set: its path inside the set's folder, its upstream path and its sha256."""

    path: str
    upstream: str
    sha256: str


@dataclass(frozen=True)
class ReferenceSet:
    """A public data set pinned to one commit of its GitHub repository."""

    name: str
    folder: str  # inside the reference folder
    repo: str  # owner/name on GitHub
    commit: str
    upstream_folder: str  # the folder of the repository that holds the files ("" for its root)
    licence: str
    what: str

    @property
    def files(self) -> tuple[ReferenceFile, ...]:
        """Every file of the set, in the manifest's order."""
        return _files().get(self.name, ())

    def url(self, file: ReferenceFile, base: str = RAW_BASE) -> str:
        """Where ``file`` is fetched from: ``BASE/owner/name/commit/upstream path``."""
        return f"{base.rstrip('/')}/{self.repo}/{self.commit}/{file.upstream}"


def _sets() -> tuple[ReferenceSet, ...]:
    """The sets listed in ``reference_sets.tsv`` (data, like the checksums: one line a set)."""
    out = []
    for line in SETS_TABLE.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            out.append(ReferenceSet(*line.split("\t")))
    return tuple(out)


SETS: tuple[ReferenceSet, ...] = _sets()


@lru_cache(maxsize=1)
def _files() -> dict[str, tuple[ReferenceFile, ...]]:
    """The checksum table: set name -> its files."""
    folders = {s.name: s.upstream_folder for s in SETS}
    table: dict[str, list[ReferenceFile]] = {}
    for line in CHECKSUMS.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        name, path, sha, *upstream = line.split("\t")
        table.setdefault(name, []).append(ReferenceFile(path, upstream[0] if upstream else folders[name] + path, sha))
    return {name: tuple(files) for name, files in table.items()}


def reference_set(name: str) -> ReferenceSet:
    """The set called ``name`` (KeyError when there is none)."""
    for s in SETS:
        if s.name == name:
            return s
    raise KeyError(name)


__all__ = ["CHECKSUMS", "RAW_BASE", "SETS", "ReferenceFile", "ReferenceSet", "reference_set"]
