"""The domain contract: one suite that every registered puzzle domain must pass.

Parametrised over ``finereason.core.engine.engines()`` as collected (so a plugin registered before
collection is checked too) plus the demo domain of ``tests/demo_domain`` (registered only while its
tests run). Per-puzzle files keep only what is specific to one puzzle.

What a domain promises, and how each check can fail:

- official I/O round trips: ``item_to_official`` / ``item_from_official``, ``to_official`` (through
  JSON) / ``parse_state``, ``render`` / ``parse_state_text``, ``answer_text`` / ``parse_solution_text``;
- moves forward and back: every child is a ``FORWARD`` step (``NONE`` when it shows the
  same state, ``Engine.same``) and its ``undo_moves`` hold the parent; going back is a ``BACKWARD``
  step; an unchanged state is ``NONE``, two moves at once ``MULTIPLE``;
- the exact oracle against a brute force written from ``children`` and ``check_solution`` alone (a
  state is solvable iff some chain of forward moves reaches a state with no solution violations), on
  the small subtrees at the end of seeded solution paths;
- verdicts: the oracle's answers are ``correct``, a copy of the current state or a wrong choice is
  not, unreadable text is ``parse_error``, and every category is a member of the vocabulary;
- prompts of every task render and open with the domain's rules;
- the domain description: a title, difficulty fields the row schema has, identity fields present in
  the official inputs, depth 0 at the root and one more per move, a deterministic seeded source.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any, Iterator

import pytest

from demo_domain import DEMO
from finereason.models.baselines import oracle
from finereason.dataset_builders.items import DIFFICULTY_FIELDS, end_to_end_row, state_row
from finereason.core.engine import Engine, StateItem, StepKind, engine_names, engines, get_engine, register, unregister
from finereason.verification.scoring import score_row
from finereason.core.prompts import end_to_end_prompt, state_checking_prompt, state_transition_prompt
from finereason.data.sampling import make_item, solution_path
from finereason.core.puzzle_sources import SourcePuzzle, rng_for
from finereason.common.verdict import UNDECIDED, Category

ENGINES: list[Engine] = [*engines(), *([DEMO] if DEMO.name not in engine_names() else [])]
INSTANCES = 3          # seeded source instances per domain
TAIL = 4               # states at the end of each solution path whose subtrees are brute-forced
BRUTE_BUDGET = 200     # new states one brute-force search may decide before its state is left out
ORACLE_STATES = 500    # states decided by brute force per instance
GARBAGE = "I am not sure. Maybe the answer is somewhere between (C) and [[banana"


@pytest.fixture(params=ENGINES, ids=lambda e: e.name)
def engine(request) -> Iterator[Engine]:
    """Each domain, registered for the test (the demo only for its own tests)."""
    eng = request.param
    added = eng.name not in engine_names()
    if added:
        register(eng)
    try:
        yield get_engine(eng.name)
    finally:
        if added:
            unregister(eng.name)


# ------------------------------------------------------------------ shared material
@lru_cache(maxsize=None)
def _sources(name: str) -> tuple[SourcePuzzle, ...]:
    eng = get_engine(name)
    return tuple(eng.source("test", 0, i, {}) for i in range(INSTANCES))


def sources(engine: Engine) -> tuple[SourcePuzzle, ...]:
    return _sources(engine.name)


@lru_cache(maxsize=None)
def _paths(name: str) -> tuple[tuple[Any, ...], ...]:
    eng = get_engine(name)
    return tuple(tuple(solution_path(eng, s.puzzle, eng.initial(s.puzzle), rng_for(0, "contract", name, i)))
                 for i, s in enumerate(_sources(name)))


def paths(engine: Engine) -> list[tuple[SourcePuzzle, tuple[Any, ...]]]:
    """(instance, a seeded root-to-solution path) per instance."""
    return list(zip(sources(engine), _paths(engine.name)))


def kids(engine: Engine, puzzle: Any, state: Any) -> list[Any]:
    return [c for c in engine.children(puzzle, state) if c != state]


def tail_states(engine: Engine, puzzle: Any, path: tuple[Any, ...]) -> list[Any]:
    """The last :data:`TAIL` path states, their children and grandchildren (no repeats)."""
    out: dict[Any, None] = {}
    for state in path[-TAIL:]:
        out[state] = None
        for child in kids(engine, puzzle, state):
            out[child] = None
            for grandchild in kids(engine, puzzle, child)[:8]:
                out[grandchild] = None
    return list(out)


def items(engine: Engine) -> list[tuple[StateItem, dict]]:
    """(item, the instance's official record) on every solution path but its solved end (solvable)
    and, for every other path state, its dead-end child (unsolvable)."""
    out = []
    for source, path in paths(engine):
        puzzle = source.puzzle
        for depth in range(len(path) - 1):
            item = make_item(engine, puzzle, list(path[: depth + 1]))
            out.append((item, source.record))
            if item.unsolvable_child is not None and depth % 2:
                out.append((make_item(engine, puzzle, [*path[: depth + 1], item.unsolvable_child]), source.record))
    return out


class TooBig(Exception):
    """A brute-force search passed its budget of states: the state is left out."""


def brute_solvable(engine: Engine, puzzle: Any, state: Any, memo: dict[Any, bool], limit: int) -> bool:
    """Whether the tree's branching (``branch``, paper order: the moves the official trees expand, a
    subset of ``children`` that still reaches every solution) leads to a full solution
    (``check_solution`` empty). ``memo`` holds decided states; raises :class:`TooBig` once it holds
    ``limit``."""
    if state in memo:
        return memo[state]
    if len(memo) >= limit:
        raise TooBig
    result = not engine.check_solution(puzzle, state) or any(
        brute_solvable(engine, puzzle, child, memo, limit) for child in engine.branch(puzzle, state) if child != state)
    memo[state] = result
    return result


def oracle_cases(engine: Engine, puzzle: Any, path: tuple[Any, ...]) -> Iterator[tuple[Any, bool]]:
    """(state, brute-force truth) for path states and their children, from the solution backwards,
    skipping states whose subtree is too big to search (:data:`BRUTE_BUDGET` new states each,
    :data:`ORACLE_STATES` in all)."""
    memo: dict[Any, bool] = {}
    for state in reversed(path):
        for candidate in [state, *kids(engine, puzzle, state)]:
            if len(memo) >= ORACLE_STATES:
                return
            try:
                truth = brute_solvable(engine, puzzle, candidate, memo, len(memo) + BRUTE_BUDGET)
            except TooBig:
                continue
            yield candidate, truth


def vocabulary() -> set[str]:
    return {c.value for c in Category} | {UNDECIDED}


# ------------------------------------------------------------------ the domain description
def test_description(engine):
    assert engine.title.strip(), "a display title"
    assert re.fullmatch(r"[a-z][a-z0-9_]*", engine.name), "names prefix config and task names"
    assert get_engine(engine.official_name) is engine and get_engine(engine.name) is engine
    assert set(engine.difficulty_fields) <= set(DIFFICULTY_FIELDS) - {"depth"}
    assert set(engine.plot_fields) <= set(engine.difficulty_fields)
    assert engine.identity_fields, "training mixes need an instance identity"
    assert engine.train_samples >= 0 and engine.move_text.strip() and len(engine.choice_words) == 2
    engine.check_source_options({})  # no option given: always usable


def test_source_is_seeded_and_described(engine):
    first = sources(engine)
    again = [engine.source("test", 0, i, {}) for i in range(INSTANCES)]
    for a, b in zip(first, again):
        assert (a.key, a.puzzle, json.dumps(a.record, sort_keys=True), a.difficulty) == \
            (b.key, b.puzzle, json.dumps(b.record, sort_keys=True), b.difficulty)
    assert len({s.key for s in first}) == INSTANCES, "instances of one stream differ"
    other_seed = {engine.source("test", 1, i, {}).key for i in range(INSTANCES)}
    train = {engine.source("train", 0, i, {}).key for i in range(INSTANCES)}
    assert other_seed != {s.key for s in first} and train != {s.key for s in first}
    for s in first:
        assert set(s.difficulty) <= set(engine.difficulty_fields)
        assert set(engine.difficulty(s.puzzle)) <= set(engine.difficulty_fields)
        assert set(engine.identity_fields) <= set(s.record["inputs"])
        assert engine.puzzle_from_official(s.record) == s.puzzle
        json.dumps(s.record)


def test_depth_counts_moves(engine):
    for source, path in paths(engine):
        assert len(path) > 1, "a seeded instance is solvable and needs moves"
        assert [engine.depth(source.puzzle, s) for s in path] == list(range(len(path)))


# ------------------------------------------------------------------ official I/O
def test_item_round_trip(engine):
    for source, path in paths(engine):
        for depth in range(len(path)):
            item = make_item(engine, source.puzzle, list(path[: depth + 1]))
            official = json.loads(json.dumps(engine.item_to_official(item, source.record)))
            assert set(engine.identity_fields) <= set(official["inputs"])
            back = engine.item_from_official(official)
            assert back.puzzle == item.puzzle and back.solvable == item.solvable
            for field in ("current", "parent", "grandparent", "unsolvable_child"):
                a, b = getattr(item, field), getattr(back, field)
                assert (a is None) == (b is None) and (a is None or engine.same(a, b)), field


def test_state_round_trips(engine):
    for source, path in paths(engine):
        puzzle = source.puzzle
        for state in tail_states(engine, puzzle, path) + list(path):
            value = json.loads(json.dumps(engine.to_official(puzzle, state)))
            assert engine.same(engine.parse_state(puzzle, value), state)
            text = f"Reasoning first.\nNext state: {engine.render(puzzle, state)}"
            assert engine.same(engine.parse_state_text(puzzle, text), state)
        solution = engine.solve(puzzle)
        assert solution is not None and engine.check_solution(puzzle, solution) == []
        answer = engine.parse_solution_text(puzzle, f"Done.\nAnswer: {engine.answer_text(puzzle, solution)}")
        assert engine.check_solution(puzzle, answer) == []


# ------------------------------------------------------------------ moves
def test_moves_forward_and_back(engine):
    multiple = 0
    for source, path in paths(engine):
        puzzle = source.puzzle
        for state in path[:-1]:
            assert engine.step(puzzle, state, state).kind is StepKind.NONE
            children = kids(engine, puzzle, state)
            assert children, "a path state that is not a solution has a move"
            for child in children:
                assert any(engine.same(u, state) for u in engine.undo_moves(puzzle, child)), "undo reaches the parent"
                if engine.same(child, state):  # a move that changes what the state records, not what it shows
                    assert engine.step(puzzle, state, child).kind is StepKind.NONE
                    continue
                assert engine.step(puzzle, state, child).kind is StepKind.FORWARD
                assert engine.step(puzzle, child, state).kind is StepKind.BACKWARD
            grandchildren = [g for g in kids(engine, puzzle, children[0])  # two moves at once, unless one move
                             if not any(engine.same(g, x) for x in (state, *children))]  # reaches the state too
            for grandchild in grandchildren[:3]:
                kind = engine.step(puzzle, state, grandchild).kind
                assert kind in (StepKind.MULTIPLE, StepKind.INVALID)
                multiple += kind is StepKind.MULTIPLE
        assert list(engine.undo_moves(puzzle, path[0])) == [], "nothing to undo at the root"
    assert multiple, "two moves at once are recognised as such"


def test_children_come_from_undo(engine):
    for source, path in paths(engine):
        puzzle = source.puzzle
        for state in path[1:]:
            for back in engine.undo_moves(puzzle, state):
                assert any(engine.same(c, state) for c in kids(engine, puzzle, back))


# ------------------------------------------------------------------ the oracle
def test_oracle_matches_brute_force(engine):
    seen = {True: 0, False: 0}
    for source, path in paths(engine):
        puzzle = source.puzzle
        for state, truth in oracle_cases(engine, puzzle, path):
            assert engine.is_solvable(puzzle, state) is truth, engine.render(puzzle, state)
            seen[truth] += 1
            if truth:
                solution = engine.solve(puzzle, state)
                assert solution is not None and engine.check_solution(puzzle, solution) == []
            else:
                assert engine.solve(puzzle, state) is None
    assert min(seen.values()) >= 3, f"both labels are exercised: {seen}"
    for source, path in paths(engine):  # the branching is a subset of the moves
        for state in path:
            assert all(any(engine.same(b, c) for c in engine.children(source.puzzle, state))
                       for b in engine.branch(source.puzzle, state) if b != state)


# ------------------------------------------------------------------ verdicts
def test_verdicts(engine):
    vocab = vocabulary()
    labels = set()
    for item, record in items(engine):
        labels.add(item.solvable)
        for task in ("state_checking", "state_transition"):
            row = state_row(engine, task, item, None, record, {})
            right = score_row(row, oracle(row)).verdict
            assert right.correct and right.category == Category.CORRECT.value, (task, right)
            garbage = score_row(row, GARBAGE).verdict
            assert not garbage.correct and garbage.category == Category.PARSE_ERROR.value
            verdicts = [right, garbage]
            if task == "state_checking":
                wrong = "Answer: (B)" if item.solvable else "Answer: (A)"
                verdicts.append(score_row(row, wrong).verdict)
            else:
                verdicts.append(score_row(row, f"Next state: {engine.render(item.puzzle, item.current)}").verdict)
            assert not verdicts[-1].correct
            for v in verdicts:
                assert v.category in vocab, v.category
    assert labels == {True, False}
    for source in sources(engine):
        row = end_to_end_row(engine, source.puzzle, source.record, source.difficulty)
        verdicts = [score_row(row, text).verdict for text in
                    (oracle(row), f"Answer: {engine.render(source.puzzle, engine.initial(source.puzzle))}", GARBAGE)]
        assert [v.correct for v in verdicts] == [True, False, False]
        assert verdicts[2].category == Category.PARSE_ERROR.value
        assert {v.category for v in verdicts} <= vocab


# ------------------------------------------------------------------ prompts
def test_prompts_render_for_every_task(engine):
    for item, _ in items(engine)[:6]:
        rules = engine.rules(item.puzzle)
        current = engine.render(item.puzzle, item.current)
        sc = state_checking_prompt(engine, item)
        st = state_transition_prompt(engine, item)
        assert sc.startswith(rules) and st.startswith(rules)
        assert current in sc and current in st and engine.move_text in st
        assert all(word in sc for word in engine.choice_words)
    for source in sources(engine):
        e2e = end_to_end_prompt(engine, source.puzzle, engine.initial(source.puzzle))
        assert e2e.startswith(engine.rules(source.puzzle)) and "Answer: " in e2e
