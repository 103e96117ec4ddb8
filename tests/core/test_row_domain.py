"""One reader of a row's domain: ``core.rows.row_domain`` reads the ``domain`` column and falls back to
``puzzle``, its old name. A row written before the rename (only ``puzzle``) and a row written after it
(only ``domain``) read the same on every path: scoring, lm-eval's ``process_results``, the rewards,
``rescore`` of lm-eval samples, verl's reward and the ``evaluate`` modules' references. A scan of the
package keeps every direct read of the column inside ``core/rows.py``.
"""
from __future__ import annotations

import ast
import importlib.util
import json
from pathlib import Path

import pytest

from finereason.common.vocabulary import TASKS
from finereason.core.rows import RowError, column_domains, decode_row, has_domain_column, row_domain, with_domain

REPO = Path(__file__).resolve().parents[2]
ROOTS = ("finereason", "dataset_builders", "trainers", "lm_eval_tasks", "metrics", "hub_cards", "benchmarks")
HOME = "finereason/core/rows.py"  # the one reader of the column
OLD = "puzzle"


# ------------------------------------------------------------------ the accessor
def test_row_domain_reads_domain_then_its_old_name():
    assert row_domain({"domain": "sudoku"}) == "sudoku"
    assert row_domain({"puzzle": "sudoku"}) == "sudoku"  # a row built before the rename
    assert row_domain({"domain": "sudoku", "puzzle": "sudoku"}) == "sudoku"  # the deprecated duplicate
    assert row_domain({"domain": None, "puzzle": "sudoku"}) == "sudoku"  # a mix's column, null on this row
    assert row_domain({"task": "math", "domain": None}, None) is None  # math rows of a training mix have none


@pytest.mark.parametrize("row, message", [
    ({"task": "state_checking"}, r"row has no domain: it needs a 'domain' column \(or 'puzzle', its old name\)"),
    ({"domain": None, "puzzle": None}, "row has no domain"),
    ({"domain": "sudoku", "puzzle": "game_of_24"}, r"'domain' \('sudoku'\) and 'puzzle' .* disagree"),
    (["sudoku"], "must be a dataset row"),
])
def test_a_row_without_one_domain_is_a_clear_error(row, message):
    with pytest.raises(RowError, match=message):
        row_domain(row)
    with pytest.raises(RowError, match=message):
        decode_row(row if isinstance(row, list) else {**row, "task": "state_checking", "inputs": "{}", "outputs": "{}"})


def test_column_helpers_fall_back_row_by_row():
    assert column_domains({"domain": ["sudoku", None], "puzzle": [None, "game_of_24"]}, 2) == ["sudoku", "game_of_24"]
    assert column_domains({"puzzle": ["sudoku"]}, 1) == ["sudoku"]
    assert column_domains({"task": ["math"]}, 1) == [None]
    assert has_domain_column({"domain", "task"}) and has_domain_column(["puzzle"]) and not has_domain_column({"task"})
    assert with_domain({"id": "a", "puzzle": "sudoku"}) == {"id": "a", "puzzle": "sudoku", "domain": "sudoku"}
    assert with_domain({"id": "m", "task": "math"}) == {"id": "m", "task": "math"}


# ------------------------------------------------------------------ old and new rows read alike everywhere
@pytest.fixture(scope="module")
def built_rows(small_dataset) -> list[dict]:
    """A few rows of every built config (each has ``domain`` and its deprecated duplicate ``puzzle``)."""
    import pyarrow.parquet as pq

    rows = []
    for path in sorted(small_dataset.glob("*/test-*.parquet")):
        rows += pq.read_table(path).to_pylist()[:2]
    assert {r["task"] for r in rows} == set(TASKS)
    assert all(r["domain"] == r[OLD] and path_config(r) for r in rows)
    return rows


def path_config(row: dict) -> str:
    return f"{row['domain']}_{row['task']}"


def old_and_new(row: dict) -> tuple[dict, dict]:
    """The row as written before the rename (only ``puzzle``) and without the duplicate (only ``domain``)."""
    old = {k: v for k, v in row.items() if k != "domain"}
    new = {k: v for k, v in row.items() if k != OLD}
    return old, new


def answers(row: dict) -> list[str]:
    from finereason.models.baselines import oracle

    return [oracle(row), "Answer: (B)", "Next state: [1, 2]", "no answer"]


def test_scoring_reads_old_and_new_rows_alike(built_rows):
    from finereason.verification.scoring import score_row

    correct = 0
    for row in built_rows:
        old, new = old_and_new(row)
        for text in answers(row):
            assert score_row(old, text) == score_row(new, text) == score_row(row, text), path_config(row)
        correct += score_row(old, answers(row)[0]).correct
    assert correct == len(built_rows)  # the oracle's answer is right on every row, read through either column


def test_lm_eval_process_results_reads_old_and_new_rows_alike(built_rows):
    from finereason.lm_eval_tasks.generate_configs import TASK_FOLDER

    spec = importlib.util.spec_from_file_location("_row_domain_utils", TASK_FOLDER / "utils.py")
    utils = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(utils)
    for row in built_rows:
        old, new = old_and_new(row)
        for text in answers(row)[:2]:
            assert utils.process_results(old, [text]) == utils.process_results(new, [text]), path_config(row)


def test_rewards_read_old_and_new_columns_alike(built_rows):
    from finereason.integrations.training.rewards import get_rewards

    names = ["puzzle", "format", "state_checking", "end_to_end"]
    completions = [answers(row)[0] for row in built_rows]
    columns = {c: [r.get(c) for r in built_rows] for c in ("task", "label", "inputs", "outputs")}
    for name, reward in zip(names, get_rewards(names)):
        old = reward(completions, **columns, puzzle=[r[OLD] for r in built_rows])
        new = reward(completions, **columns, domain=[r["domain"] for r in built_rows])
        assert old == new, name
        assert any(v is not None for v in new), name
    assert get_rewards(["puzzle"])[0](completions, **columns, puzzle=[r[OLD] for r in built_rows]) == [1.0] * len(built_rows)


def test_verl_reward_reads_old_and_new_ground_truths_alike(built_rows):
    from finereason.integrations.verl import compute_score

    for row in built_rows:
        old, new = old_and_new(row)
        text = answers(row)[0]
        truth = {k: row[k] for k in ("task", "label", "inputs", "outputs")}
        scores = [compute_score("finereason/x", text, json.dumps({**truth, **{k: r[k] for k in ("domain", OLD) if k in r}}))
                  for r in (old, new)]
        assert scores[0] == scores[1] and scores[0]["acc"] == 1.0, path_config(row)


def test_rescore_reads_old_and_new_samples_alike(built_rows, tmp_path):
    from finereason.workflows.rescore.lm_eval_samples import read

    outcomes = []
    for kind in (0, 1):
        folder = tmp_path / f"org__model{kind}"
        folder.mkdir()
        path = folder / "samples_finereason_mixed_2026-01-02T03-04-05.678901.jsonl"
        lines = [{"doc_id": i, "doc": old_and_new(row)[kind], "filter": "none", "resps": [[text]], "filtered_resps": [text]}
                 for i, row in enumerate(built_rows) for text in answers(row)[:2]]
        path.write_text("".join(json.dumps(x) + "\n" for x in lines))
        outcomes.append([(r.sound, r.reason, r.answered, r.span) for r in read([str(path)], None, lambda it, total, desc: it)])
    assert outcomes[0] == outcomes[1] and len(outcomes[0]) == 2 * len(built_rows)
    assert sum(o[0] for o in outcomes[0]) >= len(built_rows)  # every oracle answer is sound


def test_evaluate_references_read_old_and_new_rows_alike(built_rows):
    pytest.importorskip("evaluate")
    from finereason.integrations.evaluate_metrics import encode_reference

    for row in built_rows:
        old, new = old_and_new(row)
        assert json.loads(encode_reference(old, row["task"])) == json.loads(encode_reference(new, row["task"]))
        assert json.loads(encode_reference(new, row["task"]))["domain"] == row["domain"]


# ------------------------------------------------------------------ writers write ``domain``
def test_rl_entries_and_verl_rows_write_domain_and_its_old_name():
    from finereason.integrations.rl import create_dataset
    from finereason.integrations.verl.export import verl_row

    entry = create_dataset("game_of_24_state_checking", size=1, seed=3)[0]
    meta = entry["metadata"]
    assert meta["domain"] == meta[OLD] == meta["row"]["domain"] == "game_of_24"
    row = verl_row(entry, "game_of_24_state_checking", "train", 0)
    truth = json.loads(row["reward_model"]["ground_truth"])
    assert truth["domain"] == truth[OLD] == row["extra_info"]["domain"] == row["extra_info"][OLD] == "game_of_24"


# ------------------------------------------------------------------ one place
def direct_reads(tree: ast.AST) -> list[int]:
    """Lines that read the old column by name: ``x["puzzle"]``, ``x.get("puzzle")``, ``"puzzle" in x``."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value == OLD:
            if isinstance(node.ctx, ast.Load):
                lines.append(node.lineno)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("get", "pop")
              and node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value == OLD):
            lines.append(node.lineno)
        elif (isinstance(node, ast.Compare) and isinstance(node.left, ast.Constant) and node.left.value == OLD
              and any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops)):
            lines.append(node.lineno)
    return lines


def test_the_scan_sees_each_way_of_reading_the_column():
    code = 'a = row["puzzle"]\nb = row.get("puzzle")\nc = "puzzle" in row\nrow["puzzle"] = 1\nd = row["domain"]\n'
    assert direct_reads(ast.parse(code)) == [1, 2, 3]


# Reads of a *different* ``puzzle`` key: a reasoning-gym entry's metadata, a Sudoku CSV, a leaderboard filter's form
# field, a benchmark's reward curve. None of them is a dataset row's domain column.
NOT_THE_COLUMN = {
    "finereason/domains/graph_coloring/domain.py",  # reasoning-gym's graph_coloring metadata["puzzle"]
    "finereason/domains/sudoku/domain.py",  # reasoning-gym's sudoku metadata["puzzle"]
    "finereason/domains/sudoku/source.py",  # the ``puzzle`` column of a Kaggle-style Sudoku CSV
    "hub_cards/leaderboard/app.py",  # the leaderboard form's ``puzzle`` filter
    "benchmarks/bench_grpo_learning.py",  # the ``puzzle`` reward's curve
}


def test_only_core_rows_reads_the_old_column():
    found = []
    for root in ROOTS:
        for path in sorted((REPO / root).rglob("*.py")):
            rel = path.relative_to(REPO).as_posix()
            if "__pycache__" in rel or rel == HOME or rel in NOT_THE_COLUMN:
                continue
            found += [f"{rel}:{line}" for line in direct_reads(ast.parse(path.read_text(encoding="utf-8")))]
    assert not found, f"read a row's domain with finereason.core.rows.row_domain, not by the column name: {found}"
    assert direct_reads(ast.parse((REPO / HOME).read_text(encoding="utf-8"))) == []  # even there: through LEGACY_DOMAIN
