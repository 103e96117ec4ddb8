"""verl: ``finereason export verl`` parquet and the ``compute_score`` custom reward.

The exported rows round-trip (each row's own reference answer earns full credit through
``compute_score``, wrong answers earn nothing), the rewards equal the TRL recipe's reward functions on
the same rows and responses, verl's calling conventions are accepted (keywords only, extra keywords, the
batch form, loading by file path, a thread pool), and bad options are one-line errors. The test through
verl's own managers, which needs verl installed, is ``test_verl_env.py``.
"""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pq = pytest.importorskip("pyarrow.parquet")

from finereason.core.engine import engines, get_engine  # noqa: E402
from finereason.core.rows import row_item  # noqa: E402
from finereason.integrations.training.rewards import get_rewards  # noqa: E402
from finereason.integrations.verl import compute_score, compute_score_batch  # noqa: E402
from finereason.integrations.verl.export import export_verl  # noqa: E402
from finereason.models.baselines import random_answer, shallow  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TASKS = [f"{e.name}_{t}" for e in engines() for t in ("state_checking", "state_transition", "end_to_end")]


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> dict[str, list[dict]]:
    out = tmp_path_factory.mktemp("verl") / "data"
    counts = export_verl(TASKS, out, train_size=6, val_size=3, seed=1)
    assert counts == {"train": 6 * len(TASKS), "validation": 3 * len(TASKS)}
    return {name: pq.read_table(out / f"{name}.parquet").to_pylist() for name in ("train", "validation")}


def test_the_rows_have_verls_schema(exported):
    for split, rows in exported.items():
        for row in rows:
            assert set(row) == {"data_source", "prompt", "ability", "reward_model", "extra_info"}
            assert row["data_source"] == f"finereason/{row['extra_info']['dataset']}"
            assert [m["role"] for m in row["prompt"]] == ["user"]
            assert row["reward_model"]["style"] == "rule" and isinstance(row["reward_model"]["ground_truth"], str)
            truth = json.loads(row["reward_model"]["ground_truth"])
            assert truth["task"] == row["extra_info"]["task"] and truth["puzzle"] == row["extra_info"]["puzzle"]
            assert row["extra_info"]["split"] == split
    assert {r["extra_info"]["dataset"] for r in exported["train"]} == set(TASKS)
    # train rows come from the train split's puzzle instances, validation rows from the test split's
    assert all("-train-" in r["extra_info"]["id"] for r in exported["train"])
    assert all("-test-" in r["extra_info"]["id"] for r in exported["validation"])


def _wrong(row: dict) -> str:
    truth = json.loads(row["reward_model"]["ground_truth"])
    if truth["task"] == "state_checking":
        return "Answer: (B)" if "(A)" in truth["answer"] else "Answer: (A)"
    engine = get_engine(truth["puzzle"])
    record = {"inputs": json.loads(truth["inputs"]), "outputs": json.loads(truth["outputs"])}
    if truth["task"] == "state_transition":
        item = engine.item_from_official(record)
        return f"Next state: {engine.render(item.puzzle, item.current)}"
    puzzle = engine.puzzle_from_official(record)
    return f"Answer: {engine.answer_text(puzzle, engine.initial(puzzle))}"


def test_every_row_round_trips_and_wrong_answers_earn_nothing(exported):
    for rows in exported.values():
        for row in rows:
            kwargs = dict(data_source=row["data_source"], ground_truth=row["reward_model"]["ground_truth"],
                          extra_info=row["extra_info"])
            assert compute_score(solution_str=row["extra_info"]["answer"], **kwargs) == {"score": 2.0, "acc": 1.0, "format": 1.0}
            wrong = compute_score(solution_str=_wrong(row), **kwargs)
            assert wrong["acc"] == 0.0 and wrong["score"] == wrong["format"]
            assert compute_score(solution_str="I cannot tell.", **kwargs) == {"score": 0.0, "acc": 0.0, "format": 0.0}
            retracted = row["extra_info"]["answer"] + "\nWait, that is wrong. I retract that answer."
            assert compute_score(solution_str=retracted, **kwargs)["acc"] == 0.0


def test_the_rewards_are_the_trl_recipes(exported):
    trl = dict(zip(("puzzle", "math", "format"), get_rewards(["puzzle", "math", "format"])))
    rows = exported["validation"]
    for n, row in enumerate(rows):
        truth = json.loads(row["reward_model"]["ground_truth"])
        table_row = {k: truth[k] for k in ("task", "puzzle", "label", "inputs", "outputs")}
        for response in (shallow(table_row), random_answer(table_row, n), row["extra_info"]["answer"] * 2, ""):
            columns = {k: [truth[k]] for k in ("task", "puzzle", "label", "inputs", "outputs", "answer")}
            want = {name: f([response], **columns)[0] for name, f in trl.items()}
            got = compute_score(data_source=row["data_source"], solution_str=response,
                                ground_truth=row["reward_model"]["ground_truth"])
            assert got["acc"] == want["puzzle"] and got["format"] == want["format"] and want["math"] is None
            assert got["score"] == want["puzzle"] + want["format"]


def test_partial_credit_and_reward_choice_come_through_reward_kwargs(exported):
    row = next(r for r in exported["validation"] if r["extra_info"]["task"] == "state_transition"
               and json.loads(r["reward_model"]["ground_truth"])["label"] == "Solvable")
    truth = json.loads(row["reward_model"]["ground_truth"])
    item = row_item({k: truth[k] for k in ("puzzle", "inputs", "outputs")})
    assert item.unsolvable_child is not None
    engine = get_engine(truth["puzzle"])
    dead_end = f"Next state: {engine.render(item.puzzle, item.unsolvable_child)}"
    gt = row["reward_model"]["ground_truth"]
    assert compute_score(solution_str=dead_end, ground_truth=gt)["acc"] == 0.0
    credited = compute_score(solution_str=dead_end, ground_truth=gt, partial_credit={"unsolvable_child": 0.5})
    assert credited == {"score": 1.5, "acc": 0.5, "format": 1.0}
    assert compute_score(solution_str=dead_end, ground_truth=gt, rewards=["puzzle"]) == {"score": 0.0, "acc": 0.0, "format": 0.0}


def test_math_rows_use_the_math_reader():
    assert compute_score(data_source="openai/gsm8k", solution_str="So \\boxed{42}.", ground_truth="42")["acc"] == 1.0
    assert compute_score(solution_str="So \\boxed{41}.", ground_truth="42")["acc"] == 0.0
    assert compute_score(solution_str="\\boxed{1/2}", ground_truth=json.dumps({"task": "math", "answer": "0.5"}))["acc"] == 1.0
    # a retracted boxed answer is not credited
    assert compute_score(solution_str="\\boxed{42}\nWait, that is wrong.", ground_truth="42")["acc"] == 0.0


def test_verls_calling_conventions(exported):
    rows = exported["validation"]
    responses = [r["extra_info"]["answer"] if i % 2 else _wrong(r) for i, r in enumerate(rows)]
    singles = [compute_score(data_source=r["data_source"], solution_str=s, ground_truth=r["reward_model"]["ground_truth"],
                             extra_info={**r["extra_info"], "num_turns": None, "rollout_reward_scores": {}},
                             num_turns=2, rollout_reward_scores={}, some_future_key=object())
               for r, s in zip(rows, responses)]
    batch = compute_score_batch(data_sources=[r["data_source"] for r in rows], solution_strs=responses,
                                ground_truths=[r["reward_model"]["ground_truth"] for r in rows],
                                extra_infos=[r["extra_info"] for r in rows], unknown_option=1)
    assert batch == singles
    assert [s["acc"] for s in singles] == [float(i % 2) for i in range(len(rows))]
    with ThreadPoolExecutor(8) as pool:  # verl's reward-loop manager scores in a thread pool
        threaded = list(pool.map(lambda rs: compute_score(solution_str=rs[1], ground_truth=rs[0]["reward_model"]["ground_truth"]),
                                 zip(rows * 4, responses * 4)))
    assert threaded == singles * 4
    # verl loads the function from a file path under a module name of its own
    spec = importlib.util.spec_from_file_location("custom_module", ROOT / "finereason/integrations/verl/__init__.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.compute_score(solution_str=responses[1], ground_truth=rows[1]["reward_model"]["ground_truth"]) == singles[1]


@pytest.mark.parametrize("argv, words", [
    (["--tasks", "sudoku_state_chekcing"], "did you mean sudoku_state_checking"),
    (["--tasks", "composite"], "not 'composite'"),
    (["--tasks", "sudoku_end_to_end", "sudoku_end_to_end"], "twice"),
    (["--tasks", "sudoku_end_to_end", "--train-size", "-1"], "--train-size must be an integer >= 0"),
])
def test_export_errors_are_one_line(argv, words, tmp_path):
    run = subprocess.run([sys.executable, "-m", "finereason", "export", "verl", *argv, "--out", str(tmp_path / "o")],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 2 and words in run.stderr and len(run.stderr.strip().splitlines()) == 1, run.stderr
    assert not (tmp_path / "o").exists()


def test_export_refuses_a_non_empty_folder(tmp_path):
    (tmp_path / "keep.txt").write_text("x")
    run = subprocess.run([sys.executable, "-m", "finereason", "export", "verl", "--tasks", "game_of_24_end_to_end",
                          "--out", str(tmp_path)], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 2 and "not an empty folder" in run.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]
