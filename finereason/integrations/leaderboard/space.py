"""``finereason leaderboard space --out DIR``: a Gradio Space folder that installs as it stands.

It holds the app (``app.py``, the Space ``README.md``), a wheel of this finereason built from the
source tree (or, from a non-editable install, the installed files packed again), and a ``requirements.txt`` that names that wheel by relative path (with the ``hub``
extra) above the app's other requirements, so ``pip install -r requirements.txt`` inside the folder
(what a Space does) resolves without any finereason release on a package index.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from importlib import resources
from pathlib import Path

from ...common.atomic_io import write_text
from . import LeaderboardError

APP_FILES = ("app.py", "README.md", "requirements.txt")


def _is_source_tree(root: Path) -> bool:
    project = root / "pyproject.toml"
    return project.is_file() and 'name = "finereason"' in project.read_text(encoding="utf-8")


def running_tree() -> Path | None:
    """The checkout this package runs from, or None (a non-editable install)."""
    root = Path(__file__).resolve().parents[3]
    return root if _is_source_tree(root) else None


def source_tree(source: str | os.PathLike | None = None) -> Path:
    """The finereason checkout to build the wheel from: ``source``, else the one this package runs from."""
    root = Path(source) if source else Path(__file__).resolve().parents[3]
    if not _is_source_tree(root):
        raise LeaderboardError(f"{root}: not a finereason source tree (no pyproject.toml naming finereason); "
                               "pass --source CHECKOUT")
    return root


def build_wheel(root: Path, out: Path) -> Path:
    """``pip wheel`` of the source tree (no dependencies) into ``out``; the wheel's path."""
    import importlib.util

    # with setuptools at hand, build offline; else pip fetches the build backend from the package index
    isolation = [] if importlib.util.find_spec("setuptools") is None else ["--no-build-isolation"]
    made = [p for p in (root / "build",) if not p.exists()]  # setuptools' scratch folder, removed again
    try:
        return _pip_wheel(root, out, isolation)
    finally:
        for path in made:
            shutil.rmtree(path, ignore_errors=True)


def _pip_wheel(root: Path, out: Path, isolation: list[str]) -> Path:
    """Run ``pip wheel`` into a temporary folder and move the wheel into ``out``."""
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", *isolation, "-q",
                               "-w", tmp, str(root)], capture_output=True, text=True)
        wheels = sorted(Path(tmp).glob("finereason-*.whl"))
        if done.returncode or not wheels:
            last = (done.stderr.strip().splitlines() or ["no wheel written"])[-1]
            raise LeaderboardError(f"building the finereason wheel failed: {last}")
        target = out / wheels[0].name
        shutil.move(str(wheels[0]), target)
    return target


def prepare_space(out: str | os.PathLike, source: str | os.PathLike | None = None) -> list[Path]:
    """Write the Space folder into ``out``; return the paths written."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("finereason-*.whl"):
        old.unlink()
    if source is None and running_tree() is None:  # a non-editable install: pack its own files
        from .installed_wheel import repack_installed

        wheel = repack_installed(folder)
    else:
        wheel = build_wheel(source_tree(source), folder)
    app = resources.files("finereason.hub_cards").joinpath("leaderboard")
    written = []
    for name in APP_FILES:
        text = app.joinpath(name).read_text(encoding="utf-8")
        if name == "requirements.txt":
            kept = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
            text = "\n".join([f"./{wheel.name}[hub]", *kept]) + "\n"
        write_text(folder / name, text)
        written.append(folder / name)
    return written + [wheel]
