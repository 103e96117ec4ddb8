"""Hostile responses never raise out of a verifier, never execute code, and end in a failure category."""
from __future__ import annotations

import os

import pytest

from finereason.core.engine import get_engine
from finereason.core.oracle import oracle_solvable
from finereason.verification.verifiers import verify_end_to_end, verify_state_checking, verify_state_transition
from hostile import hostile_responses

OFFICIAL = {"sudoku": "sudoku", "graph_coloring": "graphcoloring", "game_of_24": "game24", "grid_puzzle": "gridpuzzle"}
# speed (the 100 ms bar) is measured against a baseline in benchmarks/bench_hostile.py, not here


@pytest.mark.parametrize("name", list(OFFICIAL))
def test_hostile_responses(official_states, name):
    engine = get_engine(name)
    items = [engine.item_from_official(r) for r in official_states(OFFICIAL[name])[:12]]
    solvable = next(i for i in items if oracle_solvable(engine, i.puzzle, i.current))
    unsolvable = next(i for i in items if not oracle_solvable(engine, i.puzzle, i.current))
    for label, text in hostile_responses().items():
        for item, allowed in ((solvable, {"parse_error", "invalid_move"}), (unsolvable, {"parse_error", "backtracking_failure"})):
            for mode in ("strict", "paper"):
                verdict = verify_state_transition(engine, item, text, mode)
                assert verdict.category in allowed, (label, verdict)
                assert not verdict.correct
        sc = verify_state_checking(engine, solvable, text)
        assert sc.category in {"parse_error", "correct", "incorrect"}, label
        e2e = verify_end_to_end(engine, solvable.puzzle, text)
        assert e2e.category in {"parse_error", "invalid_solution"}, (label, e2e)
    assert not os.path.exists("/tmp/finereason_pwned")
