"""The command line: contracts of check-official, score and label, and one-line errors."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import read_jsonl, shared_path
from finereason.commands import main
from finereason.core.engine import get_engine


def run(args: list[str], capsys) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def official_dir() -> Path:
    return shared_path("finereason_official")


def test_check_official_on_the_samples(capsys):
    code, out, _ = run(["check-official", "--src", str(official_dir())], capsys)
    assert code == 0
    lines = out.strip().splitlines()
    assert lines[-1] == "agreement: 400/400"
    for name in ("sudoku", "graph_coloring", "game_of_24", "grid_puzzle"):
        assert any(line.startswith(name) and "100/100" in line for line in lines)


def test_check_official_fails_on_a_wrong_label(tmp_path, capsys):
    records = read_jsonl(official_dir() / "game24_states_sample.jsonl")[:5]
    records[0]["outputs"]["current_status"] = "Unsolvable" if records[0]["outputs"]["current_status"] == "Solvable" else "Solvable"
    (tmp_path / "game24_states.json").write_text("".join(json.dumps(r) + "\n" for r in records))
    code, out, _ = run(["check-official", "--src", str(tmp_path)], capsys)
    assert code == 1
    assert out.strip().splitlines()[-1] == "agreement: 4/5"


def test_check_official_without_files_is_a_clear_error(tmp_path, capsys):
    code, _, err = run(["check-official", "--src", str(tmp_path)], capsys)
    assert code == 2 and err.count("\n") == 1 and "no official" in err


def _responses(path: Path, texts: dict[int, str]) -> Path:
    path.write_text("".join(json.dumps({"index": i, "response": t}) + "\n" for i, t in texts.items()))
    return path


def test_score_state_checking(tmp_path, capsys):
    src = official_dir() / "sudoku_states_sample.jsonl"
    records = read_jsonl(src)
    texts = {i: ("Answer: (A)" if r["outputs"]["current_status"] == "Solvable" else "Answer: (B)") for i, r in enumerate(records[:10])}
    texts[10] = "Answer: (A)" if records[10]["outputs"]["current_status"] == "Unsolvable" else "Answer: (B)"
    texts[11] = "hmm"
    out = tmp_path / "out.jsonl"
    code, stdout, _ = run(["score", "--official", str(src), "--task", "state_checking",
                           "--responses", str(_responses(tmp_path / "r.jsonl", texts)), "--out", str(out)], capsys)
    assert code == 0
    rows = read_jsonl(out)
    assert [r["index"] for r in rows] == list(texts)
    assert all(set(r) >= {"index", "correct", "category"} for r in rows)
    assert sum(r["correct"] for r in rows) == 10
    assert rows[-1]["category"] == "parse_error"
    assert "accuracy: 0.8333" in stdout
    assert "f1 (unsolvable)" in stdout and "precision (unsolvable)" in stdout


def test_score_starts_in_think_grades_unfinished_reasoning_as_parse_error(tmp_path, capsys):
    """With --starts-in-think the prompt opened <think>: only text after </think> is an answer."""
    src = official_dir() / "sudoku_states_sample.jsonl"
    records = read_jsonl(src)[:3]
    right = ["Answer: (A)" if r["outputs"]["current_status"] == "Solvable" else "Answer: (B)" for r in records]
    texts = {0: "Let me check the rows. " + right[0],  # cut off inside the reasoning
             1: "Rows are fine.</think>\n" + right[1],  # finished
             2: right[2]}
    responses = _responses(tmp_path / "r.jsonl", texts)
    verdicts = {}
    for flag in ([], ["--starts-in-think"]):
        out = tmp_path / f"out{len(flag)}.jsonl"
        code, _, _ = run(["score", "--official", str(src), "--task", "state_checking", "--responses", str(responses),
                          "--out", str(out)] + flag, capsys)
        assert code == 0
        verdicts[bool(flag)] = [r["category"] for r in read_jsonl(out)]
    assert verdicts[False] == ["correct", "correct", "correct"]
    assert verdicts[True] == ["parse_error", "correct", "parse_error"]


def test_score_state_transition_modes_differ_on_dead_ends(tmp_path, capsys):
    src = official_dir() / "sudoku_states_sample.jsonl"
    engine = get_engine("sudoku")
    records = read_jsonl(src)
    texts = {}
    for i, record in enumerate(records):
        item = engine.item_from_official(record)
        if record["outputs"]["current_status"] != "Solvable":
            continue
        dead = [c for c in engine.children(item.puzzle, item.current)
                if not engine.is_solvable(item.puzzle, c) and c != item.unsolvable_child]
        if dead:
            texts[i] = "Next state: " + engine.render(item.puzzle, dead[0])
        if len(texts) == 3:
            break
    assert texts
    resp = _responses(tmp_path / "r.jsonl", texts)
    results = {}
    for mode in ("strict", "paper"):
        out = tmp_path / f"{mode}.jsonl"
        code, _, _ = run(["score", "--official", str(src), "--task", "state_transition", "--mode", mode,
                          "--responses", str(resp), "--out", str(out)], capsys)
        assert code == 0
        results[mode] = {r["category"] for r in read_jsonl(out)}
    assert results == {"strict": {"unsolvable_child"}, "paper": {"correct"}}


@pytest.mark.parametrize(
    "lines, message",
    [
        (['{"index": 999, "response": "x"}'], "is not a line"),
        (['{"index": 0}'], "expected"),
        (["not json"], "not valid JSON"),
        (['{"index": 0, "response": "a"}', '{"index": 0, "response": "b"}'], "appears twice"),
        ([], "no responses"),
    ],
)
def test_score_bad_responses(tmp_path, capsys, lines, message):
    resp = tmp_path / "r.jsonl"
    resp.write_text("\n".join(lines) + "\n")
    code, _, err = run(["score", "--official", str(official_dir() / "game24_states_sample.jsonl"),
                        "--task", "state_checking", "--responses", str(resp)], capsys)
    assert code == 2
    assert message in err and err.count("\n") == 1


def test_score_rejects_unknown_files(tmp_path, capsys):
    bogus = tmp_path / "chess_states.json"
    bogus.write_text("{}\n")
    code, _, err = run(["score", "--official", str(bogus), "--task", "state_checking", "--responses", str(bogus)], capsys)
    assert code == 2 and "cannot tell the puzzle" in err


def test_label_official_records(tmp_path, capsys):
    records = read_jsonl(official_dir() / "gridpuzzle_states_sample.jsonl")[:6]
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in records))
    code, out, err = run(["label", "--domain", "grid_puzzle", "--input", str(src)], capsys)
    assert code == 0
    labels = [json.loads(line)["solvable"] for line in out.strip().splitlines()]
    assert labels == [r["outputs"]["current_status"] == "Solvable" for r in records]
    assert err.strip().endswith(f"solvable: {sum(labels)}/6")


def test_label_unknown_puzzle_and_bad_lines(tmp_path, capsys):
    src = tmp_path / "in.jsonl"
    src.write_text('"abc"\n')
    code, _, err = run(["label", "--domain", "chess", "--input", str(src)], capsys)
    assert code == 2 and "unknown domain" in err
    code, _, err = run(["label", "--domain", "sudoku", "--input", str(src)], capsys)
    assert code == 2 and "in.jsonl:1" in err and err.count("\n") == 1


def test_console_script_runs_as_a_module():
    result = subprocess.run([sys.executable, "-m", "finereason", "domains"], capture_output=True, text=True, check=True)
    assert "sudoku" in result.stdout and "grid_puzzle" in result.stdout
    if shutil.which("finereason"):
        assert subprocess.run(["finereason", "--version"], capture_output=True, text=True).returncode == 0
