"""Counts agree in number with their nouns, in the library and in what commands print."""
from __future__ import annotations

import pytest

from finereason.commands import main
from finereason.common.plural import count


def test_count_agrees_in_number():
    assert [count(n, "response") for n in (0, 1, 2)] == ["0 responses", "1 response", "2 responses"]
    assert count(1234, "row") == "1,234 rows" and count(1, "puzzle instance") == "1 puzzle instance"
    assert count(2, "entry", "entries") == "2 entries"


def test_a_build_of_one_row_says_one_row_in_one_config(tmp_path, capsys):
    pytest.importorskip("pyarrow")
    assert main(["build", "--out", str(tmp_path / "d"), "--per-task", "0", "--e2e-size", "1", "--train-size", "0",
                 "--domains", "game_of_24"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("built 1 row in 1 config into "), last
