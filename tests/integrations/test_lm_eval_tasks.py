"""The lm-eval tasks through the harness itself: every task and group, baselines, replay, hostile text."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import shared_path
from finereason.commands import main

pytest.importorskip("lm_eval")
pytest.importorskip("datasets")

PUZZLES = ("sudoku", "graph_coloring", "game_of_24", "grid_puzzle")
TASKS = ("state_checking", "state_transition", "end_to_end")
GROUPS = ("finereason", "finereason_state_checking", "finereason_state_transition", "finereason_end_to_end", "finereason_official")


@pytest.fixture(scope="session")
def data_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("lmeval") / "ds"
    assert main(["build", "--out", str(out), "--per-task", "12", "--train-size", "0", "--e2e-size", "3"]) == 0
    # adding the official configs to a built folder: --overwrite replaces only official_* configs
    assert main(["import-official", "--src", str(shared_path("finereason_official")), "--out", str(out), "--overwrite"]) == 0
    return out


@pytest.fixture
def env(data_dir, monkeypatch):
    monkeypatch.setenv("FINEREASON_DATA_DIR", str(data_dir))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    return data_dir


def run_eval(tmp_path: Path, model: str, tasks: str, *extra: str) -> dict:
    from finereason.integrations.lm_eval.models import our_tasks_only

    out = tmp_path / model
    with our_tasks_only():  # skip indexing lm-eval's own task files (about 15 s a run)
        code = main(["eval", "--model", model, "--tasks", tasks, "--output_path", str(out), "--log_samples", *extra])
    assert code == 0
    results = sorted(out.rglob("results_*.json"))
    assert results, "lm-eval wrote no results"
    return json.loads(results[-1].read_text())


def test_task_folder_lists_every_task_and_group():
    """The folder alone (as `finereason eval` indexes it for our tasks; plain `lm_eval --include_path`
    adds lm-eval's built-in tasks, run by the README's example)."""
    from lm_eval.tasks import TaskManager

    from finereason.integrations.lm_eval.cli import tasks_dir

    manager = TaskManager(include_defaults=False, include_path=str(tasks_dir()))
    names = set(manager.all_tasks)
    for prefix in ("", "official_"):
        for puzzle in PUZZLES:
            for task in TASKS:
                assert f"finereason_{prefix}{puzzle}_{task}" in names
    assert set(GROUPS) <= names


def test_oracle_scores_one_on_every_task_and_group(env, tmp_path):
    results = run_eval(tmp_path, "finereason-oracle", ",".join(GROUPS[:1] + GROUPS[3:]), "--limit", "12")
    scored = results["results"]
    assert {f"finereason_{p}_{t}" for p in PUZZLES for t in TASKS} <= set(scored)
    for name, metrics in scored.items():
        assert metrics["acc,none"] == 1.0, name
        if "f1_unsolvable,none" in metrics:
            assert metrics["f1_unsolvable,none"] == 1.0 and metrics["parse_error_rate,none"] == 0.0
        if "acc_paper,none" in metrics:
            assert metrics["acc_paper,none"] == 1.0 and metrics["rate_correct,none"] == 1.0


def choice_accuracy(rows: list[dict], answer) -> float:
    """The share of rows whose (A)/(B) answer names the stored label, read off the answer text."""
    right = sum(("(A)" in answer(r)) == (r["label"] == "Solvable") for r in rows)
    assert all(answer(r).count("(A)") + answer(r).count("(B)") == 1 for r in rows)
    return right / len(rows)


def test_random_and_shallow_baselines(env, tmp_path):
    from finereason.models.baselines import random_answer, shallow
    from finereason.dataset_builders.layout import read_config

    random_sc = run_eval(tmp_path, "finereason-random", "finereason_state_checking")["results"]
    shallow_sc = run_eval(tmp_path, "finereason-shallow", "finereason_state_checking,finereason_state_transition")["results"]
    for puzzle in PUZZLES:
        rows = read_config(env, f"{puzzle}_state_checking")
        # the seeded coin (seed 0) and the shallow rule, scored by hand against the stored labels
        assert random_sc[f"finereason_{puzzle}_state_checking"]["acc,none"] == pytest.approx(choice_accuracy(rows, random_answer))
        assert shallow_sc[f"finereason_{puzzle}_state_checking"]["acc,none"] == pytest.approx(choice_accuracy(rows, shallow))
    for puzzle in ("sudoku", "graph_coloring", "game_of_24"):
        # no state of these breaks a rule (moves are rule-valid), so the shallow model calls each solvable;
        # a grid state can already violate a clue other than the one applied, which the shallow model sees
        assert shallow_sc[f"finereason_{puzzle}_state_checking"]["recall_unsolvable,none"] == 0.0


def test_replay_reproduces_finereason_score(env, tmp_path):
    from finereason.models.baselines import random_answer
    from finereason.dataset_builders.layout import read_config

    config = "sudoku_state_transition"
    rows = read_config(env, config)
    responses = tmp_path / "responses.jsonl"
    responses.write_text("".join(json.dumps({"id": r["id"], "response": random_answer(r, 3)}) + "\n" for r in rows))
    results = run_eval(tmp_path, "finereason-replay", f"finereason_{config}", "--model_args", f"path={responses}")
    harness = results["results"][f"finereason_{config}"]
    scored = tmp_path / "scored.jsonl"
    assert main(["score", "--data", str(env), "--config", config, "--responses", str(responses), "--out", str(scored)]) == 0
    lines = [json.loads(line) for line in scored.read_text().splitlines()]
    assert harness["acc,none"] == pytest.approx(sum(x["correct"] for x in lines) / len(lines))
    assert harness["acc_paper,none"] == pytest.approx(sum(x["correct_paper"] for x in lines) / len(lines))
    for category in ("sibling", "invalid_move", "backtracking_failure", "unsolvable_child", "multiple_moves"):
        assert harness[f"rate_{category},none"] == pytest.approx(sum(x["category"] == category for x in lines) / len(lines))


def test_replay_refuses_ids_it_has_no_response_for(env, tmp_path, capsys):
    """A request whose id the replay file lacks is an error (exit 2, one line naming the first missing
    ids), never an empty answer scored as a parse error."""
    from finereason.integrations.lm_eval.models import our_tasks_only
    from finereason.dataset_builders.layout import read_config

    config = "sudoku_state_checking"
    rows = read_config(env, config)
    responses = tmp_path / "partial.jsonl"
    responses.write_text("".join(json.dumps({"id": r["id"], "response": "Answer: (A)"}) + "\n" for r in rows[2:]))
    with our_tasks_only():
        code = main(["eval", "--model", "finereason-replay", "--tasks", f"finereason_{config}", "--model_args",
                     f"path={responses}", "--output_path", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and not list((tmp_path / "out").rglob("results_*.json"))
    assert err[-1].startswith("finereason: error:") and "2 of" in err[-1], err[-1]
    assert rows[0]["id"] in err[-1] and rows[1]["id"] in err[-1] and str(responses) in err[-1]


def test_hostile_responses_never_crash_a_run(env, tmp_path):
    from hostile import hostile_responses

    from finereason.dataset_builders.layout import read_config

    texts = list(hostile_responses().values())
    lines = []
    for config in ("grid_puzzle_state_transition", "game_of_24_state_checking", "sudoku_end_to_end"):
        for i, row in enumerate(read_config(env, config)):
            lines.append({"id": row["id"], "response": texts[i % len(texts)]})
    responses = tmp_path / "hostile.jsonl"
    responses.write_text("".join(json.dumps(x) + "\n" for x in lines))
    tasks = "finereason_grid_puzzle_state_transition,finereason_game_of_24_state_checking,finereason_sudoku_end_to_end"
    results = run_eval(tmp_path, "finereason-replay", tasks, "--model_args", f"path={responses}")["results"]
    assert results["finereason_grid_puzzle_state_transition"]["acc,none"] == 0.0
    assert results["finereason_sudoku_end_to_end"]["acc,none"] == 0.0


def test_eval_wrapper_errors(tmp_path, capsys):
    assert main(["eval", "--model", "finereason-replay", "--tasks", "finereason_sudoku_state_checking",
                 "--model_args", f"path={tmp_path / 'missing.jsonl'}"]) != 0


def test_starts_in_think_metadata_grades_unfinished_reasoning(env, tmp_path):
    """`--metadata '{"starts_in_think": true}'`: a response with no </think> is unfinished (no credit)."""
    from finereason.models.baselines import oracle as oracle_answer
    from finereason.dataset_builders.layout import read_config

    config = "sudoku_state_checking"
    rows = read_config(env, config)
    plain = tmp_path / "plain.jsonl"
    plain.write_text("".join(json.dumps({"id": r["id"], "response": oracle_answer(r)}) + "\n" for r in rows))
    closed = tmp_path / "closed.jsonl"
    closed.write_text("".join(json.dumps({"id": r["id"], "response": "Checked.</think>\n" + oracle_answer(r)}) + "\n"
                              for r in rows))
    task = f"finereason_{config}"
    meta = ["--metadata", json.dumps({"starts_in_think": True})]
    assert run_eval(tmp_path / "a", "finereason-replay", task, "--model_args", f"path={plain}")["results"][task]["acc,none"] == 1.0
    whole = run_eval(tmp_path / "b", "finereason-replay", task, "--model_args", f"path={plain}", *meta)
    unfinished = whole["results"][task]
    assert unfinished["acc,none"] == 0.0 and unfinished["parse_error_rate,none"] == 1.0
    assert run_eval(tmp_path / "c", "finereason-replay", task, "--model_args", f"path={closed}", *meta)["results"][task]["acc,none"] == 1.0
    # the context is recorded in the results, and re-scoring the logged samples (reports, the board) honours it
    from finereason.integrations.report.results import load_models, load_samples
    from finereason.reading import ReadContext, read_context_of

    assert whole["configs"][task]["metadata"]["read_context"] == ReadContext(True).to_dict()
    assert read_context_of(whole) == ReadContext(True)
    for folder, credited in (("a", 1.0), ("b", 0.0)):
        (model,), _ = load_models([tmp_path / folder])
        scores = load_samples(model.tasks[task])
        assert len(scores) == len(rows) and all(s.verdict.correct == bool(credited) for _, s in scores), folder
