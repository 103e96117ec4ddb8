"""``leaderboard build --out`` onto a folder that holds other files deletes and overwrites nothing it did
not write; a rebuild replaces (and prunes) only the board's own files."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from finereason.commands import main

pytest.importorskip("yaml")

from test_leaderboard_data import write_run  # noqa: E402  (hand-written lm-eval results files)


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_build_into_a_folder_with_other_files_deletes_nothing_of_theirs(tmp_path, capsys):
    out = tmp_path / "out"
    mine = {"models/x/model.safetensors": b"\x00weights", "models/x/config.json": b"{}",
            "samples/notes.txt": b"keep me", "README.md": b"# my project\n"}
    for rel, data in mine.items():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_bytes(data)
    write_run(tmp_path / "runs", "finereason-oracle", 1.0)
    write_run(tmp_path / "runs", "finereason-random", 0.4)
    assert main(["leaderboard", "build", str(tmp_path / "runs"), "--out", str(out)]) == 0, capsys.readouterr().err
    tree = _tree(out)
    assert {rel: tree.get(rel) for rel in mine} == mine
    assert "index.html" in tree and "leaderboard.json" in tree
    pages = {rel for rel in tree if rel.startswith("models/") and rel.endswith(".html")}
    assert len(pages) == 2
    # a rebuild with one model fewer replaces the board's files and removes the page it no longer shows
    (tmp_path / "runs" / "finereason-random").rename(tmp_path / "gone")
    assert main(["leaderboard", "build", str(tmp_path / "runs"), "--out", str(out)]) == 0, capsys.readouterr().err
    tree = _tree(out)
    assert {rel: tree.get(rel) for rel in mine} == mine
    rows = json.loads(tree["leaderboard.json"])["rows"]
    assert {r["model"] for r in rows} == {"finereason-oracle"}
    assert len({rel for rel in tree if rel.startswith("models/") and rel.endswith(".html")}) == 1


def test_a_file_the_board_did_not_write_is_never_overwritten(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / "index.html").write_text("my own page")
    write_run(tmp_path / "runs", "finereason-oracle", 1.0)
    assert main(["leaderboard", "build", str(tmp_path / "runs"), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "index.html" in err, err
    assert (out / "index.html").read_text() == "my own page"
