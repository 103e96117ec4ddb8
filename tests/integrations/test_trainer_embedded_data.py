"""The smoke recipe's offline `embedded` data: a small train config and seeded math problems."""
from __future__ import annotations

import pytest

pytest.importorskip("pyarrow")
from finereason.integrations.training import mixing as trainer_data  # noqa: E402


def test_embedded_sources_are_offline_and_deterministic(tmp_path, monkeypatch):
    monkeypatch.setenv("FINEREASON_CACHE", str(tmp_path))
    puzzle = trainer_data.load_puzzle_rows("embedded", "train")
    assert len(puzzle) == trainer_data.EMBEDDED_TRAIN_SIZE
    assert {row["task"] for row in puzzle} == {"state_checking", "state_transition"}
    again = trainer_data.load_puzzle_rows("embedded", "train")  # read back from the cache
    assert again == puzzle
    math = trainer_data.load_math_rows("embedded", 10, seed=1)
    assert len(math) == 10 and all(row["task"] == "math" and row["answer"] for row in math)
    assert trainer_data.load_math_rows("embedded", 10, seed=1) == math
    records = trainer_data.embedded_math_records(30)
    for record in records:  # the stated answer really solves the word problem
        numbers = [int(t) for t in record["question"].replace("?", " ").replace(".", " ").split() if t.isdigit()]
        assert int(record["answer"]) in {numbers[0] + numbers[1], numbers[0] * numbers[1], numbers[0] - numbers[1]}
