"""``finereason rescore``: recorded verdicts beside sound ones.

Expected values come from outside the code under test: the problem file of each PlanBench instance
from ../shared/blocksworld/ground_truth_plans_task1.csv (made by an independent simulator), the verifier
table of hand-made dialogs counted by hand, and the JSON verdict replies of the gpt-and-i files counted
with the standard library."""
from __future__ import annotations

import csv
import html
import json
import re
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import shared_path
from test_cli_errors import one_line_error

from finereason.commands import main
from finereason.common.intervals import paired_difference
from finereason.planning.pddl import read_domain, read_problem
from finereason.planning.strips import Task
from finereason.planning.validate import check_plan
from finereason.workflows.rescore import OUTPUTS, rescore
from finereason.core.engine import get_engine
from finereason.workflows.rescore.dialogs import verdict_of

GPT4 = ("recorded_results", "planbench", "results", "blocksworld", "gpt-4_chat", "task_1_plan_generation_zero_shot.json")
O1 = ("recorded_results", "planbench", "results", "mystery_blocksworld", "o1-preview_chat", "task_1_plan_generation_zero_shot.json")
GAME24 = ("recorded_results", "gpt-and-i", "game24", "gpt-4o-mini-2024-07-18_chat")
# 1 4 6 8: (8 - 4) * 6 * 1 = 24 is correct; 6 * 4 + 8 - 1 = 31 is not
RIGHT, WRONG = "(8 - 4) * 6 * 1 = 24\n[ANSWER END]", "Answer: (6 * 4) + (8 - 1) = 24\n[ANSWER END]"


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_planbench_finds_each_problem_by_its_ground_truth_plan_and_reads_as_plan_check(tmp_path):
    results, instances = shared_path(*GPT4), shared_path("blocksworld")
    table = {row["instance_id"]: row["instance_file"] for row in csv.DictReader(open(shared_path("blocksworld", "ground_truth_plans_task1.csv")))
             if row["domain"] == "blocksworld"}
    rescore("planbench", [str(results)], tmp_path / "out", SimpleNamespace(instances=str(instances)))
    verdicts = lines(tmp_path / "out" / "verdicts.jsonl")
    records = json.loads(results.read_text())["instances"]
    assert len(verdicts) == len(records) == 500
    domain = read_domain(instances / "generated_domain.pddl")
    checked = 0
    for line, record in zip(verdicts, records):
        expected = table.get(str(record["instance_id"]))
        if expected is None:  # instance 1 is not in the task-1 prompt set the CSV covers
            continue
        assert "blocksworld/" + line["ids"]["problem"] == expected
        verdict = check_plan(Task(domain, read_problem(instances.parent / expected)), record["llm_raw_response"])
        assert line["sound"] == verdict.valid and line["recorded"] == record["correct"]
        checked += 1
    assert checked >= 490


def test_planbench_credited_but_wrong_cases_name_why(tmp_path):
    rescore("planbench", [str(shared_path(*O1))], tmp_path / "out", SimpleNamespace(instances=str(shared_path("blocksworld", "mystery"))))
    verdicts = lines(tmp_path / "out" / "verdicts.jsonl")
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())["summary"]
    wrong = [v for v in verdicts if v["recorded"] and v["sound"] is False]
    assert len(wrong) == summary[0]["credited_but_wrong"] and all(v["reason"] for v in wrong)
    assert summary[0]["n"] == sum(v["sound"] is not None and v["recorded"] is not None for v in verdicts)


def test_planbench_says_when_no_problem_file_fits(tmp_path):
    blocks = shared_path("blocksworld")
    instances = tmp_path / "instances"
    (instances / "wrong").mkdir(parents=True)
    (instances / "generated_domain.pddl").write_bytes((blocks / "generated_domain.pddl").read_bytes())
    (instances / "wrong" / "instance-2.pddl").write_bytes((blocks / "generated_basic" / "instance-5.pddl").read_bytes())
    result = tmp_path / "r.json"
    result.write_text(json.dumps({"engine": "m", "instances": [{"instance_id": 2, "llm_raw_response": "(pick-up d)",
                                                                "ground_truth_plan": ["(unstack d c)", "(put-down d)"],
                                                                "llm_correct": True}]}))
    base = {"llm_raw_response": "(pick-up d)", "ground_truth_plan": ["(unstack d c)", "(put-down d)"], "llm_correct": True}
    result.write_text(json.dumps({"engine": "m", "instances": [{"instance_id": 2, **base},
                                                               {"instance_id": "../wrong/instance-2", **base}]}))
    rescore("planbench", [str(result)], tmp_path / "out", SimpleNamespace(instances=str(instances)))
    line, traversal = lines(tmp_path / "out" / "verdicts.jsonl")
    assert line["sound"] is None and "solves no instance-2.pddl" in line["reason"]
    assert traversal["sound"] is None and "not a plain id" in traversal["reason"]
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["summary"][0]["undecided"] == 2


def _dialog(numbers: str, turns: list[tuple[str, bool | None]]) -> dict:
    prompts, responses = [f"Use numbers ... to obtain 24.\nInput: {numbers}\nAnswer: "], []
    for answer, verdict in turns:
        responses.append(answer)
        if verdict is not None:
            prompts.append(f"Please check if the following expression ... evaluates to 24: {answer}\nRespond only in JSON")
            responses.append(json.dumps({"feedback": "...", "correct": verdict}))
            prompts.append("With this feedback, please try again.")
    return {"prompts": prompts, "responses": responses, "stopped": False}


def test_stechly_verifier_table_counts_distinct_records(tmp_path):
    run = tmp_path / "model-x" / "backprompting-llm"
    run.mkdir(parents=True)
    # instance 1: a wrong answer called correct (FP), then the same record again (counted once)
    # instance 2: a right answer called wrong (FN), then a right answer called correct (TP); instance 3: TN
    data = {"1": _dialog("1 4 6 8", [(WRONG, True)]), "2": _dialog("1 4 6 8", [(RIGHT, False), (RIGHT + " ", True)]),
            "3": _dialog("1 4 6 8", [(WRONG, False), (WRONG, True)]), "4": _dialog("1 4 6 8", [(WRONG, True)])}
    (run / "responses.json.1").write_text(json.dumps(data))
    rescore("stechly-game24", [str(run / "responses.json.1")], tmp_path / "out")
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    (verifier,) = summary["verifier"]
    # distinct records: (WRONG, True), (RIGHT, False), (RIGHT, True), (WRONG, False): TP 1, FN 1, FP 1, TN 1
    assert (verifier["n"], verifier["sound_correct"], verifier["sound_wrong"]) == (4, 2, 2)
    assert verifier["false_positive_rate"] == 0.5 and verifier["false_negative_rate"] == 0.5
    assert verifier["baseline_accuracy"] == 0.5 and verifier["model"] == "model-x"
    rounds = {row["condition"]: row for row in summary["summary"]}
    assert rounds["backprompting-llm, round 1"]["n"] == 4 and rounds["backprompting-llm, round 1"]["credited_but_wrong"] == 2
    assert rounds["backprompting-llm, round 2"]["n"] == 2 and rounds["backprompting-llm, round 2"]["sound_accuracy"] == 0.5


def test_stechly_reads_every_verdict_reply_of_the_shared_runs(tmp_path):
    folder = shared_path(*GAME24)
    files = sorted(str(p) for p in folder.glob("*/*responses.json*"))
    replies = 0
    for path in files:
        data = json.loads(Path(path).read_text())
        for instance in ([data] if "prompts" in data else data.values()):
            for prompt, response in zip(instance["prompts"], instance["responses"]):
                if "Please check" in prompt and re.search(r'"correct"\s*:\s*(true|false)', response):
                    replies += 1
    rescore("stechly-game24", files, tmp_path / "out")
    verdicts = lines(tmp_path / "out" / "verdicts.jsonl")
    assert sum(v["recorded"] is not None for v in verdicts) == replies > 100
    assert all(v["sound"] is not None for v in verdicts)


def test_numbers_and_verdict_replies_are_read_with_limits():
    read = get_engine("game_of_24").inputs_from_recorded
    assert read("Input: 1 4 6 8\nAnswer:") == {"initial_state": [1, 4, 6, 8]}
    assert read("Using the numbers 2 3 5 12 please") == {"initial_state": [2, 3, 5, 12]}
    assert read("no numbers") is None and read("Example: 3 4 5 6") is None
    assert verdict_of('```json\n{"feedback": "x", "correct": true}\n```') is True
    assert verdict_of("{" * 100_000) is None and verdict_of("no json") is None


def test_jsonl_game24_and_plans(tmp_path):
    path = tmp_path / "rec.jsonl"
    rows = [{"id": "a", "numbers": "1 4 6 8", "text": RIGHT, "ok": "incorrect", "m": "x"},
            {"id": "b", "numbers": [1, 4, 6, 8], "text": WRONG, "ok": True, "m": "x"},
            {"id": "c", "numbers": [1, 4, 6, 8], "text": "I cannot solve it.", "ok": False, "m": "y"}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    options = SimpleNamespace(domain="game_of_24", puzzle_field="numbers", response_field="text", verdict_field="ok", model_field="m")
    rescore("jsonl", [str(path)], tmp_path / "out", options)
    verdicts = lines(tmp_path / "out" / "verdicts.jsonl")
    assert [(v["ids"]["id"], v["recorded"], v["sound"], v["answered"]) for v in verdicts] == \
        [("a", False, True, True), ("b", True, False, True), ("c", False, False, False)]
    assert verdicts[0]["span"]["text"] == "(8 - 4) * 6 * 1 = 24"[:len(verdicts[0]["span"]["text"])]
    x, y = json.loads((tmp_path / "out" / "summary.json").read_text())["summary"]
    assert (x["missed"], x["credited_but_wrong"], y["no_answer"]) == (1, 1, 1)

    blocks = shared_path("blocksworld")
    plans = tmp_path / "plans.jsonl"
    plans.write_text(json.dumps({"problem": str(blocks / "generated_basic" / "instance-5.pddl"),
                                 "response": "Plan:\n1. pick up d\n2. stack d on c", "correct": False}) + "\n")
    rescore("jsonl", [str(plans)], tmp_path / "plans", SimpleNamespace(domain_file=str(blocks / "generated_domain.pddl"),
                                                                     problem_field="problem"))
    (line,) = lines(tmp_path / "plans" / "verdicts.jsonl")
    assert line["sound"] is True and line["recorded"] is False


def test_identical_inputs_give_identical_bytes(tmp_path):
    files = sorted(str(p) for p in shared_path(*GAME24).glob("*/*responses.json*"))
    for out in ("one", "two"):
        assert main(["rescore", "stechly-game24", *files, "--out", str(tmp_path / out)]) == 0
    for name in OUTPUTS:
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes(), name


def test_errors_are_one_line_and_leave_no_output(tmp_path, capsys):
    results = shared_path(*GPT4)
    assert "needs --instances" in one_line_error(capsys, ["rescore", "planbench", str(results), "--out", str(tmp_path / "o")])
    assert "unknown format" in one_line_error(capsys, ["rescore", "nope", str(results), "--out", str(tmp_path / "o")])
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    assert "not a PlanBench result file" in one_line_error(
        capsys, ["rescore", "planbench", str(bad), "--instances", str(shared_path("blocksworld")), "--out", str(tmp_path / "o")])
    assert "--puzzle-field" in one_line_error(capsys, ["rescore", "jsonl", str(bad), "--domain", "game_of_24", "--out", str(tmp_path / "o")])
    assert not (tmp_path / "o").exists()
    full = tmp_path / "full"
    full.mkdir()
    (full / "keep").write_text("x")
    assert "not an empty folder" in one_line_error(capsys, ["rescore", "stechly-game24", str(bad), "--out", str(full)])
    assert one_line_error(capsys, ["rescore", "stechly-game24", str(bad), "--out", str(bad)])


def test_the_paired_difference_interval():
    assert paired_difference(0, 0, 0, 0) is None
    value, lo, hi = paired_difference(40, 5, 15, 100)
    assert value == pytest.approx(0.10) and lo < 0.10 < hi and -1 <= lo and hi <= 1
    flipped = paired_difference(40, 15, 5, 100)
    assert flipped[0] == pytest.approx(-0.10) and flipped[1] == pytest.approx(-hi) and flipped[2] == pytest.approx(-lo)
    wide, narrow = paired_difference(4, 1, 2, 10), paired_difference(400, 100, 200, 1000)
    assert wide[2] - wide[1] > narrow[2] - narrow[1]


def _page_selftest(page: Path, tmp_path: Path) -> dict:
    node = shutil.which("node") or shutil.which("nodejs")
    browser = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)
    if browser:
        done = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-dev-shm-usage",
                               f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", page.as_uri() + "#selftest"],
                              capture_output=True, text=True, timeout=120)
        text = html.unescape(done.stdout.split('id="selftest-result"', 1)[1].split(">", 1)[1].split("<", 1)[0])
    elif node:
        done = subprocess.run([node, str(Path(__file__).with_name("rescore_fake_dom.js")), str(page)],
                              capture_output=True, text=True, timeout=120)
        text = done.stdout.strip()
    else:
        pytest.skip("neither headless Chromium nor Node is installed (Debian: apt-get install chromium)")
    assert text.startswith("PASS "), text + done.stderr[-2000:]
    return json.loads(text.split(" ", 1)[1])


def test_the_disagreement_page_filters_highlights_and_moves_by_keyboard(tmp_path):
    path = tmp_path / "rec.jsonl"
    hostile = "</script><script>alert(1)</script> " + RIGHT
    rows = [{"numbers": "1 4 6 8", "response": hostile, "correct": False, "model": "a"},
            {"numbers": "1 4 6 8", "response": WRONG, "correct": True, "model": "b"},
            {"numbers": "1 4 6 8", "response": RIGHT, "correct": True, "model": "b"}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    rescore("jsonl", [str(path)], tmp_path / "out", SimpleNamespace(domain="game_of_24", puzzle_field="numbers", model_field="model"))
    page = (tmp_path / "out" / "disagreements.html").read_text()
    assert "alert" in page and "<script>alert" not in page and page.count("</script>") == 2
    result = _page_selftest(tmp_path / "out" / "disagreements.html", tmp_path)
    assert result["total"] == result["shown"] == 2 == result["marks"] and result["keyboard"]
    assert result["filters"]["model"] == {"all": 2, "a": 1, "b": 1}
    assert result["filters"]["direction"] == {"all": 2, "credited but wrong": 1, "missed": 1}


def test_the_accuracy_picture_is_written_when_matplotlib_is_installed(tmp_path):
    pytest.importorskip("matplotlib")
    rescore("stechly-game24", [str(p) for p in sorted(shared_path(*GAME24).glob("*/*responses.json*"))], tmp_path / "out")
    assert (tmp_path / "out" / "accuracy.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_lm_eval_samples_are_reread_and_every_flip_keeps_both_reasons(tmp_path):
    from finereason.core.engine import get_engine
    from finereason.verification.score_responses import official_row

    official = shared_path("finereason_official", "game24_states_sample.jsonl")
    records = [json.loads(line) for line in official.read_text().splitlines()[:6]]
    run = tmp_path / "org__model"
    run.mkdir()
    lines = []
    for i, record in enumerate(records):
        solvable = record["outputs"]["current_status"] == "Solvable"
        doc = official_row(get_engine("game_of_24"), record, "state_checking", solvable)
        right = "Answer: (A)" if solvable else "Answer: (B)"
        # even lines: the right option, recorded as a parse error; odd lines: the right option withdrawn, recorded as correct
        text = right if i % 2 == 0 else right + ". Hmm, actually I am not sure."
        old = [doc["task"], i % 2 == 1, "correct" if i % 2 else "parse_error", None, solvable, None]
        lines.append({"doc_id": i, "doc": doc, "filter": "none", "resps": [[text]], "filtered_resps": [text],
                      "acc": float(i % 2), "verdict": old})
        lines.append({**lines[-1], "filter": "other"})  # another filter's copy is skipped
    path = run / "samples_finereason_game_of_24_state_checking_2026-01-02T03-04-05.678901.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    rescore("lm-eval", [str(path)], tmp_path / "out")
    verdicts = [json.loads(x) for x in (tmp_path / "out" / "verdicts.jsonl").read_text().splitlines()]
    assert len(verdicts) == len(records)
    assert {(v["model"], v["condition"]) for v in verdicts} == {("org__model", "finereason_game_of_24_state_checking")}
    assert [v["sound"] for v in verdicts] == [i % 2 == 0 for i in range(len(records))]
    assert [v["recorded"] for v in verdicts] == [i % 2 == 1 for i in range(len(records))]
    assert all(v["recorded_reason"] and (v["reason"] if not v["sound"] else True) for v in verdicts)
    assert all(v["signal"] for v in verdicts[1::2])
    (row,) = json.loads((tmp_path / "out" / "summary.json").read_text())["summary"]
    assert (row["credited_but_wrong"], row["missed"]) == (len(records) // 2, len(records) - len(records) // 2)
    page = (tmp_path / "out" / "disagreements.html").read_text()
    assert page.count('"recorded_reason": "parse_error"') == len(records) - len(records) // 2


@pytest.mark.parametrize("n", [1, 7, 100, 1000])
def test_the_picture_draws_accuracies_of_zero_and_one(tmp_path, n):
    pytest.importorskip("matplotlib")
    from finereason.workflows.rescore.page import write_plot

    rows = [{"model": "m", "condition": c, "n": n, "recorded_accuracy": a, "sound_accuracy": b}
            for c, a, b in (("x", 0.0, 1.0), ("y", 1.0, 0.0), ("z", 3 / 7, 0.0))]
    assert write_plot(tmp_path / "a.png", rows, "t") and (tmp_path / "a.png").stat().st_size > 0


@pytest.mark.parametrize("domain, puzzle", [("game_of_24", "a b"), ("game_of_24", [1, "x"]), ("sudoku", {"x": 1}), ("game_of_24", 5)])
def test_a_puzzle_the_domain_cannot_read_is_a_one_line_error(tmp_path, capsys, domain, puzzle):
    path = tmp_path / "rec.jsonl"
    path.write_text(json.dumps({"p": puzzle, "response": "Answer: 1 + 2", "correct": True}) + "\n")
    error = one_line_error(capsys, ["rescore", "jsonl", str(path), "--domain", domain, "--puzzle-field", "p", "--out", str(tmp_path / "o")])
    assert f"{path}:1" in error and not (tmp_path / "o").exists()


def test_jsonl_folio_answers_against_their_gold_labels(tmp_path):
    from finereason.data.folio import load_folio

    items = load_folio(shared_path("folio"), "validation")[:6]
    other = {"True": "False", "False": "Uncertain", "Uncertain": "True"}
    rows = []
    for i, item in enumerate(items):
        answer = [f"Answer: {item['label']}", f"Answer: {other[item['label']]}", "Answer: True or Uncertain"][i % 3]
        gold = "Unknown" if item["label"] == "Uncertain" else item["label"]  # the v0.0 spelling reads the same
        rows.append({"id": item["id"], "gold": gold, "response": answer, "correct": True})
    path = tmp_path / "folio.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    rescore("jsonl", [str(path)], tmp_path / "out", SimpleNamespace(domain="folio", puzzle_field="gold"))
    verdicts = lines(tmp_path / "out" / "verdicts.jsonl")
    assert [v["sound"] for v in verdicts] == [i % 3 == 0 for i in range(len(items))]
    assert [v["answered"] for v in verdicts] == [i % 3 != 2 for i in range(len(items))]
    assert all(v["reason"] for v in verdicts[1::3] + verdicts[2::3])


def test_lm_eval_samples_are_read_in_the_context_their_run_recorded(tmp_path):
    from finereason.core.engine import get_engine
    from finereason.verification.score_responses import official_row

    record = json.loads(shared_path("finereason_official", "game24_states_sample.jsonl").read_text().splitlines()[0])
    solvable = record["outputs"]["current_status"] == "Solvable"
    doc = official_row(get_engine("game_of_24"), record, "state_checking", solvable)
    text = "Answer: (A)" if solvable else "Answer: (B)"  # no </think>: unfinished when the prompt opened <think>
    stamp = "2026-01-02T03-04-05.678901"
    task = "finereason_game_of_24_state_checking"
    for name, opened in (("plain", False), ("think", True)):
        folder = tmp_path / name
        folder.mkdir()
        (folder / f"samples_{task}_{stamp}.jsonl").write_text(json.dumps(
            {"doc_id": 0, "doc": doc, "filter": "none", "resps": [[text]], "filtered_resps": [text], "acc": 1.0}) + "\n")
        (folder / f"results_{stamp}.json").write_text(json.dumps(
            {"configs": {task: {"metadata": {"read_context": {"read_context_version": 1, "starts_in_think": opened}}}}}))
        rescore("lm-eval", [str(folder / f"samples_{task}_{stamp}.jsonl")], tmp_path / f"out-{name}")
    plain, think = (lines(tmp_path / f"out-{n}" / "verdicts.jsonl")[0] for n in ("plain", "think"))
    assert plain["sound"] is True and think["sound"] is False and not think["answered"]
