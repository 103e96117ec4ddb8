"""LLM-as-verifier tasks: candidates, the verdict and critique reader, metrics, and one lm-eval run.

Metric values are hand-computed from small lists of judgements; the truth of every candidate is
re-checked with the sound verifier; the sound verifier used as a verifier model scores 100% with no
false positives or negatives, and a model that always says "correct" accepts every wrong candidate.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from finereason.core.engine import default_names, get_engine
from finereason.core.rows import row_puzzle
from finereason.verification.verifiers import verify_end_to_end
from finereason.verification.llm_verifier import KINDS, VERIFY_METRICS, VERIFY_REQUEST, VerifyScore, candidates, names_error, oracle_verdict, score_verify, summarize_verify, verify_configs, verify_docs

pytest.importorskip("pyarrow")

DOMAINS = tuple(default_names())  # the domains the shared e2e_dataset build holds


@pytest.fixture(scope="session")
def data(e2e_dataset) -> Path:
    """A small built data folder (DOMAINS): 3 end-to-end instances each."""
    return e2e_dataset


def rows_of(data: Path, domain: str) -> list[dict]:
    from finereason.data.folder import open_data_folder

    return open_data_folder(data).read_table(f"{domain}_end_to_end").to_pylist()


# ------------------------------------------------------------------ candidates
@pytest.mark.parametrize("domain", DOMAINS)
def test_candidates_are_deterministic_and_labelled_by_the_sound_verifier(data, domain):
    rows = rows_of(data, domain)
    docs = verify_docs(rows, seed=3)
    assert docs == verify_docs(rows, seed=3)
    assert [d["kind"] for d in docs] == list(KINDS) * len(rows)  # every built-in domain makes every kind
    engine = get_engine(domain)
    for doc in docs:
        verdict = verify_end_to_end(engine, row_puzzle(doc), f"Answer: {doc['candidate']}")
        assert doc["candidate_correct"] is verdict.correct
        assert json.loads(doc["candidate_reasons"]) == list(verdict.reasons)
        assert doc["prompt"].startswith(VERIFY_REQUEST) and doc["candidate"] in doc["prompt"]
        assert doc["kind"] != "correct" or doc["candidate_correct"]
    wrong = [d for d in docs if d["kind"] in ("broken", "ablated")]
    assert wrong and not any(d["candidate_correct"] for d in wrong)
    assert {d["id"] for d in docs} == {f"{r['id']}/{k}" for r in rows for k in KINDS}
    assert any(a["candidate"] != b["candidate"] for a, b in zip(docs, verify_docs(rows, seed=4)))


def test_unknown_kind_is_refused(data):
    with pytest.raises(ValueError, match="unknown candidate kind"):
        candidates(rows_of(data, "sudoku")[0], kinds=("swapped",))


def test_model_candidates_from_answers(data):
    rows = rows_of(data, "game_of_24")
    docs = verify_docs(rows[:1], 0, {str(rows[0]["id"]): "I think (1 + 1) works.\nAnswer: 1 + 1"})
    model = [d for d in docs if d["kind"] == "model"]
    assert len(model) == 1 and model[0]["candidate_correct"] is False


# ------------------------------------------------------------------ baselines as verifiers
@pytest.mark.parametrize("domain", DOMAINS)
def test_oracle_verifier_is_perfect_and_always_correct_accepts_every_wrong_candidate(data, domain):
    docs = verify_docs(rows_of(data, domain))
    oracle = summarize_verify(score_verify(d, oracle_verdict(d)) for d in docs)
    assert oracle == {"acc": 1.0, "false_positive_rate": 0.0, "false_negative_rate": 0.0, "critique_precision": 1.0,
                      "no_verdict_rate": 0.0}
    yes = summarize_verify(score_verify(d, "Looks fine.\nVerdict: correct") for d in docs)
    right = sum(d["candidate_correct"] for d in docs)
    assert yes["false_positive_rate"] == 1.0 and yes["false_negative_rate"] == 0.0
    assert yes["acc"] == right / len(docs)
    no = summarize_verify(score_verify(d, "Verdict: incorrect") for d in docs)
    assert no["false_negative_rate"] == 1.0 and no["false_positive_rate"] == 0.0 and no["critique_precision"] == 0.0


# ------------------------------------------------------------------ reading verdicts and critiques
def test_verdict_reader_gives_no_credit_for_unclear_answers():
    doc = {"candidate_correct": True, "candidate_reasons": "[]"}
    for text in ("It is correct.", "<think>Verdict: correct", "", None, "Verdict: maybe"):
        assert score_verify(doc, text) == VerifyScore(True, None, None)  # type: ignore[arg-type]
    assert score_verify(doc, "Verdict: incorrect?? Verdict: correct").accepted is True
    assert score_verify(doc, "<think>Verdict: incorrect</think>Verdict: correct").accepted is True


def test_critique_must_name_an_existing_error():
    reasons = ["row 3 has two 7s", "vertices 4 and 9 share color 2"]
    assert names_error("There are two 7s in row 3. Verdict: incorrect", reasons)
    assert names_error("Vertex 4 and vertex 9 both have color 2", reasons)
    assert not names_error("Row 4 has two 7s", reasons)
    assert not names_error("Vertices 4 and 9 clash", reasons)
    assert not names_error(", ".join(map(str, range(100))), reasons)  # listing every number names nothing
    assert not names_error("x" * 400 + " row 3 7", reasons)  # over-long sentence
    assert not names_error("row 3 has two 7s", ["the answer is not a valid solution"])
    doc = {"candidate_correct": False, "candidate_reasons": json.dumps(reasons)}
    assert score_verify(doc, "Row 3 repeats 7.\nVerdict: incorrect") == VerifyScore(False, False, True)
    assert score_verify(doc, "Row 1 repeats 5.\nVerdict: incorrect") == VerifyScore(False, False, False)
    assert score_verify(doc, "Verdict: correct") == VerifyScore(False, True, None)


def test_metrics_hand_computed():
    scores = [VerifyScore(True, True, None), VerifyScore(True, False, None), VerifyScore(True, None, None),
              VerifyScore(False, True, None), VerifyScore(False, False, True), VerifyScore(False, False, False),
              VerifyScore(False, None, None)]
    m = summarize_verify(scores)
    assert m == {"acc": 3 / 7, "false_positive_rate": 1 / 4, "false_negative_rate": 2 / 3, "critique_precision": 1 / 2,
                 "no_verdict_rate": 2 / 7}
    assert summarize_verify([s.as_tuple() for s in scores]) == m
    assert set(summarize_verify([])) == set(VERIFY_METRICS)


def test_task_files_are_generated_for_every_domain():
    from finereason.core.engine import engines
    from finereason.lm_eval_tasks.generate_configs import check_configs, render_configs

    files = verify_configs(engines())
    for engine in engines():
        assert f"finereason_verify_{engine.name}.yaml" in files
    assert set(files) <= set(render_configs())
    assert check_configs() == []  # the shipped folder holds them


# ------------------------------------------------------------------ through lm-eval
def test_lm_eval_verify_task_with_a_replayed_oracle(data, tmp_path, monkeypatch):
    pytest.importorskip("lm_eval")
    from finereason.commands import main
    from finereason.integrations.lm_eval.models import our_tasks_only

    monkeypatch.setenv("FINEREASON_DATA_DIR", str(data))
    docs = verify_docs(rows_of(data, "graph_coloring"))
    replay = tmp_path / "replay.jsonl"
    # the oracle's verdicts, except that the first wrong candidate is wrongly accepted
    first_wrong = next(d["id"] for d in docs if not d["candidate_correct"])
    replay.write_text("".join(json.dumps({"id": d["id"], "response": "Verdict: correct" if d["id"] == first_wrong
                                          else oracle_verdict(d)}) + "\n" for d in docs), encoding="utf-8")
    out = tmp_path / "out"
    with our_tasks_only():
        assert main(["eval", "--model", "finereason-replay", "--model_args", f"path={replay}", "--tasks",
                     "finereason_verify_graph_coloring", "--limit", "8", "--output_path", str(out)]) == 0
    result = json.loads(sorted(out.rglob("results_*.json"))[-1].read_text())["results"]["finereason_verify_graph_coloring"]
    wrong = sum(not d["candidate_correct"] for d in docs[:8])
    assert result["acc,none"] == 7 / 8
    assert result["false_positive_rate,none"] == 1 / wrong
    assert result["false_negative_rate,none"] == 0.0
    assert result["critique_precision,none"] == 1.0


@pytest.mark.parametrize("domain", DOMAINS)
def test_baseline_models_answer_verify_documents(data, domain):
    """The baselines behind finereason-oracle/-random/-shallow take verify documents: the oracle is the
    sound verifier (perfect), the shallow one accepts any complete-looking candidate that breaks no rule
    (so it never rejects a correct one), random is a seeded coin."""
    from finereason.models.baselines import oracle, random_answer, shallow

    docs = verify_docs(rows_of(data, domain), seed=2)
    perfect = summarize_verify([score_verify(d, oracle(d)) for d in docs])
    assert perfect["acc"] == 1.0 and perfect["false_positive_rate"] == perfect["false_negative_rate"] == 0.0
    lenient = summarize_verify([score_verify(d, shallow(d)) for d in docs])
    assert lenient["false_negative_rate"] == 0.0
    coin = [random_answer(d, seed=1) for d in docs]
    assert coin == [random_answer(d, seed=1) for d in docs]
    assert set(coin) <= {"Verdict: correct", "Verdict: incorrect"}


# ------------------------------------------------------------------ the run's read context
def _solution_response(row: dict, think: str) -> str:
    """A model response holding the right solution of ``row`` after some reasoning (``think``)."""
    engine, puzzle = get_engine(row["puzzle"]), row_puzzle(row)
    return f"{think}\n\nAnswer: {engine.answer_text(puzzle, engine.solve(puzzle))}"


def test_model_candidates_are_read_in_the_runs_context(data):
    """A ``candidates`` answer is read in the run's read context: without ``</think>`` it is no solution
    when the prompts opened ``<think>``, the right solution otherwise; after ``</think>`` it is right in
    both; the made candidates read the same in every context."""
    from finereason.reading import ReadContext

    rows = rows_of(data, "game_of_24")[:2]
    answers = {str(rows[0]["id"]): _solution_response(rows[0], "Let me think."),
               str(rows[1]["id"]): _solution_response(rows[1], "Let me think.\n</think>")}
    truth = {}
    for context in (None, ReadContext(), ReadContext(starts_in_think=True)):
        docs = verify_docs(rows, 0, answers, context=context)
        truth[context] = [d["candidate_correct"] for d in docs if d["kind"] == "model"]
        made = [(d["id"], d["candidate_correct"]) for d in docs if d["kind"] != "model"]
        assert made == [(d["id"], d["candidate_correct"]) for d in verify_docs(rows, 0) if d["kind"] != "model"]
    assert truth[None] == truth[ReadContext()] == [True, True]
    assert truth[ReadContext(starts_in_think=True)] == [False, True]


def test_verify_task_reads_its_candidates_file_in_the_runs_context(data, tmp_path, monkeypatch):
    """The lm-eval verify task (``--metadata '{"candidates": ..., "starts_in_think": true}'``) labels its
    model candidates in the run's read context, the one it records."""
    pytest.importorskip("lm_eval")
    datasets = pytest.importorskip("datasets")
    import importlib.util
    import sys
    from types import SimpleNamespace

    path = Path(__file__).resolve().parents[2] / "lm_eval_tasks" / "finereason" / "verify_utils.py"
    spec = importlib.util.spec_from_file_location("_verify_context_hooks", path)
    hooks = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = hooks
    spec.loader.exec_module(hooks)
    rows = rows_of(data, "game_of_24")[:1]
    answers = tmp_path / "answers.jsonl"
    answers.write_text(json.dumps({"id": rows[0]["id"], "response": _solution_response(rows[0], "Let me think.")}) + "\n")
    monkeypatch.setattr(hooks, "load_config_with_source", lambda config: (
        datasets.DatasetDict({"test": datasets.Dataset.from_list(rows)}), SimpleNamespace(repo=None, path="local"), {}))
    for flag, want in ((False, True), (True, False)):
        task = hooks.VerifyTask.__new__(hooks.VerifyTask)
        task._config = SimpleNamespace(metadata={"candidates": str(answers), "starts_in_think": flag},
                                       dataset_name="game_of_24_end_to_end", dataset_path=None)
        task.download({"config": "game_of_24_end_to_end"})
        model = [d for d in task.dataset["test"] if d["kind"] == "model"]
        assert [d["candidate_correct"] for d in model] == [want], flag
        assert task.config.metadata["read_context"]["starts_in_think"] is flag
