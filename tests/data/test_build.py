"""finereason build / import-official / merge-shards / push: layout, determinism, the full official
schema, disjointness, sharding, and safe outputs."""
from __future__ import annotations

import dataclasses

import ast
import fcntl
import itertools
import json
import os
import signal
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest

from brute import coloring_completable, reaches_24
from conftest import shared_path
from finereason.commands import main
from finereason.core.engine import StepKind, get_engine
from finereason.core.rows import row_item
from finereason.verification.scoring import score_row
from finereason.core.prompts import PROMPT_VERSION
from finereason.data.sampling import moves
from finereason.core.oracle import oracle_solvable
from finereason.common.atomic_io import TMP_MARK

pytest.importorskip("pyarrow")
datasets = pytest.importorskip("datasets")

from finereason.dataset_builders.layout import configs_in, read_config  # noqa: E402

SMALL = ["--per-task", "8", "--train-size", "24", "--e2e-size", "2"]
DEAD_PID = 2 ** 22 + 1  # above the largest pid_max Linux allows: no such process
PUZZLES = ("sudoku", "graph_coloring", "game_of_24", "grid_puzzle")
OFFICIAL_NAME = {"sudoku": "sudoku", "graph_coloring": "graphcoloring", "game_of_24": "game24", "grid_puzzle": "gridpuzzle"}


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("build") / "ds"
    assert main(["build", "--out", str(out), "--seed", "7", *SMALL]) == 0
    return out


@pytest.fixture(scope="session")
def schema_build(tmp_path_factory) -> Path:
    """A larger build (seed 11, as in the issue) for the schema checks: 60 rows per test config."""
    out = tmp_path_factory.mktemp("schema") / "ds"
    assert main(["build", "--out", str(out), "--seed", "11", "--per-task", "60", "--train-size", "120",
                 "--e2e-size", "2", "--num-proc", "2"]) == 0
    return out


def _rows(out: Path, config: str) -> list[dict]:
    split = "train" if config == "train" else "test"
    return list(datasets.load_dataset(str(out), config, split=split))


def _state_configs(out: Path) -> list[str]:
    return [c for c in configs_in(out) if not c.endswith("_end_to_end")]


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
            # ``domain`` names the domain; ``puzzle`` is its old name, written (the same value) until the next major version
            assert row["domain"] in PUZZLES and row["puzzle"] == row["domain"]
            assert config == "train" or config.startswith(f"{row['domain']}_")
            assert row["prompt"] and row["messages"][0]["content"] == row["prompt"]
            assert row["prompt_version"] == PROMPT_VERSION
            json.loads(row["inputs"]), json.loads(row["outputs"])


# ------------------------------------------------------------------ independent solvers (no engine oracle)
def _sudoku_ok(grid: list[list[int]], final: list[list[int]]) -> bool:
    """The generated Sudokus have one solution: a state is solvable iff it agrees with it."""
    return all(v == 0 or v == f for row, frow in zip(grid, final) for v, f in zip(row, frow))


def _value(node: ast.AST) -> Fraction:
    """Exact value of one of our own expressions (numbers, + - * /, parentheses)."""
    if isinstance(node, ast.Constant):
        return Fraction(node.value)
    ops = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b, ast.Div: lambda a, b: a / b}
    assert isinstance(node, ast.BinOp) and type(node.op) in ops, ast.dump(node)
    return ops[type(node.op)](_value(node.left), _value(node.right))


def _independent_label(puzzle: str, engine, item, record: dict) -> bool:
    if puzzle == "sudoku":
        return _sudoku_ok(record["inputs"]["current"], record["outputs"]["final"])
    if puzzle == "game_of_24":
        return reaches_24([_value(ast.parse(str(e), mode="eval").body) for e in record["inputs"]["current"]])
    if puzzle == "graph_coloring":
        adjacency = [list(n) for n in item.puzzle.adjacency]
        return coloring_completable(adjacency, item.puzzle.k, item.current)
    solution = engine.parse_state(item.puzzle, record["outputs"]["solution"]).cells  # grid: unique solution
    return all(v is None or v == s for row, srow in zip(item.current.cells, solution) for v, s in zip(row, srow))


def test_labels_agree_with_the_oracle_and_independent_solvers(schema_build):
    for config in _state_configs(schema_build):
        rows = read_config(schema_build, config)
        for row in rows:
            engine = get_engine(row["puzzle"])
            record = {"inputs": json.loads(row["inputs"]), "outputs": json.loads(row["outputs"])}
            assert record["outputs"]["current_status"] == row["label"]
            item = row_item(row)
            truth = row["label"] == "Solvable"
            assert oracle_solvable(engine, item.puzzle, item.current) == truth, row["id"]
            assert _independent_label(row["puzzle"], engine, item, record) == truth, row["id"]
        if config.endswith("_state_checking") and not config.startswith("grid"):
            share = sum(r["label"] == "Solvable" for r in rows) / len(rows)
            assert abs(share - 0.5) <= 0.05, config


def test_every_stored_state_is_rederived_by_the_oracle(schema_build):
    """Paths are real single moves; the unsolvable child is a move to an unsolvable state and is
    missing only when no such move exists (from an unsolvable state: when there is no move at all)."""
    missing = 0
    for config in _state_configs(schema_build):
        for row in read_config(schema_build, config):
            engine = get_engine(row["puzzle"])
            item = row_item(row)
            p = item.puzzle
            for before, after in ((item.grandparent, item.parent), (item.parent, item.current)):
                if before is not None:
                    assert not engine.same(before, after), (row["id"], "no-op move on the path")
                    assert engine.step(p, before, after).kind is StepKind.FORWARD, row["id"]
            child = item.unsolvable_child
            if child is not None:
                assert engine.step(p, item.current, child).kind is StepKind.FORWARD, row["id"]
                assert not oracle_solvable(engine, p, child), row["id"]
            else:
                missing += 1
                solvable = row["label"] == "Solvable"
                dead = [c for c in moves(engine, p, item.current, None) if not solvable or not oracle_solvable(engine, p, c)]
                assert dead == [], (row["id"], "an unsolvable child exists but none is stored")
            if row["task"] == "state_transition" and row["label"] == "Solvable":
                assert child is not None
    card = (schema_build / "README.md").read_text()
    assert ("Rows without an unsolvable child" in card) == (missing > 0)


def test_copying_the_current_state_scores_zero_on_every_transition_config(schema_build):
    for config in [c for c in configs_in(schema_build) if c.endswith("_state_transition")]:
        rows = read_config(schema_build, config)
        assert rows
        for row in rows:
            engine = get_engine(row["puzzle"])
            item = row_item(row)
            score = score_row(row, "Next state: " + engine.render(item.puzzle, item.current))
            assert not score.verdict.correct and not score.paper.correct, row["id"]
            if row["label"] == "Unsolvable":  # backtracking to the parent is correct and differs from staying
                back = score_row(row, "Next state: " + engine.render(item.puzzle, item.parent))
                assert back.verdict.correct, row["id"]


def test_grid_transition_prompts_show_the_parents_clues(schema_build):
    for row in read_config(schema_build, "grid_puzzle_state_transition"):
        item = row_item(row)
        if item.parent is not None:
            assert f"Clues applied in the previous state: {', '.join(item.parent.applied) or 'none'}" in row["prompt"]


def test_end_to_end_rows_hold_a_valid_solution(built):
    for puzzle in ("sudoku", "graph_coloring", "grid_puzzle"):
        engine = get_engine(puzzle)
        for row in _rows(built, f"{puzzle}_end_to_end"):
            record = {"inputs": json.loads(row["inputs"]), "outputs": json.loads(row["outputs"])}
            p = engine.puzzle_from_official(record)
            assert engine.solve(p) is not None


def _puzzle_keys(out: Path, config: str) -> set[str]:
    keys = set()
    for row in read_config(out, config):
        inputs = json.loads(row["inputs"])
        ident = {k: inputs.get(k) for k in ("initial", "graph", "initial_state", "clues")}
        keys.add(json.dumps(ident, sort_keys=True))
    return keys


@pytest.mark.parametrize("fixture", ["built", "schema_build"])
def test_train_is_disjoint_from_every_test_config(fixture, request):
    out = request.getfixturevalue(fixture)
    train = _puzzle_keys(out, "train")
    assert train
    for puzzle in ("sudoku", "graph_coloring", "game_of_24"):
        for task in ("state_checking", "state_transition", "end_to_end"):
            assert not train & _puzzle_keys(out, f"{puzzle}_{task}"), (puzzle, task)


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_same_seed_same_bytes_for_any_num_proc(built, tmp_path):
    again = tmp_path / "again"
    assert main(["build", "--out", str(again), "--seed", "7", *SMALL, "--num-proc", "2"]) == 0
    assert _files(again) == _files(built)  # every file: parquet, README and build_info.json
    other = tmp_path / "other"
    assert main(["build", "--out", str(other), "--seed", "8", "--domains", "game_of_24", *SMALL]) == 0
    assert (other / "game_of_24_state_checking/test-00000-of-00001.parquet").read_bytes() != \
        (built / "game_of_24_state_checking/test-00000-of-00001.parquet").read_bytes()


def _config(out: Path, *extra, **fields):
    from finereason.dataset_builders.build import BuildConfig

    base = dict(out=out, seed=3, per_task=6, train_size=30, e2e_size=2, domains=("sudoku", "game_of_24"),
                train_chunk_rows=4, train_file_rows=8, progress=False)
    return BuildConfig(**{**base, **fields})


def test_shards_merge_into_the_single_build(tmp_path, capsys):
    """Train in 4 files of 2 chunks; 6 streams over 4 shards (some shards get 2, one gets test+train)."""
    from finereason.dataset_builders.build import build, streams
    from finereason.dataset_builders.merge import merge_shards

    single = tmp_path / "single"
    build(_config(single, num_proc=2))
    assert len(list((single / "train").glob("*.parquet"))) == 4 and len(streams(_config(single))) == 6
    rows = read_config(single, "train")
    assert [r["id"] for r in rows] == [f"train-s3-{i:05d}" for i in range(30)]
    shard_dirs = []
    for k in range(4):
        shard_dirs.append(tmp_path / f"part{k}")
        build(_config(shard_dirs[-1], shard=(k, 4), num_proc=1 + k % 2))
    held = [set(_files(d)) - {"README.md", "build_info.json"} for d in shard_dirs]
    assert all(a.isdisjoint(b) for a, b in itertools.combinations(held, 2))
    merged = tmp_path / "merged"
    merge_shards(shard_dirs[::-1], merged)
    assert _files(merged) == _files(single)
    # the CLI refuses incomplete or mixed sets of shards with one line
    assert main(["merge-shards", *map(str, shard_dirs[:3]), "--out", str(tmp_path / "m2")]) == 2
    assert "missing [3]" in capsys.readouterr().err
    other = tmp_path / "other"
    build(_config(other, seed=4, shard=(3, 4)))
    assert main(["merge-shards", *map(str, shard_dirs[:3]), str(other), "--out", str(tmp_path / "m3")]) == 2
    err = capsys.readouterr().err
    assert "another build" in err and err.count("\n") == 1
    assert not (tmp_path / "m2").exists() and not (tmp_path / "m3").exists()


def test_interrupted_build_leaves_nothing(tmp_path, monkeypatch):
    from finereason.dataset_builders import build as build_module

    calls = {"n": 0}
    real = build_module.run_group

    def flaky(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 5:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(build_module, "run_group", flaky)
    out = tmp_path / "ds"
    assert main(["build", "--out", str(out), *SMALL]) == 130  # the CLI reports the interrupt
    assert list(tmp_path.iterdir()) == []


def test_failed_overwrite_keeps_the_old_build(built, tmp_path, monkeypatch, capsys):
    from finereason.dataset_builders import build as build_module

    out = tmp_path / "ds"
    assert main(["build", "--out", str(out), "--seed", "7", *SMALL]) == 0
    before = _files(out)
    calls = {"n": 0}
    real = build_module.run_group

    def failing(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 7:
            raise OSError(28, "No space left on device")
        return real(*args, **kwargs)

    monkeypatch.setattr(build_module, "run_group", failing)
    assert main(["build", "--out", str(out), "--seed", "9", *SMALL, "--overwrite"]) == 2
    assert "No space left on device" in capsys.readouterr().err
    assert _files(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ds"]


def test_a_concurrent_writer_is_refused(tmp_path, capsys):
    out = tmp_path / "ds"
    with open(tmp_path / ".ds.lock", "w") as handle:  # what a running build of the same target holds
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        assert main(["build", "--out", str(out), *SMALL]) == 2
        err = capsys.readouterr().err
        assert "being written by another finereason run" in err and err.count("\n") == 1
        assert main(["import-official", "--src", str(tmp_path), "--out", str(out)]) == 2
    assert not out.exists()


def test_leftovers_of_killed_runs_are_repaired(built, tmp_path, capsys):
    out = tmp_path / "ds"
    assert main(["build", "--out", str(out), "--seed", "7", *SMALL]) == 0
    before = _files(out)
    out.rename(tmp_path / ".ds.old")            # killed between the two renames of a swap
    dead = tmp_path / f".ds{TMP_MARK}{DEAD_PID}-0000"  # killed while writing
    dead.mkdir()
    (dead / "x.parquet").write_text("half")
    (tmp_path / ".ds.lock").write_text("")       # a lock file whose holder is gone
    assert main(["build", "--out", str(out), "--seed", "7", *SMALL]) == 2  # restored first, so not empty
    assert "not empty" in capsys.readouterr().err
    assert _files(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ds"]
    (tmp_path / ".ds.old").mkdir()               # killed after the swap, before deleting the old folder
    assert main(["build", "--out", str(out), "--seed", "7", *SMALL, "--overwrite"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ds"] and _files(out) == before


def test_a_symlinked_out_replaces_the_folder_it_points_to(built, tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    (real / "old.txt").write_text("x")
    link = tmp_path / "link"
    link.symlink_to(real)
    assert main(["build", "--out", str(link), "--seed", "7", "--domains", "game_of_24", *SMALL]) == 2
    assert main(["build", "--out", str(link), "--seed", "7", "--domains", "game_of_24", *SMALL, "--overwrite"]) == 0
    assert link.is_symlink() and (real / "train").is_dir() and not (real / "old.txt").exists()


def test_sigint_during_a_parallel_build_stops_promptly_and_leaves_nothing(tmp_path):
    out = tmp_path / "ds"
    cmd = [sys.executable, "-m", "finereason", "build", "--out", str(out), "--num-proc", "2",
           "--per-task", "400", "--train-size", "5000", "--e2e-size", "2"]
    env = dict(os.environ, OMP_NUM_THREADS="1")
    # a run started from a background job inherits an ignored SIGINT; a terminal's Ctrl-C is not ignored
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        for _ in range(600):  # polls of 0.2 s: a generous bound that only catches a hang
            if any(p.name.startswith(f".ds{TMP_MARK}") for p in tmp_path.iterdir()):
                break
            assert proc.poll() is None, "the build exited before writing anything"
            time.sleep(0.2)
        else:
            pytest.fail("the build did not start")
        time.sleep(3)  # workers are busy now
        os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole process group
        _, err = proc.communicate(timeout=120)  # generous: only catches a hang
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err.decode()[-2000:]
    assert "Traceback" not in err.decode()
    assert list(tmp_path.iterdir()) == []
    for _ in range(300):  # no worker outlives the run (polls of 0.2 s: only catches a hang)
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.2)
    else:
        pytest.fail("worker processes outlived the interrupted build")


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--per-task", "-1"], "--per-task must be >= 0"),
        (["--train-size", "-5"], "--train-size must be >= 0"),
        (["--per-task", "1000000000"], "--per-task must be at most 100,000"),
        (["--train-size", "1000000000"], "--train-size must be at most"),
        (["--domains", "chess"], "unknown domain 'chess'"),
        (["--domains", ","], "has an empty name"),
        (["--domains", "sudoku,"], "has an empty name"),
        (["--domains", "sudoku", "sudoku"], "names a domain twice"),
        (["--num-proc", "0"], "--num-proc must be >= 1"),
        (["--shard", "4/4"], "--shard must be K/N"),
        (["--shard", "x"], "--shard must be K/N"),
        (["--tot-csv", "/nonexistent/24.csv"], "is not a file"),
        (["--per-task", "0", "--e2e-size", "0", "--train-size", "0"], "nothing to build"),
    ],
)
def test_bad_arguments(tmp_path, capsys, extra, message):
    out = tmp_path / "ds"
    assert main(["build", "--out", str(out), *SMALL, *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("content", [b"\xff\xfe\x00binary\x00", b"Rank,Other\n1,2\n", b"Rank,Puzzles\nx,1 2 3 4\n", b""])
def test_bad_tot_csv_is_one_line(tmp_path, capsys, content):
    bad = tmp_path / "24.csv"
    bad.write_bytes(content)
    assert main(["build", "--out", str(tmp_path / "ds"), *SMALL, "--tot-csv", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("finereason: error: --tot-csv") and err.count("\n") == 1
    assert not (tmp_path / "ds").exists()


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
    assert main(["build", "--out", str(out), "--domains", "game_of_24", *SMALL, "--overwrite"]) == 0
    assert not (out / "stale.txt").exists() and (out / "train").is_dir()


def test_import_official(tmp_path, capsys):
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
    before = _files(out)
    assert main(["import-official", "--src", str(src), "--out", str(out)]) == 2  # not empty: needs --overwrite
    err = capsys.readouterr().err
    assert "not empty" in err and _files(out) == before
    assert "--overwrite to replace its official_* configs and card, keeping its other configs" in err  # not "replace it"


def test_import_official_overwrite_keeps_other_files_and_links(built, tmp_path):
    src = shared_path("finereason_official")
    out = tmp_path / "ds"
    assert main(["build", "--out", str(out), "--seed", "7", "--domains", "game_of_24", *SMALL]) == 0
    (tmp_path / "notes.txt").write_text("mine")
    (out / "notes-link").symlink_to("../notes.txt")
    train = (out / "train" / "train-00000-of-00001.parquet").read_bytes()
    assert main(["import-official", "--src", str(src), "--out", str(out), "--overwrite"]) == 0
    assert (out / "notes-link").is_symlink() and (out / "notes-link").read_text() == "mine"
    assert (out / "train" / "train-00000-of-00001.parquet").read_bytes() == train
    assert set(configs_in(out)) >= {"train", "game_of_24_state_checking", "official_sudoku_state_checking"}
    assert "config_name: train" in (out / "README.md").read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ds", "notes.txt"]
    # the card keeps the build's seed and command, and says what was added
    card = (out / "README.md").read_text()
    assert "(seed 7," in card and "--domains game_of_24" in card and "&& finereason import-official`" in card
    assert main(["import-official", "--src", str(src), "--out", str(out), "--overwrite"]) == 0  # again: said once
    card = (out / "README.md").read_text()
    assert "(seed 7," in card and card.count("finereason import-official") == 1


def test_import_official_bad_cells_are_one_line(tmp_path, capsys):
    src = shared_path("finereason_official")
    bad = tmp_path / "src"
    bad.mkdir()
    record = json.loads((src / "sudoku_states_sample.jsonl").read_text().splitlines()[0])
    record["inputs"]["current"][0][0] = "seven"
    (bad / "sudoku_states.jsonl").write_text(json.dumps(record) + "\n")
    assert main(["import-official", "--src", str(bad), "--out", str(tmp_path / "ds")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("finereason: error:") and "sudoku_states.jsonl:1" in err and err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["src"]


def test_push_offline_fails_with_one_line(built, capsys, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    import huggingface_hub.constants as constants

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True, raising=False)
    assert main(["push", "--data", str(built), "--repo-id", "someone/finereason-test"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("finereason: error: cannot push") and err.count("\n") == 1
    assert main(["push", "--data", str(built), "--repo-id", "no-slash"]) == 2


def test_reading_or_writing_parquet_settles_arrow_at_exit(tmp_path):
    """A process that read a dataset folder collects garbage at exit while Arrow is alive (pyarrow's
    parquet threads can otherwise abort the interpreter's final teardown)."""
    import atexit
    import gc
    from unittest import mock

    from finereason.data import folder

    with mock.patch.object(folder, "_ARROW_SETTLED", False), mock.patch.object(atexit, "register") as register:
        folder.settle_arrow_at_exit()
        folder.settle_arrow_at_exit()
    register.assert_called_once_with(gc.collect)


def test_build_info_records_domains_and_the_old_keyword_still_works(tmp_path, capsys):
    """``BuildConfig(domains=...)``; ``build_info.json`` records ``--domains``; ``puzzles=`` works with one
    deprecation line."""
    from finereason.dataset_builders.build import BuildConfig, build

    config = BuildConfig(out=tmp_path / "a", per_task=2, train_size=0, e2e_size=0, domains=("game_of_24",), progress=False)
    build(config)
    info = json.loads((tmp_path / "a" / "build_info.json").read_text(encoding="utf-8"))
    assert "--domains game_of_24" in info["command"] and "--puzzles" not in info["command"]
    assert info["config"]["domains"] == ["game_of_24"] and "puzzles" not in info["config"]
    assert capsys.readouterr().err == ""
    old = BuildConfig(out=tmp_path / "b", per_task=2, train_size=0, e2e_size=0, puzzles=("game_of_24",), progress=False)
    err = capsys.readouterr().err
    assert old.domains == ("game_of_24",) and old == dataclasses.replace(config, out=tmp_path / "b")
    assert err.count("\n") == 1 and "deprecated" in err and "domains=" in err
