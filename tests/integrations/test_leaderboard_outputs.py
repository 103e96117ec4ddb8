"""``leaderboard build --out`` onto a folder that holds other files deletes and overwrites nothing it did
not write; a rebuild replaces (and prunes) only the board's own files."""
from __future__ import annotations

import json
import re
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


def test_a_resubmission_replaces_its_own_files_and_keeps_a_foreign_one(tmp_path):
    """``leaderboard submit`` owns the suite's results folder through the manifest protocol: the earlier
    submission's files go, a file someone else put there stays."""
    from datetime import datetime, timezone

    from test_results_reader import OLD, _write_run

    from finereason.integrations.leaderboard.submit import submit

    _write_run(tmp_path / "runs", OLD, 1767225600.0, "2026-01-01T00-00-00.000001")
    out = tmp_path / "sub"
    first = submit([tmp_path / "runs"], "me/requests", out=out, suite="finereason_full", dry_run=True,
                   now=datetime(2026, 1, 1, tzinfo=timezone.utc))
    folder = first.results_path.parent
    foreign = {"my_notes.json": b'{"mine": true}', "results_by_hand.json.bak": b"keep"}
    for name, data in foreign.items():
        (folder / name).write_bytes(data)
    second = submit([tmp_path / "runs"], "me/requests", out=out, suite="finereason_full", dry_run=True,
                    now=datetime(2026, 1, 2, tzinfo=timezone.utc))
    assert second.results_path.parent == folder and second.results_path != first.results_path
    assert not first.results_path.exists() and second.results_path.is_file()
    assert {name: (folder / name).read_bytes() for name in foreign} == foreign
    assert sorted(p.name for p in folder.glob("results_*.json")) == [second.results_path.name]
    assert json.loads(second.request_path.read_text())["submitted_time"] == "2026-01-02T00:00:00Z"


def test_a_folder_without_results_files_is_one_message_everywhere(tmp_path, capsys):
    """The board, the report and ``evaluate_checkpoint`` find results files by the
    one reader's search and say the same thing when there are none (an empty folder, or one whose
    ``results_*.json`` is JSON of another kind)."""
    import sys

    from finereason.integrations.lm_eval.results import NO_RESULTS

    repo = Path(__file__).resolve().parents[2]
    if str(repo) not in sys.path:
        sys.path.insert(0, str(repo))
    from trainers import evaluate_checkpoint

    empty, other = tmp_path / "empty", tmp_path / "other"
    empty.mkdir()
    (other / "x").mkdir(parents=True)
    (other / "x" / "results_notes.json").write_text('{"not": "a results file"}')
    commands = {empty: [["leaderboard", "build"], ["report"]], other: [["leaderboard", "build"]]}  # the report refuses other JSON
    for folder, names in commands.items():
        for name in names:
            assert main([*name, str(folder), "--out", str(tmp_path / "out")]) == 2
            err = capsys.readouterr().err.strip()
            assert len(err.splitlines()) == 1 and f"{folder}: {NO_RESULTS}" in err, err
        with pytest.raises(evaluate_checkpoint.EvalError, match=re.escape(f"{folder}: {NO_RESULTS}")):
            evaluate_checkpoint.read_results(folder)
