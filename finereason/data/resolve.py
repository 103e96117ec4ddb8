"""Where evaluation data comes from: a local folder, a Hub repo you name, or the embedded default.

Resolution order for :func:`load_config` (see :func:`resolve_source`):

1. ``FINEREASON_DATA_DIR``: a folder written by ``finereason build`` / ``import-official``;
2. ``FINEREASON_HUB_ID`` (``org/name``, optionally ``org/name@revision``; or ``FINEREASON_HUB_REVISION``):
   a Hub dataset, fetched with ``huggingface_hub`` (only the README, ``build_info.json`` and the files of
   the configs asked for). The Hub is contacted only when you name a repo; if it cannot be reached
   (and the files are not cached), that is an error, never a silent fallback;
3. the embedded default: ``finereason build`` with default arguments, run once into the cache
   (``FINEREASON_CACHE``, else ``$XDG_CACHE_HOME/finereason``, else ``~/.cache/finereason``) under a name holding the package version and
   a fingerprint of the code that makes the data, so an upgrade rebuilds it. ``official_*`` configs
   are imported into it from ``FINEREASON_OFFICIAL_SRC`` when that folder is given (else from
   ``$FINEREASON_REFERENCE/finereason_official`` when it exists).

Every folder is opened with :func:`finereason.data.folder.open_data_folder`: rows are read from the
files its README lists, after checking their SHA-256 against ``build_info.json``, so a rebuilt or
same-named folder always gives its own rows. One line on stderr names the source and its fingerprint.
"""
from __future__ import annotations

import hashlib
import os
import sys
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from .folder import DataFolder, DataFolderError, open_data_folder


class DataUnavailable(DataFolderError):
    """No source could provide a config (missing folder or config, unreachable Hub repo)."""


@dataclass(frozen=True)
class DataSource:
    """Where a config's rows came from: ``kind`` is ``local``, ``hub`` or ``default``."""

    kind: str
    path: str  # the folder read (for the Hub: the snapshot in the Hugging Face cache)
    fingerprint: str | None  # the folder's content fingerprint (build_info.json)
    repo: str | None = None
    revision: str | None = None  # the commit read, for the Hub

    def describe(self) -> str:
        fp = (self.fingerprint or "none")[:12]
        if self.kind == "hub":
            return f"Hub dataset {self.repo}@{self.revision} (FINEREASON_HUB_ID), fingerprint {fp}"
        if self.kind == "local":
            return f"local folder {self.path} (FINEREASON_DATA_DIR), fingerprint {fp}"
        return f"embedded default build {self.path}, fingerprint {fp}"

    def metadata(self, folder: DataFolder | None = None, config: str | None = None) -> dict[str, Any]:
        """Facts for results files (lm-eval task metadata): source, path or repo and revision, fingerprints."""
        out: dict[str, Any] = {"kind": self.kind, "fingerprint": self.fingerprint}
        if self.kind == "hub":
            out.update(repo=self.repo, revision=self.revision)
        else:
            out["path"] = self.path
        if folder is not None and config is not None:
            out.update(config=config, config_fingerprint=folder.config_fingerprint(config))
        return out


# ------------------------------------------------------------------ embedded default
def cache_dir() -> Path:
    """``FINEREASON_CACHE``, else ``$XDG_CACHE_HOME/finereason``, else ``~/.cache/finereason``."""
    if os.environ.get("FINEREASON_CACHE"):
        return Path(os.environ["FINEREASON_CACHE"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "finereason"


# The layers that make the rows of a build (whole folders: a new module in one of them is hashed without
# anyone listing it); the layers above (verification, models, integrations, workflows, commands) only read data.
DATA_LAYERS = ("common", "reading", "core", "planning", "asp", "domains", "data")


def builder_fingerprint() -> str:
    """SHA-256 (12 hex) over the package version and every source file of the data-making layers (READMEs
    excepted: documentation makes no rows, and a wheel need not ship it, so a wheel and an editable
    install of the same sources agree)."""
    from .. import __version__

    digest = hashlib.sha256(f"finereason {__version__}\n".encode())

    def walk(node: Any, rel: str) -> None:
        for child in sorted(node.iterdir(), key=lambda c: c.name):
            name = f"{rel}{child.name}"
            if child.name.startswith((".", "__pycache__")) or child.name == "README.md":
                continue
            if child.is_dir():
                walk(child, name + "/")
            elif child.name.endswith((".py", ".md", ".csv", ".json")):
                digest.update(name.encode() + b"\0" + child.read_bytes() + b"\0")

    for package in (*(f"finereason.{layer}" for layer in DATA_LAYERS), "finereason.dataset_builders", "finereason.hub_cards"):
        walk(resources.files(package), package + "/")
    return digest.hexdigest()[:12]


def default_build_dir() -> Path:
    """The embedded default's folder: ``default-s0-<version>-<builder fingerprint>`` in the cache."""
    from .. import __version__

    return cache_dir() / f"default-s0-{__version__}-{builder_fingerprint()}"


def ensure_default_build() -> Path:
    """Build the default benchmark into the cache once (a lock file keeps parallel runs apart)."""
    out = default_build_dir()
    if (out / "README.md").is_file():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    lock = out.parent / (out.name + ".lock")
    import fcntl

    with open(lock, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        if not (out / "README.md").is_file():
            from ..dataset_builders.build import BuildConfig, build

            print(f"finereason: building the default benchmark into {out} (once) ...", file=sys.stderr)
            build(BuildConfig(out=out, num_proc=min(2, os.cpu_count() or 1), command="finereason build (embedded default)"))
    return out


# ------------------------------------------------------------------ the Hub
def hub_repo() -> tuple[str, str | None] | None:
    """(repo id, revision or None) named by ``FINEREASON_HUB_ID`` / ``FINEREASON_HUB_REVISION``, else None."""
    repo = os.environ.get("FINEREASON_HUB_ID", "").strip()
    if not repo:
        return None
    repo, _, revision = repo.partition("@")
    revision = revision or os.environ.get("FINEREASON_HUB_REVISION", "").strip() or None
    if repo.count("/") != 1 or not all(repo.split("/")):
        raise DataUnavailable(f"FINEREASON_HUB_ID={repo!r}: expected a dataset repo id like org/name[@revision]")
    return repo, revision


def _hub_snapshot(repo: str, revision: str | None, patterns: list[str]) -> Path:
    """Fetch ``patterns`` of a Hub dataset (or find them in the cache); one-line error when impossible."""
    try:
        from huggingface_hub import snapshot_download
    except ImportError:
        raise DataUnavailable("FINEREASON_HUB_ID needs huggingface_hub: pip install '.[hub]' in the finereason checkout") from None
    try:
        return Path(snapshot_download(repo, repo_type="dataset", revision=revision, allow_patterns=patterns))
    except Exception as err:  # offline, unknown repo or revision, network or auth errors: all end here
        text = str(err).strip().splitlines()[0] if str(err).strip() else ""
        where = f"{repo}@{revision}" if revision else repo
        raise DataUnavailable(f"Hub dataset {where} (FINEREASON_HUB_ID) is unavailable: {type(err).__name__}: {text}"
                              " (unset FINEREASON_HUB_ID to use the embedded default, or set FINEREASON_DATA_DIR)") from None


def _open_hub(repo: str, revision: str | None, config: str | None) -> tuple[DataFolder, DataSource]:
    meta = ["README.md", "build_info.json"]
    snapshot = _hub_snapshot(repo, revision, meta)
    folder = open_data_folder(snapshot, allowed_root=snapshot.parent.parent)  # files link into ../../blobs
    if config is not None and config in folder.configs:
        # the same revision again, README included, so the folder read is one consistent commit
        snapshot = _hub_snapshot(repo, revision, [*meta, *folder.checked_patterns(config)])
        folder = open_data_folder(snapshot, allowed_root=snapshot.parent.parent)
    return folder, DataSource("hub", str(snapshot), folder.fingerprint, repo=repo, revision=snapshot.name)


# ------------------------------------------------------------------ resolution
_announced: set[DataSource] = set()


def _announce(source: DataSource) -> None:
    if source not in _announced:
        _announced.add(source)
        print(f"finereason data: {source.describe()}", file=sys.stderr)


def open_source(config: str | None = None) -> tuple[DataFolder, DataSource]:
    """The data folder to read (``config``: the config about to be read) and where it came from."""
    local = os.environ.get("FINEREASON_DATA_DIR")
    if local:
        path = Path(local).expanduser()
        if not path.is_dir():
            raise DataUnavailable(f"FINEREASON_DATA_DIR={local}: no such folder")
        folder = open_data_folder(path)
        source = DataSource("local", str(path.resolve()), folder.fingerprint)
    elif (named := hub_repo()) is not None:
        folder, source = _open_hub(*named, config)
    else:
        path = ensure_default_build()
        folder = open_data_folder(path)
        if config and config.startswith("official_") and config not in folder.configs:
            _import_official_into(path, config)
            folder = open_data_folder(path)
        source = DataSource("default", str(path), folder.fingerprint)
    _announce(source)
    return folder, source


def resolve_source() -> DataSource:
    """Which source :func:`load_config` reads now (announced once on stderr)."""
    return open_source()[1]


def _import_official_into(folder: Path, config: str) -> None:
    from .reference import reference_path

    src = os.environ.get("FINEREASON_OFFICIAL_SRC")
    fetched = reference_path("finereason-official")
    if not src and fetched is not None and fetched.is_dir():
        src = str(fetched)
    if not src:
        raise DataUnavailable(
            f"{config} needs the official release: set FINEREASON_DATA_DIR to a folder made by "
            "`finereason import-official`, FINEREASON_OFFICIAL_SRC to the release's files, or FINEREASON_REFERENCE "
            "to a folder holding them (finereason reference fetch finereason-official)"
        )
    from ..dataset_builders.official_configs import import_official

    import_official(Path(src), folder, overwrite=True)


def load_config_with_source(config: str) -> tuple[Any, DataSource, dict[str, Any]]:
    """(``DatasetDict`` of ``config``, its source, metadata for results files)."""
    folder, source = open_source(config)
    if config not in folder.configs:
        raise DataUnavailable(f"{source.describe()} has no config {config!r} "
                              f"(configs: {', '.join(sorted(folder.configs)) or 'none'})")
    return folder.read(config), source, source.metadata(folder, config)


def load_config(config: str, **_: Any) -> Any:
    """A ``DatasetDict`` for ``config`` (``sudoku_state_checking``, ``official_...``, ``train``).

    Use this instead of ``datasets.load_dataset(folder, config)``: rows come from verified file
    contents, never from a cache keyed by the folder's name.
    """
    return load_config_with_source(config)[0]
