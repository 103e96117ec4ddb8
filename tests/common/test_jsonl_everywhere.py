"""JSON Lines files are read by the one reader (``common.jsonl.iter_json_lines``) on every path, so a
bad file is one line naming the file and line, never a traceback from ``json`` or the codec."""
from __future__ import annotations

import pytest


def test_grid_puzzle_official_file_errors_name_the_line(tmp_path):
    from finereason.domains.grid_puzzle.source import official_puzzles

    path = tmp_path / "gridpuzzle_questions.jsonl"
    path.write_bytes(b"\n\xff\n")
    with pytest.raises(ValueError, match=r"gridpuzzle_questions.jsonl:2: official grid puzzle file is not UTF-8"):
        official_puzzles(path)
    path.write_text("\n{oops\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"gridpuzzle_questions.jsonl:2: official grid puzzle line is not valid JSON"):
        official_puzzles(path)
