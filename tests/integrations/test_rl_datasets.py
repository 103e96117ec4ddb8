"""The procedural datasets API (``finereason.create_dataset``): reasoning-gym's entry shape, our verdict.

Every task of every registered domain (and the demo domain) is generated and each entry's own answer
scores 1.0 while answers made wrong by hand score 0.0; labels are checked against the brute-force
solvers of ``tests/brute.py``; entries depend on (name, seed, index) only; the difficulty knobs reach
the rows (counted off the rows' own grids and graphs); options fail with one line; composites follow
their weights. The 10,000-entries-per-task figure lives in ``benchmarks/bench_rl_datasets.py``.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import finereason
from brute import coloring_completable, sudoku_completions
from demo_domain import registered
from finereason.common.input_errors import InputError
from finereason.core.engine import engines, get_engine

# entries per task: each is its own seeded instance (entries 0..59 of every task, 1,080 in all); the
# 10,000-per-task run is the benchmark's
PER_TASK = 60
TASKS = ("state_checking", "state_transition", "end_to_end")
ROOT = Path(__file__).resolve().parents[2]


def wrong_answer(entry: dict) -> str:
    """An answer that cannot be right: the other option, the current state unchanged, the initial state."""
    row = entry["metadata"]["row"]
    engine = get_engine(row["puzzle"])
    if row["task"] == "state_checking":
        return "Answer: (B)" if "(A)" in entry["answer"] else "Answer: (A)"
    inputs = json.loads(row["inputs"])
    record = {"inputs": inputs, "outputs": json.loads(row["outputs"])}
    if row["task"] == "state_transition":
        item = engine.item_from_official(record)
        return f"Next state: {engine.render(item.puzzle, item.current)}"
    puzzle = engine.puzzle_from_official(record)
    return f"Answer: {engine.answer_text(puzzle, engine.initial(puzzle))}"


@pytest.mark.parametrize("name", [f"{e.name}_{t}" for e in engines() for t in TASKS])
def test_every_entry_scores_its_own_answer_full_and_a_wrong_one_zero(name):
    dataset = finereason.create_dataset(name, size=PER_TASK, seed=3)
    entries = list(dataset)
    assert len(entries) == PER_TASK
    assert [dataset.score_answer(e["answer"], e) for e in entries] == [1.0] * PER_TASK
    assert [dataset.score_answer(wrong_answer(e), e) for e in entries[:40]] == [0.0] * 40
    # a retraction after the answer voids it (the whole response is read, not the last tagged part)
    retracted = [dataset.score_answer(e["answer"] + "\nWait, that is wrong. I retract that answer.", e) for e in entries[:20]]
    assert retracted == [0.0] * 20
    assert dataset.score_answer(None, entries[0]) == 0.0
    for e in entries[:5]:
        assert set(e) == {"question", "answer", "metadata"}
        assert e["question"] == e["metadata"]["row"]["prompt"]
        assert e["metadata"]["source_dataset"] == name and e["metadata"]["row"]["task"] in name
        json.dumps(e)  # JSON-ready
    if name.endswith("state_checking"):
        labels = [e["metadata"]["row"]["label"] for e in entries]
        assert 0.3 < labels.count("Solvable") / PER_TASK < 0.7  # balanced like the builder's configs


def test_the_demo_plugin_domain_gets_datasets_too():
    with registered() as demo:
        names = finereason.list_datasets()
        for task in TASKS:
            assert f"{demo.name}_{task}" in names
            dataset = finereason.create_dataset(f"{demo.name}_{task}", size=60, seed=0)
            assert [dataset.score_answer(e["answer"], e) for e in dataset] == [1.0] * 60
            assert [dataset.score_answer(wrong_answer(e), e) for e in list(dataset)[:20]] == [0.0] * 20
    assert f"{demo.name}_state_checking" not in finereason.list_datasets()


def test_state_checking_labels_agree_with_brute_force():
    sudoku = finereason.create_dataset("sudoku_state_checking", size=60, seed=11)
    for e in sudoku:
        grid = [v for row in json.loads(e["metadata"]["row"]["inputs"])["current"] for v in row]
        assert (sudoku_completions(grid, limit=1) > 0) == ("(A)" in e["answer"])
    coloring = finereason.create_dataset("graph_coloring_state_checking", size=60, seed=11, max_vertices=12)
    for e in coloring:
        inputs = json.loads(e["metadata"]["row"]["inputs"])
        truth = coloring_completable(inputs["graph"], inputs["chromatic_number"], inputs["current"])
        assert truth == ("(A)" in e["answer"])


def test_entries_depend_on_name_seed_and_index_only():
    name = "game_of_24_state_transition"
    small, big = finereason.create_dataset(name, size=5, seed=7), finereason.create_dataset(name, size=500, seed=7)
    assert [big[i] for i in (4, 2, 0)] == [small[i] for i in (4, 2, 0)]
    assert small[-1] == small[4]
    other = finereason.create_dataset(name, size=5, seed=8)
    assert [e["question"] for e in other] != [e["question"] for e in small]
    code = ("import json, finereason; ds = finereason.create_dataset('sudoku_end_to_end', 4, 7, min_empty_cells=40); "
            "print(json.dumps(list(ds), sort_keys=True))")
    runs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout
            for _ in range(2)}
    here = json.dumps(list(finereason.create_dataset("sudoku_end_to_end", 4, 7, min_empty_cells=40)), sort_keys=True)
    assert runs == {here + "\n"}
    with pytest.raises(IndexError):
        small[5]


def test_train_split_draws_other_puzzle_instances():
    test = finereason.create_dataset("sudoku_end_to_end", size=30, seed=0)
    train = finereason.create_dataset("sudoku_end_to_end", size=30, seed=0, split="train")
    initial = {json.loads(e["metadata"]["row"]["inputs"])["initial"].__repr__() for e in test}
    assert not initial & {json.loads(e["metadata"]["row"]["inputs"])["initial"].__repr__() for e in train}


def test_difficulty_knobs_reach_the_rows():
    for e in finereason.create_dataset("sudoku_end_to_end", size=12, seed=2, min_empty_cells=35, max_empty_cells=40):
        zeros = sum(v == 0 for row in json.loads(e["metadata"]["row"]["inputs"])["initial"] for v in row)
        assert 35 <= zeros <= 40
    for e in finereason.create_dataset("graph_coloring_state_checking", size=12, seed=2, min_vertices=5, max_vertices=7,
                                       kind="planar"):
        assert 5 <= len(json.loads(e["metadata"]["row"]["inputs"])["graph"]) <= 7
    for e in finereason.create_dataset("grid_puzzle_end_to_end", size=6, seed=2, max_categories=3, min_entries=4,
                                       max_entries=4):
        initial = json.loads(e["metadata"]["row"]["inputs"])["initial"]
        assert len(initial[0]) == 3 and len(initial) - 1 == 4
    blocks = [len(json.loads(e["metadata"]["row"]["inputs"])["objects"])
              for e in finereason.create_dataset("blocksworld_end_to_end", size=8, seed=2, min_blocks=6, max_blocks=6)]
    assert blocks == [6] * 8


@pytest.mark.parametrize("call, words", [
    (lambda: finereason.create_dataset("sudoku_state_cheking"), "did you mean sudoku_state_checking"),
    (lambda: finereason.create_dataset("sudoku_end_to_end", 5, 0, blanks=3), "unknown difficulty option 'blanks'"),
    (lambda: finereason.create_dataset("sudoku_end_to_end", 5, 0, min_empty_cells=70), "min_empty_cells must be an integer in 0..64"),
    (lambda: finereason.create_dataset("sudoku_end_to_end", 5, 0, min_empty_cells="40"), "got '40'"),
    (lambda: finereason.create_dataset("sudoku_end_to_end", 5, 0, min_empty_cells=50, max_empty_cells=40), "is larger than"),
    (lambda: finereason.create_dataset("graph_coloring_end_to_end", 5, 0, kind="tree"), "kind must be one of"),
    (lambda: finereason.create_dataset("game_of_24_end_to_end", 5, 0, depth=2), "known: none"),
    (lambda: finereason.create_dataset("sudoku_end_to_end", -1, 0), "size must be in"),
    (lambda: finereason.create_dataset("sudoku_end_to_end", 5, 1.5), "seed must be an integer"),
    (lambda: finereason.create_dataset("sudoku_end_to_end", 5, 0, split="dev"), "split must be test or train"),
    (lambda: finereason.create_dataset("composite", 5, 0), "needs datasets"),
    (lambda: finereason.create_dataset("composite", 5, 0, datasets=[("sudoku_end_to_end", 0)]), "positive number"),
    (lambda: finereason.create_dataset("composite", 5, 0, datasets=["sudoku_end_to_end", "sudoku_end_to_end"]), "twice"),
])
def test_bad_options_are_one_line_errors(call, words):
    with pytest.raises(InputError) as err:
        call()
    assert words in str(err.value) and "\n" not in str(err.value)


def test_composite_follows_its_weights_and_scores_every_part():
    # the heavier part is one of the quick ones to make (the draws are what is checked here; every task's
    # own entries are checked above)
    parts = [("game_of_24_state_checking", 3.0), {"name": "graph_coloring_end_to_end", "weight": 1, "config": {"max_vertices": 8}}]
    dataset = finereason.create_dataset("composite", size=400, seed=5, datasets=parts)
    sources = [e["metadata"]["source_dataset"] for e in dataset]
    # 400 draws with p = 0.75: the share is within 0.75 +- 0.1 (over 4.6 standard deviations)
    assert 0.65 < sources.count("game_of_24_state_checking") / 400 < 0.85
    assert set(sources) == {"game_of_24_state_checking", "graph_coloring_end_to_end"}
    assert all(dataset.score_answer(e["answer"], e) == 1.0 for e in list(dataset)[:80])
    again = finereason.create_dataset("composite", size=10, seed=5, datasets=parts)
    assert list(again) == list(dataset)[:10]


def test_train_mix_is_the_training_sets():
    dataset = finereason.create_dataset("train", size=120, seed=0)
    rows = [e["metadata"]["row"] for e in dataset]
    trained = {e.name for e in engines() if e.train_samples > 0}
    assert {r["puzzle"] for r in rows} == trained
    assert {r["task"] for r in rows} == {"state_checking", "state_transition"}
    assert all(dataset.score_answer(e["answer"], e) == 1.0 for e in dataset)


def test_list_datasets_names_every_task_of_every_domain():
    names = finereason.list_datasets()
    assert names[:len(engines()) * 3] == [f"{e.name}_{t}" for e in engines() for t in TASKS]
    assert {"train", "composite"} <= set(names)


def test_top_level_import_stays_light():
    code = ("import sys, finereason; assert 'finereason.integrations.rl' not in sys.modules; "
            "assert 'finereason.dataset_builders' not in sys.modules; "
            "finereason.create_dataset; assert 'finereason.integrations.rl' in sys.modules; print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.stdout.strip() == "ok", out.stderr


def test_a_default_difficulty_config_gives_the_builders_instances():
    for engine in engines():
        default = engine.difficulty_config()
        assert default.is_default()
        for index in (0, 5):
            assert engine.configured_source("test", 4, index, default).key == engine.source("test", 4, index, {}).key


def test_the_instance_cache_changes_no_entry_and_serves_every_task_of_a_domain(monkeypatch):
    from finereason.integrations.rl import datasets

    for engine in engines():
        for index in (0, 3):
            cached = datasets.source_of(engine, "test", 11, index, engine.difficulty_config())
            fresh = engine.configured_source("test", 11, index, engine.difficulty_config())
            assert (cached.key, cached.puzzle, cached.record, cached.difficulty) == (
                fresh.key, fresh.puzzle, fresh.record, fresh.difficulty)
    names = [f"sudoku_{t}" for t in TASKS] + ["graph_coloring_end_to_end"]
    with_cache = [json.dumps(finereason.create_dataset(n, size=4, seed=12)[i], sort_keys=True) for i in range(4) for n in names]
    datasets._cached_source.cache_clear()
    sudoku = get_engine("sudoku")
    calls = []
    original = type(sudoku).configured_source
    monkeypatch.setattr(type(sudoku), "configured_source",
                        lambda self, *args: calls.append(args[2]) or original(self, *args))
    again = [json.dumps(finereason.create_dataset(n, size=4, seed=12)[i], sort_keys=True) for i in range(4) for n in names]
    assert again == with_cache
    assert sorted(calls) == [0, 1, 2, 3]  # one instance per index for the three Sudoku tasks
    monkeypatch.setattr(datasets, "source_of", lambda engine, *args: engine.configured_source(*args))
    uncached = [json.dumps(finereason.create_dataset(n, size=4, seed=12)[i], sort_keys=True) for i in range(4) for n in names]
    assert uncached == with_cache
