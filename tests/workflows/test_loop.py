"""``finereason loop``: propose, verify with the sound verifier, back-prompt; on every domain.

The oracle is certified in round 1; a replay model reproduces a recorded multi-round transcript
byte for byte; feedback never contains a valid solution; an interrupted run resumes without
losing or replaying rounds; bad arguments are one-line errors (exit 2).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("lm_eval")
pytest.importorskip("pyarrow")

from test_cli_errors import one_line_error  # noqa: E402

from finereason.models.baselines import oracle, random_answer  # noqa: E402
from finereason.commands import main  # noqa: E402
from finereason.core.engine import default_names, get_engine  # noqa: E402
from finereason.core.rows import row_puzzle  # noqa: E402
from finereason.verification.feedback import SOUND_LEVELS, read_self_verdict, sound_feedback  # noqa: E402
from finereason.workflows.loop import TRANSCRIPTS, load_rows, run_condition  # noqa: E402
from finereason.common.verdict import Verdict  # noqa: E402
from finereason.verification.verifiers import verify_end_to_end  # noqa: E402

DOMAINS = tuple(default_names())  # the domains the shared e2e_dataset build holds


@pytest.fixture(scope="session")
def data(e2e_dataset) -> Path:
    """A small built data folder: 3 end-to-end instances per domain."""
    return e2e_dataset


def transcript(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / TRANSCRIPTS).read_text(encoding="utf-8").splitlines()]


def loop(data: Path, out: Path, *extra: str) -> int:
    return main(["loop", "--data", str(data), "--out", str(out), *extra])


def write_replay(path: Path, responses: dict[str, str]) -> Path:
    path.write_text("".join(json.dumps({"id": k, "response": v}) + "\n" for k, v in responses.items()), encoding="utf-8")
    return path


def assert_no_solution(engine, puzzle, text: str) -> None:
    """Neither the text nor any of its lines is certified as a solution, and no solution is quoted."""
    for candidate in (text, *text.splitlines()):
        assert not verify_end_to_end(engine, puzzle, f"Answer: {candidate}").correct, text
    solution = engine.solve(puzzle)
    if solution is not None:
        assert engine.render(puzzle, solution) not in text


# ------------------------------------------------------------------ the oracle
@pytest.mark.parametrize("domain", DOMAINS)
def test_oracle_is_certified_in_round_one(data, tmp_path, domain):
    out = tmp_path / "out"
    assert loop(data, out, "--model", "finereason-oracle", "--domain", domain, "--max-rounds", "3",
                "--feedback", *SOUND_LEVELS, "--sampling") == 0
    summary = json.loads((out / "summary.json").read_text())
    assert set(summary["conditions"]) == {*SOUND_LEVELS, "sampling"}
    for condition, result in summary["conditions"].items():
        assert result["items"] == 3
        assert result["accuracy_by_round"] == {"1": 1.0, "2": 1.0, "3": 1.0}, condition
        records = transcript(out / condition)
        assert [(r["round"], r["correct"], r["done"], r["feedback"]) for r in records] == [(1, True, True, None)] * 3
        assert result["prompt_chars"] == sum(r["prompt_chars"] for r in records) > 0
    assert (out / "accuracy_by_round.png").stat().st_size > 1000


# ------------------------------------------------------------------ replay
def test_replay_reproduces_a_recorded_multi_round_transcript(data, tmp_path):
    """Record a run of the seeded random model, replay its responses: the same transcript, byte for byte."""
    first = tmp_path / "random"
    common = ["--domain", "game_of_24", "--max-rounds", "4"]
    assert loop(data, first, "--model", "finereason-random", "--model_args", "seed=3", *common,
                "--feedback", "first_error", "self", "--sampling") == 0
    for condition, args in (("first_error", ["--feedback", "first_error"]), ("self", ["--feedback", "self"]),
                            ("sampling", ["--sampling"])):
        records = transcript(first / condition)
        assert max(r["round"] for r in records) > 1, condition  # a multi-round transcript
        recorded = {f"{r['id']}@{r['round']}": r["response"] for r in records}
        recorded.update({f"{r['id']}@{r['round']}/verify": r["critique"] for r in records if "critique" in r})
        replay = write_replay(tmp_path / f"{condition}.jsonl", recorded)
        second = tmp_path / f"replay-{condition}"
        assert loop(data, second, "--model", "finereason-replay", "--model_args", f"path={replay}", *common, *args) == 0
        assert (second / condition / TRANSCRIPTS).read_bytes() == (first / condition / TRANSCRIPTS).read_bytes()
        for rid in {r["id"] for r in records}:
            sent = [r["prompt_chars"] for r in records if r["id"] == rid]
            if condition == "sampling":  # the prompt alone, every round
                assert len(set(sent)) == 1, sent
            elif condition == "first_error":  # the dialog grows by an answer and its feedback each round
                assert sent == sorted(set(sent)), sent


def test_scripted_dialog_back_prompts_and_self_verification(data, tmp_path):
    rows, _ = load_rows("graph_coloring", str(data), 1)
    row = rows[0]
    engine, puzzle = get_engine("graph_coloring"), row_puzzle(row)
    wrong = f"Answer: {[1] * len(puzzle.adjacency)}"  # one color everywhere: several conflicts
    replay = write_replay(tmp_path / "script.jsonl", {
        f"{row['id']}@1": wrong, f"{row['id']}@2": "I give up.", f"{row['id']}@3": oracle(row),
        f"{row['id']}@1/verify": "Adjacent vertices share color 1. Verdict: incorrect",
        f"{row['id']}@2/verify": "Verdict: correct",
    })
    out = tmp_path / "out"
    assert loop(data, out, "--model", "finereason-replay", "--model_args", f"path={replay}", "--domain", "graph_coloring",
                "--limit", "1", "--max-rounds", "5", "--feedback", "all_errors", "first_error", "binary", "self") == 0
    summary = json.loads((out / "summary.json").read_text())["conditions"]
    for level in ("all_errors", "first_error", "binary"):
        records = transcript(out / level)
        assert [(r["round"], r["correct"], r["verdict"]["category"]) for r in records] == [
            (1, False, "invalid_solution"), (2, False, "parse_error"), (3, True, "correct")]
        assert summary[level]["accuracy_by_round"] == {"1": 0.0, "2": 0.0, "3": 1.0, "4": 1.0, "5": 1.0}
    assert transcript(out / "binary")[0]["feedback"].startswith("Your answer is incorrect. Please solve")
    first = transcript(out / "all_errors")[0]
    assert len(first["verdict"]["reasons"]) > 1
    assert all(reason in first["feedback"] for reason in first["verdict"]["reasons"])
    assert first["verdict"]["reasons"][1] not in transcript(out / "first_error")[0]["feedback"]
    # self: rejected in round 1 (its critique is the feedback), accepts a wrong answer in round 2 and stops
    records = transcript(out / "self")
    assert [(r["round"], r["accepted"], r["done"]) for r in records] == [(1, False, False), (2, True, True)]
    assert "Adjacent vertices share color 1" in records[0]["feedback"]
    assert summary["self"]["accuracy_by_round"]["5"] == 0.0
    assert summary["self"]["self_verifier"] == {"judgements": 2, "accepted": 1, "false_positives": 1, "false_negatives": 0}


def test_self_verdict_reading():
    assert read_self_verdict("looks fine.\nVerdict: correct") is True
    assert read_self_verdict("Verdict: correct?? no wait. Verdict: incorrect") is False
    assert read_self_verdict("I think it is correct.") is None
    assert read_self_verdict("<think>Verdict: correct") is None  # unfinished reasoning is no verdict


# ------------------------------------------------------------------ feedback never gives a solution away
@pytest.mark.parametrize("domain", DOMAINS)
def test_feedback_never_contains_a_valid_solution(data, tmp_path, domain):
    rows, _ = load_rows(domain, str(data))
    engine = get_engine(domain)
    checked = 0
    for row in rows:
        puzzle = row_puzzle(row)
        for seed in range(6):
            answer = random_answer(row, seed)
            verdict = verify_end_to_end(engine, puzzle, answer)
            if verdict.correct:
                continue
            for level in SOUND_LEVELS:
                assert_no_solution(engine, puzzle, sound_feedback(engine, puzzle, verdict, level))
                checked += 1
        # a verdict whose reasons would quote a solution: the feedback drops them
        solution = engine.render(puzzle, engine.solve(puzzle)) if domain != "game_of_24" else oracle(row)[len("Answer: "):]
        leaky = Verdict(False, "invalid_solution", (solution, "another error"))
        for level in SOUND_LEVELS:
            text = sound_feedback(engine, puzzle, leaky, level)
            assert_no_solution(engine, puzzle, text)
            assert "another error" not in text
    assert checked >= 12
    # and in a whole loop run (wrong answers of the random model, every feedback level)
    out = tmp_path / "out"
    assert loop(data, out, "--model", "finereason-random", "--domain", domain, "--max-rounds", "3",
                "--feedback", *SOUND_LEVELS) == 0
    by_id = {r["id"]: row_puzzle(r) for r in rows}
    for level in SOUND_LEVELS:
        for rec in transcript(out / level):
            if rec["feedback"] is not None:
                assert_no_solution(engine, by_id[rec["id"]], rec["feedback"])


# ------------------------------------------------------------------ resume
def test_resume_after_interruption_loses_no_rounds(data, tmp_path):
    rows, _ = load_rows("sudoku", str(data))
    script = {}
    for row in rows:  # wrong for 3 rounds, then right
        for r in (1, 2, 3):
            script[f"{row['id']}@{r}"] = f"Answer: attempt {r}"
        script[f"{row['id']}@4"] = oracle(row)
    replay = write_replay(tmp_path / "script.jsonl", script)
    common = ["--model", "finereason-replay", "--model_args", f"path={replay}", "--domain", "sudoku",
              "--max-rounds", "6", "--feedback", "first_error"]
    whole = tmp_path / "whole"
    assert loop(data, whole, *common) == 0

    from finereason.integrations.lm_eval.generate import lm_eval_generator

    real = lm_eval_generator("finereason-replay", f"path={replay}")
    asked: list[str] = []

    def interrupted(batch):
        if any(doc["id"].endswith("@3") for doc, _ in batch):
            raise KeyboardInterrupt
        asked.extend(doc["id"] for doc, _ in batch)
        return real(batch)

    interrupted.render = real.render  # the same prompt rendering (character counts) as the CLI's model

    cut = tmp_path / "cut"
    run = json.loads((whole / "first_error" / "run.json").read_text())
    run = {k: v for k, v in run.items() if k not in ("condition", "ids")}
    with pytest.raises(KeyboardInterrupt):
        run_condition(rows, interrupted, "first_error", cut / "first_error", max_rounds=6, run=run)
    assert len(transcript(cut / "first_error")) == 2 * len(rows)
    with open(cut / "first_error" / TRANSCRIPTS, "a", encoding="utf-8") as handle:
        handle.write('{"id": "torn')  # a crash in the middle of writing round 3

    def counting(batch):
        asked.extend(doc["id"] for doc, _ in batch)
        return real(batch)

    counting.render = real.render
    run_condition(rows, counting, "first_error", cut / "first_error", max_rounds=6, run=run)
    assert sorted(asked) == sorted(f"{row['id']}@{r}" for row in rows for r in (1, 2, 3, 4))  # no round asked twice
    assert (cut / "first_error" / TRANSCRIPTS).read_bytes() == (whole / "first_error" / TRANSCRIPTS).read_bytes()
    # the CLI on a finished run: nothing to ask, the same summary
    assert loop(data, cut, *common) == 0
    assert json.loads((cut / "summary.json").read_text())["conditions"] == json.loads((whole / "summary.json").read_text())["conditions"]


# ------------------------------------------------------------------ bad arguments
def test_bad_arguments_are_one_line_errors(data, tmp_path, capsys):
    base = ["loop", "--model", "finereason-oracle", "--data", str(data)]
    assert "unknown domain" in one_line_error(capsys, [*base, "--domain", "chess", "--out", str(tmp_path / "a")])
    assert "--max-rounds" in one_line_error(capsys, [*base, "--domain", "sudoku", "--max-rounds", "0", "--out", str(tmp_path / "b")])
    assert "--limit" in one_line_error(capsys, [*base, "--domain", "sudoku", "--limit", "0", "--out", str(tmp_path / "c")])
    assert "--temperature" in one_line_error(capsys, [*base, "--domain", "sudoku", "--temperature", "-1", "--out", str(tmp_path / "d")])
    missing = ["loop", "--model", "finereason-oracle", "--domain", "sudoku", "--data", str(tmp_path / "nowhere"), "--out", str(tmp_path / "e")]
    one_line_error(capsys, missing)
    one_line_error(capsys, [*base, "--domain", "sudoku", "--out", str(data / "inside")])
    (tmp_path / "file").write_text("x")
    assert "not a folder" in one_line_error(capsys, [*base, "--domain", "sudoku", "--out", str(tmp_path / "file")])
    assert "cannot load model" in one_line_error(capsys, ["loop", "--model", "finereason-replay", "--domain", "sudoku",
                                                          "--data", str(data), "--out", str(tmp_path / "f")])
    assert "cannot load model" in one_line_error(capsys, ["loop", "--model", "no-such-model", "--domain", "sudoku",
                                                          "--data", str(data), "--out", str(tmp_path / "g")])
    # an output folder of another run is refused, not mixed
    assert main([*base, "--domain", "sudoku", "--limit", "1", "--max-rounds", "1", "--out", str(tmp_path / "h")]) == 0
    capsys.readouterr()
    assert "holds another run" in one_line_error(capsys, ["loop", "--model", "finereason-random", "--data", str(data),
                                                          "--domain", "sudoku", "--limit", "1", "--out", str(tmp_path / "h")])


# ------------------------------------------------------------------ a real lm-eval model: tokens counted
def test_hf_model_runs_the_loop_and_counts_tokens(data, tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from finereason.models.tiny import build_tiny_model

    tiny = build_tiny_model(tmp_path / "tiny")
    out = tmp_path / "out"
    assert loop(data, out, "--model", "hf", "--model_args", f"pretrained={tiny},dtype=float32", "--domain", "game_of_24",
                "--limit", "1", "--max-rounds", "2", "--max_gen_toks", "8", "--feedback", "first_error",
                "--apply_chat_template") == 0  # no --device: the CPU without a GPU, as eval does
    records = transcript(out / "first_error")
    assert [r["round"] for r in records] == [1, 2]  # a random tiny model does not solve Game of 24
    assert all(isinstance(r["prompt_tokens"], int) and isinstance(r["response_tokens"], int) for r in records)
    assert records[1]["prompt_tokens"] > records[0]["prompt_tokens"] > 0  # the history is sent again
    summary = json.loads((out / "summary.json").read_text())["conditions"]["first_error"]
    assert summary["prompt_tokens"] == sum(r["prompt_tokens"] for r in records)
