"""``finereason merge-shards``: put ``build --shard K/N`` folders together into one dataset folder.

Every shard folder holds the parquet files of its streams under their final names plus a
``build_info.json`` with its shard number, the build's defining arguments and mergeable counts.
Merging checks that the N shards come from the same build (same arguments, finereason and prompt
versions), that each K appears once and that together they hold exactly the planned files; then it
links (or copies) the files into one folder and writes the card from the summed counts. The result
is byte-identical to the single-machine build with the same arguments (``diff -r`` compares them).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .build import BuildConfig, _order, build_info, source_option_names, streams
from .layout import ConfigStats, write_card
from .outdir import BuildError, link_or_copy, output_folder


def _info(folder: Path) -> dict[str, Any]:
    path = folder / "build_info.json"
    try:
        info = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BuildError(f"{folder} is not a shard folder (no build_info.json)") from None
    except (OSError, ValueError) as err:
        raise BuildError(f"{path}: unreadable ({err})") from None
    if not isinstance(info, dict) or not isinstance(info.get("shard"), list) or len(info["shard"]) != 2:
        raise BuildError(f"{folder} is not a shard folder (built without --shard K/N)")
    return info


def merge_shards(shards: list[Path], out: Path, overwrite: bool = False) -> dict[str, Any]:
    """Merge shard folders into ``out``; return ``{"out", "configs": {name: rows}}``."""
    if not shards:
        raise BuildError("no shard folders given")
    infos = [(Path(s), _info(Path(s))) for s in shards]
    first = infos[0][1]
    total = first["shard"][1]
    for folder, info in infos:
        for key in ("config", "finereason_version", "prompt_version", "layout"):
            if info.get(key) != first.get(key):
                raise BuildError(f"{folder} comes from another build than {infos[0][0]} ({key} differs)")
        if info["shard"][1] != total:
            raise BuildError(f"{folder} is shard {info['shard'][0]}/{info['shard'][1]}, expected one of N={total}")
    numbers = sorted(info["shard"][0] for _, info in infos)
    if numbers != list(range(total)):
        missing = sorted(set(range(total)) - set(numbers))
        extra = sorted(k for k in set(numbers) if numbers.count(k) > 1)
        raise BuildError(f"shards do not cover 0..{total - 1} once each (missing {missing}, repeated {extra})")
    c = first["config"]
    config = BuildConfig(out=Path(out), seed=c["seed"], per_task=c["per_task"], train_size=c["train_size"],
                         e2e_size=c["e2e_size"], domains=tuple(c["domains"] if "domains" in c else c["puzzles"]), order=c["order"],
                         source_options=tuple((n, Path(c[n])) for n in source_option_names() if c.get(n)),
                         train_chunk_rows=c["train_chunk_rows"],
                         train_file_rows=c["train_file_rows"])
    planned = sorted(rel for s in streams(config) for rel in s.files(config).values())
    found = sorted(rel for _, info in infos for rel in info.get("files", []))
    if found != planned:
        raise BuildError(f"the shards hold {len(found)} files, the build plans {len(planned)}")
    for folder, info in infos:
        for rel in info.get("files", []):
            if not (folder / rel).is_file():
                raise BuildError(f"{folder / rel} is missing")
    stats: dict[str, ConfigStats] = {}
    report: dict[str, int] = {}
    for _, info in infos:
        for name, data in info.get("counts", {}).items():
            stats.setdefault(name, ConfigStats()).merge(ConfigStats.from_json(data))
        for key, value in info.get("report", {}).items():
            report[key] = report.get(key, 0) + value
    with output_folder(out, overwrite) as (tmp, target):
        for folder, info in infos:
            for rel in info["files"]:
                dest = tmp / rel
                dest.parent.mkdir(parents=True, exist_ok=True)
                link_or_copy(folder / rel, dest)
        write_card(tmp, build_info(config, stats, report), stats)
    return {"out": str(target), "configs": {name: stats[name].rows for name in sorted(stats, key=_order)}}
