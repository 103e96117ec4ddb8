"""What ``finereason score`` says: how many rows had no response, counts that agree in number, and
undefined metrics shown as "—" (never 0.0000)."""
from __future__ import annotations

import json

from conftest import read_jsonl, shared_path
from finereason.commands import main


def _score(tmp_path, capsys, lines: list[dict], task: str = "state_checking") -> list[str]:
    official = shared_path("finereason_official", "sudoku_states_sample.jsonl")
    responses = tmp_path / "r.jsonl"
    responses.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    assert main(["score", "--official", str(official), "--task", task, "--responses", str(responses),
                 "--out", str(tmp_path / "out.jsonl")]) == 0
    return capsys.readouterr().out.splitlines()


def test_one_response_of_many_rows(tmp_path, capsys):
    total = len(read_jsonl(shared_path("finereason_official", "sudoku_states_sample.jsonl")))
    out = _score(tmp_path, capsys, [{"index": 0, "response": "Answer: (A)"}])
    assert out[0].endswith(": 1 response"), out[0]
    assert f"{total - 1} of {total} rows had no response (not scored)" in out, out
    # one answer predicts solvable: nothing is predicted unsolvable, so precision is undefined ("—", never 0)
    precision = next(x for x in out if x.startswith("precision (unsolvable):"))
    assert precision.split(":", 1)[1].strip().startswith("—"), precision
    assert not any(x.endswith(" 1 responses") for x in out)


def test_every_row_answered_says_nothing_is_missing(tmp_path, capsys):
    total = len(read_jsonl(shared_path("finereason_official", "sudoku_states_sample.jsonl")))
    out = _score(tmp_path, capsys, [{"index": i, "response": "Answer: (B)"} for i in range(total)])
    assert out[0].endswith(f": {total} responses") and not any("no response" in x for x in out)
    precision = next(x for x in out if x.startswith("precision (unsolvable):"))
    assert float(precision.split(":", 1)[1]) > 0  # something predicted unsolvable: defined
