"""A wheel of the finereason that is installed, for the Space folder when no source tree is at hand (a
non-editable install): the installed distribution's own files and metadata, packed again as a wheel."""
from __future__ import annotations

import base64
import hashlib
import zipfile
from importlib import metadata
from pathlib import Path

from . import LeaderboardError

SKIPPED = {"RECORD", "INSTALLER", "REQUESTED", "direct_url.json"}  # written by the installer, not the wheel


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def repack_installed(out: Path) -> Path:
    """Write ``finereason-<version>-py3-none-any.whl`` into ``out`` from the installed distribution."""
    try:
        dist = metadata.distribution("finereason")
    except metadata.PackageNotFoundError:
        raise LeaderboardError("finereason is not installed and no source tree was found: pass --source CHECKOUT") from None
    info = f"finereason-{dist.version}.dist-info"
    files = [f for f in (dist.files or []) if f.parts and f.parts[0] in ("finereason", info)
             and "__pycache__" not in f.parts and f.suffix != ".pyc" and not (f.parts[0] == info and f.name in SKIPPED)]
    if not any(f.parts[0] == "finereason" for f in files):
        raise LeaderboardError("the installed finereason lists no package files (an editable install?): pass --source CHECKOUT")
    target = Path(out) / f"finereason-{dist.version}-py3-none-any.whl"
    records = []
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as wheel:
        for f in sorted(files, key=lambda f: (f.parts[0] == info, str(f))):  # the dist-info last, as wheels have it
            data = Path(f.locate()).read_bytes()
            wheel.writestr(f.as_posix(), data)
            records.append(f"{f.as_posix()},{_record_hash(data)},{len(data)}")
        records.append(f"{info}/RECORD,,")
        wheel.writestr(f"{info}/RECORD", "\n".join(records) + "\n")
    return target


__all__ = ["repack_installed"]
