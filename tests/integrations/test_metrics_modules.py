"""The `evaluate` metric modules in metrics/: offline loading, exact agreement with
finereason.verification.scoring.aggregate (the numbers of the lm-eval tasks), dict and JSON-string references,
and clear errors. The numbers themselves are checked against hand-computed tables in
test_metrics_handcomputed.py."""
from __future__ import annotations

import importlib
import importlib.util
import json
import socket
import zlib
from pathlib import Path

import pytest

# `evaluate` imports transformers' pipelines (~2.5 CPU s): imported by the tests that use it, not at collection
pytestmark = pytest.mark.skipif(importlib.util.find_spec("evaluate") is None,
                                reason="the metric modules need the `evaluate` package (pip install '.[eval]')")
pq = pytest.importorskip("pyarrow.parquet", reason="reading the built dataset needs pyarrow")

from finereason.verification.aggregation import metric_names  # noqa: E402
from finereason.models.baselines import oracle, random_answer  # noqa: E402
from finereason.commands import main  # noqa: E402
from finereason.verification.scoring import aggregate, score_row  # noqa: E402

METRICS = Path(__file__).resolve().parents[2] / "metrics"
TASKS = ("state_checking", "state_transition", "end_to_end")
PUZZLES = ("sudoku", "game_of_24")


@pytest.fixture(scope="session")
def rows(tmp_path_factory) -> dict[str, list[dict]]:
    """task -> rows of a tiny build (Sudoku and Game of 24 mixed, in a fixed order)."""
    out = tmp_path_factory.mktemp("metrics-data") / "data"
    code = main(["build", "--out", str(out), "--per-task", "6", "--train-size", "0", "--e2e-size", "2", "--domains", *PUZZLES])
    assert code in (0, None)
    by_task: dict[str, list[dict]] = {}
    for task in TASKS:
        for puzzle in PUZZLES:
            for path in sorted((out / f"{puzzle}_{task}").glob("*.parquet")):
                by_task.setdefault(task, []).extend(pq.read_table(path).to_pylist())
    assert {task: len(v) for task, v in by_task.items()} == {"state_checking": 12, "state_transition": 12, "end_to_end": 4}
    return by_task


@pytest.fixture
def offline(monkeypatch):
    """Offline mode, and a record of every attempt to open a network connection."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_EVALUATE_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setattr(importlib.import_module("evaluate.config"), "HF_EVALUATE_OFFLINE", True)
    attempts: list = []

    def refuse(sock, address, *args, **kwargs):
        attempts.append(address)
        raise OSError(f"network disabled in this test ({address!r})")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    return attempts


def load(task: str, **kwargs):
    return importlib.import_module("evaluate").load(str(METRICS / f"finereason_{task}"), keep_in_memory=True, **kwargs)


def expected(refs: list[dict], preds: list) -> dict[str, float]:
    return {k: v for k, v in aggregate([score_row(r, p) for r, p in zip(refs, preds)]).items() if k != "n"}


ANSWERERS = {
    "oracle": oracle,
    "random": random_answer,
    "garbage": lambda row: "I would rather not say. Next state: ??? Answer: (C)",
    "empty": lambda row: "",
    "mixed": lambda row: oracle(row) if zlib.crc32(row["id"].encode()) % 2 else random_answer(row, seed=3),
}


@pytest.mark.parametrize("task", TASKS)
def test_loads_offline_from_the_folder(task, offline):
    metric = load(task)
    assert isinstance(metric, importlib.import_module("evaluate").Metric)
    assert metric.name == f"finereason_{task}"
    assert metric.task == task
    assert {name: feature.dtype for name, feature in metric.features.items()} == {"predictions": "string", "references": "string"}
    assert "references" in metric.inputs_description and "Returns" in metric.inputs_description
    assert offline == [], f"evaluate.load tried the network: {offline}"


@pytest.mark.parametrize("answerer", sorted(ANSWERERS))
@pytest.mark.parametrize("task", TASKS)
def test_numbers_equal_aggregate_exactly(task, answerer, rows, offline):
    refs = rows[task]
    preds = [ANSWERERS[answerer](r) for r in refs]
    got = load(task).compute(predictions=preds, references=refs)
    want = expected(refs, preds)
    assert got == want
    assert set(got) == set(metric_names(task))
    assert all(type(v) is float for v in got.values())
    assert offline == []


@pytest.mark.parametrize("task", TASKS)
def test_oracle_scores_one_and_garbage_is_all_parse_errors(task, rows, offline):
    refs = rows[task]
    metric = load(task)
    best = metric.compute(predictions=[oracle(r) for r in refs], references=refs)
    assert best["acc"] == 1.0 and best["parse_error_rate"] == 0.0
    if task == "state_checking":
        assert best["f1_unsolvable"] == best["acc_solvable"] == best["acc_unsolvable"] == 1.0
    if task == "state_transition":
        assert best["acc_paper"] == best["rate_correct"] == 1.0
    worst = metric.compute(predictions=["no idea, sorry"] * len(refs), references=refs)
    assert worst["parse_error_rate"] == 1.0 and worst["acc"] == 0.0
    if task == "state_transition":
        assert worst["rate_parse_error"] == 1.0 and worst["acc_paper"] == 0.0
    none = metric.compute(predictions=[None] * len(refs), references=refs)
    assert none == expected(refs, [""] * len(refs)) and none["parse_error_rate"] == 1.0


@pytest.mark.parametrize("task", ("state_checking", "state_transition"))
def test_json_strings_and_incremental_adds_agree_with_dicts(task, rows, offline):
    refs = rows[task]
    preds = [random_answer(r, seed=1) for r in refs]
    want = expected(refs, preds)
    metric = load(task)
    assert metric.compute(predictions=preds, references=[json.dumps(r) for r in refs]) == want
    # only the scoring columns, with inputs/outputs already parsed: re-encoded, same numbers
    slim = [{k: (json.loads(r[k]) if k in ("inputs", "outputs") else r[k]) for k in ("puzzle", "task", "label", "inputs", "outputs")} for r in refs]
    assert metric.compute(predictions=preds, references=slim) == want
    for r, p in zip(refs, preds):
        metric.add(prediction=p, reference=r)
    assert metric.compute() == want
    metric.add_batch(predictions=preds[:5], references=refs[:5])
    metric.add_batch(predictions=preds[5:], references=[metric.encode_reference(r) for r in refs[5:]])
    assert metric.compute() == want


def test_a_datasets_dataset_works_as_references(rows, offline):
    datasets = pytest.importorskip("datasets")
    refs = rows["state_checking"]
    ds = datasets.Dataset.from_list(refs)
    preds = [random_answer(r) for r in refs]
    assert load("state_checking").compute(predictions=preds, references=ds) == expected(refs, preds)


@pytest.mark.parametrize("task", TASKS)
def test_rows_of_another_task_raise(task, rows, offline):
    metric = load(task)
    other = next(t for t in TASKS if t != task)
    bad = rows[other][0]
    for reference in (bad, json.dumps(bad)):
        with pytest.raises(ValueError, match=rf"finereason_{task} scores '{task}' rows.*task '{other}'.*finereason_{other}"):
            metric.compute(predictions=["x", "y"], references=[rows[task][0], reference])
    with pytest.raises(ValueError, match=f"has task '{other}'"):
        metric.add(prediction="x", reference=rows[other][-1])
    # nothing was stored by the failed calls: the module still scores a clean batch
    refs = rows[task]
    preds = [oracle(r) for r in refs]
    assert metric.compute(predictions=preds, references=refs) == expected(refs, preds)


@pytest.mark.parametrize(
    "reference, message",
    [
        ("not json", "not a JSON object"),
        (json.dumps([1, 2]), "dataset row"),
        (7, "dataset row"),
        ({"task": "state_checking", "puzzle": "sudoku"}, "lacks column"),
    ],
)
def test_malformed_references_raise(reference, message, offline):
    with pytest.raises(ValueError, match=message):
        load("state_checking").compute(predictions=["Answer: (A)"], references=[reference])


@pytest.mark.parametrize("column", ["domain", "puzzle"])  # ``puzzle``: the old name, in rows built before the rename
def test_unknown_puzzle_raises(rows, offline, column):
    row = {k: v for k, v in rows["state_checking"][0].items() if k not in ("domain", "puzzle")}
    row[column] = "chess"
    with pytest.raises(ValueError, match="unknown domain 'chess'"):
        load("state_checking").compute(predictions=["Answer: (A)"], references=[row])


def test_modules_are_thin_and_have_cards():
    for task in TASKS:
        folder = METRICS / f"finereason_{task}"
        source = (folder / f"finereason_{task}.py").read_text(encoding="utf-8")
        # the module only declares its task: scoring lives in finereason.integrations.evaluate_metrics / scoring
        assert "metric_modules.FineReasonMetric" in source and f"_TASK = vocabulary.{task.upper()}" in source
        assert "def _compute" not in source
        card = (folder / "README.md").read_text(encoding="utf-8")
        for heading in ("### Inputs", "### Output Values", "### Examples"):
            assert heading in card
        for name in metric_names(task):
            assert f"`{name}`" in card or (name.startswith("rate_") and "`rate_" in card), (task, name)
    assert (METRICS / "README.md").is_file()


@pytest.mark.parametrize("how", ["starts_in_think", "read_context"])
@pytest.mark.parametrize("task", TASKS)
def test_the_reader_contract_corpus_scores_alike_in_both_read_contexts(task, how, offline):
    """The corpus of tests/test_one_reader_contract.py, through the modules under both read contexts:
    the numbers are those of its verdicts, and each answer alone gets its verdict."""
    from test_one_reader_contract import CONTEXTS, corpus, reference

    metric = load(task)
    picked = [i for i, case in enumerate(corpus()) if case.row["task"] == task]
    refs = [corpus()[i].row for i in picked]
    preds = [corpus()[i].text for i in picked]
    for context in CONTEXTS:
        kwargs = {how: context.starts_in_think if how == "starts_in_think" else context.to_dict()}
        scores = [reference(context)[i] for i in picked]
        want = {k: v for k, v in aggregate(scores).items() if k != "n"}
        assert metric.compute(predictions=preds, references=refs, **kwargs) == want, context
        for ref, pred, score in zip(refs, preds, scores):
            assert metric._compute([pred], [metric.encode_reference(ref)], **kwargs)["acc"] == float(score.verdict.correct)
    assert offline == []


def test_a_chat_message_completion_reads_as_in_the_rewards(rows, offline):
    """One ``completion_text``: a chat message whose parsed-out reasoning holds a withdrawn guess and
    whose content holds the answer gets the same verdict from the metric module as from the reward
    (``str()`` of the message would read the reasoning's guess as the final answer)."""
    from finereason.integrations.training.rewards import state_checking_reward
    from finereason.integrations.training.rewards.puzzle import VERDICT_COLUMNS

    row = rows["state_checking"][0]
    right = oracle(row)
    wrong = "Answer: (B)" if "(A)" in right else "Answer: (A)"
    metric = load("state_checking")
    for content, guess, expected_acc in ((right, wrong, 1.0), (wrong, right, 0.0)):
        completion = [{"role": "assistant", "content": content, "reasoning_content": f"First guess. {guess}"}]
        reward = state_checking_reward([completion], **{name: [row[name]] for name in VERDICT_COLUMNS})
        scores = metric.compute(predictions=[completion], references=[row])
        assert reward == [expected_acc]
        assert scores["acc"] == expected_acc
        assert score_row(row, completion).correct is (expected_acc == 1.0)
