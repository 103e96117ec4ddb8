"""A JSON Lines error says the whole of what is wrong: the file, the line, the problem and where on the line."""
from __future__ import annotations

import json

import pytest

from finereason.common.jsonl import iter_json_lines


def test_invalid_json_names_file_line_problem_and_column(tmp_path):
    path = tmp_path / "r.jsonl"
    text = '{"id": "a", "response": "x"}\n{"id": "b" "response": "y"}\n'
    path.write_text(text)
    try:
        json.loads(text.splitlines()[1])
    except json.JSONDecodeError as err:
        expected = f"{path}:2: responses line is not valid JSON ({err.msg} at column {err.colno})"
    with pytest.raises(ValueError) as caught:
        list(iter_json_lines(str(path), "responses"))
    assert str(caught.value) == expected and "column 12" in expected
