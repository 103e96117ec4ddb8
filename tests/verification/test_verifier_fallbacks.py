"""The verifiers' safety nets and edge contracts: an engine that raises while judging, malformed and
unreadable states, an unknown mode, unhashable states, and a stored label that disagrees with the oracle.

Each case names the category and the reason the user will read; an engine failure is never raised out
of a verifier (it would stop an evaluation or a training step) and never scores as correct.
"""
from __future__ import annotations

import json

import pytest
from conftest import read_jsonl, shared_path

import finereason.verification.verifiers as verifiers
from finereason.common.verdict import ParseError, StateError
from finereason.core import oracle
from finereason.core.engine import get_engine
from finereason.core.oracle import oracle_solvable
from finereason.verification.scoring import aggregate, score_row
from finereason.verification.verifiers import (verify_end_to_end, verify_state_checking, verify_state_transition,
                                               verify_state_transition_modes)

ENGINE = get_engine("sudoku")


@pytest.fixture(scope="session")
def records() -> list[dict]:
    return read_jsonl(shared_path("finereason_official", "sudoku_states_sample.jsonl"))


@pytest.fixture(scope="session")
def items(records):
    """(a solvable item, an unsolvable item) of the official Sudoku sample, by their stored labels."""
    solvable = next(r for r in records if r["outputs"]["current_status"] == "Solvable")
    unsolvable = next(r for r in records if r["outputs"]["current_status"] == "Unsolvable")
    return ENGINE.item_from_official(solvable), ENGINE.item_from_official(unsolvable)


def next_state(state) -> str:
    """A state-transition answer naming ``state`` (81 cells) as a 9x9 list."""
    return "Next state: " + json.dumps([list(state[r * 9:r * 9 + 9]) for r in range(9)])


# ------------------------------------------------------------------ an engine that fails while judging
@pytest.mark.parametrize("error", [StateError("cell 3 is odd"), ValueError("bad value"), TypeError("bad type"),
                                   ZeroDivisionError("division by zero"), RecursionError("too deep")])
def test_engine_failure_in_step_is_a_failure_category(items, monkeypatch, error):
    solvable, unsolvable = items

    def boom(*args, **kwargs):
        raise error

    monkeypatch.setattr(ENGINE, "step", boom)
    forward = verify_state_transition_modes(ENGINE, solvable, next_state(solvable.parent), ("strict", "paper"))
    for verdict in forward.values():
        assert (verdict.correct, verdict.category) == (False, "invalid_move")
        assert verdict.reasons == (f"the proposed state cannot be judged: {error}",)
    # from an unsolvable state: a proposal that is neither the parent nor the state itself reaches step()
    sibling_like = unsolvable.grandparent
    back = verify_state_transition(ENGINE, unsolvable, next_state(sibling_like))
    assert (back.correct, back.category) == (False, "backtracking_failure")
    assert back.reasons == (f"the proposed state cannot be judged: {error}",)


def test_engine_failure_in_the_oracle_is_a_failure_category(items, monkeypatch):
    solvable, _ = items
    child = next(c for c in ENGINE.children(solvable.puzzle, solvable.current))

    def boom(puzzle, state):
        raise ArithmeticError("overflow in the oracle")

    monkeypatch.setattr(ENGINE, "is_solvable", boom)
    oracle._cached_solvable.cache_clear()  # the oracle's memo may know this child from another test
    # the current state's label is given, so only the child's solvability is asked (strict mode)
    verdict = verify_state_transition(ENGINE, solvable, next_state(child), "strict", solvable=True)
    assert (verdict.correct, verdict.category) == (False, "invalid_move")
    assert "cannot be judged: overflow in the oracle" in verdict.reasons[0]


def test_engine_failure_in_check_solution_is_an_invalid_solution(records, monkeypatch):
    item = ENGINE.item_from_official(records[0])
    solution = records[0]["outputs"]["final"]

    def boom(puzzle, state):
        raise TypeError("cannot compare")

    monkeypatch.setattr(ENGINE, "check_solution", boom)
    verdict = verify_end_to_end(ENGINE, item.puzzle, f"Answer: {json.dumps(solution)}")
    assert (verdict.correct, verdict.category) == (False, "invalid_solution")
    assert verdict.reasons == ("the proposed solution cannot be judged: cannot compare",)


@pytest.mark.parametrize("error, category", [
    (ParseError("no list found"), "parse_error"),
    (RecursionError("nested too deep"), "parse_error"),
    (ValueError("odd"), "parse_error"),
    (TypeError("odd type"), "parse_error"),
])
def test_reader_failures_are_parse_errors_in_every_task(items, monkeypatch, error, category):
    solvable, unsolvable = items

    def boom(*args, **kwargs):
        raise error

    monkeypatch.setattr(ENGINE, "parse_state_text", boom)
    monkeypatch.setattr(ENGINE, "parse_solution_text", boom)
    for item in (solvable, unsolvable):
        for mode in ("strict", "paper"):
            verdict = verify_state_transition(ENGINE, item, "Next state: whatever", mode)
            assert (verdict.correct, verdict.category, verdict.reasons) == (False, category, (str(error),))
    verdict = verify_end_to_end(ENGINE, solvable.puzzle, "Answer: whatever")
    assert (verdict.correct, verdict.category, verdict.reasons) == (False, category, (str(error),))


def test_an_error_without_a_message_still_gives_a_reason(items, monkeypatch):
    solvable, _ = items

    def boom(*args, **kwargs):
        raise ParseError()

    monkeypatch.setattr(ENGINE, "parse_state_text", boom)
    verdict = verify_state_transition(ENGINE, solvable, "Next state: ?")
    assert verdict.category == "parse_error" and verdict.reasons == ("unreadable answer",)


def test_malformed_state_is_invalid_forward_and_backtracking_failure_backward(items):
    """A list that parses but is not a Sudoku state (wrong shape): the reader's message is the reason."""
    solvable, unsolvable = items
    text = "Next state: [[1, 2, 3], [4, 5, 6]]"
    forward = verify_state_transition(ENGINE, solvable, text)
    backward = verify_state_transition(ENGINE, unsolvable, text)
    assert (forward.category, backward.category) == ("invalid_move", "backtracking_failure")
    assert forward.reasons == backward.reasons and len(forward.reasons) == 1
    assert "9" in forward.reasons[0]  # names the expected shape (9 rows of 9)
    e2e = verify_end_to_end(ENGINE, solvable.puzzle, "Answer: [[1, 2, 3], [4, 5, 6]]")
    assert e2e.category == "invalid_solution" and e2e.reasons == forward.reasons


def test_state_checking_reader_failure_is_a_parse_error(items, monkeypatch):
    solvable, _ = items

    def boom(*args, **kwargs):
        raise RecursionError("maximum recursion depth exceeded")

    reader = next(name for name in ("read_choice", "extract_choice") if hasattr(verifiers, name))  # the choice reader it calls
    monkeypatch.setattr(verifiers, reader, boom)
    verdict = verify_state_checking(ENGINE, solvable, "Answer: (A)")
    assert (verdict.correct, verdict.category, verdict.reasons) == (False, "parse_error", ("maximum recursion depth exceeded",))
    assert verdict.prediction is None


# ------------------------------------------------------------------ modes
@pytest.mark.parametrize("mode", ["lenient", "STRICT", "", "paper "])
def test_unknown_mode_is_a_clear_error(items, mode):
    solvable, _ = items
    with pytest.raises(ValueError, match=rf"^unknown mode {mode!r}; use one of strict, paper$"):
        verify_state_transition(ENGINE, solvable, "Next state: []", mode)
    with pytest.raises(ValueError, match="unknown mode"):
        verify_state_transition_modes(ENGINE, solvable, "Next state: []", ("strict", mode))


# ------------------------------------------------------------------ oracle cache fallback
def test_unhashable_state_falls_back_to_the_engine(items):
    solvable, unsolvable = items
    assert oracle_solvable(ENGINE, solvable.puzzle, list(solvable.current)) is True
    assert oracle_solvable(ENGINE, unsolvable.puzzle, list(unsolvable.current)) is False


# ------------------------------------------------------------------ a stored label against the oracle
def flipped_row(record: dict, task: str) -> dict:
    """A dataset row whose stored label is the opposite of the official (and oracle) label."""
    label = record["outputs"]["current_status"]
    return {"id": "flipped", "puzzle": "sudoku", "task": task, "label": "Unsolvable" if label == "Solvable" else "Solvable",
            "inputs": json.dumps(record["inputs"]), "outputs": json.dumps(record["outputs"])}


def test_scoring_a_row_asks_the_oracle_not_its_stored_label(records):
    """The truth of a state is the oracle's: a row whose stored label disagrees with the oracle is
    scored as ``score --official`` and the verifiers without a label score it (one source of truth);
    the stored label stands in only when the caller says it verified it."""
    record = next(r for r in records if r["outputs"]["current_status"] == "Solvable")
    item = ENGINE.item_from_official(record)
    assert oracle_solvable(ENGINE, item.puzzle, item.current)          # the oracle: solvable
    row = flipped_row(record, "state_checking")                     # the row: Unsolvable
    says_a, says_b = score_row(row, "Answer: (A)"), score_row(row, "Answer: (B)")
    assert (says_a.verdict.correct, says_a.verdict.category, says_a.solvable) == (True, "correct", True)
    assert (says_b.verdict.correct, says_b.verdict.category) == (False, "incorrect")
    assert says_b.verdict.reasons == ("the state is solvable, not unsolvable",)
    assert says_a.verdict == verify_state_checking(ENGINE, item, "Answer: (A)")   # no label: the oracle decides
    # the per-class numbers group the row by the oracle's truth
    metrics = aggregate([says_a])
    assert metrics["acc_solvable"] == 1.0
    assert metrics["acc_unsolvable"] != metrics["acc_unsolvable"]  # no row is unsolvable: undefined (NaN)
    # a label the caller verified is the truth it hands in
    trusted = score_row(row, "Answer: (B)", verified_label=True)
    assert (trusted.verdict.correct, trusted.solvable) == (True, False)


def test_transition_asks_the_oracle_not_its_stored_label(records):
    record = next(r for r in records if r["outputs"]["current_status"] == "Solvable")
    item = ENGINE.item_from_official(record)
    row = flipped_row(record, "state_transition")                   # stored: Unsolvable (backtrack)
    to_parent = "Next state: " + json.dumps(record["inputs"]["parent"])
    assert score_row(row, to_parent).verdict.category == "invalid_move"   # the oracle: go forward
    assert verify_state_transition(ENGINE, item, to_parent).category == "invalid_move"
    assert score_row(row, to_parent, verified_label=True).verdict.category == "correct"
