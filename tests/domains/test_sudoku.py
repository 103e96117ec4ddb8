"""Sudoku engine: parsing, rules, minimal moves, the exact oracle, and the reference data.

Expected values come from the rules (worked out by hand on the grids below) or from the reference
data in ../shared, never from this engine's own output.
"""
from __future__ import annotations

import csv
import random
from itertools import islice

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import shared_path
from finereason.core.engine import StepKind
from finereason.domains.sudoku.engine import (
    SudokuEngine, SudokuPuzzle, children_first_empty, count_solutions, parse_grid, solutions, solve,
)
from finereason.common.verdict import ParseError, StateError

ENGINE = SudokuEngine()

# Norvig's easy50, first puzzle. Row 1 is ". . 3 | . 2 . | 6 . ." and box 1 holds 3, 9 and 1.
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def grid_of(text: str) -> tuple[int, ...]:
    return tuple(0 if ch == "." else int(ch) for ch in text)


def put(grid: tuple[int, ...], *cells: tuple[int, int, int]) -> tuple[int, ...]:
    """``grid`` with 1-based ``(row, column, digit)`` cells written."""
    out = list(grid)
    for r, c, d in cells:
        out[(r - 1) * 9 + (c - 1)] = d
    return tuple(out)


def rules_hold(grid: tuple[int, ...]) -> bool:
    """An independent checker that reads like the rules: every unit holds 1..9 once."""
    rows = [grid[r * 9:r * 9 + 9] for r in range(9)]
    cols = [grid[c::9] for c in range(9)]
    boxes = [
        [grid[(br + r) * 9 + bc + c] for r in range(3) for c in range(3)]
        for br in (0, 3, 6) for bc in (0, 3, 6)
    ]
    return all(sorted(unit) == list(range(1, 10)) for unit in rows + cols + boxes)


def peer_digits(grid: tuple[int, ...], i: int) -> set[int]:
    """The digits in the row, column and box of cell ``i`` (``i`` itself excluded)."""
    r, c = divmod(i, 9)
    return {
        grid[j] for j in range(81)
        if j != i and (j // 9 == r or j % 9 == c or (j // 27, j % 9 // 3) == (r // 3, c // 3))
    } - {0}


def extends(big: tuple[int, ...], small: tuple[int, ...]) -> bool:
    return all(s == 0 or s == b for s, b in zip(small, big))


# ---------------------------------------------------------------- official data
@pytest.fixture(scope="session")
def official_items():
    from conftest import read_jsonl

    records = read_jsonl(shared_path("finereason_official", "sudoku_states_sample.jsonl"))
    return [(ENGINE.item_from_official(r), r) for r in records]


def test_oracle_agrees_with_every_official_label(official_items):
    assert len(official_items) == 100
    disagreements = [
        k for k, (item, _) in enumerate(official_items)
        if ENGINE.is_solvable(item.puzzle, item.current) != item.solvable
    ]
    assert disagreements == []
    assert {item.solvable for item, _ in official_items} == {True, False}


def test_every_stored_unsolvable_child_is_unsolvable(official_items):
    for item, _ in official_items:
        assert item.unsolvable_child is not None
        assert not ENGINE.is_solvable(item.puzzle, item.unsolvable_child)


def test_official_final_solutions_pass(official_items):
    for item, record in official_items:
        final = ENGINE.parse_state(item.puzzle, record["outputs"]["final"])
        assert ENGINE.check_solution(item.puzzle, final) == []
        assert rules_hold(final)
        if item.solvable:
            assert extends(final, item.current)


def test_official_paths_are_forward_moves(official_items):
    for item, _ in official_items:
        assert ENGINE.step(item.puzzle, item.grandparent, item.parent).kind is StepKind.FORWARD
        assert ENGINE.step(item.puzzle, item.parent, item.current).kind is StepKind.FORWARD
        assert item.parent in set(ENGINE.undo_moves(item.puzzle, item.current))


def test_official_unsolvable_child_fills_first_empty_cell_of_solvable_states(official_items):
    for item, _ in official_items:
        if item.solvable:
            assert item.unsolvable_child in set(children_first_empty(item.puzzle, item.current))


def test_official_roundtrip_and_render(official_items):
    for item, record in official_items[:10]:
        official = record["inputs"]["current"]
        assert ENGINE.to_official(item.puzzle, item.current) == official
        assert ENGINE.render(item.puzzle, item.current) == repr(official)
        assert ENGINE.parse_state_text(item.puzzle, f"...\nNext state: {official}") == item.current


def test_dead_end_moves_exact_count_on_the_official_sample(official_items):
    """../shared/README fact "about 38% of the rule-valid moves from solvable official Sudoku states
    lead to dead ends", as the exact count on the 100-state sample: 676 of 1,732 moves (39.0%).

    The count is made twice: by ``tests/brute.py`` (every empty cell times every digit its peers
    allow, each child checked by plain backtracking, no engine code) and by this engine's children
    and oracle. The official trees' first-empty-cell branching is a strict subset of those moves.
    """
    from brute import sudoku_completions, sudoku_moves

    solvable = [item for item, _ in official_items if item.solvable]
    assert len(solvable) == 50
    brute = [sudoku_completions(child, 1) == 0 for item in solvable for child in sudoku_moves(item.current)]
    assert (sum(brute), len(brute)) == (676, 1732)

    engine = [not ENGINE.is_solvable(item.puzzle, child) for item in solvable for child in ENGINE.children(item.puzzle, item.current)]
    assert (sum(engine), len(engine)) == (676, 1732)
    first = sum(1 for item in solvable for _ in children_first_empty(item.puzzle, item.current))
    assert 0 < first < 1732


# ---------------------------------------------------------------- reference solution counts
def sudopedia_rows() -> list[dict]:
    with open(shared_path("sudoku", "sudopedia_test_cases", "sudopedia_test_cases.csv"), encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_sudopedia_solution_counts():
    rows = sudopedia_rows()
    assert len(rows) == 19
    for row in rows:
        stated = row["stated_n_solutions"]
        outcome = row["expected_outcome"]
        if stated.isdigit():
            n = int(stated)
            assert count_solutions(row["puzzle"], n + 1) == n, row["name"]
        else:  # "many" / "500+": the cap is reached
            assert count_solutions(row["puzzle"], 501) == 501, row["name"]
        capped = count_solutions(row["puzzle"], 2)
        expected = {"unique_solution": 1, "no_solution": 0, "multiple_solutions": 2}[outcome]
        assert capped == expected, row["name"]


def test_sudopedia_unsolvable_cases_are_unsolvable_states():
    for row in sudopedia_rows():
        puzzle = SudokuPuzzle.from_grid(row["puzzle"])
        solvable = ENGINE.is_solvable(puzzle, puzzle.givens)
        assert solvable == (row["expected_outcome"] != "no_solution"), row["name"]
        assert (ENGINE.violations(puzzle, puzzle.givens) != []) == row["name"].startswith("Duplicate"), row["name"]


@pytest.mark.parametrize("name, limit", [
    ("norvig_easy50", None),
    ("norvig_top95", None),
    ("tdoku_puzzles2_17_clue.first10000", 1000),
    ("tdoku_puzzles3_magictour_top1465", 100),
])
def test_derived_solutions(name, limit):
    path = shared_path("sudoku", "derived_solutions", f"{name}.solutions.csv")
    with open(path, encoding="utf-8") as fh:
        rows = list(islice(csv.DictReader(fh), limit))
    for row in rows:
        found = solutions(row["puzzle"], 2)
        assert len(found) == int(row["n_solutions_capped_at_2"])
        assert found[0] == grid_of(row["first_solution"])
        assert rules_hold(found[0]) and extends(found[0], parse_grid(row["puzzle"]))


# ---------------------------------------------------------------- parsing
@pytest.mark.parametrize("value, message", [
    ([[0] * 9] * 8, "grid has 8 rows, expected 9"),
    ([[0] * 9] * 8 + [[0] * 10], "row 9 has 10 cells, expected 9"),
    ([[0] * 9] * 8 + [5], "row 9 is not a list"),
    ([[0] * 9] * 8 + [[0] * 8 + [10]], "cell (9, 9) is 10, outside 0..9"),
    ([[-1] + [0] * 8] + [[0] * 9] * 8, "cell (1, 1) is -1, outside 0..9"),
    ([[0, True] + [0] * 7] + [[0] * 9] * 8, "cell (1, 2) is True, not an integer"),
    ([[0, 0, "5"] + [0] * 6] + [[0] * 9] * 8, "cell (1, 3) is '5', not an integer"),
    ([[0] * 9] * 4 + [[0, 0, 0, 1.0] + [0] * 5] + [[0] * 9] * 4, "cell (5, 4) is 1.0, not an integer"),
    ("." * 80, "grid string has 80 characters, expected 81"),
    ("." * 40 + "x" + "." * 40, "cell (5, 5) is 'x'"),
    (None, "not NoneType"),
    ({"a": 1}, "not dict"),
    ([], "grid has 0 rows, expected 9"),
])
def test_parse_grid_errors(value, message):
    with pytest.raises(StateError) as err:
        parse_grid(value)
    assert message in str(err.value)
    with pytest.raises(StateError):
        ENGINE.parse_state(SudokuPuzzle.from_grid(EASY), value)


def test_parse_grid_forms_agree():
    rows = [[int(ch) if ch != "." else 0 for ch in EASY[r * 9:r * 9 + 9]] for r in range(9)]
    assert parse_grid(EASY) == parse_grid(EASY.replace(".", "0")) == parse_grid(rows) == grid_of(EASY)
    assert parse_grid(tuple(map(tuple, rows))) == grid_of(EASY)
    assert len(parse_grid(EASY)) == 81


def test_parse_state_text_errors_are_typed():
    puzzle = SudokuPuzzle.from_grid(EASY)
    with pytest.raises(ParseError):
        ENGINE.parse_state_text(puzzle, "no state here")
    with pytest.raises(ParseError):
        ENGINE.parse_state_text(puzzle, "Next state: [[1, 2], __import__('os')]")
    with pytest.raises(StateError):
        ENGINE.parse_state_text(puzzle, "Next state: [[1, 2, 3]]")
    with pytest.raises(StateError):
        ENGINE.parse_state_text(puzzle, "Next state: " + repr([["1"] * 9] * 9))


def test_puzzle_is_hashable_and_validated():
    a, b = SudokuPuzzle.from_grid(EASY), SudokuPuzzle(grid_of(EASY))
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    with pytest.raises(StateError):
        SudokuPuzzle((0,) * 80)


# ---------------------------------------------------------------- rules
def test_violations_name_each_broken_rule():
    puzzle = SudokuPuzzle(put((0,) * 81, (2, 5, 4)))
    state = put(
        puzzle.givens,
        (2, 5, 0),                 # clears the given 4
        (3, 1, 7), (3, 9, 7),      # row 3 (also columns 1 and 9 differ, boxes 1 and 3 differ)
        (5, 5, 1), (8, 5, 1),      # column 5, boxes 5 and 8
        (4, 1, 9), (6, 3, 9),      # box 4 only
    )
    assert ENGINE.violations(puzzle, state) == [
        "cell (2, 5) overwrites the given 4",
        "row 3 has two 7s",
        "column 5 has two 1s",
        "box 4 has two 9s",
    ]
    assert ENGINE.violations(puzzle, puzzle.givens) == []
    assert not ENGINE.is_solvable(puzzle, state)


def test_violations_count_repeats():
    state = put((0,) * 81, (1, 1, 5), (1, 4, 5), (1, 7, 5))
    assert ENGINE.violations(SudokuPuzzle((0,) * 81), state) == ["row 1 has three 5s"]


def test_is_solvable_requires_the_givens():
    puzzle = SudokuPuzzle.from_grid(EASY)
    cleared = put(puzzle.givens, (1, 3, 0))    # the grid alone still has completions
    assert count_solutions(cleared, 1) == 1
    assert not ENGINE.is_solvable(puzzle, cleared)
    assert ENGINE.violations(puzzle, cleared) == ["cell (1, 3) overwrites the given 3"]
    assert ENGINE.check_solution(puzzle, put(solve(puzzle), (1, 3, 0))) == [
        "1 cell is still empty", "cell (1, 3) overwrites the given 3",
    ]


# ---------------------------------------------------------------- step categories
@pytest.fixture
def easy():
    puzzle = SudokuPuzzle.from_grid(EASY)
    return puzzle, puzzle.givens


def test_step_forward_fill(easy):
    puzzle, state = easy
    # (1, 1): row 1 holds 3, 2, 6; column 1 holds 9, 7, 8; box 1 holds 3, 9, 1 -> 4 and 5 are allowed.
    assert ENGINE.step(puzzle, state, put(state, (1, 1, 4))).kind is StepKind.FORWARD
    assert ENGINE.step(puzzle, state, put(state, (1, 1, 5))).kind is StepKind.FORWARD
    assert {c[0] for c in ENGINE.children(puzzle, state) if c[1:] == state[1:]} == {4, 5}


def test_step_rule_breaking_fill(easy):
    puzzle, state = easy
    step = ENGINE.step(puzzle, state, put(state, (1, 1, 3)))
    assert step.kind is StepKind.INVALID
    assert step.reasons == ("row 1 has two 3s", "box 1 has two 3s")
    step = ENGINE.step(puzzle, state, put(state, (1, 1, 7)))
    assert step.reasons == ("column 1 has two 7s",)


def test_step_two_fills_is_multiple(easy):
    puzzle, state = easy
    step = ENGINE.step(puzzle, state, put(state, (1, 1, 4), (9, 9, 4)))
    assert step.kind is StepKind.MULTIPLE
    assert step.reasons == ("2 cells changed: (1, 1), (9, 9)",)


def test_step_overwriting_a_given_is_invalid(easy):
    puzzle, state = easy
    step = ENGINE.step(puzzle, state, put(state, (1, 3, 4)))
    assert step.kind is StepKind.INVALID
    assert step.reasons == ("cell (1, 3) overwrites the given 3",)
    # a given overwrite wins over "several cells changed"
    assert ENGINE.step(puzzle, state, put(state, (1, 3, 0), (1, 1, 4))).kind is StepKind.INVALID


def test_step_clear_change_and_no_change(easy):
    puzzle, state = easy
    child = put(state, (1, 1, 4))
    assert ENGINE.step(puzzle, child, state).kind is StepKind.BACKWARD
    assert ENGINE.step(puzzle, state, state).kind is StepKind.NONE
    step = ENGINE.step(puzzle, child, put(state, (1, 1, 5)))
    assert step.kind is StepKind.INVALID
    assert step.reasons == ("cell (1, 1) changes 4 to 5; a move fills one empty cell",)


def test_undo_moves_never_clear_givens(easy):
    puzzle, state = easy
    assert list(ENGINE.undo_moves(puzzle, state)) == []
    child = put(state, (1, 1, 4))
    assert list(ENGINE.undo_moves(puzzle, child)) == [state]


def test_children_first_empty_is_a_subset(easy):
    puzzle, state = easy
    first = set(children_first_empty(puzzle, state))
    assert first == {put(state, (1, 1, 4)), put(state, (1, 1, 5))}
    assert first < set(ENGINE.children(puzzle, state))


# ---------------------------------------------------------------- check_solution
def test_check_solution_accepts_any_valid_solution():
    row = next(r for r in sudopedia_rows() if r["name"] == "Not Unique - 2 Solutions")
    puzzle = SudokuPuzzle.from_grid(row["puzzle"])
    first, second = solutions(puzzle, 3)
    assert first != second
    for sol in (first, second):
        assert rules_hold(sol) and extends(sol, puzzle.givens)
        assert ENGINE.check_solution(puzzle, sol) == []


def test_check_solution_is_tied_to_its_puzzle():
    rows = {r["name"]: r for r in sudopedia_rows()}
    a = SudokuPuzzle.from_grid(rows["Naked Singles"]["puzzle"])
    b = SudokuPuzzle.from_grid(rows["Hidden Singles"]["puzzle"])
    sol_a = solve(a)
    assert ENGINE.check_solution(a, sol_a) == []
    reasons = ENGINE.check_solution(b, sol_a)
    assert reasons and all("overwrites the given" in r for r in reasons)


def test_check_solution_reports_empty_cells_and_repeats():
    puzzle = SudokuPuzzle.from_grid(EASY)
    sol = solve(puzzle)
    blank = list(sol)
    cleared = [i for i in range(81) if not puzzle.givens[i]][:3]
    for i in cleared:
        blank[i] = 0
    assert ENGINE.check_solution(puzzle, tuple(blank)) == ["3 cells are still empty"]
    one = list(sol)
    one[cleared[0]] = 0
    assert ENGINE.check_solution(puzzle, tuple(one)) == ["1 cell is still empty"]
    swapped = list(sol)
    i, j = cleared[0], cleared[1]               # two free cells in row 1: swap their digits
    swapped[i], swapped[j] = swapped[j], swapped[i]
    assert cleared[:2] == [0, 1]                # (1, 1) and (1, 2): same row, same box
    reasons = ENGINE.check_solution(puzzle, tuple(swapped))
    assert [r.split(" has two ")[0] for r in reasons] == ["column 1", "column 2"]


def test_hostile_states_stay_fast_and_exact():
    empty = SudokuPuzzle((0,) * 81)
    assert ENGINE.is_solvable(empty, empty.givens)
    assert rules_hold(solve(empty))
    assert count_solutions(empty, 50) == 50
    rng = random.Random(7)
    for _ in range(200):
        state = [0] * 81
        for _ in range(rng.randint(5, 30)):
            i = rng.randrange(81)
            options = sorted(set(range(1, 10)) - peer_digits(tuple(state), i))
            if options and not state[i]:
                state[i] = rng.choice(options)
        found = solve(tuple(state))
        assert ENGINE.is_solvable(empty, tuple(state)) == (found is not None)
        if found is not None:
            assert rules_hold(found) and extends(found, tuple(state))


# ---------------------------------------------------------------- properties
BASE = tuple((r * 3 + r // 3 + c) % 9 + 1 for r in range(9) for c in range(9))


@st.composite
def solved_grids(draw) -> tuple[int, ...]:
    """A random valid solution: the pattern grid under random Sudoku symmetries."""
    digits = draw(st.permutations(range(1, 10)))
    bands = draw(st.permutations(range(3)))
    stacks = draw(st.permutations(range(3)))
    rows = [b * 3 + r for b in bands for r in draw(st.permutations(range(3)))]
    cols = [s * 3 + c for s in stacks for c in draw(st.permutations(range(3)))]
    flip = draw(st.booleans())
    grid = tuple(digits[BASE[rows[r] * 9 + cols[c]] - 1] for r in range(9) for c in range(9))
    if flip:
        grid = tuple(grid[c * 9 + r] for r in range(9) for c in range(9))
    assert rules_hold(grid)
    return grid


@st.composite
def blanked(draw, max_holes: int = 81) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(solution, puzzle grid) with a random set of at most ``max_holes`` cells blanked."""
    sol = draw(solved_grids())
    holes = draw(st.sets(st.integers(0, 80), min_size=1, max_size=max_holes))
    return sol, tuple(0 if i in holes else d for i, d in enumerate(sol))


PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(blanked())
def test_blanked_solutions_are_solvable(case):
    sol, grid = case
    puzzle = SudokuPuzzle(grid)
    assert ENGINE.is_solvable(puzzle, grid)
    found = ENGINE.solve(puzzle)
    assert found is not None and rules_hold(found) and extends(found, grid)
    assert ENGINE.check_solution(puzzle, sol) == []


@PROPERTY
@given(blanked(max_holes=80), st.data())
def test_rule_breaking_fill_is_unsolvable(case, data):
    _, grid = case
    puzzle = SudokuPuzzle(grid)
    # an empty cell that sees a digit: with 1..80 holes some hole is a peer of some given
    i = data.draw(st.sampled_from([k for k in range(81) if not grid[k] and peer_digits(grid, k)]))
    d = data.draw(st.sampled_from(sorted(peer_digits(grid, i))))
    bad = grid[:i] + (d,) + grid[i + 1:]
    assert not ENGINE.is_solvable(puzzle, bad)
    assert ENGINE.violations(puzzle, bad)
    step = ENGINE.step(puzzle, grid, bad)
    assert step.kind is StepKind.INVALID and step.reasons


@PROPERTY
@given(blanked(), st.randoms(use_true_random=False))
def test_children_break_no_rule(case, rng):
    """Sudoku's moves are rule-valid fills (forward, back and undo: tests/core/test_domain_contract.py)."""
    _, grid = case
    puzzle = SudokuPuzzle(tuple(0 if rng.random() < 0.5 else d for d in grid))
    kids = list(ENGINE.children(puzzle, grid))
    for child in rng.sample(kids, min(10, len(kids))):
        assert ENGINE.violations(puzzle, child) == []


# ---------------------------------------------------------------- through the verifiers
def test_transition_verdicts_on_official_items(official_items):
    from finereason.verification.verifiers import verify_state_transition

    def verdict(item, state, mode="strict") -> str:
        text = f"Some reasoning.\nNext state: {ENGINE.render(item.puzzle, state)}"
        return verify_state_transition(ENGINE, item, text, mode).category

    item = next(i for i, _ in official_items if i.solvable)
    good = [c for c in ENGINE.children(item.puzzle, item.current) if ENGINE.is_solvable(item.puzzle, c)]
    assert good and verdict(item, good[0]) == "correct"
    assert verdict(item, item.unsolvable_child) == "unsolvable_child"
    assert verdict(item, item.unsolvable_child, "paper") == "unsolvable_child"
    empties = [k for k in range(81) if not item.current[k]]
    i = empties[0]
    j = next(k for k in empties if k // 9 != i // 9 and k % 9 != i % 9 and k // 27 != i // 27)
    di = min(set(range(1, 10)) - peer_digits(item.current, i))
    dj = min(set(range(1, 10)) - peer_digits(item.current, j))
    two = put(item.current, (i // 9 + 1, i % 9 + 1, di), (j // 9 + 1, j % 9 + 1, dj))
    assert verdict(item, two) == "multiple_moves"
    assert verdict(item, item.parent) == "invalid_move"

    stuck = [i for i, _ in official_items if not i.solvable]
    for item in stuck[:5]:
        assert verdict(item, item.parent) == "correct"
        assert verdict(item, item.current) == "backtracking_failure"
        siblings = set(ENGINE.children(item.puzzle, item.parent)) - {item.current}
        assert verdict(item, min(siblings)) == "sibling"
