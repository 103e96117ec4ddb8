"""The manifest of the public reference sets: where each comes from, pinned to one commit, and the
sha256 of every file (``reference_checksums.tsv`` beside this module).

A set is fetched into ``<reference folder>/<folder>/``; the files keep their upstream bytes (only
their names may differ, e.g. the official ``.json`` files, which are JSON Lines, become ``.jsonl``).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

RAW_BASE = "https://raw.githubusercontent.com"
CHECKSUMS = Path(__file__).with_name("reference_checksums.tsv")


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


SETS: tuple[ReferenceSet, ...] = (
    ReferenceSet("finereason-official", "finereason_official", "DAMO-NLP-SG/FineReason",
                 "41532f7e272c82de6e259ef45f88626d2cd433d3", "data/", "MIT",
                 "the official FineReason release: <puzzle>_questions.jsonl and <puzzle>_states.jsonl of 4 puzzles"),
    ReferenceSet("planbench", "blocksworld", "karthikv792/LLMs-Planning",
                 "b008bc4327112affd525035b9e82f93f54b9b3a3", "plan-bench/instances/blocksworld/", "MIT",
                 "PlanBench Blocksworld and Mystery Blocksworld PDDL domains and instances"),
    ReferenceSet("folio", "folio", "Yale-LILY/FOLIO", "5d7bb84c7edab3fb358e057d2807f19cf5cf5e2d", "data/v0.0/",
                 "CC BY-SA 4.0", "FOLIO v0.0: folio-train.jsonl (1,004) and folio-validation.jsonl (204)"),
    ReferenceSet("game24", "game24", "princeton-nlp/tree-of-thought-llm", "ab400345c5ea39d28ea6d7d3be0e417b11113c87",
                 "src/tot/data/24/", "MIT", "the Tree-of-Thoughts Game-of-24 list (24.csv, 1,362 puzzles)"),
    ReferenceSet("sudoku-norvig", "sudoku/norvig", "dimitri/sudoku", "f71352458f1491482d69cc2799edc7d02e1e2e52", "",
                 "none stated", "Norvig's easy50, top95 and hardest Sudoku sets and Project Euler 96"),
    ReferenceSet("sudoku-kaggle", "sudoku/kaggle3m_sample", "tic-top/ParallelSudoku",
                 "8d56c0b161a9aaf787a922f1eddaaedaf3dfe280", "", "MIT",
                 "7,034 Kaggle Sudoku puzzles with solutions and difficulty"),
)


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
