"""Open a FineReason dataset folder safely: configs from its README, content fingerprints, schema.

A folder in Hub layout (written by ``finereason build`` / ``import-official``, or a Hub snapshot)
declares its configs in the README's YAML front matter (``configs:`` with ``data_files``) and records
a SHA-256 manifest of every data file in ``build_info.json`` (``data``). :func:`open_data_folder`
reads both and refuses, with one-line :class:`DataFolderError` messages:

- data-file paths outside the folder (``../x``, absolute paths, URLs, symlinks that leave it);
- files whose bytes do not match the manifest, or listed by the README but not by the manifest;
- tables without the FineReason schema, rows of another config's task, unknown domains, and
  duplicate or missing row ids.

Rows are read from the verified bytes, so no cache keyed by a folder's name can serve old rows.
``pyyaml`` and ``pyarrow`` are imported only when a folder is opened (the core stays light).
"""
from __future__ import annotations

import atexit
import gc
import hashlib
import json
import posixpath
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..common.input_errors import InputError
from ..core.rows import DOMAIN, LEGACY_DOMAIN

MANIFEST_FILE = "build_info.json"
_GLOB_CHARS = set("*?[")
IN_MEMORY_BYTES = 256 << 20  # configs up to this much parquet are read into memory; larger ones memory-mapped
# Columns every config must have, with their Arrow type names (see dataset_builders/layout.py), and a
# domain column: ``domain``, or ``puzzle`` (its old name; builds write both until the next major version).
_STRING_COLUMNS = ("id", "task", "prompt", "label", "prompt_version", "inputs", "outputs")


class DataFolderError(InputError):
    """A dataset folder that cannot be trusted or read (one-line message naming the file)."""


# ------------------------------------------------------------------ fingerprints
_ARROW_SETTLED = False


def settle_arrow_at_exit() -> None:
    """Collect garbage at interpreter exit, before module teardown, once per process: pyarrow's parquet
    threads of a finished read or write then end while Arrow is alive, instead of aborting the process
    during the final teardown ("terminate called without an active exception", apache/arrow#34314)."""
    global _ARROW_SETTLED
    if not _ARROW_SETTLED:
        _ARROW_SETTLED = True
        atexit.register(gc.collect)


def file_sha256(path: Path) -> str:
    """SHA-256 of a file's bytes (read in 1 MiB blocks)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _combine(entries: dict[str, str]) -> str:
    digest = hashlib.sha256()
    for key in sorted(entries):
        digest.update(f"{key}\t{entries[key]}\n".encode())
    return digest.hexdigest()


def data_manifest(root: Path, files_by_config: dict[str, list[str]]) -> dict[str, Any]:
    """The ``data`` entry of ``build_info.json``: per-file SHA-256, per-config and folder fingerprints.

    ``files_by_config`` maps each config to its data files, relative to ``root`` (POSIX paths).
    """
    configs: dict[str, Any] = {}
    for config in sorted(files_by_config):
        files = {rel: file_sha256(root / rel) for rel in sorted(files_by_config[config])}
        configs[config] = {"fingerprint": _combine(files), "files": files}
    return {"fingerprint": _combine({c: v["fingerprint"] for c, v in configs.items()}), "configs": configs}


# ------------------------------------------------------------------ README configs
def _front_matter(readme: Path) -> dict[str, Any]:
    import yaml

    try:
        text = readme.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataFolderError(f"{readme.parent}: not a dataset folder (no README.md)") from None
    except (OSError, UnicodeDecodeError) as err:
        raise DataFolderError(f"{readme}: cannot read ({err})") from None
    if not text.startswith("---"):
        raise DataFolderError(f"{readme}: no YAML front matter with `configs:`")
    end = text.find("\n---", 3)
    if end < 0:
        raise DataFolderError(f"{readme}: unterminated YAML front matter")
    try:
        meta = yaml.safe_load(text[3:end])
    except yaml.YAMLError as err:
        raise DataFolderError(f"{readme}: invalid YAML front matter ({str(err).splitlines()[0]})") from None
    if not isinstance(meta, dict):
        raise DataFolderError(f"{readme}: YAML front matter is not a mapping")
    return meta


def _patterns(readme: Path, entry: Any) -> tuple[str, dict[str, list[str]]]:
    """(config name, {split: [path patterns]}) of one ``configs:`` entry."""
    if not isinstance(entry, dict) or not isinstance(entry.get("config_name"), str):
        raise DataFolderError(f"{readme}: every `configs:` entry needs a config_name")
    name = entry["config_name"]
    files = entry.get("data_files")
    prefix = entry.get("data_dir") or ""
    if not isinstance(prefix, str):
        raise DataFolderError(f"{readme}: config {name!r} has a non-string data_dir")
    splits: dict[str, list[str]] = {}
    items = files if isinstance(files, list) else [files]
    for item in items:
        split, paths = ("train", item) if not isinstance(item, dict) else (item.get("split", "train"), item.get("path"))
        paths = paths if isinstance(paths, list) else [paths]
        if not isinstance(split, str) or not paths or not all(isinstance(p, str) and p for p in paths):
            raise DataFolderError(f"{readme}: config {name!r} has malformed data_files")
        splits.setdefault(split, []).extend(posixpath.join(prefix, p) if prefix else p for p in paths)
    return name, splits


def _inside(readme: Path, config: str, pattern: str) -> str:
    """``pattern`` if it stays inside the folder (no URL, absolute path or ``..``), else an error."""
    norm = posixpath.normpath(pattern.replace("\\", "/"))
    if "://" in pattern or norm.startswith("/") or norm == ".." or norm.startswith("../") or ":" in norm.split("/")[0]:
        raise DataFolderError(f"{readme}: config {config!r} reads {pattern!r}, outside the dataset folder; refused")
    return norm


# ------------------------------------------------------------------ the folder
@dataclass
class DataFolder:
    """A dataset folder whose README and manifest were read; use :meth:`read` for verified rows."""

    root: Path
    configs: dict[str, dict[str, list[str]]]  # config -> split -> path patterns (inside root)
    manifest: dict[str, Any] | None  # build_info.json["data"], None when absent
    allowed_root: Path  # symlinks may point anywhere below this (the folder, or a Hub cache repo)
    verify: bool = True
    _files: dict[str, dict[str, list[str]]] = field(default_factory=dict)

    @property
    def fingerprint(self) -> str | None:
        """The folder's recorded content fingerprint (SHA-256 over every config's files)."""
        return self.manifest.get("fingerprint") if self.manifest else None

    def config_fingerprint(self, config: str) -> str | None:
        entry = (self.manifest or {}).get("configs", {}).get(config)
        return entry.get("fingerprint") if isinstance(entry, dict) else None

    def _require(self, config: str) -> dict[str, list[str]]:
        if config not in self.configs:
            known = ", ".join(sorted(self.configs)) or "none"
            raise DataFolderError(f"{self.root}: no config {config!r} in README.md (configs: {known})")
        return self.configs[config]

    def checked_patterns(self, config: str) -> list[str]:
        """The README's path patterns of ``config``, normalized, each checked to stay inside the folder."""
        readme = self.root / "README.md"
        return [_inside(readme, config, p) for patterns in self._require(config).values() for p in patterns]

    def files(self, config: str) -> dict[str, list[str]]:
        """{split: [data files relative to the folder]} of ``config``, every one checked to stay inside."""
        if config in self._files:
            return self._files[config]
        readme = self.root / "README.md"
        allowed = self.allowed_root.resolve()
        out: dict[str, list[str]] = {}
        for split, patterns in self._require(config).items():
            found: list[str] = []
            for pattern in patterns:
                rel = _inside(readme, config, pattern)
                if _GLOB_CHARS & set(rel):
                    matches = [m for m in sorted(self.root.glob(rel)) if m.is_file()]
                else:
                    matches = [self.root / rel]
                if not matches:
                    raise DataFolderError(f"{readme}: config {config!r}: no file matches {pattern!r}")
                for path in matches:
                    if not path.resolve().is_relative_to(allowed):
                        raise DataFolderError(f"{path}: a link out of the dataset folder; refused")
                    if not path.is_file():
                        raise DataFolderError(f"{path}: missing (listed for config {config!r} in README.md)")
                    found.append(path.relative_to(self.root).as_posix())
            out[split] = found
        recorded = (self.manifest or {}).get("configs", {}).get(config) or {}
        lost = sorted(set(recorded.get("files", {})) - {rel for rels in out.values() for rel in rels})
        if self.verify and lost:  # a deleted shard must not quietly shrink the data
            raise DataFolderError(f"{self.root / lost[0]}: recorded in {MANIFEST_FILE} but missing or not listed in README.md")
        self._files[config] = out
        return out

    def _check_digest(self, config: str, rel: str, digest: str) -> None:
        if not self.verify:
            return
        where = self.root / MANIFEST_FILE
        if self.manifest is None:
            raise DataFolderError(f"{where}: no data fingerprints (folder made by an older finereason?); "
                                  "rebuild it with `finereason build` / `import-official`")
        expected = (self.manifest.get("configs", {}).get(config) or {}).get("files", {}).get(rel)
        if expected is None:
            raise DataFolderError(f"{self.root / rel}: not in the fingerprints of {where}; refused")
        if digest != expected:
            raise DataFolderError(f"{self.root / rel}: content does not match its fingerprint in {where} "
                                  "(changed after the build?); refused")

    def _split_files(self, config: str, split: str | None) -> tuple[str, list[str]]:
        files = self.files(config)
        split = split or next(iter(files))
        if split not in files:
            raise DataFolderError(f"{self.root}: config {config!r} has no split {split!r}")
        return split, files[split]

    def read_table(self, config: str, split: str | None = None) -> Any:
        """A verified ``pyarrow.Table`` of one split (default: the config's only or first split)."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        settle_arrow_at_exit()
        split, rels = self._split_files(config, split)
        tables = []
        for rel in rels:
            data = (self.root / rel).read_bytes()
            self._check_digest(config, rel, hashlib.sha256(data).hexdigest())
            try:
                tables.append(pq.read_table(pa.BufferReader(data)))
            except (pa.ArrowException, OSError) as err:
                raise DataFolderError(f"{self.root / rel}: not a readable parquet file ({str(err).splitlines()[0]})") from None
        table = tables[0] if len(tables) == 1 else _concat(self.root / rels[0], tables)
        check_schema(table.schema, self.root / rels[0])
        check_rows(table, config, self.root / rels[0])
        return table

    def read(self, config: str, in_memory: bool | None = None) -> Any:
        """A ``datasets.DatasetDict`` of ``config`` (every split) from verified files.

        In memory up to :data:`IN_MEMORY_BYTES` of parquet (``in_memory`` forces either way); larger
        configs are converted once into a ``datasets`` cache folder named by their content fingerprint
        and memory-mapped, after the same checks.
        """
        import datasets

        files = self.files(config)
        if in_memory is None:
            in_memory = sum((self.root / rel).stat().st_size for rels in files.values() for rel in rels) <= IN_MEMORY_BYTES
        if in_memory:
            return datasets.DatasetDict({split: datasets.Dataset(datasets.table.InMemoryTable(self.read_table(config, split)))
                                         for split in files})
        digests = {}
        for split in files:
            digests.update(self._checked_files(config, split))
        cache = Path(datasets.config.HF_DATASETS_CACHE) / "finereason-verified" / _combine(digests)[:16]
        return datasets.load_dataset("parquet", data_files={split: [str((self.root / rel).resolve()) for rel in rels]
                                                            for split, rels in files.items()}, cache_dir=str(cache))

    def _checked_files(self, config: str, split: str) -> dict[str, str]:
        """Fingerprint, schema and row checks of one split without loading it whole; {file: sha256}."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        settle_arrow_at_exit()
        split, rels = self._split_files(config, split)
        digests = {}
        for rel in rels:
            digests[rel] = file_sha256(self.root / rel)
            self._check_digest(config, rel, digests[rel])
            try:
                check_schema(pq.read_schema(self.root / rel), self.root / rel)
            except (pa.ArrowException, OSError) as err:
                raise DataFolderError(f"{self.root / rel}: not a readable parquet file ({str(err).splitlines()[0]})") from None
        columns = ["id", *domain_columns(pq.read_schema(self.root / rels[0]).names), "task", "inputs", "outputs"]
        table = _concat(self.root / rels[0], [pq.read_table(self.root / rel, columns=columns) for rel in rels])
        check_rows(table, config, self.root / rels[0])
        return digests


def _concat(where: Path, tables: list) -> Any:
    import pyarrow as pa

    try:
        return tables[0] if len(tables) == 1 else pa.concat_tables(tables)
    except pa.ArrowInvalid as err:
        raise DataFolderError(f"{where}: shards of one split have different schemas ({str(err).splitlines()[0]})") from None


def domain_columns(names: Any) -> list[str]:
    """The domain columns among a table's column ``names``: ``domain`` and/or ``puzzle`` (its old name)."""
    return [c for c in (DOMAIN, LEGACY_DOMAIN) if c in names]


def check_schema(schema: Any, where: Path) -> None:
    """The FineReason columns with string types (``messages`` any type; the domain as ``domain`` or
    old ``puzzle``, or both); one-line error otherwise."""
    import pyarrow as pa

    missing = [c for c in (*_STRING_COLUMNS, "messages") if c not in schema.names]
    if not domain_columns(schema.names):
        missing.insert(1, DOMAIN)
    if missing:
        raise DataFolderError(f"{where}: missing column(s) {', '.join(missing)}; not a FineReason dataset file")
    for column in (*_STRING_COLUMNS, *domain_columns(schema.names)):
        kind = schema.field(column).type
        if not (pa.types.is_string(kind) or pa.types.is_large_string(kind)):
            raise DataFolderError(f"{where}: column {column!r} has type {kind}, expected string")


def check_rows(table: Any, config: str, where: Path) -> None:
    """Row checks of one config: no null keys, the config's task, known domains (``domain`` and old
    ``puzzle`` agreeing when both are present), unique ids."""
    import pyarrow.compute as pc

    from ..common.vocabulary import TASKS
    from ..core.engine import engine_names

    domain = domain_columns(table.column_names)
    for column in ("id", *domain, "task", "inputs", "outputs"):
        if table.column(column).null_count:
            raise DataFolderError(f"{where}: column {column!r} has empty (null) values")
    tasks = set(pc.unique(table.column("task")).to_pylist())
    allowed = {t for t in TASKS if config.endswith(t)} or set(TASKS)  # train mixes tasks
    if not tasks <= allowed:
        raise DataFolderError(f"{where}: task(s) {', '.join(sorted(map(str, tasks - allowed)))} in config {config!r}")
    unknown = set().union(*(pc.unique(table.column(c)).to_pylist() for c in domain)) - set(engine_names())
    if unknown:
        raise DataFolderError(f"{where}: unknown domain(s) {', '.join(sorted(map(str, unknown)))}")
    if len(domain) == 2 and not pc.all(pc.equal(table.column(DOMAIN), table.column(LEGACY_DOMAIN))).as_py():
        raise DataFolderError(f"{where}: columns {DOMAIN!r} and {LEGACY_DOMAIN!r} (its old name) disagree; refused")
    ids = table.column("id")
    if len(pc.unique(ids)) != len(ids):
        counts = pc.value_counts(ids)
        dup = next(v["values"] for v in counts.to_pylist() if v["counts"] > 1)
        raise DataFolderError(f"{where}: duplicate row id {dup!r}; refused")


def open_data_folder(root: Path | str, *, verify: bool = True, allowed_root: Path | None = None) -> DataFolder:
    """Read a dataset folder's README ``configs:`` and ``build_info.json`` manifest (no rows yet).

    ``verify=False`` skips the fingerprint check (for tools that inspect a tampered folder);
    paths outside the folder, schema and duplicate ids are always checked.
    ``allowed_root``: where symlinked files may live (a Hub cache keeps them in ``blobs/``).
    """
    root = Path(root)
    if not root.is_dir():
        raise DataFolderError(f"{root}: no such dataset folder")
    readme = root / "README.md"
    meta = _front_matter(readme)
    entries = meta.get("configs")
    if not isinstance(entries, list) or not entries:
        raise DataFolderError(f"{readme}: no `configs:` list in the YAML front matter")
    configs: dict[str, dict[str, list[str]]] = {}
    for entry in entries:
        name, splits = _patterns(readme, entry)
        if name in configs:
            raise DataFolderError(f"{readme}: config {name!r} is declared twice")
        configs[name] = splits
    manifest = None
    info_path = root / MANIFEST_FILE
    if info_path.is_file():
        try:
            info = json.loads(info_path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as err:
            raise DataFolderError(f"{info_path}: unreadable ({err})") from None
        data = info.get("data") if isinstance(info, dict) else None
        if data is not None and not (isinstance(data, dict) and isinstance(data.get("configs"), dict)):
            raise DataFolderError(f"{info_path}: malformed `data` fingerprints")
        manifest = data
    return DataFolder(root=root, configs=configs, manifest=manifest, allowed_root=allowed_root or root, verify=verify)
