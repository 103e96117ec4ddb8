"""``finereason report`` marks a run made with ``--limit`` in its header (its numbers cover part of each task)."""
from __future__ import annotations

import pytest

from finereason.commands import main

pytest.importorskip("matplotlib")
pytest.importorskip("yaml")


def test_a_limit_run_is_marked_in_the_header(tmp_path):
    from test_leaderboard_data import write_run

    write_run(tmp_path / "runs", "finereason-oracle", 1.0, limit=5)
    write_run(tmp_path / "runs", "finereason-random", 0.4)
    assert main(["report", str(tmp_path / "runs"), "--out", str(tmp_path / "rep")]) == 0
    text = (tmp_path / "rep" / "summary.md").read_text(encoding="utf-8")
    header = text.split("\n## ", 1)[0]
    assert "--limit" in header and "finereason-oracle" in header and "finereason-random" not in header, header
    assert "5 of 200" in header


def test_a_full_run_has_no_mark(tmp_path):
    from test_leaderboard_data import write_run

    write_run(tmp_path / "runs", "finereason-random", 0.4)
    assert main(["report", str(tmp_path / "runs"), "--out", str(tmp_path / "rep")]) == 0
    assert "--limit" not in (tmp_path / "rep" / "summary.md").read_text(encoding="utf-8").split("\n## ", 1)[0]
