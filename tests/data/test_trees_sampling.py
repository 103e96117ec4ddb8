"""Lazy trees, state sampling and prompts on generated puzzles of every domain."""
from __future__ import annotations

import itertools
import random

import pytest

from finereason.core.engine import StepKind, get_engine
from finereason.core.prompts import PROMPT_VERSION, PROMPT_VERSIONS, end_to_end_prompt, messages, state_checking_prompt, state_transition_prompt
from finereason.data.sampling import find_unsolvable_child, moves, sample_states, solution_path
from finereason.domains.game_of_24 import source as game24
from finereason.domains.graph_coloring import source as graph_coloring
from finereason.domains.grid_puzzle import source as grid_puzzle
from finereason.domains.sudoku import source as sudoku
from finereason.data.trees import dfs
from finereason.core.oracle import oracle_solvable
from finereason.verification.verifiers import verify_state_checking, verify_state_transition

SOURCES = {
    "sudoku": lambda i: sudoku.generate(11, i, empty_cells=40),
    "graph_coloring": lambda i: graph_coloring.generate(11, i, vertices=10),
    "game_of_24": lambda i: game24.generate(11, i),
    "grid_puzzle": lambda i: grid_puzzle.generate(11, i, categories=3, entries=4),
}


@pytest.mark.parametrize("name", list(SOURCES))
@pytest.mark.parametrize("order", ["paper", "mrv"])
def test_dfs_is_lazy_labelled_and_capped(name, order):
    engine = get_engine(name)
    puzzle = SOURCES[name](0).puzzle
    root = engine.initial(puzzle)
    nodes = list(dfs(engine, puzzle, root, order=order, max_nodes=150))
    assert nodes[0].state == root and nodes[0].depth == 0 and nodes[0].parent is None
    assert len(nodes) <= 150
    for node in nodes[1:]:
        assert node.solvable == oracle_solvable(engine, puzzle, node.state)
        assert node.depth == node.parent.depth + 1
        assert engine.step(puzzle, node.parent.state, node.state).kind in (StepKind.FORWARD, StepKind.NONE)
    shallow = list(dfs(engine, puzzle, root, order=order, max_nodes=10_000, max_depth=1))
    assert max(n.depth for n in shallow) <= 1


def test_paper_order_branches_on_one_variable():
    engine = get_engine("sudoku")
    puzzle = SOURCES["sudoku"](1).puzzle
    root = engine.initial(puzzle)
    first = root.index(0)
    for child in engine.branch(puzzle, root, "paper"):
        changed = [i for i in range(81) if child[i] != root[i]]
        assert changed == [first]
    mrv = list(engine.branch(puzzle, root, "mrv"))
    assert len({i for c in mrv for i in range(81) if c[i] != root[i]}) == 1  # one cell, the most constrained
    with pytest.raises(ValueError):
        list(get_engine("game_of_24").branch(SOURCES["game_of_24"](0).puzzle, engine.initial(puzzle), "random"))


@pytest.mark.parametrize("name", list(SOURCES))
def test_samples_have_consistent_paths_and_labels(name):
    engine = get_engine(name)
    for index in range(3):
        puzzle = SOURCES[name](index).puzzle
        root = engine.initial(puzzle)
        labels = [True, False] * 3
        samples = sample_states(engine, puzzle, root, random.Random(index), labels, need_dead_end=True)
        assert samples
        assert len({s.item.current for s in samples}) == len(samples)
        for sample in samples:
            item = sample.item
            assert item.solvable == oracle_solvable(engine, puzzle, item.current)
            if item.parent is not None:
                assert engine.step(puzzle, item.parent, item.current).kind is StepKind.FORWARD
            if item.grandparent is not None:
                assert engine.step(puzzle, item.grandparent, item.parent).kind is StepKind.FORWARD
            if item.unsolvable_child is not None:
                assert not oracle_solvable(engine, puzzle, item.unsolvable_child)
            if item.solvable:
                assert item.unsolvable_child is not None  # need_dead_end
        solvable = sum(s.item.solvable for s in samples)
        assert 0 < solvable < len(samples) or len(samples) == 1


def test_sampling_is_deterministic():
    engine = get_engine("sudoku")
    puzzle = SOURCES["sudoku"](2).puzzle
    root = engine.initial(puzzle)
    one = sample_states(engine, puzzle, root, random.Random(5), [True, False, True])
    two = sample_states(engine, puzzle, root, random.Random(5), [True, False, True])
    assert [s.item for s in one] == [s.item for s in two]
    path = solution_path(engine, puzzle, root, random.Random(5))
    assert engine.check_solution(puzzle, path[-1]) == []


@pytest.mark.parametrize("name", list(SOURCES))
def test_prompts_show_the_state_and_answers_read_back(name):
    engine = get_engine(name)
    puzzle = SOURCES[name](0).puzzle
    root = engine.initial(puzzle)
    samples = sample_states(engine, puzzle, root, random.Random(0), [True, False], need_dead_end=True)
    for sample in samples:
        item = sample.item
        sc = state_checking_prompt(engine, item)
        assert engine.render(puzzle, item.current) in sc
        assert "(A)" in sc and "(B)" in sc and "Do not solve using programming" in sc and "Answer: (A)" in sc
        truth = "(A)" if item.solvable else "(B)"
        assert verify_state_checking(engine, item, f"...\nAnswer: {truth}").correct
        st = state_transition_prompt(engine, item)
        assert "Next state:" in st and engine.render(puzzle, item.current) in st
        if item.parent is not None:
            assert engine.render(puzzle, item.parent) in st
        if not item.solvable and item.parent is not None:
            assert verify_state_transition(engine, item, "Next state: " + engine.render(puzzle, item.parent)).correct
        assert messages(sc) == [{"role": "user", "content": sc}]
    e2e = end_to_end_prompt(engine, puzzle, root)
    assert "Answer:" in e2e and PROMPT_VERSION == PROMPT_VERSIONS[-1] == "v2"


def test_grid_paths_hold_no_no_op_moves_and_prompts_name_the_parents_clues():
    """A clue that fills no cell is never a step (backtracking must differ from staying); the v2
    transition prompt lists the parent's applied clues, v1 (kept for old rows) does not."""
    engine = get_engine("grid_puzzle")
    seen_noop_child = False
    for index in range(8):
        puzzle = SOURCES["grid_puzzle"](index).puzzle
        root = engine.initial(puzzle)
        for order in ("paper", "mrv"):
            path = solution_path(engine, puzzle, root, random.Random(index), order)
            assert engine.check_solution(puzzle, path[-1]) == []  # real moves still reach the solution
            for before, after in zip(path, path[1:]):
                assert after.cells != before.cells
            for state in path:
                seen_noop_child |= any(c.cells == state.cells for c in engine.children(puzzle, state))
                assert all(c.cells != state.cells for c in moves(engine, puzzle, state, order))
        samples = sample_states(engine, puzzle, root, random.Random(index), [True, False] * 3, need_dead_end=True)
        for sample in samples:
            item = sample.item
            for before, after in ((item.grandparent, item.parent), (item.parent, item.current)):
                if before is not None:
                    assert not engine.same(before, after)
            if item.parent is not None:
                line = f"Clues applied in the previous state: {', '.join(item.parent.applied) or 'none'}"
                assert line in state_transition_prompt(engine, item)
                assert "Clues applied in the previous state" not in state_transition_prompt(engine, item, "v1")
    assert seen_noop_child  # the engine does offer no-op applications: the filter is what keeps them off paths
    with pytest.raises(ValueError):
        state_transition_prompt(engine, samples[0].item, "v0")


@pytest.mark.parametrize("name", list(SOURCES))
def test_unsolvable_child_is_found_whenever_one_exists(name):
    engine = get_engine(name)
    for index in range(3):
        puzzle = SOURCES[name](index).puzzle
        root = engine.initial(puzzle)
        for order in ("paper", "mrv"):
            samples = sample_states(engine, puzzle, root, random.Random(index), [True, False] * 3, order)
            for sample in samples:
                item = sample.item
                dead = [c for c in moves(engine, puzzle, item.current, None)
                        if not item.solvable or not oracle_solvable(engine, puzzle, c)]
                if item.unsolvable_child is None:
                    assert dead == []
                else:
                    assert any(engine.same(item.unsolvable_child, c) for c in dead)
                    assert find_unsolvable_child(engine, puzzle, item.current, order) is not None


def test_forward_oracle_answers_score_correct_in_both_modes():
    engine = get_engine("graph_coloring")
    puzzle = SOURCES["graph_coloring"](3).puzzle
    samples = sample_states(engine, puzzle, engine.initial(puzzle), random.Random(2), [True] * 3, need_dead_end=True)
    for sample in samples:
        good = next(c for c in engine.children(puzzle, sample.item.current) if oracle_solvable(engine, puzzle, c))
        for mode in ("strict", "paper"):
            assert verify_state_transition(engine, sample.item, "Next state: " + engine.render(puzzle, good), mode).correct
        assert list(itertools.islice(engine.undo_moves(puzzle, good), 100))
