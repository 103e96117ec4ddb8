"""Logic grid puzzles: the restricted clue reader, the oracle and clue application."""
from __future__ import annotations

import itertools
import json

import pytest

from conftest import read_jsonl, shared_path
from finereason.core.engine import StepKind, get_engine
from finereason.domains.grid_puzzle.conditions import UNKNOWN, ConditionError, compile_condition, parse_condition
from finereason.common.verdict import StateError

ENGINE = get_engine("grid_puzzle")


def questions() -> list[dict]:
    return read_jsonl(shared_path("finereason_official", "gridpuzzle_questions.jsonl"))


# ------------------------------------------------------------------ condition reader
def test_every_official_condition_parses():
    count = 0
    for path in ("gridpuzzle_questions.jsonl", "gridpuzzle_states_sample.jsonl"):
        for record in read_jsonl(shared_path("finereason_official", path)):
            for clue in record["inputs"]["clues"].values():
                parse_condition(clue["conditions"])
                count += 1
    assert count > 1000


@pytest.mark.parametrize(
    "text",
    [
        "__import__('os').system('ls')",
        "T[r('a')][c('b')] ** 2 == 4",
        "T[r('a')][c('b')] * 2 == 4",
        "x == 1",
        "T[r('a')][c(2)] == 1",
        "T[r('a')].__class__",
        "lambda: 1",
        "(" * 5000 + "1" + ")" * 5000,
        "T[r('a')][c('b')] == ",
        "'a' if 1 else 'b'",
        "[x for x in 'ab']",
        "9**9**9",
    ],
)
def test_conditions_outside_the_grammar_are_rejected(text):
    with pytest.raises(ConditionError):
        parse_condition(text)


def _evaluate(text, rows, keys):
    """Evaluate a condition on a full 2-column toy table: rows = [(key, value), ...]."""
    row_of = {}
    for i, (k, v) in enumerate(rows):
        row_of[k] = i
        if v is not None:
            row_of[v] = i
    domain = {"Ann": 1, "Bob": 1}
    fn = compile_condition(parse_condition(text), lambda cat: {"times": 0, "names": 1}[cat],
                           lambda v: 0 if v in keys else domain.get(v))
    return fn((row_of, [list(r) for r in rows]))


def test_three_valued_evaluation():
    keys = (9, 10)
    full = [(9, "Ann"), (10, "Bob")]
    partial = [(9, "Ann"), (10, None)]
    assert _evaluate("T[r('Ann')][c('times')] == 9", full, keys) is True
    assert _evaluate("T[r('Bob')][c('times')] - 1 == T[r('Ann')][c('times')]", full, keys) is True
    assert _evaluate("T[r('Bob')][c('times')] < T[r('Ann')][c('times')]", full, keys) is False
    assert _evaluate("T[r('Bob')][c('times')] == 10", partial, keys) is UNKNOWN
    assert _evaluate("T[r(10)][c('names')] == 'Ann'", partial, keys) is False  # Ann sits in row 9
    assert _evaluate("T[r(10)][c('names')] == 'Bob' or T[r(9)][c('names')] == 'Ann'", partial, keys) is True
    assert _evaluate("not (T[r('Bob')][c('times')] == 10) and T[r(9)][c('names')] == 'Bob'", partial, keys) is False


# ------------------------------------------------------------------ import and oracle
def test_official_questions_import_and_solve_to_their_solution():
    for record in questions():
        puzzle = ENGINE.puzzle_from_official(record)
        solution = ENGINE.parse_state(puzzle, record["outputs"]["solution"])
        assert ENGINE.check_solution(puzzle, solution) == []
        found = ENGINE.solve(puzzle)
        assert found is not None and ENGINE.check_solution(puzzle, found) == []


def test_malformed_records_fail_with_clear_errors():
    record = questions()[0]
    broken = json.loads(json.dumps(record))
    broken["inputs"]["clues"]["1"]["conditions"] = "__import__('os')"
    with pytest.raises(ConditionError, match="not allowed"):
        ENGINE.puzzle_from_official(broken)
    broken = json.loads(json.dumps(record))
    broken["inputs"]["clues"]["1"]["conditions"] = "T[r('Nobody')][c('names')] == 'Guy'"
    with pytest.raises(ConditionError, match="names no value"):
        ENGINE.puzzle_from_official(broken)
    broken = json.loads(json.dumps(record))
    del broken["inputs"]["initial"]
    with pytest.raises(StateError):
        ENGINE.puzzle_from_official(broken)


def test_parse_state_errors_and_round_trip():
    record = questions()[0]
    puzzle = ENGINE.puzzle_from_official(record)
    solution = record["outputs"]["solution"]
    state = ENGINE.parse_state(puzzle, solution)
    assert ENGINE.to_official(puzzle, state) == solution
    with pytest.raises(StateError, match="rows"):
        ENGINE.parse_state(puzzle, solution[:-1])
    bad = json.loads(json.dumps(solution))
    bad[1][1] = "Zorro"
    with pytest.raises(StateError, match="not one of"):
        ENGINE.parse_state(puzzle, bad)
    shuffled = [solution[0]] + solution[:0:-1]  # rows in another order are the same table
    assert ENGINE.parse_state(puzzle, shuffled) == state
    headerless = solution[1:]
    assert ENGINE.parse_state(puzzle, headerless) == state


def test_check_solution_names_violated_clues():
    record = questions()[0]
    puzzle = ENGINE.puzzle_from_official(record)
    table = json.loads(json.dumps(record["outputs"]["solution"]))
    table[1][1], table[2][1] = table[2][1], table[1][1]  # swap two names
    reasons = ENGINE.check_solution(puzzle, ENGINE.parse_state(puzzle, table))
    assert reasons and all(r.startswith("clue ") and r.endswith("is violated") for r in reasons)
    empty = ENGINE.check_solution(puzzle, puzzle.empty)
    assert empty[0].endswith("cells are still empty")


# ------------------------------------------------------------------ moves
def test_official_paths_and_children_are_single_clue_moves(official_states):
    for record in official_states("gridpuzzle"):
        item = ENGINE.item_from_official(record)
        tables = list(item.current.trail) + [item.current.cells]
        for before, after in zip(tables, tables[1:]):
            kind = ENGINE.step(item.puzzle, type(item.current)(before), type(item.current)(after)).kind
            assert kind in (StepKind.FORWARD, StepKind.NONE)  # NONE: a clue applied without filling a cell
        if not ENGINE.same(item.unsolvable_child, item.current):
            assert ENGINE.step(item.puzzle, item.current, item.unsolvable_child).kind is StepKind.FORWARD


def test_children_apply_one_clue_and_undo():
    record = questions()[1]
    puzzle = ENGINE.puzzle_from_official(record)
    root = puzzle.empty
    kids = list(itertools.islice(ENGINE.children(puzzle, root), 200))
    assert kids
    for kid in kids[:50]:
        assert len(kid.applied) == 1
        assert ENGINE.step(puzzle, root, kid).kind in (StepKind.FORWARD, StepKind.NONE)
        assert list(ENGINE.undo_moves(puzzle, kid)) == [root]
    solvable = [k for k in kids if ENGINE.is_solvable(puzzle, k)]
    assert solvable and len(solvable) < len(kids)


def test_multiple_and_invalid_moves():
    record = questions()[0]
    puzzle = ENGINE.puzzle_from_official(record)
    solution = ENGINE.parse_state(puzzle, record["outputs"]["solution"])
    root = puzzle.empty
    assert ENGINE.step(puzzle, root, solution).kind in (StepKind.MULTIPLE,)
    assert ENGINE.step(puzzle, root, root).kind is StepKind.NONE
    child = next(ENGINE.children(puzzle, root))
    # clearing a filled cell of a state is not a forward move
    back = ENGINE.step(puzzle, child, root)
    assert back.kind is StepKind.BACKWARD
    dup_cells = [list(r) for r in root.cells]
    value = puzzle.domains[0][0]
    dup_cells[0][0] = value
    dup_cells[1][0] = value
    dup = ENGINE.parse_state(puzzle, ENGINE.to_official(puzzle, type(root)(tuple(map(tuple, dup_cells)))))
    verdict = ENGINE.step(puzzle, root, dup)
    assert verdict.kind is StepKind.INVALID and "twice" in verdict.reasons[0]


# ------------------------------------------------------------------ properties
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


def test_every_official_question_has_exactly_one_solution():
    for record in questions():
        assert ENGINE.count_solutions(ENGINE.puzzle_from_official(record), limit=2) == 1


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_oracle_agrees_with_the_unique_solution(data):
    """With a unique solution, a partial table is solvable exactly when it agrees with it."""
    records = questions()
    record = records[data.draw(st.integers(0, len(records) - 1))]
    puzzle = ENGINE.puzzle_from_official(record)
    solution = ENGINE.parse_state(puzzle, record["outputs"]["solution"]).cells
    cells = [list(r) for r in solution]
    width = len(puzzle.domains)
    column = data.draw(st.integers(0, width - 1))
    swap = data.draw(st.booleans())
    if swap:  # exchange two values of one column: no longer the solution
        a, b = data.draw(st.lists(st.integers(0, len(cells) - 1), min_size=2, max_size=2, unique=True))
        cells[a][column], cells[b][column] = cells[b][column], cells[a][column]
    keep = data.draw(st.lists(st.booleans(), min_size=len(cells) * width, max_size=len(cells) * width))
    for i, k in enumerate(keep):
        if not k and not (swap and i % width == column and i // width in (a, b)):
            cells[i // width][i % width] = None
    state = type(puzzle.empty)(tuple(map(tuple, cells)))
    agrees = all(v is None or v == solution[r][j] for r, row in enumerate(cells) for j, v in enumerate(row))
    assert ENGINE.is_solvable(puzzle, state) == agrees
