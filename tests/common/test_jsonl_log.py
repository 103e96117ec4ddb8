"""The resumable JSON Lines log: appended lines are whole, a torn last line is ignored by readers and
cut by the next append, a damaged complete line is an error naming the file and line."""
from __future__ import annotations

import pytest

from finereason.common.jsonl_log import append_records, cut_torn_line, read_records, rewrite_records


def test_append_read_and_torn_line(tmp_path):
    log = tmp_path / "sub" / "log.jsonl"
    assert read_records(log) == []
    append_records(log, [{"a": 1}, {"b": "é"}])
    append_records(log, [{"c": [1, 2]}])
    assert read_records(log) == [(1, {"a": 1}), (2, {"b": "é"}), (3, {"c": [1, 2]})]
    with log.open("ab") as handle:
        handle.write(b'{"d": "tor')
    before = log.read_bytes()
    assert [r for _, r in read_records(log)] == [{"a": 1}, {"b": "é"}, {"c": [1, 2]}]
    assert log.read_bytes() == before  # a reader never changes the log
    append_records(log, [{"d": 4}])
    assert [r for _, r in read_records(log)] == [{"a": 1}, {"b": "é"}, {"c": [1, 2]}, {"d": 4}]
    assert log.read_text(encoding="utf-8").count("\n") == 4
    assert cut_torn_line(log) == 0
    rewrite_records(log, [{"a": 1}])
    assert read_records(log) == [(1, {"a": 1})]


def test_a_torn_line_without_any_complete_line(tmp_path):
    log = tmp_path / "log.jsonl"
    log.write_bytes(b'{"x"')
    assert read_records(log) == []
    assert cut_torn_line(log) == 4 and log.read_bytes() == b""


def test_a_damaged_complete_line_is_an_error(tmp_path):
    log = tmp_path / "log.jsonl"
    log.write_text('{"a": 1}\nnot json\n{"b": 2}\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"log.jsonl:2:"):
        read_records(log)
