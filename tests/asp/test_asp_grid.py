"""The independent ASP encoding of logic-grid puzzles agrees with the Python oracle."""
from __future__ import annotations

import pytest

pytest.importorskip("clingo")

from conftest import read_jsonl, shared_path  # noqa: E402
from finereason.domains.grid_puzzle.asp import GridEncodingError, asp_is_solvable, asp_solutions, encode  # noqa: E402
from finereason.core.engine import get_engine  # noqa: E402
from finereason.domains.grid_puzzle.conditions import parse_condition  # noqa: E402
from finereason.domains.grid_puzzle.puzzle import Clue, GridPuzzle, GridState  # noqa: E402

ENGINE = get_engine("grid_puzzle")


def test_every_official_state_agrees_with_the_oracle_and_the_label(official_states):
    records = official_states("gridpuzzle")
    assert len(records) == 100
    checked = 0
    for record in records:
        item = ENGINE.item_from_official(record)
        states = [item.current] + ([item.unsolvable_child] if item.unsolvable_child is not None else [])
        for state in states:
            assert asp_is_solvable(item.puzzle, state) == ENGINE.is_solvable(item.puzzle, state)
            checked += 1
        assert asp_is_solvable(item.puzzle, item.current) == (record["outputs"]["current_status"] == "Solvable")
    assert checked > 100  # the states and their stored unsolvable children


def test_official_puzzles_have_the_same_solutions():
    for record in read_jsonl(shared_path("finereason_official", "gridpuzzle_questions.jsonl")):
        puzzle = ENGINE.puzzle_from_official(record)
        solutions = asp_solutions(puzzle, None, limit=3)
        assert len(solutions) == ENGINE.count_solutions(puzzle, None, limit=3)
        for solution in solutions:
            assert ENGINE.check_solution(puzzle, solution) == []
        assert len({s.cells for s in solutions}) == len(solutions)


def _tiny(conditions: list[str], keys=(1, 2, 3)) -> GridPuzzle:
    clues = tuple(Clue(str(i), "", c, parse_condition(c)) for i, c in enumerate(conditions, start=1))
    return GridPuzzle(("n", "name", "pet"), keys, (("ann", "bob", "cy"), ("cat", "dog", "eel")), clues)


@pytest.mark.parametrize("conditions", [
    [],
    ["T[r('ann')][c('n')] == 1", "T[r('cat')][c('n')] == T[r('bob')][c('n')] + 1"],
    ["T[r('ann')][c('n')] > T[r('bob')][c('n')]", "T[r('dog')][c('name')] != 'cy'", "not (T[r(2)][c('pet')] == 'eel')"],
    ["(T[r('ann')][c('pet')] == 'cat' or T[r('bob')][c('pet')] == 'cat') and T[r('cy')][c('n')] < 3"],
    ["T[r('ann')][c('name')] - 1 == T[r('cy')][c('n')]"],       # arithmetic on a name never holds
    ["T[r('ann')][c('name')] < 2"],                             # a name compared with a number
    ["T[r('ann')][c('name')] < T[r('bob')][c('name')]"],         # names compare as strings
    ["T[r('ann')][c('n')] == T[r('ann')][c('n')] + 1"],          # impossible
])
def test_small_puzzles_match_solution_counts(conditions):
    puzzle = _tiny(conditions)
    assert len(asp_solutions(puzzle, None, limit=50)) == ENGINE.count_solutions(puzzle, None, limit=50)


def test_decimals_are_exact():
    clues = tuple(Clue(str(i), "", c, parse_condition(c)) for i, c in enumerate(
        ["T[r('ann')][c('price')] + 0.25 == T[r('bob')][c('price')]"], start=1))
    puzzle = GridPuzzle(("price", "name"), (1.5, 1.75, 2.0), (("ann", "bob", "cy"),), clues)
    assert len(asp_solutions(puzzle, None, limit=10)) == ENGINE.count_solutions(puzzle, None, limit=10) == 2


def test_duplicates_and_filled_cells_constrain():
    puzzle = _tiny(["T[r('ann')][c('n')] == 1"])
    dup = GridState((("bob", None), ("bob", None), (None, None)))
    assert not asp_is_solvable(puzzle, dup) and not ENGINE.is_solvable(puzzle, dup)
    wrong = GridState((("bob", None), (None, None), (None, None)))
    assert not asp_is_solvable(puzzle, wrong) and not ENGINE.is_solvable(puzzle, wrong)
    fine = GridState((("ann", "eel"), (None, None), (None, None)))
    assert all(s.cells[0] == ("ann", "eel") for s in asp_solutions(puzzle, fine, limit=10))


def test_strings_are_quoted_safely():
    puzzle = GridPuzzle(("n", "name"), (1, 2), (('a "quoted" %name\\', "b. #include"),), ())
    program = encode(puzzle)
    assert '"a \\"quoted\\" %name\\\\"' in program
    assert len(asp_solutions(puzzle, None, limit=5)) == 2


def test_unsupported_shapes_raise():
    with pytest.raises(GridEncodingError):
        encode(_tiny(["T[r('ann')][c('n')]"]))   # a value used as a condition
