"""Explanations of readings (``finereason score --explain``): offsets point at the response's own text,
roles follow the commitment rule, and the explanation agrees with the verdict's reading."""
from __future__ import annotations

import json

from conftest import shared_path

from finereason.commands import main
from finereason.verification.explain import COMMITTED, REPLACED, VOIDED, explain_response


def test_a_later_answer_replaces_an_earlier_one_and_offsets_point_into_the_response():
    text = "I think (1 + 2 + 3) * 5 = 24. No, that is wrong.\n\nAnswer: (8 - 4) * 6 * 1 = 24"
    explained = explain_response("game_of_24", text)
    committed = explained["committed"]
    assert committed["text"] == text[committed["start"]:committed["end"]] and "(8 - 4) * 6 * 1" in committed["text"]
    roles = [c["role"] for c in explained["candidates"]]
    assert roles[-1] == COMMITTED and REPLACED in roles[:-1] and explained["reason"] == ""


def test_a_withdrawn_answer_names_the_signal_and_where_it_is():
    text = "Answer: (8 - 4) * 6 * 1 = 24. Hmm, actually I am not sure about this."
    explained = explain_response("game_of_24", text)
    assert explained["committed"] is None and "withdrawn" in explained["reason"]
    signal = explained["signal"]
    assert text[signal["start"]:signal["end"]].lower() == "hmm" and signal["start"] > text.index("24")
    assert [c["role"] for c in explained["candidates"]] == [VOIDED]


def test_offsets_count_the_reasoning_before_the_final_region():
    text = "<think>maybe (B)</think>The answer is (A). So: (A)."
    explained = explain_response("sudoku", text, task="state_checking")
    committed = explained["committed"]
    assert committed["start"] > text.index("</think>") and committed["text"] == text[committed["start"]:committed["end"]]
    assert "(A)" in committed["text"] and "(B)" not in committed["text"]
    assert explained["candidates"][-1]["role"] == COMMITTED
    assert explain_response("sudoku", "<think>unfinished", task="state_checking")["reason"]


def test_score_explain_adds_the_explanation_to_each_line(tmp_path, capsys):
    official = shared_path("finereason_official", "sudoku_states_sample.jsonl")
    responses = tmp_path / "r.jsonl"
    texts = ["Solvable: (A). Wait, no, that is wrong. Answer: (B)", "Answer: (A)"]
    responses.write_text("".join(json.dumps({"index": i, "response": t}) + "\n" for i, t in enumerate(texts)))
    out = tmp_path / "v.jsonl"
    argv = ["score", "--official", str(official), "--task", "state_checking", "--responses", str(responses), "--out", str(out)]
    assert main([*argv, "--explain"]) == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [line["explanation"]["committed"]["text"] for line in lines] == ["Answer: (B)", "Answer: (A)"]
    assert main([*argv[:-1], str(tmp_path / "plain.jsonl")]) == 0
    plain = [json.loads(line) for line in (tmp_path / "plain.jsonl").read_text().splitlines()]
    assert [{k: v for k, v in line.items() if k != "explanation"} for line in lines] == plain
