"""``finereason import-official``: the official release as ``official_<puzzle>_<task>`` configs.

Each line of ``<puzzle>_states.json`` gives one state-checking and one state-transition row; each line
of ``<puzzle>_questions.json`` one end-to-end row. Ids are ``official-<puzzle>-<line>`` (0-based line
numbers), so scores map back to the release.
"""
from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from finereason import __version__
from finereason.official import OFFICIAL_PUZZLES, read_records
from finereason.engines import get_engine
from finereason.prompts import PROMPT_VERSION

from .build import BuildError, _swap_into_place
from .items import end_to_end_row, state_depth, state_row
from .layout import write_card, write_config


def _find(src: Path, official: str, kind: str) -> Path | None:
    for suffix in (".json", ".jsonl", "_sample.jsonl"):
        path = src / f"{official}_{kind}{suffix}"
        if path.is_file():
            return path
    return None


def official_rows(src: Path) -> dict[str, list[dict]]:
    """Rows per ``official_*`` config from the files found in ``src``."""
    configs: dict[str, list[dict]] = {}
    for official in OFFICIAL_PUZZLES:
        engine = get_engine(official)
        states = _find(src, official, "states")
        if states is not None:
            for line, record in enumerate(read_records(states)):
                item = engine.item_from_official(record)
                depth = state_depth(engine, item.puzzle, item.current)
                for task in ("state_checking", "state_transition"):
                    row = state_row(engine, task, item, depth, record, {})
                    configs.setdefault(f"official_{engine.name}_{task}", []).append(dict(row, id=f"official-{engine.name}-{line}"))
        questions = _find(src, official, "questions")
        if questions is not None:
            for line, record in enumerate(read_records(questions)):
                puzzle = engine.puzzle_from_official(record)
                row = end_to_end_row(engine, puzzle, record, {})
                configs.setdefault(f"official_{engine.name}_end_to_end", []).append(dict(row, id=f"official-{engine.name}-{line}"))
    if not configs:
        raise BuildError(f"no official <puzzle>_states.json or <puzzle>_questions.json files in {src}")
    return configs


def import_official(src: Path, out: Path, overwrite: bool = False) -> dict[str, int]:
    """Write the ``official_*`` configs into ``out`` (keeping other configs already there)."""
    src, out = Path(src), Path(out).resolve()
    if not src.is_dir():
        raise BuildError(f"--src {src} is not a folder")
    if out.exists() and not out.is_dir():
        raise BuildError(f"--out {out} exists and is not a folder")
    configs = official_rows(src)
    existing = [p for p in out.glob("official_*") if p.is_dir()] if out.is_dir() else []
    if existing and not overwrite:
        raise BuildError(f"--out {out} already has official configs (use --overwrite to replace them)")
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.partial-", dir=out.parent))
    try:
        if out.is_dir():
            shutil.copytree(out, tmp, dirs_exist_ok=True, ignore=shutil.ignore_patterns("official_*"))
        for name, rows in configs.items():
            write_config(tmp, name, rows)
        info = {"command": f"finereason import-official --src {src}", "seed": "-", "finereason_version": __version__,
                "prompt_version": PROMPT_VERSION, "disjointness": "official configs are the release's own states",
                "balance_note": "official labels as released"}
        write_card(tmp, info)
        _swap_into_place(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return {name: len(rows) for name, rows in configs.items()}
