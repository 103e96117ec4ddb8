"""One state truth, one label spelling and one puzzle identity.

- A state's truth is the oracle's; a stored label is read with ``label_solvable`` and never guessed:
  ``import-official`` leaves a record without ``current_status`` unlabelled instead of "Unsolvable".
- Everything outside a domain asks the memoised oracle (``finereason.core.oracle.oracle_solvable``).
- The build's train/test split and GRPO's disjointness check compare the same puzzle identity.
Expected values come from the official release's own labels (../shared) and the oracle.
"""
from __future__ import annotations

import json

import pytest

from conftest import read_jsonl, shared_path
from finereason.common.verdict import SOLVABLE, UNSOLVABLE, label_solvable, solvable_label
from finereason.core import oracle
from finereason.core.engine import default_names, get_engine
from finereason.core.rows import RowError, decode_row, row_identity
from finereason.data.verify import check_row
from finereason.integrations.training.mixing import check_disjoint
from finereason.verification.scoring import score_row

OFFICIAL = "sudoku_states_sample.jsonl"


@pytest.fixture
def records() -> list[dict]:
    return read_jsonl(shared_path("finereason_official", OFFICIAL))


# ------------------------------------------------------------------ labels
def test_one_label_spelling_both_ways():
    assert [solvable_label(b) for b in (True, False, None)] == [SOLVABLE, UNSOLVABLE, None]
    for bit in (True, False):
        assert label_solvable(solvable_label(bit)) is bit
        assert label_solvable(solvable_label(bit).upper()) is bit  # any case, as released files spell it
    assert [label_solvable(v) for v in (None, "", "None")] == [None, None, None]
    with pytest.raises(ValueError, match="neither"):
        label_solvable("maybe")  # never read as unsolvable


def _rows_of(tmp_path, records: list[dict]) -> dict[str, list[dict]]:
    official_configs = pytest.importorskip("finereason.dataset_builders.official_configs")
    (tmp_path / "sudoku_states.json").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return official_configs.official_rows(tmp_path)


def test_import_official_leaves_a_record_without_status_unlabelled(records, tmp_path):
    pytest.importorskip("pyarrow")
    unsolvable = next(r for r in records if r["outputs"]["current_status"] == UNSOLVABLE)
    solvable = next(r for r in records if r["outputs"]["current_status"] == SOLVABLE)
    bare = json.loads(json.dumps(solvable))
    del bare["outputs"]["current_status"]
    configs = _rows_of(tmp_path, [unsolvable, solvable, bare])
    for task in ("state_checking", "state_transition"):
        labels = [row["label"] for row in configs[f"official_sudoku_{task}"]]
        assert labels == [UNSOLVABLE, SOLVABLE, None]  # not "Unsolvable" for the unlabelled one
    row = configs["official_sudoku_state_checking"][2]
    # scored against the oracle, which finds the released state solvable
    assert score_row(row, "Answer: (A)").correct and not score_row(row, "Answer: (B)").correct
    assert check_row(row) == []  # nothing stored to contradict


def test_import_official_rejects_a_status_that_is_no_label(records, tmp_path):
    outdir = pytest.importorskip("finereason.dataset_builders.outdir")
    odd = json.loads(json.dumps(records[0]))
    odd["outputs"]["current_status"] = "Maybe"
    with pytest.raises(outdir.BuildError, match=r"sudoku_states.json:1: .*'Maybe'"):
        _rows_of(tmp_path, [odd])


def test_verify_data_flags_a_label_that_is_no_label(records):
    record = records[0]
    row = {"id": "x", "puzzle": "sudoku", "task": "state_checking", "label": "Maybe",
           "inputs": json.dumps(record["inputs"]), "outputs": json.dumps(record["outputs"])}
    assert [kind for kind, _ in check_row(row)] == ["label"]


# ------------------------------------------------------------------ the memoised oracle
def test_verify_data_asks_the_memoised_oracle(records):
    """``check_row`` asks the memoised oracle: a first check computes (a cache miss), a second is answered
    from the cache (a hit, no new miss). Counted on the cache itself, so other tests' engines do not matter."""
    oracle._cached_solvable.cache_clear()
    record = next(r for r in records if r["outputs"]["current_status"] == SOLVABLE)
    row = {"id": "x", "puzzle": "sudoku", "task": "state_checking", "label": SOLVABLE,
           "inputs": json.dumps(record["inputs"]), "outputs": json.dumps(record["outputs"])}
    assert check_row(row) == []
    first = oracle._cached_solvable.cache_info()
    assert first.misses >= 1
    assert check_row(row) == []
    second = oracle._cached_solvable.cache_info()
    assert second.misses == first.misses and second.hits > first.hits  # answered from the cache, never recomputed
    oracle._cached_solvable.cache_clear()


def test_the_old_oracle_name_warns():
    with pytest.warns(DeprecationWarning, match="oracle_solvable"):
        assert oracle.is_solvable is oracle.oracle_solvable


# ------------------------------------------------------------------ rows and identity
def test_one_row_decoder_names_what_is_wrong():
    with pytest.raises(RowError, match="lacks column"):
        decode_row({"puzzle": "sudoku"})
    with pytest.raises(RowError, match="unknown domain 'chess'"):
        decode_row({"puzzle": "chess", "task": "state_checking", "inputs": "{}", "outputs": "{}"})
    with pytest.raises(RowError, match="inputs is not a JSON object"):
        decode_row({"puzzle": "sudoku", "task": "state_checking", "inputs": "[1]", "outputs": "{}"})
    assert decode_row({"puzzle": "sudoku", "task": "end_to_end", "inputs": {"a": 1}, "outputs": "{}"}).inputs == {"a": 1}


@pytest.mark.parametrize("name", default_names())
def test_split_and_disjointness_check_use_one_identity(name):
    """Every row built from a puzzle has the identity the build's split compared for it, so a
    puzzle in both train and test is caught by GRPO's check exactly as the split sees it."""
    build = pytest.importorskip("finereason.dataset_builders.build")
    test_group = build.run_group(build.Group("test", name, 0, 2, 2, True), 0, "paper", {})
    train_group = build.run_group(build.Group("train", name, 0, 2, 2, False), 0, "paper", {},
                                  source=get_engine(name).source("test", 0, 0, {}))  # the same puzzle, drawn for train
    test_rows = test_group["sc"] + test_group["st"] + [test_group["e2e"]]
    train_rows = train_group["sc"] + train_group["st"]
    assert test_group["key"] is not None and test_group["key"] == train_group["key"]
    assert {row_identity(row) for row in test_rows + train_rows} == {test_group["key"]}
    assert check_disjoint(train_rows, test_rows).overlap == tuple(range(len(train_rows)))
    other = build.run_group(build.Group("test", name, 1, 1, 0, False), 0, "paper", {})
    assert other["key"] != test_group["key"] and check_disjoint(other["sc"], test_rows).clean
