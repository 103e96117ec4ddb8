"""Crafted responses on official states land in the right category, in both modes, for all puzzles."""
from __future__ import annotations

import itertools

import pytest

from finereason.core.engine import get_engine
from finereason.core.oracle import oracle_solvable
from finereason.verification.verifiers import verify_end_to_end, verify_state_checking, verify_state_transition

OFFICIAL = {"sudoku": "sudoku", "graph_coloring": "graphcoloring", "game_of_24": "game24", "grid_puzzle": "gridpuzzle"}
PUZZLES = list(OFFICIAL)


def answer(engine, puzzle, state) -> str:
    return f"Let me think step by step.\nNext state: {engine.render(puzzle, state)}"


def items_of(official_states, name, limit=40):
    engine = get_engine(name)
    records = official_states(OFFICIAL[name])[:limit]
    return engine, [engine.item_from_official(r) for r in records]


def categories(engine, item, text):
    return tuple(verify_state_transition(engine, item, text, mode).category for mode in ("strict", "paper"))


@pytest.mark.parametrize("name", PUZZLES)
def test_backtracking_from_unsolvable_states(official_states, name):
    engine, items = items_of(official_states, name)
    checked = siblings = 0
    for item in items:
        if oracle_solvable(engine, item.puzzle, item.current) or item.parent is None:
            continue
        checked += 1
        assert categories(engine, item, answer(engine, item.puzzle, item.parent)) == ("correct", "correct")
        if not engine.same(item.current, item.parent):  # a grid clue can apply without filling a cell
            assert categories(engine, item, answer(engine, item.puzzle, item.current)) == ("backtracking_failure",) * 2
        if item.grandparent is not None and not engine.same(item.grandparent, item.parent):
            assert categories(engine, item, answer(engine, item.puzzle, item.grandparent)) == ("backtracking_failure",) * 2
        for sibling in itertools.islice(engine.children(item.puzzle, item.parent), 30):
            if not engine.same(sibling, item.current) and not engine.same(sibling, item.parent):
                assert categories(engine, item, answer(engine, item.puzzle, sibling)) == ("sibling", "sibling")
                siblings += 1
                break
        assert categories(engine, item, "I think we should go back.") == ("parse_error",) * 2
    assert checked >= 5
    assert siblings >= 1


@pytest.mark.parametrize("name", PUZZLES)
def test_forward_moves_from_solvable_states(official_states, name):
    engine, items = items_of(official_states, name)
    checked = dead_ends = 0
    for item in items:
        if not oracle_solvable(engine, item.puzzle, item.current):
            continue
        checked += 1
        given = item.unsolvable_child
        if given is not None and not engine.same(given, item.current):
            assert categories(engine, item, answer(engine, item.puzzle, given)) == ("unsolvable_child", "unsolvable_child")
        children = list(itertools.islice(engine.children(item.puzzle, item.current), 60))
        good = [c for c in children if oracle_solvable(engine, item.puzzle, c)]
        bad = [c for c in children
               if not oracle_solvable(engine, item.puzzle, c) and not (given is not None and engine.same(c, given))]
        assert good, "a solvable state has a solvable child"
        assert categories(engine, item, answer(engine, item.puzzle, good[0])) == ("correct", "correct")
        if bad:
            dead_ends += 1
            # the paper's scoring counts any other rule-valid dead end as correct; strict does not
            assert categories(engine, item, answer(engine, item.puzzle, bad[0])) == ("unsolvable_child", "correct")
        grandchildren = [g for g in itertools.islice(engine.children(item.puzzle, good[0]), 5)
                         if not engine.same(g, good[0])]
        if grandchildren:
            assert categories(engine, item, answer(engine, item.puzzle, grandchildren[0])) == ("multiple_moves",) * 2
        assert categories(engine, item, answer(engine, item.puzzle, item.current))[0] == "invalid_move"
        if item.parent is not None:
            assert categories(engine, item, answer(engine, item.puzzle, item.parent))[0] == "invalid_move"
        assert categories(engine, item, "Next state: [[[[") == ("parse_error",) * 2
    assert checked >= 5
    if name == "sudoku":
        assert dead_ends >= 1


@pytest.mark.parametrize("name", PUZZLES)
def test_state_checking_choices(official_states, name):
    engine, items = items_of(official_states, name, limit=20)
    for item in items:
        truth = oracle_solvable(engine, item.puzzle, item.current)
        right, wrong = ("(A)", "(B)") if truth else ("(B)", "(A)")
        assert verify_state_checking(engine, item, f"Reasoning...\nAnswer: {right}").correct
        verdict = verify_state_checking(engine, item, f"<think>Answer: {right}</think>\nAnswer: {wrong}")
        assert (verdict.correct, verdict.category) == (False, "incorrect") and verdict.reasons
        assert verify_state_checking(engine, item, "no idea").category == "parse_error"


def test_rule_breaking_fills_are_invalid_moves(official_states):
    engine, items = items_of(official_states, "sudoku")
    item = next(i for i in items if oracle_solvable(engine, i.puzzle, i.current))
    cells = list(item.current)
    empty = cells.index(0)
    row = empty // 9
    clash = next(v for v in cells[row * 9:row * 9 + 9] if v)
    cells[empty] = clash
    verdict = verify_state_transition(engine, item, answer(engine, item.puzzle, tuple(cells)))
    assert verdict.category == "invalid_move"
    assert any(f"row {row + 1} has two {clash}s" in r for r in verdict.reasons)

    engine, items = items_of(official_states, "graph_coloring")
    item = next(i for i in items if oracle_solvable(engine, i.puzzle, i.current))
    colors = list(item.current)
    v = colors.index(0)
    neighbour = next(u for u in item.puzzle.adjacency[v] if colors[u])
    colors[v] = colors[neighbour]
    verdict = verify_state_transition(engine, item, answer(engine, item.puzzle, tuple(colors)))
    assert verdict.category == "invalid_move"
    assert any("share color" in r for r in verdict.reasons)

    engine, items = items_of(official_states, "game_of_24")
    item = next(i for i in items if oracle_solvable(engine, i.puzzle, i.current) and len(i.current) >= 2)
    texts = engine.to_official(item.puzzle, item.current)
    wrong = [f"({texts[0]} + 99)"] + texts[2:]
    verdict = verify_state_transition(engine, item, f"Next state: {wrong!r}")
    assert verdict.category == "invalid_move"


def test_verdict_reasons_list_every_violation(official_states):
    engine, items = items_of(official_states, "sudoku", limit=5)
    puzzle = items[0].puzzle
    empty = puzzle.givens.count(0)
    verdict = verify_end_to_end(engine, puzzle, "Final answer: " + engine.render(puzzle, puzzle.givens))
    assert verdict.category == "invalid_solution"
    assert verdict.reasons == (f"{empty} cells are still empty",)  # more cases: test_independent_solutions.py
