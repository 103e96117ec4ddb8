"""One error path: every expected failure of every subcommand is one line on stderr, exit 2.

Bad files (binary, non-UTF-8, 100k-deep JSON, empty, missing, a folder), bad values, I/O errors
(``--out /dev/full``), tampered parquet and a garbage lm-eval samples file. No traceback, ever,
for these; a real bug gets a traceback and a "please report" line (exit 1).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import shared_path
from finereason.commands import domains, main
from finereason.common.input_errors import EXIT_BUG

BAD_FILES = {
    "binary": b"\x00\xff\xfe\x01binary\n",
    "latin-1": "caf\xe9 [1, 2]\n".encode("latin-1"),
    "deep": b"[" * 100_000 + b"]" * 100_000 + b"\n",
    "empty": b"",
    "not-json": b"{not json\n",
}


def one_line_error(capsys, argv: list[str], code: int = 2) -> str:
    """Run ``finereason argv``; assert exit ``code`` and exactly one ``finereason: error:`` line."""
    assert main(argv) == code
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err[-2000:]
    assert lines[0].startswith("finereason: error: ") and "Traceback" not in err
    return lines[0]


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


@pytest.fixture()
def states(tmp_path) -> Path:
    """A copy of the official Sudoku sample under its official file name."""
    path = tmp_path / "sudoku_states.json"
    shutil.copy(shared_path("finereason_official", "sudoku_states_sample.jsonl"), path)
    return path


@pytest.fixture()
def responses(tmp_path) -> Path:
    return write(tmp_path / "responses.jsonl", b'{"index": 0, "response": "Answer: (A)"}\n')


# ------------------------------------------------------------------ bad input files
@pytest.mark.parametrize("kind", sorted(BAD_FILES))
def test_label_bad_files(tmp_path, capsys, kind):
    bad = write(tmp_path / "in.jsonl", BAD_FILES[kind])
    message = one_line_error(capsys, ["label", "--domain", "sudoku", "--input", str(bad)])
    assert str(bad) in message


@pytest.mark.parametrize("kind", sorted(BAD_FILES))
def test_score_bad_responses_files(tmp_path, capsys, states, kind):
    bad = write(tmp_path / "r.jsonl", BAD_FILES[kind])
    message = one_line_error(capsys, ["score", "--official", str(states), "--task", "state_checking", "--responses", str(bad)])
    assert str(bad) in message


@pytest.mark.parametrize("kind", sorted(BAD_FILES))
def test_score_and_check_official_bad_states_files(tmp_path, capsys, responses, kind):
    folder = tmp_path / "src"
    folder.mkdir()
    bad = write(folder / "sudoku_states.json", BAD_FILES[kind])
    for argv in (["check-official", "--src", str(folder)],
                 ["score", "--official", str(bad), "--task", "state_checking", "--responses", str(responses)]):
        assert str(bad) in one_line_error(capsys, argv)


def test_missing_and_folder_inputs(tmp_path, capsys, states):
    for path in (tmp_path / "missing.jsonl", tmp_path):
        assert str(path) in one_line_error(capsys, ["label", "--domain", "sudoku", "--input", str(path)])
        assert str(path) in one_line_error(
            capsys, ["score", "--official", str(states), "--task", "state_checking", "--responses", str(path)])


def test_bad_values(tmp_path, capsys):
    states = write(tmp_path / "s.jsonl", b'["(1 + 2)", "3", "4", "5", "6", "7", "8", "9"]\n')
    assert "at most 6 numbers" in one_line_error(capsys, ["label", "--domain", "game_of_24", "--input", str(states)])
    huge_k = write(tmp_path / "k.jsonl", json.dumps({"graph": [[1], [0]], "k": 10**12}).encode() + b"\n")
    assert "at most 1000 colors" in one_line_error(capsys, ["label", "--domain", "graph_coloring", "--input", str(huge_k)])
    assert "unknown domain" in one_line_error(capsys, ["label", "--domain", "chess", "--input", str(states)])
    assert "--seed" in one_line_error(capsys, ["tiny-model", "--out", str(tmp_path / "m"), "--seed", str(2**70)])
    assert not (tmp_path / "m").exists()


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_out_dev_full_is_an_io_error(capsys, states, responses, tmp_path):
    sudoku = write(tmp_path / "grid.jsonl", b'"' + b"0" * 81 + b'"\n')
    for argv in (["label", "--domain", "sudoku", "--input", str(sudoku), "--out", "/dev/full"],
                 ["score", "--official", str(states), "--task", "state_checking", "--responses", str(responses),
                  "--out", "/dev/full"]):
        assert "/dev/full" in one_line_error(capsys, argv)
    assert os.path.exists("/dev/full") and not os.path.isfile("/dev/full")


def test_empty_states_folder_file_is_not_agreement_0_of_0(tmp_path, capsys):
    (tmp_path / "game24_states.json").write_text("")
    message = one_line_error(capsys, ["check-official", "--src", str(tmp_path)])
    assert "game24_states.json" in message and "no states" in message


def test_real_bugs_get_a_traceback_and_a_report_line(monkeypatch, capsys, tmp_path):
    def broken(args):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(domains, "run", broken)
    assert main(["domains"]) == EXIT_BUG
    err = capsys.readouterr().err
    assert "Traceback" in err and "ZeroDivisionError: boom" in err and "please report" in err


def test_ctrl_c_exits_130(monkeypatch, capsys):
    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(domains, "run", interrupted)
    assert main(["domains"]) == 130
    assert capsys.readouterr().err.strip() == "finereason: interrupted"


# ------------------------------------------------------------------ tampered parquet (score --data, verify-data)
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


@pytest.fixture(scope="session")
def small_build(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("cli-errors") / "ds"
    assert main(["build", "--out", str(out), "--per-task", "4", "--train-size", "0", "--e2e-size", "2",
                 "--domains", "sudoku", "game_of_24"]) == 0
    return out


def tamper(folder: Path, config: str, change, *, refingerprint: bool = True) -> Path:
    """Rewrite one config's parquet with ``change(rows, schema) -> table``; update the manifest so
    that the checks behind the fingerprint are reached (an attacker can rewrite both)."""
    from finereason.data.folder import MANIFEST_FILE, file_sha256

    [path] = sorted((folder / config).glob("*.parquet"))
    table = pq.read_table(path)
    pq.write_table(change(table.to_pylist(), table.schema), path)
    if refingerprint:
        info = json.loads((folder / MANIFEST_FILE).read_text())
        rel = path.relative_to(folder).as_posix()
        info["data"]["configs"][config]["files"][rel] = file_sha256(path)
        (folder / MANIFEST_FILE).write_text(json.dumps(info))
    return path


def _set(column: str, value):
    def change(rows, schema):
        rows[0][column] = value
        return pa.Table.from_pylist(rows, schema=schema)
    return change


def _retype(column: str):
    def change(rows, schema):
        for row in rows:
            row[column] = 7
        fields = [pa.field(f.name, pa.int64()) if f.name == column else f for f in schema]
        return pa.Table.from_pylist(rows, schema=pa.schema(fields))
    return change


def _drop_then_set(dropped: str, column: str, value: str):
    def change(rows, schema):
        return _set(column, value)(rows, schema).drop_columns([dropped])
    return change


def _drop(column: str):
    def change(rows, schema):
        return pa.Table.from_pylist(rows, schema=schema).drop_columns([column])
    return change


TAMPERS = {
    "non-json-inputs": (_set("inputs", "not json {"), "row"),
    "nan-inputs": (_set("inputs", '{"initial": NaN}'), "row"),
    "list-inputs": (_set("inputs", "[1, 2]"), "row"),
    "unknown-task": (_set("task", "poetry"), "poetry"),
    "unknown-domain": (_set("domain", "chess"), "chess"),  # a folder without the deprecated ``puzzle`` duplicate
    "unknown-old-domain": (_drop_then_set("domain", "puzzle", "chess"), "chess"),  # a folder built before the rename
    "domain-disagrees": (_set("puzzle", "game_of_24"), "disagree"),
    "wrong-type": (_retype("label"), "label"),
    "missing-column": (_drop("inputs"), "inputs"),
}


@pytest.mark.parametrize("name", sorted(TAMPERS))
def test_score_data_on_tampered_parquet(small_build, tmp_path, capsys, name):
    change, needle = TAMPERS[name]
    folder = tmp_path / "ds"
    shutil.copytree(small_build, folder)
    config = "sudoku_state_checking"
    [row_id] = [r["id"] for r in pq.read_table(next((folder / config).glob("*.parquet"))).to_pylist()[:1]]
    parquet = tamper(folder, config, change)
    resp = write(tmp_path / "r.jsonl", json.dumps({"id": row_id, "response": "Answer: (A)"}).encode() + b"\n")
    message = one_line_error(capsys, ["score", "--data", str(folder), "--config", config, "--responses", str(resp)])
    assert str(folder) in message and needle in message
    if name == "missing-column":
        assert "missing column(s) inputs" in message and str(parquet) in message


def test_score_data_refuses_a_changed_file_without_new_fingerprints(small_build, tmp_path, capsys):
    folder = tmp_path / "ds"
    shutil.copytree(small_build, folder)
    tamper(folder, "sudoku_state_checking", _set("label", "Unsolvable"), refingerprint=False)
    resp = write(tmp_path / "r.jsonl", b'{"id": "x", "response": "Answer: (A)"}\n')
    message = one_line_error(capsys, ["score", "--data", str(folder), "--config", "sudoku_state_checking",
                                      "--responses", str(resp)])
    assert "fingerprint" in message


def test_verify_data_on_a_missing_folder(tmp_path, capsys):
    assert str(tmp_path / "nope") in one_line_error(capsys, ["verify-data", str(tmp_path / "nope")])


# ------------------------------------------------------------------ report and eval
def _fake_run(folder: Path, samples: bytes) -> Path:
    stamp = "2026-01-01T00-00-00.000000"
    folder.mkdir(parents=True)
    results = {"results": {"finereason_sudoku_state_checking": {"acc,none": 0.5}},
               "config": {"model": "finereason-oracle", "model_args": "token=hf_abcdefghijklmnop"}}
    (folder / f"results_{stamp}.json").write_text(json.dumps(results))
    (folder / f"samples_finereason_sudoku_state_checking_{stamp}.jsonl").write_bytes(samples)
    return folder


@pytest.mark.parametrize("samples", [
    BAD_FILES["binary"], BAD_FILES["deep"], BAD_FILES["not-json"], b"5\n",
    b'{"doc": {"puzzle": "sudoku", "task": "state_checking", "inputs": 5, "outputs": "{}"}, "resps": [["x"]]}\n',
    b'{"doc": {"puzzle": "chess", "task": "state_checking", "inputs": "{}", "outputs": "{}"}, "resps": [["x"]]}\n',
], ids=["binary", "deep", "not-json", "number", "int-inputs", "unknown-puzzle"])
def test_report_on_a_garbage_samples_file(tmp_path, capsys, samples):
    pytest.importorskip("matplotlib")
    run = _fake_run(tmp_path / "runs", samples)
    message = one_line_error(capsys, ["report", str(run), "--out", str(tmp_path / "rep")])
    assert "samples_finereason_sudoku_state_checking" in message


@pytest.mark.parametrize("case", ["replay-line-5", "missing-data-dir"])
def test_eval_errors(tmp_path, small_build, case, warm_python):
    """In a subprocess: lm-eval installs process-wide logging handlers."""
    pytest.importorskip("lm_eval")
    replay = write(tmp_path / "replay.jsonl", b"5\n")
    env = dict(os.environ, FINEREASON_DATA_DIR=str(small_build))
    if case == "replay-line-5":
        argv = ["--model", "finereason-replay", "--model_args", f"path={replay}"]
        needle = f"{replay}:1"
    else:
        env["FINEREASON_DATA_DIR"] = str(tmp_path / "nope")
        argv = ["--model", "finereason-oracle"]
        needle = str(tmp_path / "nope")
    proc = subprocess.run([*warm_python, "-m", "finereason", "eval", *argv, "--tasks", "finereason_sudoku_state_checking",
                           "--limit", "1"], capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 2, proc.stderr[-2000:]
    errors = [line for line in proc.stderr.splitlines() if line.startswith("finereason: error:")]
    assert len(errors) == 1 and needle in errors[0] and "Traceback" not in proc.stderr
