"""Where evaluation data comes from: a local folder, the Hub, or the embedded default built once.

Resolution order for :func:`load_config`:
1. ``FINEREASON_DATA_DIR`` (a folder written by ``finereason build`` / ``import-official``);
2. the Hub dataset ``FINEREASON_HUB_ID`` (default :data:`DEFAULT_HUB_ID`), unless ``HF_HUB_OFFLINE``;
3. the embedded default: ``finereason build`` with default arguments, run once into the cache
   (``FINEREASON_CACHE``, default ``~/.cache/finereason``). ``official_*`` configs are imported into
   it from ``FINEREASON_OFFICIAL_SRC`` when that folder is given.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

DEFAULT_HUB_ID = "finereason/finereason"


class DataUnavailable(RuntimeError):
    """No source could provide a config."""


def cache_dir() -> Path:
    return Path(os.environ.get("FINEREASON_CACHE", Path.home() / ".cache" / "finereason"))


def default_build_dir() -> Path:
    from .prompts import PROMPT_VERSION

    return cache_dir() / f"default-s0-{PROMPT_VERSION}"


def _split(config: str) -> str:
    return "train" if config == "train" else "test"


def _from_folder(folder: Path, config: str) -> Any:
    import datasets

    if not (folder / config).is_dir():
        raise DataUnavailable(f"{folder} has no config {config!r}")
    return datasets.load_dataset(str(folder), config)


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
            from .dataset_builders.build import BuildConfig, build

            build(BuildConfig(out=out, num_proc=min(2, os.cpu_count() or 1), command="finereason build (embedded default)"))
    return out


def load_config(config: str, **_: Any) -> Any:
    """A ``DatasetDict`` for ``config`` (``sudoku_state_checking``, ``official_...``, ``train``)."""
    local = os.environ.get("FINEREASON_DATA_DIR")
    if local:
        return _from_folder(Path(local), config)
    if os.environ.get("HF_HUB_OFFLINE", "0").lower() not in ("1", "true", "yes"):
        try:
            import datasets

            return datasets.load_dataset(os.environ.get("FINEREASON_HUB_ID", DEFAULT_HUB_ID), config)
        except Exception:  # unreachable Hub, missing repo or config: fall back to the embedded default
            pass
    folder = ensure_default_build()
    if config.startswith("official_") and not (folder / config).is_dir():
        src = os.environ.get("FINEREASON_OFFICIAL_SRC")
        if not src:
            raise DataUnavailable(
                f"{config} needs the official release: set FINEREASON_DATA_DIR to a folder made by "
                "`finereason import-official`, or FINEREASON_OFFICIAL_SRC to the release's files"
            )
        from .dataset_builders.official import import_official

        import_official(Path(src), folder, overwrite=True)
    return _from_folder(folder, config)
