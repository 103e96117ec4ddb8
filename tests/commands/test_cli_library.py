"""The library behind the command line, called directly: every ``finereason`` subcommand with logic
(score, check-official, label, plan-check, baselines) is a thin wrapper over these functions."""
from __future__ import annotations

import ast
import csv
import json
import os
from collections import Counter
from pathlib import Path

import pytest

from conftest import read_jsonl, shared_path
from finereason.core.engine import default_names, get_engine, official_names
from finereason.common.input_errors import InputError
from finereason.data.official_check import check_official, check_states_file
from finereason.data.official_files import OfficialDataError
from finereason.planning.check_file import check_plans, plan_counts, read_plan_requests
from finereason.verification.score_responses import config_metrics, official_metrics, official_row, read_official_batch, score_config, score_official, verdict_counts
from finereason.verification.scoring import aggregate
from finereason.core.rows import row_item
from finereason.data.state_labels import label_counts, label_states, oracle_label, read_states
from finereason.core.oracle import oracle_solvable
from finereason.verification.verifiers import verify_state_checking, verify_state_transition


def sample_files() -> list[Path]:
    """The official states samples in ../shared, one per official puzzle that has one."""
    folder = shared_path("finereason_official")
    files = [folder / f"{name}_states_sample.jsonl" for name in official_names()]
    return [f for f in files if f.is_file()]


def write_responses(path: Path, texts: dict, key: str = "index") -> str:
    path.write_text("".join(json.dumps({key: k, "response": t}) + "\n" for k, t in texts.items()), encoding="utf-8")
    return str(path)


# ------------------------------------------------------------------ score --official
def test_official_rows_give_the_records_state_items():
    """An official record becomes a row whose state item is the record's own, for every puzzle."""
    for path in sample_files():
        engine = get_engine(path.name.split("_states")[0])
        for record in read_jsonl(path)[:25]:
            row = official_row(engine, record, "state_checking", None)
            assert row_item(row) == engine.item_from_official(record)
            assert row["label"] is None and row["domain"] == engine.name
            assert official_row(engine, record, "state_checking", True)["label"] == "Solvable"
            assert official_row(engine, record, "state_checking", False)["label"] == "Unsolvable"


def _other_dead_end(engine, item):
    """A child of the current state that is a dead end but not the stored unsolvable child (the
    answer on which strict and paper scoring differ), or ``None``."""
    for n, child in enumerate(engine.children(item.puzzle, item.current)):
        if n >= 8:
            break
        same = item.unsolvable_child is not None and engine.same(child, item.unsolvable_child)
        if not same and not oracle_solvable(engine, item.puzzle, child):
            return child
    return None


def _texts(engine, records: list[dict], task: str) -> dict[int, str]:
    """Right, wrong and unreadable answers to the first records."""
    texts = {}
    for i, record in enumerate(records[:16]):
        item = engine.item_from_official(record)
        if task == "state_checking":
            texts[i] = ["Answer: (A)", "Answer: (B)", "no idea"][i % 3]
        else:
            state = [item.unsolvable_child, item.parent, item.current, _other_dead_end(engine, item)][i % 4]
            texts[i] = "no idea" if state is None else f"Next state: {engine.render(item.puzzle, state)}"
    return texts


@pytest.mark.parametrize("task,mode", [("state_checking", "strict"), ("state_transition", "strict"),
                                       ("state_transition", "paper")])
def test_score_official_gives_the_verifiers_verdicts(tmp_path, task, mode):
    differ = 0  # answers whose paper verdict differs from the strict one
    for path in sample_files():
        engine = get_engine(path.name.split("_states")[0])
        records = read_jsonl(path)
        texts = _texts(engine, records, task)
        batch = read_official_batch(str(path), task, write_responses(tmp_path / "r.jsonl", texts))
        assert batch.engine is engine and [i for i, _ in batch.responses] == list(texts)
        scored = list(score_official(batch, mode=mode))
        assert [s.key for s in scored] == list(texts)
        for s in scored:
            item = engine.item_from_official(records[s.key])
            truth = oracle_solvable(engine, item.puzzle, item.current)
            if task == "state_checking":
                want = verify_state_checking(engine, item, texts[s.key], solvable=truth)
            else:
                want = verify_state_transition(engine, item, texts[s.key], mode, solvable=truth)
            assert s.verdict == want
            differ += s.score.paper is not None and s.score.paper != s.score.verdict
            assert s.score.solvable is truth
            assert s.line() == {"index": s.key, "correct": want.correct, "category": want.category,
                                "reasons": list(want.reasons)}
        metrics = official_metrics(task, scored)
        assert metrics["n"] == len(texts)
        assert metrics["acc"] == sum(s.verdict.correct for s in scored) / len(texts)
        assert verdict_counts(scored) == dict(Counter(s.verdict.category for s in scored).most_common())
    assert (differ > 0) == (task == "state_transition")  # the answers tell the two modes apart


@pytest.mark.parametrize("lines,message", [
    (['{"index": 100, "response": "x"}'], "index 100 is not a line of"),
    (['{"index": true, "response": "x"}'], "index True is not a line of"),
    (['{"index": 1, "response": "x"}', '{"index": 1, "response": "y"}'], "r.jsonl:2: index 1 appears twice"),
    (['{"response": "x"}'], 'r.jsonl:1: expected {"index": i, "response": "..."}'),
    (["{not json"], "r.jsonl:1: responses line is not valid JSON"),
    ([], "r.jsonl: no responses"),
])
def test_read_official_batch_rejects_bad_responses(tmp_path, lines, message):
    [path] = sample_files()[:1]
    responses = tmp_path / "r.jsonl"
    responses.write_text("".join(line + "\n" for line in lines))
    with pytest.raises(InputError) as err:
        read_official_batch(str(path), "state_checking", str(responses))
    assert message in str(err.value)


def test_read_official_batch_rejects_a_file_of_no_puzzle_and_a_task_without_states(tmp_path):
    responses = write_responses(tmp_path / "r.jsonl", {0: "Answer: (A)"})
    with pytest.raises(OfficialDataError, match="cannot tell the puzzle"):
        read_official_batch(str(tmp_path / "r.jsonl"), "state_checking", responses)
    with pytest.raises(InputError, match="end_to_end"):
        read_official_batch(str(sample_files()[0]), "end_to_end", responses)


def test_score_official_turns_non_text_responses_into_text(tmp_path):
    path = sample_files()[0]
    responses = tmp_path / "r.jsonl"
    responses.write_text('{"index": 0, "response": null}\n{"index": 1, "response": 7}\n')
    batch = read_official_batch(str(path), "state_checking", str(responses))
    assert batch.responses == ((0, ""), (1, "7"))
    assert [s.verdict.category for s in score_official(batch)] == ["parse_error", "parse_error"]


# ------------------------------------------------------------------ check-official
def test_check_official_counts_every_sample_file():
    seen = []
    check = check_official(shared_path("finereason_official"), progress=lambda items, n, desc: seen.append((n, desc)) or items)
    assert len(check.files) == len(sample_files()) >= 1
    assert check.ok and check.agreeing == check.states == sum(f.states for f in check.files) and check.undecided == 0
    for f in check.files:
        engine = get_engine(f.puzzle)
        records = read_jsonl(shared_path("finereason_official", f"{engine.official_name}_states_sample.jsonl"))
        assert f.states == len(records) and f.labels_agree == f.states
        assert f.solvable == sum(r["outputs"]["current_status"] == "Solvable" for r in records)
        assert f.children == sum(engine.item_from_official(r).unsolvable_child is not None for r in records)
        assert f.children_unsolvable == f.children and f.seconds >= 0
    assert seen == [(f.states, f.puzzle) for f in check.files]


def test_check_states_file_counts_a_wrong_label_and_refuses_an_empty_file(tmp_path):
    path = sample_files()[0]
    records = read_jsonl(path)[:6]
    status = records[2]["outputs"]["current_status"]
    records[2]["outputs"]["current_status"] = "Unsolvable" if status == "Solvable" else "Solvable"
    bad = tmp_path / path.name.replace("_sample.jsonl", ".json")
    bad.write_text("".join(json.dumps(r) + "\n" for r in records))
    result = check_states_file(bad)
    assert (result.states, result.labels_agree, result.agreeing) == (6, 5, 5)
    assert check_official(tmp_path).ok is False
    bad.write_text("")
    with pytest.raises(OfficialDataError, match="no states"):
        check_states_file(bad)


# ------------------------------------------------------------------ label
def test_label_states_gives_the_oracles_labels(tmp_path):
    path = sample_files()[0]
    engine = get_engine(path.name.split("_states")[0])
    records = read_jsonl(path)[:8]
    lines = [json.dumps(r) for r in records] + ['{"not": "a state"}']
    (tmp_path / "s.jsonl").write_text("\n".join(lines) + "\n")
    states = read_states(str(tmp_path / "s.jsonl"))
    assert [n for n, _ in states] == list(range(1, 10))
    labels = []
    with pytest.raises(InputError, match=rf"s\.jsonl:9: not a {engine.name} state"):
        for label in label_states(engine, states, source=str(tmp_path / "s.jsonl")):
            labels.append(label)
    assert labels == [{"solvable": r["outputs"]["current_status"] == "Solvable"} for r in records]
    assert label_counts(labels) == {"solvable": sum(l["solvable"] for l in labels), "total": 8, "undecided": 0}
    assert label_counts([{"solvable": None, "undecided": "budget"}, {"solvable": False}]) == \
        {"solvable": 0, "total": 2, "undecided": 1}
    (tmp_path / "empty.jsonl").write_text("\n")
    with pytest.raises(InputError, match="no states"):
        read_states(str(tmp_path / "empty.jsonl"))


def test_oracle_label_is_none_when_the_budget_runs_out():
    from finereason.common.verdict import Undecided

    class Budgeted:
        name = "budgeted-test-engine"

        def is_solvable(self, puzzle, state):
            raise Undecided("work budget spent")

    assert oracle_label(Budgeted(), (1, 2), []) is None  # an unhashable state: asked directly, not cached


# ------------------------------------------------------------------ plan-check
def _plan_rows(count: int) -> list[dict]:
    table = shared_path("blocksworld", "ground_truth_plans_task1.csv")
    return [r for r in csv.DictReader(table.open()) if r["domain"] == "blocksworld"][:count]


def test_check_plans_on_planbench_instances(tmp_path):
    rows = _plan_rows(4)
    domain = str(shared_path("blocksworld", "generated_domain.pddl"))
    lines = []
    for i, row in enumerate(rows):
        plan = row["ground_truth_plan_pddl_objects"] if i % 2 == 0 else "(stack nothing nowhere)"
        lines.append({"domain": domain, "problem": str(shared_path(row["instance_file"])), "plan": plan})
    lines.append(dict(lines[0], plan="(pick-up a)"))
    (tmp_path / "p.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    requests = read_plan_requests(str(tmp_path / "p.jsonl"))
    assert requests[0][0] is requests[-1][0]  # one task per (domain, problem) pair
    checked = list(check_plans(requests, optimal=True))
    assert [c["valid"] for c in checked] == [True, False, True, False, False]
    assert all(c["reasons"] for c in checked if not c["valid"]) and not checked[0]["reasons"]
    assert [c["optimal_length"] for c in checked[:4]] == [int(r["optimal_plan_len_bfs"]) for r in rows]
    assert plan_counts(checked) == {"valid": 2, "total": 5, "undecided": 0}
    tight = list(check_plans(requests, optimal=True, max_nodes=1))
    assert plan_counts(tight)["undecided"] == sum("undecided" in c for c in tight) > 0
    with pytest.raises(InputError, match="--max-nodes"):
        check_plans(requests, max_nodes=0)  # refused at the call, before any plan is checked


def test_read_plan_requests_names_the_bad_line(tmp_path):
    (tmp_path / "p.jsonl").write_text('{"domain": "d.pddl", "problem": "p.pddl", "plan": ""}\n')
    with pytest.raises(InputError, match=r"p\.jsonl:1: .*d\.pddl"):
        read_plan_requests(str(tmp_path / "p.jsonl"))
    (tmp_path / "p.jsonl").write_text('{"domain": 3}\n')
    with pytest.raises(InputError, match=r"p\.jsonl:1: expected"):
        read_plan_requests(str(tmp_path / "p.jsonl"))


# ------------------------------------------------------------------ score --data
@pytest.fixture(scope="session")
def small_folder(tmp_path_factory) -> Path:
    pytest.importorskip("pyarrow")
    from finereason.dataset_builders.build import BuildConfig, build

    out = tmp_path_factory.mktemp("cli-library") / "ds"
    build(BuildConfig(out=out, per_task=4, train_size=0, e2e_size=2, domains=tuple(default_names()[:2]), progress=False))
    return out


def test_score_config_scores_each_row_once(small_folder, tmp_path):
    from finereason.models.baselines import oracle
    from finereason.verification.score_responses import read_config_rows
    from finereason.verification.scoring import score_row

    config = f"{default_names()[0]}_state_transition"
    rows = read_config_rows(small_folder, config)
    texts = {rid: (oracle(row) if i % 2 else "nothing") for i, (rid, row) in enumerate(rows.items())}
    responses = write_responses(tmp_path / "r.jsonl", texts, key="id")
    scored = list(score_config(rows, responses, data=str(small_folder), config=config))
    assert [s.key for s in scored] == list(texts)
    for s in scored:
        want = score_row(rows[s.key], texts[s.key])
        assert s.score == want and s.verdict == want.verdict
        assert s.line()["correct_paper"] == want.paper.correct and s.line()["id"] == s.key
    assert config_metrics(scored) == aggregate(score_row(rows[k], t) for k, t in texts.items())
    assert config_metrics(scored)["acc"] == sum(s.verdict.correct for s in scored) / len(scored) > 0


def test_score_config_errors(small_folder, tmp_path):
    from finereason.verification.score_responses import read_config_rows

    config = f"{default_names()[0]}_state_checking"
    rows = read_config_rows(small_folder, config)
    with pytest.raises(InputError, match="--process needs an end_to_end config"):
        score_config(rows, "unused.jsonl", data="d", config=config, process=True)  # at the call
    bad = write_responses(tmp_path / "r.jsonl", {"no-such-id": "x"}, key="id")
    with pytest.raises(InputError, match=f"id 'no-such-id' is not a row of {config}"):
        list(score_config(rows, bad, data="d", config=config))
    (tmp_path / "empty.jsonl").write_text("")
    with pytest.raises(InputError, match="no responses"):
        list(score_config(rows, str(tmp_path / "empty.jsonl"), data="d", config=config))


# ------------------------------------------------------------------ baselines (the main job)
def test_baselines_data_and_default_build(tmp_path, monkeypatch):
    pytest.importorskip("pyarrow")
    from finereason.dataset_builders.build import BuildConfig
    from finereason.workflows.baselines_job import baselines_data, default_build_config

    config = default_build_config(tmp_path / "d", 3)
    assert config == BuildConfig(out=tmp_path / "d", train_size=0, num_proc=3)
    assert (config.seed, config.per_task, config.e2e_size, config.train_size, config.order) == (0, 500, 100, 0, "paper")
    monkeypatch.setenv("FINEREASON_DATA_DIR", str(tmp_path / "env"))
    assert baselines_data(str(tmp_path / "given")) == tmp_path / "given"
    assert baselines_data(None) == tmp_path / "env"


# ------------------------------------------------------------------ the CLI stays thin
def test_cli_commands_call_the_library_not_each_other():
    """No command's ``run`` calls another command's ``run`` or builds an ``argparse.Namespace`` by hand."""
    import finereason.commands as commands

    modules = [p for p in Path(commands.__file__).parent.rglob("*.py")]
    assert len(modules) > 20
    for path in modules:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in (n for n in tree.body if isinstance(n, ast.FunctionDef)):
            for node in ast.walk(fn):
                if isinstance(node, ast.Call):
                    name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                    assert name != "Namespace", f"{path.name}: {fn.name} builds an argparse.Namespace"
                    if fn.name == "run" and path.name != "__init__.py":  # a group's run picks its action's
                        assert name != "run", f"{path.name}: run calls another command's run"


def test_run_baselines_reports_the_oracle(small_dataset, tmp_path, monkeypatch):
    """The main job on a tiny build (the shared one, only read): lm-eval runs the oracle, the report names
    it, the environment is restored."""
    pytest.importorskip("lm_eval")
    pytest.importorskip("matplotlib")
    from finereason.workflows.baselines_job import run_baselines

    data = small_dataset
    monkeypatch.delenv("FINEREASON_DATA_DIR", raising=False)
    done = run_baselines(data, tmp_path / "out", ["oracle"], "finereason", limit=2)
    assert done.code == 0
    assert "finereason-oracle" in done.report.markdown and (tmp_path / "out" / "summary.md").is_file()
    assert list((tmp_path / "out" / "runs").rglob("results_*.json"))
    assert "FINEREASON_DATA_DIR" not in os.environ
    assert run_baselines(data, tmp_path / "bad", ["oracle"], "no_such_task_xyz").code != 0
