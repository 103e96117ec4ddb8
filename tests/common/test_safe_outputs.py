"""Outputs are never destroyed: an output equal to an input is refused before anything is opened,
a failed or interrupted run leaves the old output as it was, and leftovers of killed runs go away."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from finereason.common.atomic_io import TMP_MARK, UnsafeOutput, atomic_dir, atomic_file, check_output, clean_leftovers
from finereason.commands import main

GRID = "0" * 81
OLD = b'{"old": true}\n'


def leftovers(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if TMP_MARK in p.name]


def states_file(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines))
    return path


# ------------------------------------------------------------------ refusing outputs equal to inputs
@pytest.mark.parametrize("alias", ["same", "symlink", "hardlink", "dotted"])
def test_label_refuses_out_equal_to_input(tmp_path, capsys, alias):
    src = states_file(tmp_path / "s.jsonl", [json.dumps(GRID)])
    before = src.read_bytes()
    out = {"same": src, "symlink": tmp_path / "link.jsonl", "hardlink": tmp_path / "hard.jsonl",
           "dotted": tmp_path / "." / "s.jsonl"}[alias]
    if alias == "symlink":
        out.symlink_to(src)
    if alias == "hardlink":
        os.link(src, out)
    assert main(["label", "--domain", "sudoku", "--input", str(src), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "refusing to overwrite an input" in err and err.count("\n") == 1
    assert src.read_bytes() == before and leftovers(tmp_path) == []


def test_score_refuses_out_equal_to_responses_or_states(tmp_path, capsys):
    from conftest import shared_path

    states = tmp_path / "sudoku_states.json"
    states.write_bytes(shared_path("finereason_official", "sudoku_states_sample.jsonl").read_bytes())
    responses = states_file(tmp_path / "r.jsonl", [json.dumps({"index": 0, "response": "Answer: (A)"})])
    saved = {p: p.read_bytes() for p in (states, responses)}
    for out in (states, responses):
        assert main(["score", "--official", str(states), "--task", "state_checking", "--responses", str(responses),
                     "--out", str(out)]) == 2
        assert "refusing to overwrite an input" in capsys.readouterr().err
    assert {p: p.read_bytes() for p in saved} == saved


def test_check_output_refuses_a_file_inside_an_input_folder(tmp_path):
    (tmp_path / "data").mkdir()
    with pytest.raises(UnsafeOutput, match="inside --data"):
        check_output(tmp_path / "data" / "out.jsonl", [("--data", tmp_path / "data")])
    check_output(tmp_path / "out.jsonl", [("--data", tmp_path / "data"), ("--input", "-"), ("--x", None)])
    check_output("-", [("--input", tmp_path / "data")])


# ------------------------------------------------------------------ failed runs keep the old output
def test_missing_input_keeps_the_existing_output(tmp_path, capsys):
    out = tmp_path / "out.jsonl"
    out.write_bytes(OLD)
    assert main(["label", "--domain", "sudoku", "--input", str(tmp_path / "missing.jsonl"), "--out", str(out)]) == 2
    assert out.read_bytes() == OLD and leftovers(tmp_path) == []
    assert "missing.jsonl" in capsys.readouterr().err


def test_a_bad_line_mid_file_keeps_the_existing_output(tmp_path, capsys):
    src = states_file(tmp_path / "s.jsonl", [json.dumps(GRID), json.dumps(GRID), '"not a grid"'])
    out = tmp_path / "out.jsonl"
    out.write_bytes(OLD)
    assert main(["label", "--domain", "sudoku", "--input", str(src), "--out", str(out)]) == 2
    assert f"{src}:3" in capsys.readouterr().err
    assert out.read_bytes() == OLD and leftovers(tmp_path) == []
    assert main(["label", "--domain", "sudoku", "--input", str(src), "--out", str(out)]) == 2
    states_file(src, [json.dumps(GRID), json.dumps(GRID)])
    assert main(["label", "--domain", "sudoku", "--input", str(src), "--out", str(out)]) == 0
    assert [json.loads(line) for line in out.read_text().splitlines()] == [{"solvable": True}] * 2


def test_atomic_file_replaces_only_on_success(tmp_path):
    target = tmp_path / "t.txt"
    target.write_bytes(OLD)
    target.chmod(0o640)
    for error in (ValueError, KeyboardInterrupt):
        with pytest.raises(error):
            with atomic_file(target) as handle:
                handle.write("partial")
                raise error()
        assert target.read_bytes() == OLD and leftovers(tmp_path) == []
    with atomic_file(target) as handle:
        handle.write("new\n")
    assert target.read_text() == "new\n" and (target.stat().st_mode & 0o777) == 0o640


def test_atomic_file_through_a_symlink_keeps_the_link(tmp_path):
    real = tmp_path / "real.txt"
    real.write_bytes(OLD)
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    with atomic_file(link) as handle:
        handle.write("new\n")
    assert link.is_symlink() and real.read_text() == "new\n"


def test_atomic_file_writes_devices_directly(tmp_path):
    with atomic_file(os.devnull) as handle:
        handle.write("discarded")
    assert not os.path.isfile(os.devnull)
    with pytest.raises(IsADirectoryError):
        with atomic_file(tmp_path):
            pass


def test_leftovers_of_dead_processes_are_removed(tmp_path):
    target = tmp_path / "out.jsonl"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead_pid = int(dead.stdout)
    stale_file = tmp_path / f".out.jsonl{TMP_MARK}{dead_pid}-abcd"
    stale_dir = tmp_path / f".out.jsonl{TMP_MARK}{dead_pid}-ef01"
    live = tmp_path / f".out.jsonl{TMP_MARK}{os.getpid()}-1234"
    stale_file.write_text("half")
    stale_dir.mkdir()
    (stale_dir / "x").write_text("half")
    live.write_text("in progress")
    with atomic_file(target) as handle:
        handle.write("ok\n")
    assert sorted(leftovers(tmp_path)) == [live.name]
    assert clean_leftovers(target) == []


def test_atomic_dir(tmp_path):
    full = tmp_path / "full"
    full.mkdir()
    (full / "keep").write_text("x")
    with pytest.raises(UnsafeOutput, match="not an empty folder"):
        with atomic_dir(full):
            pass
    target = tmp_path / "model"
    with pytest.raises(RuntimeError):
        with atomic_dir(target) as tmp:
            (tmp / "half").write_text("x")
            raise RuntimeError("killed")
    assert not target.exists() and leftovers(tmp_path) == []
    target.mkdir()  # an empty folder is replaced
    with atomic_dir(target) as tmp:
        (tmp / "done").write_text("x")
    assert [p.name for p in target.iterdir()] == ["done"] and leftovers(tmp_path) == []


def test_interrupted_tiny_model_save_leaves_nothing_that_blocks_a_rerun(tmp_path, monkeypatch, capsys):
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    import transformers

    out = tmp_path / "m"
    real_save = transformers.PreTrainedModel.save_pretrained

    def interrupted_save(self, path, *args, **kwargs):
        real_save(self, path, *args, **kwargs)
        raise KeyboardInterrupt

    monkeypatch.setattr(transformers.PreTrainedModel, "save_pretrained", interrupted_save)
    assert main(["tiny-model", "--out", str(out)]) == 130
    assert not out.exists() and leftovers(tmp_path) == []
    monkeypatch.setattr(transformers.PreTrainedModel, "save_pretrained", real_save)
    assert main(["tiny-model", "--out", str(out)]) == 0
    assert (out / "config.json").is_file() and (out / "tokenizer.json").is_file()
    assert main(["tiny-model", "--out", str(out)]) == 2  # a non-empty folder is never overwritten
    assert "not an empty folder" in capsys.readouterr().err

