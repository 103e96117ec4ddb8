"""Process scoring of full solutions: the first step that breaks a rule, the first that enters a dead end.

Expected step numbers come from the test's own construction (which written step it corrupted); the
oracle's dead-end labels are cross-checked with an independent brute-force search (tests/brute.py) where
one exists, and by construction (a step that contradicts the unique solution) elsewhere.
"""
from __future__ import annotations

import json

import pytest
from brute import coloring_completable

from finereason.domains.game_of_24.engine import Game24Engine
from finereason.domains.game_of_24.puzzle import Game24Puzzle
from finereason.domains.sudoku.engine import BIT, allowed
from finereason.core.engine import get_engine
from finereason.verification.feedback import sound_feedback
from finereason.verification.process import MIN_PROCESS_STEPS, ProcessVerdict, process_score, summarize_process
from finereason.core.steps import bracketed_lists
from finereason.common.verdict import Verdict
from finereason.verification.verifiers import verify_end_to_end

SUDOKU, COLORING, GAME24, GRID = "sudoku", "graph_coloring", "game_of_24", "grid_puzzle"


def puzzle_of(domain: str, index: int = 0):
    return get_engine(domain).source("test", 1, index, {}).puzzle


# ------------------------------------------------------------------ Sudoku
def sudoku_case():
    eng = get_engine(SUDOKU)
    pz = puzzle_of(SUDOKU)
    sol, init = eng.solve(pz), eng.initial(pz)
    empty = [i for i in range(81) if not init[i]]
    return eng, pz, sol, init, empty


def fill(i: int, d: int, style: int = 0) -> str:
    r, c = i // 9 + 1, i % 9 + 1
    return [f"r{r}c{c} = {d}", f"({r}, {c}) -> {d}", f"Row {r}, column {c} is {d}", f"place {d} at R{r}C{c}"][style % 4]


def test_sudoku_valid_fill_order_in_any_style():
    eng, pz, sol, _, empty = sudoku_case()
    text = "\n".join(fill(i, sol[i], k) for k, i in enumerate(empty))
    v = process_score(eng, pz, text + f"\nAnswer: {eng.render(pz, sol)}")
    assert (v.first_invalid_step, v.first_dead_end_step, v.steps_read) == (None, None, len(empty))
    assert v.first_error() is None


def test_sudoku_repeat_and_dead_end_are_located():
    eng, pz, sol, init, empty = sudoku_case()
    # step 3 repeats a digit already in the cell's row
    i = empty[2]
    in_row = next(init[j] for j in range(i // 9 * 9, i // 9 * 9 + 9) if init[j])
    text = "\n".join([fill(empty[0], sol[empty[0]]), fill(empty[1], sol[empty[1]]), fill(i, in_row)])
    v = process_score(eng, pz, text)
    assert (v.first_invalid_step, v.first_dead_end_step, v.steps_read) == (3, None, 3)
    assert f"{in_row}" in " ".join(v.reasons)
    assert v.first_error().startswith("Step 3 breaks a rule:")
    # step 2 fills a legal digit that is not the (unique) solution's: a dead end
    g1 = init[:empty[0]] + (sol[empty[0]],) + init[empty[0] + 1:]
    j = next(j for j in empty[1:-1] if any(d != sol[j] and allowed(g1, j) & BIT[d] for d in range(1, 10)))
    d = next(d for d in range(1, 10) if d != sol[j] and allowed(g1, j) & BIT[d])
    text = "\n".join([fill(empty[0], sol[empty[0]]), fill(j, d), fill(empty[-1], sol[empty[-1]])])
    v = process_score(eng, pz, text)
    assert (v.first_invalid_step, v.first_dead_end_step, v.steps_read) == (None, 2, 3)
    assert v.first_error() == "Step 2 enters a dead end: from the state it reaches, the puzzle can no longer be solved."


def test_sudoku_grids_written_one_after_another():
    eng, pz, sol, init, empty = sudoku_case()
    grids, g = [], list(init)
    for i in empty[:3]:
        g[i] = sol[i]
        grids.append(eng.render(pz, tuple(g)))
    v = process_score(eng, pz, "\n".join([eng.render(pz, init), *grids]))  # restating the start is no step
    assert (v.first_invalid_step, v.steps_read) == (None, 3)
    given = next(i for i in range(81) if init[i])
    g[given] = init[given] % 9 + 1
    v = process_score(eng, pz, "\n".join([*grids, eng.render(pz, tuple(g))]))
    assert v.first_invalid_step == 4 and "given" in v.reasons[0]


def test_candidates_and_unfinished_reasoning_are_no_steps():
    eng, pz, sol, _, empty = sudoku_case()
    assert process_score(eng, pz, "r1c3: 5, 7 or 8; (2, 3) -> 4 or 5; row 1, column 2 could be 6").steps_read == 0
    text = "\n".join(fill(i, sol[i]) for i in empty[:4])
    assert process_score(eng, pz, f"<think>{text}").steps_read == 0
    assert process_score(eng, pz, f"<think>ignored</think>{text}").steps_read == 4
    assert process_score(eng, pz, None).steps_read == 0  # type: ignore[arg-type]


# ------------------------------------------------------------------ graph coloring
def test_graph_coloring_order():
    eng = get_engine(COLORING)
    pz = puzzle_of(COLORING)
    sol = eng.solve(pz)
    lines = [f"vertex {v}: color {c}" for v, c in enumerate(sol)]
    assert process_score(eng, pz, "\n".join(lines)).steps_read == pz.n
    u = pz.adjacency[0][0]
    v = process_score(eng, pz, f"{lines[0]}\nColor vertex {u} with color {sol[0]}")
    assert v.first_invalid_step == 2 and v.reasons == (f"vertices 0 and {u} share color {sol[0]}",)
    v = process_score(eng, pz, f"v{pz.n} = 1")
    assert v.first_invalid_step == 1 and "does not exist" in v.reasons[0]
    # neighbour lists and candidate lists are not colorings
    assert process_score(eng, pz, "vertex 0: 1, 2\nvertex 1 is 2 or 3").steps_read == 0


def test_graph_coloring_dead_end_agrees_with_brute_force():
    eng = get_engine(COLORING)
    checked = 0
    for index in range(8):
        pz = puzzle_of(COLORING, index)
        sol = eng.solve(pz)
        if sol is None:
            continue
        # color vertices in order, but give the last-but-one step's vertex another non-clashing color
        state = [0] * pz.n
        lines, expected = [], None
        for step, v in enumerate(range(pz.n), 1):
            color = sol[v]
            if step == 3:
                others = [c for c in range(1, pz.k + 1) if c != sol[v] and all(state[u] != c for u in pz.adjacency[v])]
                color = others[0] if others else color
            state[v] = color
            lines.append(f"vertex {v} -> {color}")
            if expected is None and step <= 4 and not coloring_completable(pz.adjacency, pz.k, tuple(state)):
                expected = step
        v = process_score(eng, pz, "\n".join(lines))
        assert v.first_invalid_step is None or v.first_invalid_step > 3  # later solution colors may clash
        if v.first_invalid_step is not None and (expected is None or expected >= v.first_invalid_step):
            expected = None  # a clash is an invalid step, not a dead end
        if expected is not None:
            assert v.first_dead_end_step == expected, index
            checked += 1
        else:
            assert v.first_dead_end_step is None or v.first_dead_end_step > 4, index
    assert checked >= 1  # at least one dead end was located and confirmed


# ------------------------------------------------------------------ Game of 24
G24 = Game24Puzzle((4, 6, 8, 8), 24)


@pytest.mark.parametrize("text, expected", [
    ("1. 4 * 6 = 24\n2. 8 / 8 = 1\n3. 24 * 1 = 24\nAnswer: (4 * 6) * (8 / 8) = 24", (None, None, 3)),
    ("Step 1: 8 - 8 = 0. Step 2: 4 × 6 = 24. Step 3: 24 + 0 = 24", (None, None, 3)),
    ("4*6=25\n8/8=1", (1, None, 2)),  # the step after a false one is counted, not verified
    ("4 + 6 = 10\n10 + 8 = 18\n18 - 8 = 10", (None, 1, 3)),
    ("8 / 8 = 1\n4 * 5 = 20", (2, None, 2)),
    ("[4, 6, 8, 8] -> [24, 8, 8] -> [24, 1] -> [24]", (None, None, 3)),
    ("[4,6,8,8] -> [10, 8, 8] -> [24, 1]", (2, 1, 2)),
    ("8 / 6 = 1.33\n1.33 * 4 = 5.33", (None, 2, 2)),
    ("8 / 6 = 1.4", (1, None, 1)),
    ("(4 * 6) * 1 = 24 and 4*6*1=24", (None, None, 0)),
])
def test_game24_step_lists(text, expected):
    v = process_score(GAME24, G24, text)
    assert (v.first_invalid_step, v.first_dead_end_step, v.steps_read) == expected, v


def test_game24_reasons_name_the_false_step():
    v = process_score(GAME24, G24, "4*6=25\n8/8=1")
    assert v.reasons == ("4 * 6 = 24, not 25",) and v.first_error().startswith("Step 1 breaks a rule: 4 * 6 = 24, not 25")
    assert process_score(GAME24, G24, "4*6=25").first_error() is None  # one step is a final answer, not a process
    v = process_score(GAME24, G24, "8 / 8 = 1\n4 * 5 = 20")
    assert "5 is not among the numbers" in v.reasons[0] and v.first_error().startswith("Step 2 breaks a rule")


def test_domain_without_a_step_reader():
    pz = puzzle_of(GRID)
    assert process_score(GRID, pz, "anything [1, 2] r1c1 = 3").steps_read == 0


# ------------------------------------------------------------------ hostile text and limits
def test_hostile_text_is_bounded():
    eng, pz, sol, _, empty = sudoku_case()
    huge = "[" * 100_000 + "r1c1 = 5 " * 50_000
    v = process_score(eng, pz, huge)
    assert v.steps_read <= 400
    read = list(bracketed_lists("[[[[[[[[[[[[[[1]]]]]]]]]]]]]] [1, 2] [oops"))
    assert read[-1] == (30, [1, 2]) and len(read) == 2 and str(read[0][1]).count("[") <= 8  # nesting limit
    many = "\n".join(f"{n} - {n} = 0" for n in range(1, 5000))
    v = process_score(GAME24, G24, many)
    assert v.first_invalid_step == 1 and v.steps_read <= 400


# ------------------------------------------------------------------ metrics
def test_summarize_process_hand_computed():
    verdicts = [ProcessVerdict(3, None, 3, ("x",)), ProcessVerdict(None, 2, 5), ProcessVerdict(None, None, 4),
                ProcessVerdict(None, None, 1), ProcessVerdict(None, None, 2, undecided=True), ProcessVerdict(1, 1, 2)]
    m = summarize_process(verdicts)
    assert m == {"process_rate_readable": 5 / 6, "process_rate_invalid_step": 2 / 5, "process_rate_dead_end": 2 / 5,
                 "process_rate_undecided": 1 / 5, "process_steps_read": 17 / 6}
    assert summarize_process([])["process_steps_read"] != summarize_process([])["process_steps_read"]  # undefined: NaN
    assert MIN_PROCESS_STEPS == 2


# ------------------------------------------------------------------ first_error feedback
def test_first_error_feedback_names_the_step_and_never_the_solution():
    eng, pz, sol, init, empty = sudoku_case()
    i = empty[2]
    in_row = next(init[j] for j in range(i // 9 * 9, i // 9 * 9 + 9) if init[j])
    text = "\n".join([fill(empty[0], sol[empty[0]]), fill(empty[1], sol[empty[1]]), fill(i, in_row)])
    verdict = verify_end_to_end(eng, pz, text + "\nAnswer: " + eng.render(pz, init))
    assert not verdict.correct
    feedback = sound_feedback(eng, pz, verdict, "first_error", process_score(eng, pz, text))
    assert "Step 3 breaks a rule" in feedback and eng.render(pz, sol) not in feedback
    # other levels and answers without steps keep the verdict's reasons
    assert "Step 3" not in sound_feedback(eng, pz, verdict, "all_errors", process_score(eng, pz, text))
    plain = sound_feedback(eng, pz, verdict, "first_error", process_score(eng, pz, "Answer: " + eng.render(pz, init)))
    assert plain == sound_feedback(eng, pz, verdict, "first_error")
    # a dead end
    v = process_score(GAME24, G24, "4 + 6 = 10\n10 + 8 = 18")
    text = sound_feedback(get_engine(GAME24), G24, Verdict(False, "invalid_solution", ("x",)), "first_error", v)
    assert "Step 1 enters a dead end" in text


def test_score_cli_process(tmp_path):
    pytest.importorskip("pyarrow")
    from finereason.commands import main
    from finereason.dataset_builders.build import BuildConfig, build

    out = tmp_path / "data"
    build(BuildConfig(out=out, seed=5, per_task=1, train_size=0, e2e_size=2, train_chunk_rows=4, train_file_rows=8,
                      progress=False, puzzles=(GAME24,)))
    from finereason.data.folder import open_data_folder

    rows = open_data_folder(out).read_table(f"{GAME24}_end_to_end").to_pylist()
    responses = tmp_path / "r.jsonl"
    nums = json.loads(rows[0]["inputs"])
    assert rows[0]["task"] == "end_to_end" and nums
    responses.write_text(json.dumps({"id": rows[0]["id"], "response": "1 + 1 = 3\n2 + 2 = 4\nAnswer: 1"}) + "\n"
                         + json.dumps({"id": rows[1]["id"], "response": "Answer: 1"}) + "\n", encoding="utf-8")
    scored = tmp_path / "s.jsonl"
    assert main(["score", "--data", str(out), "--config", f"{GAME24}_end_to_end", "--responses", str(responses),
                 "--out", str(scored), "--process"]) == 0
    lines = [json.loads(x) for x in scored.read_text().splitlines()]
    assert [ln["process"]["steps_read"] for ln in lines] == [2, 0]
    assert lines[0]["process"]["first_invalid_step"] == 1
    # --starts-in-think: the prompt opened <think>, so steps without </think> are unfinished reasoning
    assert main(["score", "--data", str(out), "--config", f"{GAME24}_end_to_end", "--responses", str(responses),
                 "--out", str(scored), "--process", "--starts-in-think"]) == 0
    lines = [json.loads(x) for x in scored.read_text().splitlines()]
    assert [ln["process"]["steps_read"] for ln in lines] == [0, 0]
    assert [ln["category"] for ln in lines] == ["parse_error", "parse_error"]
    assert main(["score", "--data", str(out), "--config", f"{GAME24}_state_checking", "--responses", str(responses),
                 "--process"]) == 2


def test_lm_eval_end_to_end_tasks_report_process_metrics():
    """The lm-eval hooks give every end-to-end row a process record and aggregate it as
    :func:`summarize_process` does (hand-counted: 3 answers, 2 show a process, 1 of those breaks a rule)."""
    pytest.importorskip("lm_eval")
    import importlib.util
    from pathlib import Path

    from finereason.dataset_builders.items import end_to_end_row
    from finereason.core.engine import get_engine
    from finereason.verification.process import PROCESS_METRICS

    spec = importlib.util.spec_from_file_location(
        "fr_utils_process", Path(__file__).resolve().parents[2] / "lm_eval_tasks" / "finereason" / "utils.py")
    utils = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(utils)
    engine = get_engine(Game24Engine.name)
    record = {"inputs": {"initial_state": ["4", "6", "8", "8"]}, "outputs": {}}
    row = end_to_end_row(engine, engine.puzzle_from_official(record), record, {})
    answers = ["1. 4 * 6 = 24\n2. 8 / 8 = 1\n3. 24 * 1 = 24\nAnswer: (4 * 6) * (8 / 8) = 24",
               "1. 8 / 8 = 1\n2. 4 * 5 = 20\nAnswer: (4 * 6) * (8 / 8)",
               "Answer: (4 * 6) * (8 / 8)"]
    results = [utils.process_results(row, [a]) for a in answers]
    assert all(set(PROCESS_METRICS) <= set(r) for r in results)
    metrics = {name: getattr(utils, f"agg_{name}")([r[name] for r in results]) for name in PROCESS_METRICS}
    assert metrics["process_rate_readable"] == pytest.approx(2 / 3)
    assert metrics["process_rate_invalid_step"] == pytest.approx(1 / 2)
    assert metrics["process_rate_dead_end"] == 0.0
    assert [r["acc"] for r in results] == [1.0, 1.0, 1.0]
    unfinished = utils.process_results(row, [answers[0].replace("Answer", "Maybe")], starts_in_think=True)
    assert unfinished["process_rate_readable"][2] == 0  # no </think>: unfinished reasoning shows no steps


# ------------------------------------------------------------------ an invalid first step
def test_invalid_first_step_followed_by_more_steps_is_read_and_counted():
    """A process whose very first step breaks a rule shows a process: it is readable, invalid at step 1,
    counted by ``process_rate_invalid_step``, and the first-error feedback points at step 1."""
    eng, pz, sol, init, empty = sudoku_case()
    given = next(i for i in range(81) if init[i])
    wrong = next(d for d in range(1, 10) if d != init[given])  # overwrite a given with another digit
    text = "\n".join([fill(given, wrong)] + [fill(i, sol[i], k) for k, i in enumerate(empty[:3], 1)])
    v = process_score(eng, pz, text)
    assert (v.first_invalid_step, v.steps_read, v.readable) == (1, 4, True), v
    assert summarize_process([v])["process_rate_invalid_step"] == 1.0
    verdict = verify_end_to_end(eng, pz, text + "\nAnswer: " + eng.render(pz, sol))
    feedback = sound_feedback(eng, pz, verdict, "first_error", v)
    assert "Step 1 breaks a rule" in feedback
    # a broken first step (a cell that does not exist) followed by more steps, in graph coloring
    cg = get_engine(COLORING)
    gp = puzzle_of(COLORING)
    gsol = cg.solve(gp)
    v = process_score(cg, gp, "\n".join([f"vertex {gp.n}: color 1"] + [f"vertex {u}: color {gsol[u]}" for u in range(3)]))
    assert (v.first_invalid_step, v.steps_read, v.readable) == (1, 4, True), v
    # one written step that breaks a rule is still a final answer, not a process
    v = process_score(eng, pz, fill(given, wrong))
    assert (v.first_invalid_step, v.steps_read, v.readable) == (1, 1, False)
