"""Blocksworld and Mystery Blocksworld as registered domains: oracle, moves, formats, build, verifiers, loop.

Expected values come from an independent simulator (block positions, not STRIPS atoms; shared with
``test_planning``) and from PlanBench's files in ../shared (skipped when absent).
"""
from __future__ import annotations

import json
import random
from collections import deque
from pathlib import Path

import pytest

from test_planning import RENAME, as_text, load_problem, positions, rows, simulate, steps_of

from finereason.core.engine import default_names, engine_names, get_engine
from finereason.core.engine import BrokenStep, StepKind
from finereason.core.literals import parse_literal
from finereason.common.verdict import ParseError, StateError
from finereason.verification.verifiers import format_ok, verify_end_to_end, verify_state_checking, verify_state_transition

DOMAINS = ("blocksworld", "mystery_blocksworld")


# ---------------------------------------------------------------- the independent oracle
def moves(pos: dict[str, str]) -> list[dict[str, str]]:
    """Every position one 4-op action away (written from the rules, not from the PDDL)."""
    held = [b for b, p in pos.items() if p == "hand"]
    clear = [b for b in pos if pos[b] != "hand" and b not in pos.values()]
    out = []
    if held:
        x = held[0]
        out.append({**pos, x: "table"})
        out += [{**pos, x: y} for y in clear]
    else:
        out += [{**pos, x: "hand"} for x in clear]
    return out


def reaches(pos: dict[str, str], goal, left: int) -> bool:
    """Whether the goal (``on`` facts) can be reached within ``left`` actions (plain BFS)."""
    ons = [(RENAME.get(g[0], g[0]), *g[1:]) for g in goal]

    def done(p: dict[str, str]) -> bool:
        return all(p.get(x) == y for _, x, y in ons)

    key = lambda p: tuple(sorted(p.items()))  # noqa: E731
    seen = {key(pos)}
    frontier = deque([(pos, 0)])
    while frontier:
        p, d = frontier.popleft()
        if done(p):
            return True
        if d == left:
            continue
        for q in moves(p):
            if key(q) not in seen:
                seen.add(key(q))
                frontier.append((q, d + 1))
    return False


def walk_states(engine, puzzle, rng: random.Random, count: int):
    """States met on random walks from the initial state (all the tree's depths)."""
    out = []
    while len(out) < count:
        state = engine.initial(puzzle)
        out.append(state)
        while len(out) < count:
            kids = list(engine.children(puzzle, state))
            if not kids:
                break
            state = rng.choice(kids)
            out.append(state)
    return out


# ---------------------------------------------------------------- registry and oracle
def test_registered_but_built_only_when_named():
    names = engine_names()
    assert "blocksworld" in names and "mystery_blocksworld" in names
    assert "blocksworld" not in default_names() and "mystery_blocksworld" not in default_names()
    assert get_engine("blocksworld").vocabulary == "blocksworld"
    assert get_engine("mystery_blocksworld").vocabulary == "mystery"


@pytest.mark.parametrize("domain", DOMAINS)
def test_oracle_matches_an_independent_bfs(domain):
    engine = get_engine(domain)
    rng = random.Random(7)
    checked = {True: 0, False: 0}
    for index in range(12):
        puzzle = engine.source("test", 3, index, {}).puzzle
        for state in walk_states(engine, puzzle, rng, 25):
            expected = reaches(positions(state.atoms), puzzle.goal, puzzle.budget - state.steps)
            assert engine.is_solvable(puzzle, state) == expected, (puzzle, state)
            checked[expected] += 1
            kids = list(engine.children(puzzle, state))
            finished = state.steps >= puzzle.budget or set(puzzle.goal) <= state.atoms
            assert len(kids) == (0 if finished else len(moves(positions(state.atoms))))
            assert sorted(map(sorted_pos, (positions(k.atoms) for k in kids))) == \
                ([] if finished else sorted(map(sorted_pos, moves(positions(state.atoms)))))
    assert checked[True] > 30 and checked[False] > 30


def sorted_pos(pos: dict[str, str]) -> tuple:
    return tuple(sorted(pos.items()))


@pytest.mark.parametrize("domain", DOMAINS)
def test_generated_budget_is_optimal_length_plus_slack(domain):
    from finereason.domains.blocksworld.source import SLACK

    engine = get_engine(domain)
    for index in range(8):
        source = engine.source("test", 0, index, {})
        puzzle, record = source.puzzle, source.record
        optimal = record["outputs"]["optimal_length"]
        assert puzzle.budget == optimal + SLACK == record["inputs"]["step_budget"]
        assert 3 <= len(puzzle.objects) <= 5 and not set(puzzle.goal) <= puzzle.init
        ok, failed = simulate(positions(puzzle.init), [(RENAME.get(g[0], g[0]), *g[1:]) for g in puzzle.goal],
                              steps_of(" ".join(record["outputs"]["plan"])))
        assert ok and failed is None
        assert not reaches(positions(puzzle.init), puzzle.goal, optimal - 1)
    assert engine.source("test", 0, 3, {}) == engine.source("test", 0, 3, {})
    assert engine.source("test", 0, 3, {}).key != engine.source("train", 0, 3, {}).key


# ---------------------------------------------------------------- moves
@pytest.mark.parametrize("domain", DOMAINS)
def test_moves_children_and_undo_agree_with_step(domain):
    engine = get_engine(domain)
    rng = random.Random(3)
    for index in range(6):
        puzzle = engine.source("test", 1, index, {}).puzzle
        for state in walk_states(engine, puzzle, rng, 12):
            assert engine.step(puzzle, state, state).kind is StepKind.NONE
            for child in engine.children(puzzle, state):
                assert engine.step(puzzle, state, child).kind is StepKind.FORWARD
                assert state in list(engine.undo_moves(puzzle, child))
                assert engine.step(puzzle, child, state).kind is StepKind.BACKWARD
                wrong = type(child)(child.atoms, child.steps + 1) if child.steps < puzzle.budget else None
                if wrong is not None:
                    assert engine.step(puzzle, state, wrong).kind is StepKind.INVALID
                for grandchild in engine.children(puzzle, child):
                    if grandchild.atoms != state.atoms:
                        assert engine.step(puzzle, state, grandchild).kind is StepKind.MULTIPLE
            for prior in engine.undo_moves(puzzle, state):
                assert state in list(engine.children(puzzle, prior))


def test_impossible_facts_are_invalid_and_goal_states_are_complete():
    engine = get_engine("blocksworld")
    puzzle = engine.source("test", 0, 0, {}).puzzle
    start = engine.initial(puzzle)
    impossible = type(start)(start.atoms | {("on", "a", "a")}, 1)
    step = engine.step(puzzle, start, impossible)
    assert step.kind is StepKind.INVALID and "(on a a)" in step.reasons[0]
    goal = engine.solve(puzzle)
    assert set(puzzle.goal) <= goal.atoms and list(engine.children(puzzle, goal)) == []
    assert engine.check_solution(puzzle, goal) == [] and engine.check_solution(puzzle, start)


# ---------------------------------------------------------------- formats
@pytest.mark.parametrize("domain", DOMAINS)
def test_states_and_records_round_trip(domain):
    engine = get_engine(domain)
    source = engine.source("test", 2, 5, {})
    puzzle = source.puzzle
    assert engine.puzzle_from_official(source.record) == puzzle
    from finereason.data.sampling import sample_states
    from finereason.core.puzzle_sources import rng_for

    samples = sample_states(engine, puzzle, engine.initial(puzzle), rng_for(0, "t"), [True, False, True, False],
                            need_dead_end=True)
    assert {s.item.solvable for s in samples} == {True, False}
    for sample in samples:
        item = sample.item
        text = engine.render(puzzle, item.current)
        assert engine.parse_state(puzzle, parse_literal(text)) == item.current
        record = json.loads(json.dumps(engine.item_to_official(item, source.record)))
        assert engine.item_from_official(record) == item
        assert record["outputs"]["current_status"] == ("Solvable" if item.solvable else "Unsolvable")
        assert engine.depth(puzzle, item.current) == item.current.steps == sample.depth


def test_fact_spellings_and_bad_states():
    engine = get_engine("blocksworld")
    puzzle = engine.source("test", 0, 1, {}).puzzle
    state = engine.initial(puzzle)
    facts = sorted(state.atoms)
    spelled = [f"{a[0].upper()}({', '.join(a[1:])})" if i % 2 else " ".join(a) for i, a in enumerate(facts)]
    assert engine.parse_state(puzzle, [spelled, 0]) == state
    colours = {"a": "red", "b": "blue", "c": "orange"}
    assert engine.parse_state(puzzle, [["(" + " ".join([a[0], *(colours.get(x, x) for x in a[1:])]) + ")"
                                        for a in facts], 0]) == state
    for bad in ([[], 0, 1], "x", [["(on a)"], 0], [["(fly a)"], 0], [["(on a z)"], 0], [[], puzzle.budget + 1],
                [[], True], [[3], 0]):
        with pytest.raises(StateError):
            engine.parse_state(puzzle, bad)
    with pytest.raises(StateError):
        get_engine("mystery_blocksworld").puzzle_from_official(engine.source("test", 0, 1, {}).record)


# ---------------------------------------------------------------- verifiers
@pytest.mark.parametrize("domain", DOMAINS)
def test_end_to_end_reads_plans_in_every_spelling(domain):
    engine = get_engine(domain)
    source = engine.source("test", 0, 2, {})
    puzzle, plan = source.puzzle, steps_of(" ".join(source.record["outputs"]["plan"]))
    styles = ("letters", "colours", "sentences") if domain == "blocksworld" else ("letters",)
    for style in styles:
        verdict = verify_end_to_end(engine, puzzle, f"Let me think.\nAnswer:\n{as_text(plan, style)}")
        assert verdict.correct, (style, verdict)
    dropped = verify_end_to_end(engine, puzzle, "Answer: " + as_text(plan[:-1], "letters"))
    assert not dropped.correct and dropped.category == "invalid_solution"
    assert all(r.startswith("goal not reached") for r in dropped.reasons)
    swapped = plan[1:2] + plan[:1] + plan[2:]
    bad = verify_end_to_end(engine, puzzle, "Answer: " + as_text(swapped, "letters"))
    ok, failed = simulate(positions(puzzle.init), [(RENAME.get(g[0], g[0]), *g[1:]) for g in puzzle.goal],
                          swapped)
    assert not bad.correct and bad.reasons[0].startswith(f"step {failed} ")
    # a bare plan is an answer too (the final commitment, marked or not); the format check asks for the marker
    assert verify_end_to_end(engine, puzzle, as_text(plan, "letters")).correct
    assert not format_ok("end_to_end", as_text(plan, "letters"), domain=domain)
    assert format_ok("end_to_end", "Answer:\n" + as_text(plan, "letters"), domain=domain)
    assert verify_end_to_end(engine, puzzle, "Answer: I do not know.").category == "parse_error"
    assert engine.answer_readable("Answer: " + as_text(plan, "letters"), "end_to_end")
    with pytest.raises(ParseError):
        engine.answer_readable("Answer: no idea", "end_to_end")


@pytest.mark.parametrize("domain", DOMAINS)
def test_state_tasks_score_every_category(domain):
    engine = get_engine(domain)
    from finereason.data.sampling import sample_states
    from finereason.core.puzzle_sources import rng_for

    seen: set[str] = set()
    for index in range(6):
        puzzle = engine.source("test", 4, index, {}).puzzle
        samples = sample_states(engine, puzzle, engine.initial(puzzle), rng_for(index, "c"), [True, False] * 3,
                                need_dead_end=True)
        for sample in samples:
            item = sample.item
            choice = "(A)" if item.solvable else "(B)"
            assert verify_state_checking(engine, item, f"Answer: {choice}").correct
            assert not verify_state_checking(engine, item, f"Answer: {'(B)' if item.solvable else '(A)'}").correct
            render = lambda s: f"Next state: {engine.render(puzzle, s)}"  # noqa: E731
            kids = list(engine.children(puzzle, item.current))
            answers = [render(k) for k in kids] + [render(item.current), "Next state: [[], 0]"]
            if item.parent is not None:
                answers.append(render(item.parent))
                answers += [render(s) for s in engine.children(puzzle, item.parent) if s != item.current][:2]
            answers += [render(g) for k in kids[:1] for g in engine.children(puzzle, k) if g.atoms != item.current.atoms][:1]
            for answer in answers:
                verdict = verify_state_transition(engine, item, answer)
                seen.add(verdict.category)
                if verdict.correct:
                    proposed = engine.parse_state(puzzle, parse_literal(answer[len("Next state: "):]))
                    if item.solvable:
                        assert proposed in kids and engine.is_solvable(puzzle, proposed)
                    else:
                        assert proposed == item.parent
    assert {"correct", "invalid_move", "multiple_moves", "unsolvable_child", "backtracking_failure", "sibling"} <= seen


# ---------------------------------------------------------------- process scoring and verifier candidates
def test_read_steps_and_mutations():
    engine = get_engine("blocksworld")
    source = engine.source("test", 0, 4, {})
    puzzle, plan = source.puzzle, steps_of(" ".join(source.record["outputs"]["plan"]))
    states = engine.read_steps(puzzle, "Answer: " + as_text(plan, "colours"))
    assert len(states) == len(plan) and [s.steps for s in states] == list(range(1, len(plan) + 1))
    assert set(puzzle.goal) <= states[-1].atoms
    swapped = plan[1:2] + plan[:1] + plan[2:]
    broken = engine.read_steps(puzzle, "Answer: " + as_text(swapped, "letters"))
    first = next(i for i, s in enumerate(broken) if isinstance(s, BrokenStep))
    assert first + 1 == simulate(positions(puzzle.init), [], swapped)[1]
    assert len(broken) == len(swapped)  # the actions after a broken one are listed too (counted, not verified)
    solution = engine.solve(puzzle)
    for kind in ("broken", "ablated", "random"):
        candidate = engine.mutate_solution(puzzle, solution, random.Random(1), kind)
        assert candidate is not None, kind
        text = "Answer: " + engine.answer_text(puzzle, candidate)
        assert not verify_end_to_end(engine, puzzle, text).correct
    assert verify_end_to_end(engine, puzzle, "Answer: " + engine.answer_text(puzzle, solution)).correct


# ---------------------------------------------------------------- PlanBench instances
@pytest.mark.parametrize("vocabulary", ("blocksworld", "mystery"))
def test_planbench_instances_optimal_lengths_and_plans(vocabulary):
    from conftest import shared_path
    from finereason.domains.blocksworld.source import SLACK, read_instance

    engine = get_engine("blocksworld" if vocabulary == "blocksworld" else "mystery_blocksworld")
    chosen = [r for r in rows() if r["domain"] == ("blocksworld" if vocabulary == "blocksworld" else "mystery_blocksworld")][:40]
    assert len(chosen) == 40
    for row in chosen:
        source = read_instance(shared_path(row["instance_file"]))
        puzzle = source.puzzle
        assert source.record["outputs"]["optimal_length"] == int(row["optimal_plan_len_bfs"])
        assert puzzle.budget == int(row["optimal_plan_len_bfs"]) + SLACK
        text = "Answer:\n" + (row["ground_truth_plan_as_in_planbench"].replace(") (", ")\n("))
        assert verify_end_to_end(engine, puzzle, text).correct, row["instance_id"]
        start = engine.initial(puzzle)
        assert engine.is_solvable(puzzle, start)
        tight = type(puzzle)(puzzle.vocabulary, puzzle.objects, puzzle.init, puzzle.goal, int(row["plan_len"]) - 1)
        assert not engine.is_solvable(tight, engine.initial(tight))


def test_planbench_unsolvable_instances_have_no_reachable_goal():
    from conftest import shared_path
    from finereason.domains.blocksworld.source import read_instance

    folder = shared_path("blocksworld", "llm_planning_analysis", "unsolvable_blocksworld")
    engine = get_engine("blocksworld")
    files = sorted(folder.glob("generated_basic/instance-*.pddl")) or sorted(folder.rglob("instance-*.pddl"))
    assert len(files) == 101
    for path in files:
        source = read_instance(path, folder / "generated_domain.pddl", budget=40)
        assert source.record["outputs"]["optimal_length"] is None
        assert not engine.is_solvable(source.puzzle, engine.initial(source.puzzle))
        pos, goal = load_problem(path)
        assert not reaches(pos, [g for g in goal if g[0] == "on"], 40) or any(g[0] != "on" for g in goal)


# ---------------------------------------------------------------- build, baselines and the loop
@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    pytest.importorskip("pyarrow")
    from finereason.dataset_builders.build import BuildConfig, build

    out = tmp_path_factory.mktemp("bw") / "data"
    build(BuildConfig(out=out, seed=2, per_task=8, train_size=0, e2e_size=3, domains=DOMAINS, progress=False))
    return out


def test_build_rows_score_with_the_verifiers(built, tmp_path):
    from finereason.models.baselines import oracle, random_answer
    from finereason.data.folder import open_data_folder
    from finereason.dataset_builders.build import BuildConfig, build
    from finereason.verification.scoring import score_row

    folder = open_data_folder(built)
    for domain in DOMAINS:
        for task in ("state_checking", "state_transition", "end_to_end"):
            table = folder.read_table(f"{domain}_{task}").to_pylist()
            assert len(table) == (3 if task == "end_to_end" else 8)
            assert all(r["puzzle"] == domain for r in table)
            assert all(score_row(r, oracle(r)).verdict.correct for r in table)
            assert not all(score_row(r, random_answer(r, 0)).verdict.correct for r in table) or task == "end_to_end"
            if task == "state_checking":
                assert {r["label"] for r in table} == {"Solvable", "Unsolvable"}
    again = tmp_path / "again"
    build(BuildConfig(out=again, seed=2, per_task=8, train_size=0, e2e_size=3, domains=DOMAINS, progress=False))
    for path in sorted(p for p in built.rglob("*.parquet")):
        assert (again / path.relative_to(built)).read_bytes() == path.read_bytes()


@pytest.mark.parametrize("domain", DOMAINS)
def test_loop_oracle_certified_in_round_one_and_feedback_has_no_plan(built, tmp_path, domain):
    pytest.importorskip("lm_eval")
    from finereason.models.baselines import random_answer
    from finereason.commands import main
    from finereason.verification.feedback import SOUND_LEVELS, sound_feedback
    from finereason.workflows.loop import load_rows
    from finereason.core.rows import row_puzzle
    from finereason.common.verdict import Verdict

    out = tmp_path / "out"
    assert main(["loop", "--data", str(built), "--out", str(out), "--model", "finereason-oracle", "--domain", domain,
                 "--max-rounds", "2", "--feedback", *SOUND_LEVELS, "--sampling"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    for condition, result in summary["conditions"].items():
        assert result["accuracy_by_round"] == {"1": 1.0, "2": 1.0}, condition
    engine = get_engine(domain)
    rows_, _ = load_rows(domain, str(built))
    for row in rows_:
        puzzle = row_puzzle(row)
        plan = engine.answer_text(puzzle, engine.solve(puzzle))
        leaky = Verdict(False, "invalid_solution", (plan, "another error"))
        for seed in range(4):
            verdict = verify_end_to_end(engine, puzzle, random_answer(row, seed))
            for v in ([verdict] if not verdict.correct else []) + [leaky]:
                for level in SOUND_LEVELS:
                    text = sound_feedback(engine, puzzle, v, level)
                    for candidate in (text, *text.splitlines()):
                        assert not verify_end_to_end(engine, puzzle, f"Answer: {candidate}").correct
