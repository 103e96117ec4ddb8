"""FOLIO (Han et al. 2022): loading and normalising the records.

Sources (``load_folio(source, split)``):

- a Hub dataset id (default ``yale-nlp/FOLIO``, the official v2 release; gated: accept its terms and
  log in first), read with ``datasets.load_dataset``;
- a local folder: ``folio-<split>.jsonl`` (v0.0 release, from ``finereason reference fetch folio``),
  ``folio_v2_<split>.jsonl``, ``<split>.jsonl``, or a Hub-layout folder (parquet + README ``configs:``);
- a ``.jsonl`` file.

``FINEREASON_FOLIO`` overrides the default source; without it, ``$FINEREASON_REFERENCE/folio`` (from
``finereason reference fetch folio``) is used when it exists. Offline (``HF_HUB_OFFLINE`` or
``HF_DATASETS_OFFLINE``), a Hub id is refused at once. :func:`load_folio_versioned` also tells the
release (``v2``, the corrected 2024 one the LLM-ARC paper's 88.32% is on, or ``v0.0``, the 2022
one ``finereason reference fetch folio`` gets, with known label errors): accuracies are comparable
only within a release. Records are normalised to ``id``, ``story_id``, ``premises`` (list),
``conclusion``, ``label`` (FOLIO's own column: the conclusion's truth value, ``True``/``False``/``Uncertain``;
v0's ``Unknown`` becomes ``Uncertain``), ``premises_fol`` and ``conclusion_fol``. Nothing here needs clingo.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any, Iterable

from ...common.input_errors import InputError
from ...common.jsonl import iter_json_lines
from ...reading.truth_values import TRUTH_VALUE_WORDS
from ..reference import ENV as REFERENCE_ENV
from ..reference import reference_path

DEFAULT_HUB_ID = "yale-nlp/FOLIO"
ENV_SOURCE = "FINEREASON_FOLIO"


class FolioError(InputError):
    """A FOLIO source that cannot be read, or a record without the needed fields."""


def _premises(value: Any) -> list[str]:
    if isinstance(value, str):
        return [p.strip() for p in value.split("\n") if p.strip()]
    if isinstance(value, (list, tuple)):
        return [str(p).strip() for p in value if str(p).strip()]
    raise FolioError(f"premises must be a list or a newline-joined string, not {type(value).__name__}")


def normalize(record: dict, split: str, index: int) -> dict:
    """One FOLIO record (v0.0 or v2 schema) in finereason's schema."""
    try:
        premises = _premises(record["premises"])
        conclusion = str(record["conclusion"]).strip()
        raw = str(record["label"]).strip()
    except KeyError as err:
        raise FolioError(f"{split} record {index}: missing field {err.args[0]!r}") from None
    value = TRUTH_VALUE_WORDS.get(raw.lower())
    if value is None:
        raise FolioError(f"{split} record {index}: label {raw!r} is not True, False, Uncertain or Unknown")
    story = record.get("story_id")
    if story is None:  # v0.0 validation has no story ids: name the premise set
        story = "p" + hashlib.sha1("\n".join(premises).encode()).hexdigest()[:10]
    example = record.get("example_id")
    return {
        "id": f"folio-{split}-{example if example is not None else index}",
        "story_id": str(story),
        "premises": premises,
        "conclusion": conclusion,
        "label": value,
        "premises_fol": _premises(record.get("premises-FOL") or record.get("premises_fol") or []),
        "conclusion_fol": str(record.get("conclusion-FOL") or record.get("conclusion_fol") or ""),
    }


def _read_jsonl(path: Path) -> list[dict]:
    rows = []
    for lineno, row in iter_json_lines(str(path), "FOLIO", FolioError):  # the one JSON Lines reader
        if not isinstance(row, dict):
            raise FolioError(f"{path}:{lineno}: a FOLIO record is a JSON object, not {type(row).__name__}")
        rows.append(row)
    return rows


def _local_rows(path: Path, split: str) -> list[dict]:
    if path.is_file():
        return _read_jsonl(path)
    for name in (f"folio-{split}.jsonl", f"folio_v2_{split}.jsonl", f"{split}.jsonl"):
        if (path / name).is_file():
            return _read_jsonl(path / name)
    if (path / "README.md").is_file() or any(path.glob("**/*.parquet")):
        return list(_hub_rows(str(path), split))
    raise FolioError(f"{path} holds no FOLIO {split} split (folio-{split}.jsonl, folio_v2_{split}.jsonl, "
                     f"{split}.jsonl or a Hub-layout folder)")


def offline() -> bool:
    """Whether the Hub is switched off (``HF_HUB_OFFLINE`` or ``HF_DATASETS_OFFLINE`` set to a true value)."""
    return any(os.environ.get(v, "").strip().lower() in {"1", "true", "yes", "on"}
               for v in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE"))


def _hub_rows(name: str, split: str) -> Iterable[dict]:
    if offline() and not Path(name).exists():
        raise FolioError(f"cannot load FOLIO {split} from the Hub ({name!r}) offline: set {ENV_SOURCE} to a local "
                         f"copy (finereason reference fetch folio --to DIR, then {ENV_SOURCE}=DIR/folio or "
                         f"{REFERENCE_ENV}=DIR)")
    try:
        import datasets
    except ImportError:
        raise FolioError("reading FOLIO from the Hub needs datasets: pip install '.[hub]' in the finereason checkout") from None
    try:
        return datasets.load_dataset(name, split=split)
    except Exception as err:  # gated, offline, missing split: one clear line
        raise FolioError(f"cannot load FOLIO {split} from {name!r}: {str(err).splitlines()[0] if str(err) else type(err).__name__} "
                         f"(pass a local folder such as DIR/folio from `finereason reference fetch folio --to DIR`, or set {ENV_SOURCE})") from None


def folio_version(rows: list[dict]) -> str:
    """``v2`` (premises as one newline-joined string: the 2024 release, on the Hub as yale-nlp/FOLIO)
    or ``v0.0`` (premises as a list: the 2022 GitHub release, with known label errors)."""
    return "v2" if any(isinstance(r.get("premises"), str) for r in rows[:50]) else "v0.0"


def _fetched() -> str | None:
    """``$FINEREASON_REFERENCE/folio`` when it holds FOLIO, else None."""
    folder = reference_path("folio")
    return str(folder) if folder is not None and folder.is_dir() else None


def load_folio_versioned(source: str | os.PathLike | None = None, split: str = "validation") -> tuple[list[dict], str]:
    """(FOLIO ``split`` normalised, its release: ``v2`` or ``v0.0``)."""
    source = source or os.environ.get(ENV_SOURCE) or _fetched() or DEFAULT_HUB_ID
    path = Path(source)
    rows = [dict(r) for r in (_local_rows(path, split) if path.exists() else _hub_rows(str(source), split))]
    return [normalize(r, split, i) for i, r in enumerate(rows)], folio_version(rows)


def load_folio(source: str | os.PathLike | None = None, split: str = "validation") -> list[dict]:
    """FOLIO ``split`` from ``source`` (see the module docstring), normalised."""
    return load_folio_versioned(source, split)[0]


__all__ = ["DEFAULT_HUB_ID", "ENV_SOURCE", "FolioError", "folio_version", "load_folio", "load_folio_versioned",
           "normalize", "offline"]
