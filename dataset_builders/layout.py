"""The Hub folder layout: ``<config>/<split>-<i>-of-<n>.parquet`` shards plus a README whose YAML
front matter declares ``configs:`` (datasets 5.x has no loading scripts), rendered from the card
template in ``hub_cards/`` with statistics that are accumulated while the rows stream past
(:class:`ConfigStats`, mergeable across workers and machines), so no file is read back."""
from __future__ import annotations

import json
from collections import Counter
from importlib import resources
from pathlib import Path
from string import Template
from typing import Any, Iterable

from finereason.common.vocabulary import STATE_TASKS
from finereason.data.folder import settle_arrow_at_exit

from .items import COLUMNS, DIFFICULTY_FIELDS

PARQUET_OPTIONS = {"compression": "zstd", "write_statistics": False, "store_schema": False}
ROW_GROUP_SIZE = 2048


def _schema():
    import pyarrow as pa

    int_fields = [(name, pa.int32()) for name in DIFFICULTY_FIELDS]
    return pa.schema(
        [
            ("id", pa.string()),
            ("domain", pa.string()),
            ("task", pa.string()),
            ("prompt", pa.string()),
            ("messages", pa.list_(pa.struct([("role", pa.string()), ("content", pa.string())]))),
            ("label", pa.string()),
            *int_fields,
            ("prompt_version", pa.string()),
            ("inputs", pa.string()),
            ("outputs", pa.string()),
            ("puzzle", pa.string()),  # the old name of ``domain``, written until the next major version
        ]
    )


def split_of(config: str) -> str:
    return "train" if config == "train" else "test"


def shard_name(config: str, index: int, count: int) -> str:
    """``<config>/<split>-<index>-of-<count>.parquet`` (Hub naming, 5 digits each)."""
    return f"{config}/{split_of(config)}-{index:05d}-of-{count:05d}.parquet"


def parquet_files(root: Path, config: str) -> list[Path]:
    """The parquet shards of one config, in order."""
    return sorted((Path(root) / config).glob(f"{split_of(config)}-*.parquet"))


def rows_table(rows: list[dict]):
    """An arrow table of rows in the fixed schema."""
    import pyarrow as pa

    return pa.Table.from_pylist([{c: r[c] for c in COLUMNS} for r in rows], schema=_schema())


class ShardWriter:
    """One parquet shard written incrementally (bounded memory); same tables in, same bytes out."""

    def __init__(self, path: Path) -> None:
        import pyarrow.parquet as pq

        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.rows = 0
        settle_arrow_at_exit()
        self._writer = pq.ParquetWriter(str(path), _schema(), **PARQUET_OPTIONS)

    def write(self, table) -> None:
        if table.num_rows:
            self._writer.write_table(table, row_group_size=ROW_GROUP_SIZE)
            self.rows += table.num_rows

    def close(self) -> None:
        self._writer.close()


def write_config(root: Path, config: str, rows: list[dict]) -> Path:
    """Write one config's rows as a single shard; same rows, same bytes."""
    writer = ShardWriter(Path(root) / shard_name(config, 0, 1))
    try:
        writer.write(rows_table(rows))
    finally:
        writer.close()
    return writer.path


def read_config(root: Path, config: str) -> list[dict]:
    """Every row of a config (all shards, in order)."""
    import pyarrow.parquet as pq

    return [row for path in parquet_files(root, config) for row in pq.read_table(path).to_pylist()]


def configs_in(root: Path) -> list[str]:
    """Configs present in a folder: sub-folders holding a parquet file, sorted (train last)."""
    found = [p.name for p in Path(root).iterdir() if p.is_dir() and any(p.glob("*.parquet"))]
    return sorted(found, key=lambda c: (c == "train", c.startswith("official_"), c))


# ------------------------------------------------------------------ statistics
STAT_FIELDS = ("label", *DIFFICULTY_FIELDS, "child")
"""Per-row facts the card counts; ``child`` is ``has`` / ``no_move`` / ``all_solvable`` (state rows only)."""


def stat_tuple(row: dict, child: str | None) -> tuple:
    """The facts of one row that :class:`ConfigStats` counts."""
    return (row["label"], *(row[name] for name in DIFFICULTY_FIELDS), child)


class ConfigStats:
    """Exact, mergeable counts of one config: label, depth and difficulty values, unsolvable children."""

    def __init__(self) -> None:
        self.rows = 0
        self.counts: dict[str, Counter] = {name: Counter() for name in STAT_FIELDS}

    def add(self, facts: Iterable[tuple]) -> "ConfigStats":
        for fact in facts:
            self.rows += 1
            for name, value in zip(STAT_FIELDS, fact):
                if value is not None:
                    self.counts[name][value] += 1
        return self

    def merge(self, other: "ConfigStats") -> "ConfigStats":
        self.rows += other.rows
        for name in STAT_FIELDS:
            self.counts[name].update(other.counts[name])
        return self

    def to_json(self) -> dict:
        return {"rows": self.rows, "counts": {n: sorted(([k, v] for k, v in c.items()), key=lambda kv: str(kv[0]))
                                              for n, c in self.counts.items() if c}}

    @classmethod
    def from_json(cls, data: dict) -> "ConfigStats":
        out = cls()
        out.rows = int(data["rows"])
        for name, pairs in data.get("counts", {}).items():
            out.counts[name] = Counter({k: v for k, v in pairs})
        return out

    @classmethod
    def of_rows(cls, rows: Iterable[dict]) -> "ConfigStats":
        """Counts read off stored rows (``child`` from the official ``inputs``)."""
        out = cls()
        for row in rows:
            child = None
            if row.get("task") in STATE_TASKS:
                child = "has" if json.loads(row["inputs"]).get("unsolvable_child") is not None else "missing"
            out.add([stat_tuple(row, child)])
        return out

    def summary(self) -> dict[str, Any]:
        """Counts, label balance and difficulty summaries (the card's tables)."""
        labels = self.counts["label"]
        labelled = sum(labels.values())
        out: dict[str, Any] = {
            "rows": self.rows,
            "solvable_share": (labels.get("Solvable", 0) / labelled) if labelled else None,
            "depth_histogram": _histogram(self.counts["depth"]),
            "unsolvable_child": dict(sorted(self.counts["child"].items())),
        }
        for name in DIFFICULTY_FIELDS[1:]:
            counts = self.counts[name]
            if counts:
                out[name] = {"min": min(counts), "median": _median(counts), "max": max(counts), "histogram": _histogram(counts)}
        return out


def _median(counts: Counter) -> float | int:
    values = sorted(counts)
    total = sum(counts.values())
    seen, lower, upper = 0, None, None
    for v in values:
        seen += counts[v]
        if lower is None and seen >= (total + 1) // 2:
            lower = v
        if seen >= total // 2 + 1:
            upper = v
            break
    return lower if total % 2 else (lower + upper) / 2


def _histogram(counts: Counter, buckets: int = 8) -> str:
    if not counts:
        return "-"
    lo, hi = min(counts), max(counts)
    if hi - lo < buckets:
        return " ".join(f"{k}:{counts[k]}" for k in sorted(counts))
    width = (hi - lo + buckets) // buckets
    binned: Counter = Counter()
    for value, n in counts.items():
        binned[(value - lo) // width] += n
    return " ".join(f"{lo + b * width}-{lo + (b + 1) * width - 1}:{binned[b]}" for b in sorted(binned))


# ------------------------------------------------------------------ README / card
def _yaml_configs(configs: list[str], manifest: dict[str, Any]) -> str:
    lines = ["configs:"]
    for config in configs:
        split = split_of(config)
        lines += [
            f"- config_name: {config}",
            # the content fingerprint keys `datasets`' cache of this folder (no stale rows after a rebuild)
            f"  description: \"sha256:{manifest['configs'][config]['fingerprint']}\"",
            "  data_files:",
            f"  - split: {split}",
            f"    path: {config}/{split}-*.parquet",
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


_CHILD_WORDS = {"no_move": "the state has no valid move", "all_solvable": "every move keeps the state solvable",
                "missing": "none given in the source data"}


def _child_note(stats: dict[str, dict]) -> str:
    parts = []
    for config, s in stats.items():
        missing = {k: v for k, v in s.get("unsolvable_child", {}).items() if k != "has"}
        if missing:
            parts.append(f"`{config}`: " + ", ".join(f"{n} ({_CHILD_WORDS.get(k, k)})" for k, n in missing.items()))
    return ("Rows without an unsolvable child: " + "; ".join(parts) + ".") if parts else \
        "Every state-checking and state-transition row has an unsolvable child."


def size_category(rows: int) -> str:
    """The Hub's ``size_categories`` bucket of a row count."""
    bounds = [(1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M"),
              (10_000_000, "1M<n<10M"), (100_000_000, "10M<n<100M"), (1_000_000_000, "100M<n<1B")]
    return next((name for bound, name in bounds if rows < bound), "n>1T")


def card_template() -> str:
    """The card template shipped in ``hub_cards/`` (installed as ``finereason.hub_cards``)."""
    return resources.files("finereason.hub_cards").joinpath("dataset_card.md").read_text(encoding="utf-8")


def write_card(root: Path, build_info: dict[str, Any], stats: dict[str, ConfigStats]) -> Path:
    """Render README.md for the configs in ``stats`` and store ``build_info.json`` beside it.

    ``build_info`` holds only facts that do not depend on where or how (processes, shards) the
    build ran, so equal builds get byte-identical cards.
    """
    from finereason.data.folder import data_manifest

    configs = sorted(stats, key=lambda c: (c == "train", c.startswith("official_"), c))
    manifest = data_manifest(Path(root), {c: [p.relative_to(root).as_posix() for p in parquet_files(root, c)] for c in configs})
    summary = {c: stats[c].summary() for c in configs}
    total = sum(s["rows"] for s in summary.values())
    text = Template(card_template()).substitute(
        configs_yaml=_yaml_configs(configs, manifest),
        total_rows=total,
        size_category=size_category(total),
        config_count=len(configs),
        stats_table=_stats_table(summary),
        difficulty_table=_difficulty_table(summary),
        child_note=_child_note(summary),
        build_command=build_info.get("command", "finereason build"),
        seed=build_info.get("seed", "-"),
        finereason_version=build_info.get("finereason_version", "-"),
        prompt_version=build_info.get("prompt_version", "-"),
        disjointness=build_info.get("disjointness", "-"),
        balance_note=build_info.get("balance_note", "-"),
    )
    readme = Path(root) / "README.md"
    readme.write_text(text, encoding="utf-8")
    # `data`: SHA-256 of every data file, checked by finereason.data.folder before rows are read
    info = dict(build_info, stats=summary, counts={c: stats[c].to_json() for c in configs}, data=manifest)
    (Path(root) / "build_info.json").write_text(json.dumps(info, indent=2, sort_keys=True, default=str) + "\n", encoding="utf-8")
    return readme


def stored_stats(root: Path) -> dict[str, ConfigStats]:
    """The mergeable counts a folder's ``build_info.json`` holds (empty when it has none)."""
    try:
        info = json.loads((Path(root) / "build_info.json").read_text(encoding="utf-8"))
        return {c: ConfigStats.from_json(d) for c, d in info.get("counts", {}).items()}
    except (OSError, ValueError, KeyError, TypeError):
        return {}
