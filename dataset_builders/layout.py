"""The Hub folder layout: ``<config>/<split>-00000-of-00001.parquet`` plus a README whose YAML
front matter declares ``configs:`` (datasets 5.x has no loading scripts), rendered from the card
template in ``hub_cards/`` with statistics computed from the written data."""
from __future__ import annotations

import json
import statistics
from collections import Counter
from importlib import resources
from pathlib import Path
from string import Template
from typing import Any, Iterable

from .items import COLUMNS, DIFFICULTY_FIELDS


def _schema():
    import pyarrow as pa

    int_fields = [(name, pa.int32()) for name in DIFFICULTY_FIELDS]
    return pa.schema(
        [
            ("id", pa.string()),
            ("puzzle", pa.string()),
            ("task", pa.string()),
            ("prompt", pa.string()),
            ("messages", pa.list_(pa.struct([("role", pa.string()), ("content", pa.string())]))),
            ("label", pa.string()),
            *int_fields,
            ("prompt_version", pa.string()),
            ("inputs", pa.string()),
            ("outputs", pa.string()),
        ]
    )


def split_of(config: str) -> str:
    return "train" if config == "train" else "test"


def parquet_path(root: Path, config: str) -> Path:
    split = split_of(config)
    return root / config / f"{split}-00000-of-00001.parquet"


def write_config(root: Path, config: str, rows: list[dict]) -> Path:
    """Write one config's rows; same rows, same bytes (no timestamps, fixed schema and settings)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = parquet_path(root, config)
    path.parent.mkdir(parents=True, exist_ok=True)
    table = pa.Table.from_pylist([{c: r[c] for c in COLUMNS} for r in rows], schema=_schema())
    pq.write_table(table, path, compression="zstd", row_group_size=2048, write_statistics=False, store_schema=False)
    return path


def read_config(root: Path, config: str) -> list[dict]:
    import pyarrow.parquet as pq

    return pq.read_table(parquet_path(root, config)).to_pylist()


def configs_in(root: Path) -> list[str]:
    """Configs present in a folder: sub-folders holding a parquet file, sorted (train last)."""
    found = [p.name for p in root.iterdir() if p.is_dir() and any(p.glob("*.parquet"))]
    return sorted(found, key=lambda c: (c == "train", c.startswith("official_"), c))


# ------------------------------------------------------------------ statistics
def _histogram(values: Iterable[int | None], buckets: int = 8) -> str:
    vals = sorted(v for v in values if v is not None)
    if not vals:
        return "-"
    lo, hi = vals[0], vals[-1]
    if hi - lo < buckets:
        counts = Counter(vals)
        return " ".join(f"{k}:{counts[k]}" for k in sorted(counts))
    width = (hi - lo + buckets) // buckets
    counts = Counter((v - lo) // width for v in vals)
    return " ".join(f"{lo + b * width}-{lo + (b + 1) * width - 1}:{counts[b]}" for b in sorted(counts))


def config_stats(rows: list[dict]) -> dict[str, Any]:
    """Counts, label balance and difficulty summaries of one config."""
    labels = Counter(r["label"] for r in rows if r["label"] is not None)
    labelled = sum(labels.values())
    out: dict[str, Any] = {
        "rows": len(rows),
        "solvable_share": (labels.get("Solvable", 0) / labelled) if labelled else None,
        "depth_histogram": _histogram(r["depth"] for r in rows),
    }
    for name in DIFFICULTY_FIELDS[1:]:
        vals = [r[name] for r in rows if r[name] is not None]
        if vals:
            out[name] = {"min": min(vals), "median": statistics.median(vals), "max": max(vals), "histogram": _histogram(vals)}
    return out


# ------------------------------------------------------------------ README / card
def _yaml_configs(configs: list[str]) -> str:
    lines = ["configs:"]
    for config in configs:
        split = split_of(config)
        lines += [
            f"- config_name: {config}",
            "  data_files:",
            f"  - split: {split}",
            f"    path: {config}/{split}-00000-of-00001.parquet",
        ]
    return "\n".join(lines)


def _stats_table(stats: dict[str, dict]) -> str:
    lines = ["| config | rows | solvable share | depth histogram (depth:count) |", "|---|---:|---:|---|"]
    for config, s in stats.items():
        share = "-" if s["solvable_share"] is None else f"{s['solvable_share']:.1%}"
        lines.append(f"| `{config}` | {s['rows']} | {share} | {s['depth_histogram']} |")
    return "\n".join(lines)


def _difficulty_table(stats: dict[str, dict]) -> str:
    lines = ["| config | field | min | median | max | histogram |", "|---|---|---:|---:|---:|---|"]
    for config, s in stats.items():
        for name in DIFFICULTY_FIELDS[1:]:
            if name in s:
                d = s[name]
                lines.append(f"| `{config}` | {name} | {d['min']} | {d['median']} | {d['max']} | {d['histogram']} |")
    return "\n".join(lines)


def card_template() -> str:
    """The card template shipped in ``hub_cards/`` (installed as ``finereason.hub_cards``)."""
    return resources.files("finereason.hub_cards").joinpath("dataset_card.md").read_text(encoding="utf-8")


def write_card(root: Path, build_info: dict[str, Any]) -> Path:
    """Render README.md for every config in ``root`` and store ``build_info.json`` beside it."""
    configs = configs_in(root)
    stats = {c: config_stats(read_config(root, c)) for c in configs}
    total = sum(s["rows"] for s in stats.values())
    text = Template(card_template()).substitute(
        configs_yaml=_yaml_configs(configs),
        total_rows=total,
        config_count=len(configs),
        stats_table=_stats_table(stats),
        difficulty_table=_difficulty_table(stats),
        build_command=build_info.get("command", "finereason build"),
        seed=build_info.get("seed", "-"),
        finereason_version=build_info.get("finereason_version", "-"),
        prompt_version=build_info.get("prompt_version", "-"),
        disjointness=build_info.get("disjointness", "-"),
        balance_note=build_info.get("balance_note", "-"),
    )
    readme = root / "README.md"
    readme.write_text(text, encoding="utf-8")
    info = dict(build_info, stats=stats)
    (root / "build_info.json").write_text(json.dumps(info, indent=2, sort_keys=True, default=str) + "\n", encoding="utf-8")
    return readme
