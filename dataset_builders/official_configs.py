"""``finereason import-official``: the official release as ``official_<puzzle>_<task>`` configs.

Each line of ``<puzzle>_states.json`` gives one state-checking and one state-transition row; each line
of ``<puzzle>_questions.json`` one end-to-end row. Ids are ``official-<puzzle>-<line>`` (0-based line
numbers), so scores map back to the release.

The folder is written like ``build`` writes (see :mod:`.outdir`): under a lock, into a temporary
folder, swapped in at the end. A non-empty ``--out`` needs ``--overwrite``; then its other configs
and files are kept (hard links where possible, symlinks stay symlinks) and only ``official_*``
configs and the card are replaced.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from finereason import __version__
from finereason.common.verdict import ParseError, StateError
from finereason.common.vocabulary import STATE_TASKS
from finereason.core.engine import get_engine, official_names
from finereason.core.prompts import PROMPT_VERSION
from finereason.data.official_files import read_official_records

from .items import end_to_end_row, state_depth, state_row
from .layout import ConfigStats, configs_in, parquet_files, stat_tuple, stored_stats, write_card, write_config
from .outdir import BuildError, link_or_copy, output_folder

OWN_FILES = ("README.md", "build_info.json")


def _find(src: Path, official: str, kind: str) -> Path | None:
    for suffix in (".json", ".jsonl", "_sample.jsonl"):
        path = src / f"{official}_{kind}{suffix}"
        if path.is_file():
            return path
    return None


def _bad(path: Path, line: int, err: Exception) -> BuildError:
    text = str(err).splitlines()[0] if str(err) else type(err).__name__
    return BuildError(f"{path}:{line + 1}: not a valid official record: {text}")


def official_rows(src: Path) -> dict[str, list[dict]]:
    """Rows per ``official_*`` config from the files found in ``src`` (one line per bad record)."""
    configs: dict[str, list[dict]] = {}
    bad = (StateError, ParseError, ValueError, KeyError, TypeError, IndexError, AttributeError, RecursionError, ArithmeticError)
    for official in official_names():
        engine = get_engine(official)
        states = _find(src, official, "states")
        if states is not None:
            for line, record in enumerate(read_official_records(states)):
                try:
                    item = engine.item_from_official(record)
                    depth = state_depth(engine, item.puzzle, item.current)
                    child = "has" if item.unsolvable_child is not None else "missing"
                    rows = [dict(state_row(engine, task, item, depth, record, {}), _child=child)
                            for task in STATE_TASKS]
                except bad as err:
                    raise _bad(states, line, err) from None
                for row in rows:
                    configs.setdefault(f"official_{engine.name}_{row['task']}", []).append(dict(row, id=f"official-{engine.name}-{line}"))
        questions = _find(src, official, "questions")
        if questions is not None:
            for line, record in enumerate(read_official_records(questions)):
                try:
                    row = end_to_end_row(engine, engine.puzzle_from_official(record), record, {})
                except bad as err:
                    raise _bad(questions, line, err) from None
                configs.setdefault(f"official_{engine.name}_end_to_end", []).append(dict(row, id=f"official-{engine.name}-{line}"))
    if not configs:
        raise BuildError(f"no official <puzzle>_states.json or <puzzle>_questions.json files in {src}")
    return configs


def _keep_existing(target: Path, tmp: Path) -> dict[str, ConfigStats]:
    """Copy what ``target`` holds besides official configs and the card; return its configs' counts."""
    if not target.is_dir():
        return {}
    stored = stored_stats(target)
    kept = {}
    for config in configs_in(target):
        if not config.startswith("official_"):
            kept[config] = stored.get(config) or _count(target, config)
    for entry in target.iterdir():
        if entry.name in OWN_FILES or (entry.name.startswith("official_") and entry.is_dir()):
            continue
        dest = tmp / entry.name
        if entry.is_symlink():
            os.symlink(os.readlink(entry), dest)
        elif entry.is_dir():
            shutil.copytree(entry, dest, symlinks=True, copy_function=link_or_copy)
        else:
            link_or_copy(entry, dest)
    return kept


def _count(root: Path, config: str) -> ConfigStats:
    """Counts of a config read from its files, one record batch at a time."""
    import pyarrow.parquet as pq

    stats = ConfigStats()
    for path in parquet_files(root, config):
        for batch in pq.ParquetFile(path).iter_batches(batch_size=4096):
            stats.merge(ConfigStats.of_rows(batch.to_pylist()))
    return stats


IMPORT_COMMAND = "finereason import-official"
# what a card keeps from the build it extends (the rest describes the files and is written again)
KEPT_FACTS = ("command", "seed", "disjointness", "balance_note", "config", "shortfalls", "report", "layout")


def _build_facts(target: Path) -> dict:
    """The facts of the build in ``target`` that its card shows (seed, command, ...), or {} for none."""
    import json

    try:
        info = json.loads((target / "build_info.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(info, dict) or not info.get("command") or str(info["command"]).startswith(IMPORT_COMMAND):
        return {}
    facts = {k: info[k] for k in KEPT_FACTS if k in info}
    facts["command"] = str(facts["command"]).removesuffix(f" && {IMPORT_COMMAND}")
    return facts


def import_official(src: Path, out: Path, overwrite: bool = False) -> dict[str, int]:
    """Write the ``official_*`` configs into ``out`` (keeping its other configs with ``overwrite``)."""
    src = Path(src)
    if not src.is_dir():
        raise BuildError(f"--src {src} is not a folder")
    configs = official_rows(src)
    with output_folder(out, overwrite, "replace its official_* configs and card, keeping its other configs") as (tmp, target):
        built = _build_facts(target) if target.is_dir() else {}
        stats = _keep_existing(target, tmp)
        for name, rows in configs.items():
            write_config(tmp, name, rows)
            stats[name] = ConfigStats().add(stat_tuple(r, r.get("_child")) for r in rows)
        info = {"command": IMPORT_COMMAND, "seed": "-", "finereason_version": __version__,
                "prompt_version": PROMPT_VERSION, "disjointness": "official configs are the release's own states",
                "balance_note": "official labels as released"}
        if built:  # the folder's own build: its seed and command stay on the card, the import is added
            info.update(built, command=f"{built['command']} && {IMPORT_COMMAND}")
        write_card(tmp, info, stats)
    return {name: len(rows) for name, rows in configs.items()}
