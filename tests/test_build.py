"""finereason build / import-official / push: layout, determinism, disjointness, safety."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import shared_path
from finereason.cli import main
from finereason.engines import get_engine
from finereason.verifiers import is_solvable

pytest.importorskip("pyarrow")
datasets = pytest.importorskip("datasets")

SMALL = ["--per-task", "8", "--train-size", "24", "--e2e-size", "2"]
PUZZLES = ("sudoku", "graph_coloring", "game_of_24", "grid_puzzle")
OFFICIAL_NAME = {"sudoku": "sudoku", "graph_coloring": "graphcoloring", "game_of_24": "game24", "grid_puzzle": "gridpuzzle"}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("build") / "ds"
    assert main(["build", "--out", str(out), "--seed", "7", *SMALL]) == 0
    return out


def _rows(out: Path, config: str) -> list[dict]:
    split = "train" if config == "train" else "test"
    return list(datasets.load_dataset(str(out), config, split=split))


def test_every_config_loads_with_load_dataset(built):
    expected = {f"{p}_{t}" for p in PUZZLES for t in ("state_checking", "state_transition", "end_to_end")} | {"train"}
    present = {p.name for p in built.iterdir() if p.is_dir()}
    assert present == expected
    readme = (built / "README.md").read_text()
    assert readme.startswith("---\n") and "configs:" in readme and "[More Information Needed]" not in readme
    for config in expected:
        rows = _rows(built, config)
        want = 24 if config == "train" else (2 if config.endswith("end_to_end") else 8)
        assert len(rows) == want, config
        assert len({r["id"] for r in rows}) == len(rows)
        for row in rows:
            assert row["prompt"] and row["messages"][0]["content"] == row["prompt"]
            assert row["prompt_version"] == "v1"
            json.loads(row["inputs"]), json.loads(row["outputs"])


def test_labels_are_rechecked_by_the_oracle(built):
    for puzzle in PUZZLES:
        engine = get_engine(puzzle)
        for task in ("state_checking", "state_transition"):
            rows = _rows(built, f"{puzzle}_{task}")
            for row in rows:
                record = {"inputs": json.loads(row["inputs"]), "outputs": json.loads(row["outputs"])}
                assert record["outputs"]["current_status"] == row["label"]
                item = engine.item_from_official(record)
                assert is_solvable(engine, item.puzzle, item.current) == (row["label"] == "Solvable")
                if item.unsolvable_child is not None:
                    assert not is_solvable(engine, item.puzzle, item.unsolvable_child)
                if task == "state_transition" and row["label"] == "Solvable":
                    assert item.unsolvable_child is not None
            if puzzle != "grid_puzzle" and task == "state_checking":
                share = sum(r["label"] == "Solvable" for r in rows) / len(rows)
                assert abs(share - 0.5) <= 0.02


def test_end_to_end_rows_hold_a_valid_solution(built):
    for puzzle in ("sudoku", "graph_coloring", "grid_puzzle"):
        engine = get_engine(puzzle)
        for row in _rows(built, f"{puzzle}_end_to_end"):
            record = {"inputs": json.loads(row["inputs"]), "outputs": json.loads(row["outputs"])}
            p = engine.puzzle_from_official(record)
            assert engine.solve(p) is not None


def _puzzle_keys(out: Path, config: str) -> set[str]:
    keys = set()
    for row in _rows(out, config):
        inputs = json.loads(row["inputs"])
        ident = {k: inputs.get(k) for k in ("initial", "graph", "initial_state", "clues")}
        keys.add(json.dumps(ident, sort_keys=True))
    return keys


def test_train_is_disjoint_from_every_test_config(built):
    train = _puzzle_keys(built, "train")
    assert train
    for puzzle in ("sudoku", "graph_coloring", "game_of_24"):
        for task in ("state_checking", "state_transition", "end_to_end"):
            assert not train & _puzzle_keys(built, f"{puzzle}_{task}"), (puzzle, task)


def test_same_seed_same_bytes(built, tmp_path):
    again = tmp_path / "again"
    assert main(["build", "--out", str(again), "--seed", "7", *SMALL, "--num-proc", "2"]) == 0
    for path in sorted(built.rglob("*.parquet")):
        twin = again / path.relative_to(built)
        assert twin.read_bytes() == path.read_bytes(), path.name
    other = tmp_path / "other"
    assert main(["build", "--out", str(other), "--seed", "8", "--puzzles", "game_of_24", *SMALL]) == 0
    assert (other / "game_of_24_state_checking/test-00000-of-00001.parquet").read_bytes() != \
        (built / "game_of_24_state_checking/test-00000-of-00001.parquet").read_bytes()


def test_interrupted_build_leaves_nothing(tmp_path, monkeypatch):
    from finereason.dataset_builders import build as build_module

    calls = {"n": 0}
    real = build_module.run_group

    def flaky(*args):
        calls["n"] += 1
        if calls["n"] == 5:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(build_module, "run_group", flaky)
    out = tmp_path / "ds"
    assert main(["build", "--out", str(out), *SMALL]) == 130  # the CLI reports the interrupt
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--per-task", "-1"], "--per-task must be >= 0"),
        (["--train-size", "-5"], "--train-size must be >= 0"),
        (["--puzzles", "chess"], "unknown puzzle 'chess'"),
        (["--num-proc", "0"], "--num-proc must be >= 1"),
    ],
)
def test_bad_arguments(tmp_path, capsys, extra, message):
    out = tmp_path / "ds"
    assert main(["build", "--out", str(out), *SMALL, *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_out_paths_are_checked(tmp_path, capsys):
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "keep.txt").write_text("x")
    assert main(["build", "--out", str(busy), *SMALL]) == 2
    assert "not empty" in capsys.readouterr().err
    assert (busy / "keep.txt").read_text() == "x"
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["build", "--out", str(blocker / "ds"), *SMALL]) == 2
    assert "not a folder" in capsys.readouterr().err
    assert main(["build", "--out", "/proc/finereason-test/ds", *SMALL]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_overwrite_replaces_a_build(built, tmp_path):
    out = tmp_path / "ds"
    out.mkdir()
    (out / "stale.txt").write_text("old")
    assert main(["build", "--out", str(out), "--puzzles", "game_of_24", *SMALL, "--overwrite"]) == 0
    assert not (out / "stale.txt").exists() and (out / "train").is_dir()


def test_import_official(tmp_path):
    src = shared_path("finereason_official")
    out = tmp_path / "ds"
    assert main(["import-official", "--src", str(src), "--out", str(out)]) == 0
    for puzzle in PUZZLES:
        rows = _rows(out, f"official_{puzzle}_state_checking")
        assert len(rows) == 100 and rows[3]["id"] == f"official-{puzzle}-3"
        original = [json.loads(line) for line in (src / f"{OFFICIAL_NAME[puzzle]}_states_sample.jsonl").read_text().splitlines()]
        assert [json.loads(r["inputs"]) for r in rows] == [o["inputs"] for o in original]
        assert [r["label"] for r in rows] == [o["outputs"]["current_status"] for o in original]
        assert _rows(out, f"official_{puzzle}_end_to_end")
    assert main(["import-official", "--src", str(src), "--out", str(out)]) == 2  # already there


def test_push_offline_fails_with_one_line(built, capsys, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    import huggingface_hub.constants as constants

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True, raising=False)
    assert main(["push", "--data", str(built), "--repo-id", "someone/finereason-test"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("finereason: error: cannot push") and err.count("\n") == 1
    assert main(["push", "--data", str(built), "--repo-id", "no-slash"]) == 2
