"""The docs are for users: no notes about how the project was developed (issue numbers, "written ahead
of the merge"), no ``pip install finereason`` (it is installed from its source), and what the guides'
examples write from the checkout is ignored by git."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from doc_examples import REPO, all_examples

USER_DOCS = sorted({*REPO.glob("docs/*.md"), REPO / "README.md", REPO / "trainers" / "README.md",
                    *REPO.glob("lm_eval_tasks/**/README.md"), *REPO.glob("hub_cards/**/*.md"),
                    *REPO.glob("metrics/**/README.md"), REPO / "dataset_builders" / "README.md"} - {REPO / "docs" / "reading.md"})
INTERNAL = re.compile(r"\bissue[- ]?\d+|\bissues? #\d+|written ahead of the merge|item \d+ of the issue|"
                      r"another [a-z0-9-]* ?branch", re.I)
PYPI_INSTALL = re.compile(r"pip install (?:-U )?['\"]?finereason\b")
OUTPUT = re.compile(r"(?:--out|--output_path|--output_dir|--sft-out)[ =]['\"]?([^\s'\"]+)|(?<![0-9&])>\s*([^\s&|;]+)")


@pytest.mark.parametrize("doc", USER_DOCS, ids=lambda p: str(p.relative_to(REPO)))
def test_no_development_notes_and_no_pypi_install(doc):
    text = doc.read_text(encoding="utf-8")
    assert not INTERNAL.findall(text), INTERNAL.findall(text)
    assert not PYPI_INSTALL.findall(text), "finereason is installed from its source, not from PyPI"


def test_install_hints_in_the_package_name_the_source_tree():
    sources = [p for folder in ("finereason", "dataset_builders", "trainers") for p in (REPO / folder).rglob("*.py")]
    wrong = [f"{p.relative_to(REPO)}: {m}" for p in sources for m in re.findall(r"pip install '?finereason\[[a-z,]+\]'?",
                                                                                 p.read_text(encoding="utf-8"))]
    assert not wrong


def _outputs() -> set[str]:
    """The relative paths the guides' shell examples write (their first component)."""
    found = set()
    for example in all_examples():
        if example.language != "bash":
            continue
        for command in example.commands:
            for match in OUTPUT.finditer(command):
                path = match.group(1) or match.group(2)
                if not path.startswith(("$", "/", "~", "-")) and path not in {"&2", "/dev/null"}:
                    found.add(path.split("/")[0])
    return found


def test_what_the_examples_write_is_ignored_by_git():
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("needs git and a checkout")
    outputs = _outputs()
    assert {"data", "part0", "merged", "runs", "board", "M", "O"} <= outputs  # the parse finds them
    paths = {p if "." in p else p + "/" for p in outputs}  # folders, except files with a suffix
    done = subprocess.run(["git", "check-ignore", "--no-index", "--stdin"], input="\n".join(sorted(paths)) + "\n",
                          capture_output=True, text=True, cwd=REPO)
    ignored = set(done.stdout.split())
    assert paths <= ignored, sorted(paths - ignored)
