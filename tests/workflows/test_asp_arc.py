"""The LLM-ARC loop: actor output parsing, the loop through lm-eval's replay model and the CLI,
accuracy per round, transcripts, the SFT export, and the FOLIO baseline lm-eval tasks."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import read_jsonl, shared_path
from finereason.workflows.arc import ArcDialog, Round, parse_actor, summarize_arc
from finereason.commands import main

DATA = Path(__file__).parents[1] / "data" / "folio_asp"


def response(program: str, query: str, tests: list) -> str:
    return f"Plan.\n```asp\n{program}```\nTests:\n```json\n{json.dumps({'query': query, 'tests': tests})}\n```\n"


def test_parse_actor_takes_the_last_blocks_after_thinking():
    text = "<think>```asp\nbad(.\n```</think>" + response("a.\n", "a", [{"type": "infer-True-All", "query": "a"}])
    out = parse_actor(text + "```asp\nb.\n```")
    assert out.program == "b.\n" and out.query == "a" and len(out.tests) == 1 and out.problems == []
    assert "no ```asp" in parse_actor("just words").problems[0]
    assert any("not valid JSON" in p for p in parse_actor("```asp\na.\n```\n```json\n{oops\n```").problems)
    assert any("nested" in p or "JSON" in p for p in parse_actor("```asp\na.\n```\n```json\n" + "[" * 100_000 + "\n```").problems)
    assert any('"query"' in p for p in parse_actor('```asp\na.\n```\n```json\n{"tests": [{}]}\n```').problems)


def test_accuracy_by_round_is_the_capped_run_answer():
    doc = {"id": "x", "label": "True"}
    late = ArcDialog(doc, [], [Round(1, "", "syntax_error", None, 0, 0, "", False), Round(2, "", "ok", "True", 1, 1, "", True)])
    early = ArcDialog({"id": "y", "label": "False"}, [], [Round(1, "", "ok", "False", 1, 1, "", True)])
    wrong = ArcDialog({"id": "z", "label": "Uncertain"}, [], [Round(1, "", "ok", "True", 0, 1, "", False)] * 3)
    acc = summarize_arc([late, early, wrong], 3)
    assert acc["round_1"] == pytest.approx(1 / 3) and acc["round_2"] == acc["round_3"] == pytest.approx(2 / 3)
    assert acc["final"] == pytest.approx(2 / 3) and acc["success_rate"] == pytest.approx(2 / 3)


@pytest.fixture
def story86(tmp_path):
    """Story 86's three examples and a replay script: a syntax error then a fix, a first-round
    success, and a closed-world mistake caught by a failed test then fixed."""
    pytest.importorskip("clingo")
    pytest.importorskip("lm_eval")
    rows = [r for r in read_jsonl(shared_path("folio", "folio-train.jsonl")) if r["story_id"] == 86]
    (tmp_path / "folio-train.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    story = next(s for s in json.loads((DATA / "stories.json").read_text()) if s["story_id"] == 86)
    program = (DATA / "story_86.lp").read_text()
    closed = program.split("% [OPEN]")[0]
    open_test = story["tests"] + [{"type": "infer-True-Any", "query": "went_to_prison(tiffany)"}]
    script = {
        "folio-train-262@1": response(program.replace("suspended(X) :-", "suspended(X) :- ("), "suspended(tiffany)", story["tests"]),
        "folio-train-262@2": response(program, "suspended(tiffany)", story["tests"]),
        "folio-train-263@1": response(program, "NOT(suspended(tiffany))", story["tests"]),
        "folio-train-264@1": response(closed, "went_to_prison(tiffany)", open_test),
        "folio-train-264@2": "<think>the critic says...</think>" + response(program, "went_to_prison(tiffany)", open_test),
    }
    (tmp_path / "replay.jsonl").write_text("".join(json.dumps({"id": k, "response": v}) + "\n" for k, v in script.items()))
    return tmp_path


def test_arc_cli_loop_transcripts_and_sft_export(story86, capsys):
    out = story86.with_name(story86.name + "-run")  # beside the data: an --out inside --data is refused
    code = main(["arc", "--model", "finereason-replay", "--model_args", f"path={story86 / 'replay.jsonl'}",
                 "--data", str(story86), "--split", "train", "--rounds", "3", "--out", str(out), "--time-limit", "20"])
    assert code == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["round_1"] == pytest.approx(1 / 3)
    assert summary["round_2"] == summary["round_3"] == summary["final"] == 1.0
    printed = capsys.readouterr().out
    assert "| 1 | 0.3333 | 3 | 2 | 1 | 6/7 |" in printed and "accuracy (FOLIO v0.0 train)" in printed
    assert "of FOLIO v0.0 train" in printed and "3 successful dialogs exported" in printed
    assert summary["folio_version"] == "v0.0" and summary["tests"] is True
    assert summary["read_context"] == {"read_context_version": 1, "starts_in_think": False}  # the run's read context
    assert summary["round_statistics"][1] == {"round": 2, "active": 2, "compiled": 2, "all_tests_passed": 2,
                                              "tests_passed": 7, "tests_total": 7, "test_pass_rate": 1.0, "done": 2}
    transcripts = {t["id"]: t for t in read_jsonl(out / "transcripts.jsonl")}
    first = transcripts["folio-train-262"]
    assert [r["status"] for r in first["rounds"]] == ["syntax_error", "ok"]
    assert "line 3" in first["rounds"][0]["feedback"]
    assert [m["role"] for m in first["messages"]] == ["user", "assistant", "user", "assistant"]
    assert first["messages"][2]["content"] == first["rounds"][0]["feedback"]
    third = transcripts["folio-train-264"]
    assert [(r["answer"], r["tests_passed"], r["tests_total"]) for r in third["rounds"]] == [(None, 3, 4), ("Uncertain", 4, 4)]
    assert "FAILED" in third["rounds"][0]["feedback"]
    assert "unknown predicate went_to_prison/1" in third["rounds"][0]["feedback"]  # defined only in [OPEN]
    assert len(transcripts["folio-train-263"]["rounds"]) == 1

    datasets = pytest.importorskip("datasets")
    sft = datasets.load_dataset(str(out / "sft"), split="train")
    assert sorted(sft["id"]) == ["folio-train-262", "folio-train-263", "folio-train-264"]
    row = sft[sft["id"].index("folio-train-262")]
    assert row["rounds"] == 2 and row["messages"][-1]["role"] == "assistant"
    trimmed = datasets.load_dataset(str(out / "sft"), "trimmed", split="train")
    short = trimmed[trimmed["id"].index("folio-train-264")]["messages"]
    assert short[0]["content"].startswith("Premises:") and "Encoding guidelines" not in short[0]["content"]
    assert "<think>" not in short[-1]["content"]
    assert short[2]["role"] == "user" and "FAILED" in short[2]["content"]


def test_arc_cli_errors_are_one_line(tmp_path, capsys):
    pytest.importorskip("clingo")
    pytest.importorskip("lm_eval")
    assert main(["arc", "--model", "finereason-replay", "--data", str(tmp_path)]) == 2
    assert "holds no FOLIO" in capsys.readouterr().err
    folio = shared_path("folio")
    assert main(["arc", "--model", "no-such-model", "--data", str(folio), "--limit", "1", "--out", str(tmp_path / "o")]) == 2
    assert "no-such-model" in capsys.readouterr().err
    assert main(["arc", "--model", "finereason-replay", "--data", str(folio), "--rounds", "0"]) == 2


def test_folio_baseline_tasks_through_lm_eval(tmp_path, monkeypatch, capsys):
    pytest.importorskip("lm_eval")
    pytest.importorskip("datasets")
    from finereason.data.folio import load_folio
    from finereason.integrations.lm_eval.models import our_tasks_only

    folder = shared_path("folio")
    monkeypatch.setenv("FINEREASON_FOLIO", str(folder))
    docs = load_folio(folder, "validation")
    lines = []
    for i, d in enumerate(docs):  # half right, a quarter hedged, a quarter untagged prose
        text = f"Answer: {d['label']}" if i % 2 == 0 else ("Answer: True or False" if i % 4 == 1 else "I guess False")
        lines.append(json.dumps({"id": d["id"], "response": text}))
    (tmp_path / "r.jsonl").write_text("\n".join(lines) + "\n")
    with our_tasks_only():
        code = main(["eval", "--model", "finereason-replay", "--model_args", f"path={tmp_path / 'r.jsonl'}",
                     "--tasks", "finereason_folio_direct,finereason_folio_cot", "--output_path", str(tmp_path / "ev")])
    assert code == 0
    assert "FOLIO v0.0 validation (204 items)" in capsys.readouterr().err
    results = json.loads(sorted((tmp_path / "ev").rglob("results_*.json"))[-1].read_text())["results"]
    for task in ("finereason_folio_direct", "finereason_folio_cot"):
        assert results[task]["acc,none"] == pytest.approx(sum(1 for i in range(len(docs)) if i % 2 == 0) / len(docs))
        assert results[task]["parse_error_rate,none"] == pytest.approx(1 - results[task]["acc,none"])


def _replay(tmp_path: Path, responses: dict[str, str]) -> Path:
    path = tmp_path / "replay.jsonl"
    path.write_text("".join(json.dumps({"id": k, "response": v}) + "\n" for k, v in responses.items()))
    return path


def test_doc_models_fail_with_one_line_and_broken_models_are_arc_errors(tmp_path, capsys):
    pytest.importorskip("clingo")
    pytest.importorskip("lm_eval")
    from finereason.workflows.arc import ArcError, run_arc

    folio = shared_path("folio")
    assert main(["arc", "--model", "finereason-oracle", "--data", str(folio), "--limit", "1", "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "finereason-oracle" in err and "FOLIO" in err

    def broken(batch):
        return [request["puzzle"] for request, _ in batch]

    with pytest.raises(ArcError, match="KeyError"):
        run_arc([{"id": "x", "label": "True", "premises": ["a"], "conclusion": "b"}], broken, rounds=1)


def test_transcripts_are_written_whatever_the_responses_contain(story86, capsys):
    lines = [json.dumps({"id": f"folio-train-{i}@1", "response": "bad \ud800 text ```asp\np(\udc80).\n```"}) for i in (262, 263, 264)]
    (story86 / "bad.jsonl").write_text("\n".join(lines) + "\n")
    out = story86.with_name(story86.name + "-bad_run")
    assert main(["arc", "--model", "finereason-replay", "--model_args", f"path={story86 / 'bad.jsonl'}", "--data", str(story86),
                 "--split", "train", "--rounds", "1", "--out", str(out)]) == 0
    rows = read_jsonl(out / "transcripts.jsonl")
    assert len(rows) == 3 and "\ufffd" in rows[0]["messages"][1]["content"]
    assert rows[0]["rounds"][0]["answer"] is None and "no ```json block" in rows[0]["rounds"][0]["feedback"]


def test_no_tests_ablation_and_sft_never_from_the_evaluated_split(story86, capsys):
    program = (DATA / "story_86.lp").read_text()
    no_tests = {f"folio-train-{i}@1": f"```asp\n{program}```\n```json\n{json.dumps({'query': q})}\n```"
                for i, q in ((262, "suspended(tiffany)"), (263, "NOT(suspended(tiffany))"), (264, "went_to_prison(tiffany)"))}
    replay = _replay(story86, no_tests)
    out = story86.with_name(story86.name + "-ablation")
    args = ["arc", "--model", "finereason-replay", "--model_args", f"path={replay}", "--data", str(story86),
            "--split", "train", "--sft-split", "dev", "--rounds", "2", "--out", str(out), "--no-tests"]
    assert main(args) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["tests"] is False and summary["final"] == 1.0 and summary["sft_exported"] is None
    assert summary["round_statistics"][0]["done"] == 3 and summary["round_statistics"][1]["active"] == 0
    assert not (out / "sft").exists() and "no SFT export (the train split is being evaluated" in capsys.readouterr().out
    first = read_jsonl(out / "transcripts.jsonl")[0]["messages"][0]["content"]
    assert "Test-writing guidelines" not in first and "Encoding guidelines" in first
    assert main(args + ["--sft-out", str(story86 / "sft")]) == 2
    assert "refusing to export SFT dialogs from the train split" in capsys.readouterr().err


def test_actor_prompt_example_passes_the_critic():
    pytest.importorskip("clingo")
    from finereason.workflows.actor_prompt import instructions
    from finereason.asp.critic import run_program

    text = instructions(tests=True)
    assert "Test-writing guidelines" in text and "When the critic answers" in text and "SOME(1, 2)" in text
    out = parse_actor(text.split("Example.", 1)[1])
    assert out.problems == [] and len(out.tests) == 5
    report = run_program(out.program, out.tests, out.query)
    assert report.all_passed and report.answer == "Uncertain", report.feedback()
    assert parse_actor(instructions(tests=False).split("Example.", 1)[1], tests=False).problems == []


def _script_generate(story86: Path, asked: list | None = None, kill_at: int | None = None):
    """The replay script as a generate function; ``kill_at``: raise (a killed run) when that round is asked."""
    script = {json.loads(line)["id"]: json.loads(line)["response"]
              for line in (story86 / "replay.jsonl").read_text().splitlines()}

    def generate(batch):
        ids = [doc["id"] for doc, _ in batch]
        if kill_at is not None and any(i.endswith(f"@{kill_at}") for i in ids):
            raise RuntimeError("killed")
        if asked is not None:
            asked.extend(ids)
        return [script[i] for i in ids]
    return generate


def test_arc_resumes_from_its_response_log(story86):
    """A run killed in round 2 leaves its settings and round 1's responses in OUT/responses.jsonl (plus a
    torn line); the rerun replays them through the critic, asks the model only for what is missing, and
    ends exactly like an uninterrupted run. Other settings in the same folder are refused."""
    from finereason.workflows.arc import ArcError
    from finereason.workflows.arc_export import RESPONSES, run_folio

    def run(out: Path, generate, **kw):
        return run_folio(lambda: generate, out, model="replay", data=str(story86), split="train", rounds=3,
                         time_limit=20, **kw)

    whole = run(story86.with_name(story86.name + "-whole"), _script_generate(story86))
    out = story86.with_name(story86.name + "-resumed")
    with pytest.raises(RuntimeError, match="killed"):
        run(out, _script_generate(story86, kill_at=2))
    log = [json.loads(line) for line in (out / RESPONSES).read_text().splitlines()]
    assert "settings" in log[0] and sorted(r["id"] for r in log[1:]) == ["folio-train-262", "folio-train-263",
                                                                          "folio-train-264"]
    assert {r["round"] for r in log[1:]} == {1}
    with (out / RESPONSES).open("a") as handle:
        handle.write('{"id": "folio-train-262", "round": 2, "resp')  # torn by the kill
    asked: list = []
    resumed = run(out, _script_generate(story86, asked))
    assert asked and not any(i.endswith("@1") for i in asked)  # round 1 is never asked again
    assert resumed.summary == whole.summary
    assert (out / "transcripts.jsonl").read_bytes() == (story86.with_name(story86.name + "-whole") / "transcripts.jsonl").read_bytes()
    with pytest.raises(ArcError, match="rounds differ"):
        run_folio(lambda: _script_generate(story86), out, model="replay", data=str(story86), split="train", rounds=2,
                  time_limit=20)
