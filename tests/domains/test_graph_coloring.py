"""Graph coloring: puzzle checks, rules, minimal moves, the exact oracle, chromatic numbers, DIMACS.

Expected values come from the rules (small graphs worked out by hand), from brute-force enumeration,
from an independent plain backtracking search (tests/brute.py), or from the reference data in ../shared
(official labels, published chromatic numbers), never from this engine's own output.
"""
from __future__ import annotations

import csv
import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brute import coloring_completable
from conftest import read_jsonl, shared_path
from finereason.domains.graph_coloring.dimacs import parse_dimacs, read_dimacs, to_dimacs
from finereason.core.engine import StepKind, get_engine
from finereason.domains.graph_coloring.engine import GraphColoringEngine
from finereason.domains.graph_coloring.puzzle import GraphColoringPuzzle
from finereason.domains.graph_coloring.solver import chromatic_number, dsatur_coloring, k_coloring, max_clique
from finereason.common.verdict import ParseError, StateError
from finereason.verification.verifiers import verify_end_to_end, verify_state_transition

ENGINE: GraphColoringEngine = get_engine("graph_coloring")  # type: ignore[assignment]

# A 5-cycle 0-1-2-3-4-0 with the chord 0-2: triangle {0, 1, 2}, so χ = 3.
C5_CHORD = GraphColoringPuzzle.from_edges(5, [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0), (0, 2)], 3)
# The plain 5-cycle: odd, so not 2-colorable; χ = 3.
C5_TWO = GraphColoringPuzzle.from_edges(5, [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)], 2)

# DIMACS instances whose chromatic number the issue asks for (all exact in the reference table).
DIMACS_NAMES = ["myciel3", "myciel4", "myciel5", "queen5_5", "queen6_6", "huck", "jean", "david", "anna",
                "games120", "miles250"]


# ------------------------------------------------------------------ independent helpers
def proper(adjacency, colors, k) -> bool:
    """The rule, read literally: every vertex has a color 1..k and no edge joins equal colors."""
    return (len(colors) == len(adjacency)
            and all(1 <= c <= k for c in colors)
            and all(colors[u] != colors[v] for u in range(len(adjacency)) for v in adjacency[u]))


def brute_force_extends(adjacency, k, state) -> bool:
    """Try every assignment of colors 1..k to the uncolored vertices of ``state``."""
    blanks = [v for v, c in enumerate(state) if c == 0]
    edges = [(u, v) for u, row in enumerate(adjacency) for v in row if u < v]
    colors = list(state)
    for choice in itertools.product(range(1, k + 1), repeat=len(blanks)):
        for v, c in zip(blanks, choice):
            colors[v] = c
        if all(colors[u] != colors[v] for u, v in edges):
            return True
    return False


def is_clique(adjacency, vertices) -> bool:
    return all(v in adjacency[u] for u, v in itertools.combinations(vertices, 2))


def greedy_in_order(adjacency) -> int:
    """Colors used by sequential greedy coloring in vertex order (smallest free color each time)."""
    colors = [0] * len(adjacency)
    for v in range(len(adjacency)):
        taken = {colors[u] for u in adjacency[v]}
        colors[v] = next(c for c in itertools.count(1) if c not in taken)
    return max(colors, default=0)


def csv_rows() -> dict[str, dict[str, str]]:
    with open(shared_path("graph_coloring", "chromatic_numbers.csv"), encoding="utf-8", newline="") as fh:
        return {row["instance"]: row for row in csv.DictReader(fh)}


def dimacs(name: str) -> tuple[tuple[int, ...], ...]:
    return read_dimacs(shared_path("graph_coloring", "dimacs_col", f"{name}.col"))


# ------------------------------------------------------------------ registry and puzzle
def test_registered_under_all_names():
    for name in ("graph_coloring", "graphcoloring", "coloring"):
        assert get_engine(name) is ENGINE
    assert ENGINE.official_name == "graphcoloring"


def test_puzzle_is_normalised_hashable_and_precomputes_masks():
    a = GraphColoringPuzzle([[2, 1, 1], [0], [0]], 2)
    b = GraphColoringPuzzle(((1, 2), (0,), (0,)), 2)
    assert a.adjacency == ((1, 2), (0,), (0,))
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a.masks == (0b110, 0b001, 0b001)
    assert "masks" not in repr(a)
    assert a.n == 3 and a.edges() == [(0, 1), (0, 2)]
    assert a != GraphColoringPuzzle([[1, 2], [0], [0]], 3)
    with pytest.raises(AttributeError):
        a.k = 5  # type: ignore[misc]


@pytest.mark.parametrize("adjacency, k, message", [
    ([[1], []], 2, "vertex 0 lists 1 as a neighbour, but vertex 1 does not list 0"),
    ([[0]], 1, "vertex 0 lists itself as a neighbour"),
    ([[3], [0]], 2, "vertex 0 has neighbour 3, but the vertices are 0..1"),
    ([[-1], [0]], 2, "vertex 0 has neighbour -1"),
    ([[True], [0]], 2, "non-integer neighbour True"),
    ([["1"], [0]], 2, "non-integer neighbour '1'"),
    ("[[1], [0]]", 2, "must be a list of neighbour lists"),
    ([5, [0]], 2, "the neighbours of vertex 0 must be a list"),
    ([[1], [0]], 0, "positive integer"),
    ([[1], [0]], True, "positive integer"),
])
def test_puzzle_rejects_malformed_graphs(adjacency, k, message):
    with pytest.raises(StateError, match=message.replace("(", r"\(").replace("[", r"\[")):
        GraphColoringPuzzle(adjacency, k)


# ------------------------------------------------------------------ parsing and rendering
def test_parse_render_round_trip():
    state = ENGINE.parse_state(C5_CHORD, [1, 2, 3, 0, 0])
    assert state == (1, 2, 3, 0, 0)
    assert ENGINE.to_official(C5_CHORD, state) == [1, 2, 3, 0, 0]
    assert ENGINE.render(C5_CHORD, state) == "[1, 2, 3, 0, 0]"
    text = f"The next vertex gets color 1.\nNext state: {ENGINE.render(C5_CHORD, state)}"
    assert ENGINE.parse_state_text(C5_CHORD, text) == state


@pytest.mark.parametrize("value, message", [
    ([1, 2, 3], "coloring has 3 entries, expected 5 vertices"),
    ([1, 2, 3, 0, 0, 0], "coloring has 6 entries, expected 5 vertices"),
    ([1, 2, 3, 0, 9], "vertex 4 has color 9, but only colors 1..3 exist"),
    ([1, -1, 3, 0, 0], "vertex 1 has color -1, but only colors 1..3 exist"),
    ([1, True, 3, 0, 0], "vertex 1 has color True, which is not an integer"),
    ([1, "2", 3, 0, 0], "vertex 1 has color '2', which is not an integer"),
    ([1, [2], 3, 0, 0], "vertex 1 has color [2], which is not an integer"),
    ("12300", "a coloring must be a list of 5 integers, got str"),
    ({"0": 1}, "a coloring must be a list of 5 integers, got dict"),
    (7, "a coloring must be a list of 5 integers, got int"),
])
def test_parse_state_errors(value, message):
    with pytest.raises(StateError) as err:
        ENGINE.parse_state(C5_CHORD, value)
    assert message in str(err.value)


def test_parse_state_text_errors():
    with pytest.raises(ParseError):
        ENGINE.parse_state_text(C5_CHORD, "I would color vertex 3 red.")
    with pytest.raises(StateError, match="coloring has 2 entries"):
        ENGINE.parse_state_text(C5_CHORD, "Next state: [1, 2]")


# ------------------------------------------------------------------ rules
def test_violations_name_each_conflicting_edge_once_in_order():
    # The triangle's edges 0-1, 0-2, 1-2 all join color 1, and 3-4 joins color 2; 2-3 (1, 2) and
    # 4-0 (2, 1) are fine.
    state = (1, 1, 1, 2, 2)
    assert ENGINE.violations(C5_CHORD, state) == [
        "vertices 0 and 1 share color 1",
        "vertices 0 and 2 share color 1",
        "vertices 1 and 2 share color 1",
        "vertices 3 and 4 share color 2",
    ]
    assert ENGINE.violations(C5_CHORD, (1, 2, 3, 1, 2)) == []
    assert ENGINE.violations(C5_CHORD, (0,) * 5) == []


def test_check_solution():
    assert ENGINE.check_solution(C5_CHORD, (1, 2, 3, 1, 2)) == []
    assert ENGINE.check_solution(C5_CHORD, (2, 3, 1, 2, 3)) == []  # any valid coloring counts
    assert ENGINE.check_solution(C5_CHORD, (1, 2, 3, 0, 2)) == ["vertex 3 is uncolored"]
    assert ENGINE.check_solution(C5_CHORD, (1, 0, 3, 0, 2)) == ["vertices 1, 3 are uncolored"]
    assert ENGINE.check_solution(C5_CHORD, (1, 0, 1, 0, 2)) == [
        "vertices 1, 3 are uncolored", "vertices 0 and 2 share color 1"]
    assert ENGINE.check_solution(C5_CHORD, (1, 2, 3)) == ["coloring has 3 entries, expected 5 vertices"]


def test_end_to_end_is_tied_to_its_instance():
    solution = (1, 2, 3, 1, 2)
    assert verify_end_to_end(ENGINE, C5_CHORD, f"Final answer: {list(solution)}").correct
    other = GraphColoringPuzzle.from_edges(5, [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0), (0, 3)], 3)
    verdict = verify_end_to_end(ENGINE, other, f"Final answer: {list(solution)}")
    assert not verdict.correct and verdict.reasons == ("vertices 0 and 3 share color 1",)


# ------------------------------------------------------------------ moves
@pytest.mark.parametrize("current, proposed, kind, reasons", [
    # nothing changed
    ((1, 2, 0, 0, 0), (1, 2, 0, 0, 0), StepKind.NONE, ()),
    # vertex 2 gets 3: its colored neighbours 0 and 1 have 1 and 2
    ((1, 2, 0, 0, 0), (1, 2, 3, 0, 0), StepKind.FORWARD, ()),
    # a non-lowest vertex is still a legal move (vertex 4 neighbours 0 (1) and 3 (blank))
    ((1, 2, 0, 0, 0), (1, 2, 0, 0, 2), StepKind.FORWARD, ()),
    # vertex 2 gets 1 like its neighbour 0
    ((1, 2, 0, 0, 0), (1, 2, 1, 0, 0), StepKind.INVALID, ("vertices 0 and 2 share color 1",)),
    # vertex 4 gets 1 like its neighbour 0
    ((1, 2, 3, 0, 0), (1, 2, 3, 0, 1), StepKind.INVALID, ("vertices 0 and 4 share color 1",)),
    # vertex 3 gets 3, like its neighbour 2
    ((1, 2, 3, 0, 3), (1, 2, 3, 3, 3), StepKind.INVALID, ("vertices 2 and 3 share color 3",
                                                         "vertices 3 and 4 share color 3")),
    # two vertices colored at once
    ((1, 2, 0, 0, 0), (1, 2, 3, 1, 0), StepKind.MULTIPLE, ("2 vertices changed: 2, 3",)),
    ((1, 0, 0, 0, 0), (0, 2, 3, 0, 2), StepKind.MULTIPLE, ("4 vertices changed: 0, 1, 2, 4",)),
    # one colored vertex uncolored
    ((1, 2, 3, 0, 0), (1, 2, 0, 0, 0), StepKind.BACKWARD, ("vertex 2 is uncolored again (it had color 3)",)),
    # a recolored vertex is not a move
    ((1, 2, 3, 0, 0), (1, 2, 1, 0, 0), StepKind.INVALID,
     ("vertex 2 changes color 3 to 1; a move colors one uncolored vertex",)),
    ((1, 2, 0, 0, 0), (1, 3, 0, 0, 0), StepKind.INVALID,
     ("vertex 1 changes color 2 to 3; a move colors one uncolored vertex",)),
    # malformed proposals
    ((1, 2, 0, 0, 0), (1, 2, 0), StepKind.INVALID, ("coloring has 3 entries, expected 5 vertices",)),
    ((1, 2, 0, 0, 0), (1, 2, 7, 0, 0), StepKind.INVALID,
     ("vertex 2 has color 7, but only colors 1..3 exist (0 = uncolored)",)),
])
def test_step_categories(current, proposed, kind, reasons):
    step = ENGINE.step(C5_CHORD, current, proposed)
    assert step.kind is kind
    assert step.reasons == reasons


def test_children_and_undo_moves_by_hand():
    state = (1, 0, 0, 0, 0)
    # vertex 1 (neighbours 0, 2): 2 or 3; vertex 2 (0, 1, 3): 2 or 3; vertex 3 (2, 4): any;
    # vertex 4 (3, 0): 2 or 3.
    assert list(ENGINE.children(C5_CHORD, state)) == [
        (1, 2, 0, 0, 0), (1, 3, 0, 0, 0),
        (1, 0, 2, 0, 0), (1, 0, 3, 0, 0),
        (1, 0, 0, 1, 0), (1, 0, 0, 2, 0), (1, 0, 0, 3, 0),
        (1, 0, 0, 0, 2), (1, 0, 0, 0, 3),
    ]
    assert list(ENGINE.children_lowest_uncolored(C5_CHORD, state)) == [(1, 2, 0, 0, 0), (1, 3, 0, 0, 0)]
    assert list(ENGINE.children(C5_CHORD, (1, 2, 3, 1, 2))) == []
    assert list(ENGINE.children_lowest_uncolored(C5_CHORD, (1, 2, 3, 1, 2))) == []
    assert list(ENGINE.undo_moves(C5_CHORD, (1, 0, 3, 0, 2))) == [(0, 0, 3, 0, 2), (1, 0, 0, 0, 2), (1, 0, 3, 0, 0)]
    assert list(ENGINE.undo_moves(C5_CHORD, (0,) * 5)) == []


# ------------------------------------------------------------------ oracle on hand-made cases
def test_oracle_small_cases():
    assert ENGINE.is_solvable(C5_CHORD, (0,) * 5)
    assert ENGINE.is_solvable(C5_CHORD, (1, 2, 0, 0, 0))
    # 0 = 1 and 1 = 2 force 2 = 3; with 4 = 3, vertex 3 takes 1 or 2: (1, 2, 3, 1, 3)
    assert ENGINE.is_solvable(C5_CHORD, (1, 2, 0, 0, 3))
    # 0 = 1 and 1 = 2 force 2 = 3, but its neighbour 3 already has 3
    assert not ENGINE.is_solvable(C5_CHORD, (1, 2, 0, 3, 0))
    assert not ENGINE.is_solvable(C5_TWO, (0,) * 5)  # an odd cycle needs 3 colors
    assert not ENGINE.is_solvable(C5_CHORD, (1, 1, 0, 0, 0))  # a conflict already
    with pytest.warns(DeprecationWarning, match="solvable_label"):  # the deprecated spelling still answers
        assert ENGINE.label(C5_CHORD, (0,) * 5) == "Solvable"
        assert ENGINE.label(C5_TWO, (0,) * 5) == "Unsolvable"
    solution = ENGINE.solve(C5_CHORD)
    assert solution is not None and proper(C5_CHORD.adjacency, solution, 3)
    assert ENGINE.solve(C5_TWO) is None
    completed = ENGINE.complete(C5_CHORD, (0, 0, 0, 3, 0))
    assert completed is not None and completed[3] == 3 and proper(C5_CHORD.adjacency, completed, 3)
    # K3 with 0 = 1 and 1 = 2 leaves 2 = 3; (1, 0, 1) already breaks the edge 0-2
    k3 = GraphColoringPuzzle.from_edges(3, [(0, 1), (1, 2), (0, 2)], 3)
    assert ENGINE.complete(k3, (1, 2, 0)) == (1, 2, 3)
    assert not ENGINE.is_solvable(k3, (1, 0, 1))
    empty = GraphColoringPuzzle((), 1)
    assert ENGINE.is_solvable(empty, ()) and ENGINE.check_solution(empty, ()) == []
    # the oracle refuses what parse_state would refuse, rather than guessing
    for bad in [(1, 2, 0), (1, 2, 0, 0, 4), (1, 2, 0, 0, True)]:
        with pytest.raises(StateError):
            ENGINE.is_solvable(C5_CHORD, bad)


def test_precolored_colors_break_the_symmetry_correctly():
    # The 4-cycle 0-1-2-3 plus vertex 4 joined to 0, 1 and 3, k = 3. With 0 = 1 and 2 = 2 the
    # vertices 1 and 3 must both be 3, and then 4 (next to 1, 3 and 0) takes 2. Colors already on
    # the board are not interchangeable with fresh ones, so every partial state is compared with
    # brute force.
    puzzle = GraphColoringPuzzle.from_edges(5, [(0, 1), (1, 2), (0, 3), (2, 3), (4, 1), (4, 3), (4, 0)], 3)
    assert ENGINE.complete(puzzle, (1, 0, 2, 0, 0)) == (1, 3, 2, 3, 2)
    assert not ENGINE.is_solvable(puzzle, (1, 0, 2, 0, 3))
    for state in itertools.product(range(4), repeat=5):
        assert ENGINE.is_solvable(puzzle, state) == (
            not ENGINE.violations(puzzle, state) and brute_force_extends(puzzle.adjacency, 3, state)), state


# ------------------------------------------------------------------ property tests
@st.composite
def graphs(draw, max_n: int):
    """A random graph on 1..max_n vertices, as sorted adjacency tuples."""
    n = draw(st.integers(1, max_n))
    pairs = list(itertools.combinations(range(n), 2))
    chosen = draw(st.lists(st.booleans(), min_size=len(pairs), max_size=len(pairs)))
    edges = [pair for pair, keep in zip(pairs, chosen) if keep]
    return GraphColoringPuzzle.from_edges(n, edges, 1).adjacency


@st.composite
def graph_and_state(draw, max_n: int = 9):
    """A puzzle (k <= 4, k <= 3 above 7 vertices, so brute force stays small) and any state of it."""
    adjacency = draw(graphs(max_n))
    n = len(adjacency)
    k = draw(st.integers(1, 4 if n <= 7 else 3))
    state = tuple(draw(st.lists(st.integers(0, k), min_size=n, max_size=n)))
    return GraphColoringPuzzle(adjacency, k), state


@settings(max_examples=250, deadline=None)
@given(graph_and_state())
def test_oracle_agrees_with_brute_force(case):
    puzzle, state = case
    expected = not ENGINE.violations(puzzle, state) and brute_force_extends(puzzle.adjacency, puzzle.k, state)
    assert ENGINE.is_solvable(puzzle, state) == expected
    completed = ENGINE.complete(puzzle, state)
    if expected:
        assert completed is not None and proper(puzzle.adjacency, completed, puzzle.k)
        assert all(c == d for c, d in zip(state, completed) if c)
    else:
        assert completed is None


@settings(max_examples=150, deadline=None)
@given(graph_and_state(max_n=8))
def test_moves_are_consistent_with_step(case):
    puzzle, state = case
    children = list(ENGINE.children(puzzle, state))
    lowest = list(ENGINE.children_lowest_uncolored(puzzle, state))
    assert set(lowest) <= set(children)
    for child in children:
        assert ENGINE.step(puzzle, state, child).kind is StepKind.FORWARD
        assert state in set(ENGINE.undo_moves(puzzle, child))
        assert ENGINE.step(puzzle, child, state).kind is StepKind.BACKWARD
    for parent in ENGINE.undo_moves(puzzle, state):
        assert ENGINE.step(puzzle, state, parent).kind is StepKind.BACKWARD
    # the tree is consistent: a conflict-free state is solvable iff complete or a lowest child is
    if not ENGINE.violations(puzzle, state):
        if 0 in state:
            assert ENGINE.is_solvable(puzzle, state) == any(ENGINE.is_solvable(puzzle, c) for c in lowest)
        else:
            assert ENGINE.is_solvable(puzzle, state) and ENGINE.check_solution(puzzle, state) == []


@settings(max_examples=100, deadline=None)
@given(graphs(max_n=7))
def test_chromatic_number_agrees_with_brute_force(adjacency):
    n = len(adjacency)
    chi = chromatic_number(adjacency)
    expected = next(k for k in range(n + 1) if brute_force_extends(adjacency, k, (0,) * n))
    assert chi == expected
    assert is_clique(adjacency, max_clique(adjacency))
    assert proper(adjacency, dsatur_coloring(adjacency), max(dsatur_coloring(adjacency)))
    witness = k_coloring(adjacency, chi)
    assert witness is not None and proper(adjacency, witness, chi)
    if chi:
        assert k_coloring(adjacency, chi - 1) is None


# ------------------------------------------------------------------ official data
def test_official_labels_agree(official_states):
    records = official_states("graphcoloring")
    assert len(records) == 100
    for record in records:
        item = ENGINE.item_from_official(record)
        assert item.solvable == (record["outputs"]["current_status"] == "Solvable")
        assert ENGINE.is_solvable(item.puzzle, item.current) == item.solvable, record
        assert not ENGINE.is_solvable(item.puzzle, item.unsolvable_child)
        # the official trees color the lowest-index uncolored vertex, one vertex per move
        assert item.current in set(ENGINE.children_lowest_uncolored(item.puzzle, item.parent))
        assert item.parent in set(ENGINE.children_lowest_uncolored(item.puzzle, item.grandparent))
        assert item.unsolvable_child in set(ENGINE.children_lowest_uncolored(item.puzzle, item.current))
        assert ENGINE.step(item.puzzle, item.current, item.unsolvable_child).kind is StepKind.FORWARD


def test_official_labels_also_hold_for_coloring_completable(official_states):
    for record in official_states("graphcoloring"):
        item = ENGINE.item_from_official(record)
        assert coloring_completable(item.puzzle.adjacency, item.puzzle.k, item.current) == item.solvable


def test_item_from_official_reads_every_field(official_states):
    record = official_states("graphcoloring")[0]
    item = ENGINE.item_from_official(record)
    inputs = record["inputs"]
    assert item.puzzle.k == inputs["chromatic_number"]
    assert [list(row) for row in item.puzzle.adjacency] == inputs["graph"]
    assert ENGINE.to_official(item.puzzle, item.current) == inputs["current"]
    assert ENGINE.to_official(item.puzzle, item.parent) == inputs["parent"]
    assert ENGINE.to_official(item.puzzle, item.grandparent) == inputs["grandparent"]
    assert ENGINE.to_official(item.puzzle, item.unsolvable_child) == inputs["unsolvable_child"]
    bare = {"inputs": {**inputs, "parent": None, "grandparent": None, "unsolvable_child": None}}
    item = ENGINE.item_from_official(bare)
    assert item.parent is item.grandparent is item.unsolvable_child is item.solvable is None
    with pytest.raises(ParseError):
        ENGINE.item_from_official({"inputs": {"graph": inputs["graph"]}})
    with pytest.raises(StateError):
        ENGINE.item_from_official({"inputs": {**inputs, "current": inputs["current"][:-1]}})


def test_transition_verdicts_on_an_official_state(official_states):
    records = official_states("graphcoloring")
    item = next(i for i in map(ENGINE.item_from_official, records) if i.solvable and i.unsolvable_child)
    text = f"Next state: {ENGINE.render(item.puzzle, item.unsolvable_child)}"
    assert verify_state_transition(ENGINE, item, text, "strict").category == "unsolvable_child"
    assert verify_state_transition(ENGINE, item, text, "paper").category == "unsolvable_child"


def test_official_questions(official_states):
    """Every question graph is k-colorable. The release's ``chromatic_number`` field is not χ:
    it is the number of colors of greedy coloring in vertex order, and exceeds χ on most graphs."""
    questions = read_jsonl(shared_path("finereason_official", "graphcoloring_questions.jsonl"))
    assert len(questions) == 51
    equal = 0
    for record in questions:
        puzzle = ENGINE.puzzle_from_official(record)
        adjacency = puzzle.adjacency
        assert puzzle.k == greedy_in_order(adjacency)
        solution = ENGINE.solve(puzzle)
        assert solution is not None and proper(adjacency, solution, puzzle.k)
        chi = chromatic_number(puzzle)
        witness = k_coloring(puzzle, chi)
        assert witness is not None and proper(adjacency, witness, chi)
        # lower bound, checked independently: a clique precolored 1..ω (no loss of generality)
        # and plain backtracking find no (χ - 1)-coloring
        clique = max_clique(puzzle)
        assert is_clique(adjacency, clique) and len(clique) >= chi - 1
        precolored = [0] * puzzle.n
        for color, v in enumerate(clique, start=1):
            precolored[v] = color
        assert len(clique) == chi or not coloring_completable(adjacency, chi - 1, precolored)
        assert coloring_completable(adjacency, chi, precolored)
        equal += chi == puzzle.k
    assert equal == 9  # χ equals the stored value on 9 of the 51 graphs only


# ------------------------------------------------------------------ DIMACS reference graphs
@pytest.mark.parametrize("name", DIMACS_NAMES)
def test_chromatic_numbers_of_dimacs_graphs(name):
    row = csv_rows()[name]
    adjacency = dimacs(name)
    assert len(adjacency) == int(row["vertices"])
    assert sum(map(len, adjacency)) // 2 == int(row["undirected_edges"])
    assert chromatic_number(adjacency) == int(row["chromatic_number"])


def test_dimacs_edge_counts_match_the_table():
    for name, row in csv_rows().items():
        path = shared_path("graph_coloring", row["file"])
        adjacency = read_dimacs(path)
        assert len(adjacency) == int(row["vertices"]), name
        assert sum(map(len, adjacency)) // 2 == int(row["undirected_edges"]), name


def test_witness_colorings_pass_check_solution():
    checked = 0
    for name, row in csv_rows().items():
        if not row["witness_coloring"]:
            continue
        witness = shared_path("graph_coloring", row["witness_coloring"])
        k = int(witness.name.rsplit(".k", 1)[1].split(".")[0])
        puzzle = GraphColoringPuzzle(read_dimacs(shared_path("graph_coloring", row["file"])), k)
        colors = ENGINE.parse_state(puzzle, [int(line) for line in witness.read_text().split()])
        assert ENGINE.check_solution(puzzle, colors) == [], name
        assert ENGINE.is_solvable(puzzle, colors)
        broken = list(colors)
        u = next(v for v, row_ in enumerate(puzzle.adjacency) if row_)
        broken[u] = colors[puzzle.adjacency[u][0]]
        assert ENGINE.check_solution(puzzle, tuple(broken)), name
        checked += 1
    assert checked >= 50


# ------------------------------------------------------------------ DIMACS reader
SMALL_COL = """c a triangle plus a pendant vertex
c listed with duplicates and both directions
p edge 4 6
e 1 2
e 2 1
e 2 3
e 1 3
e 1 3

e 3 4
"""


def test_read_dimacs_text_and_path(tmp_path):
    expected = ((1, 2), (0, 2), (0, 1, 3), (2,))
    assert read_dimacs(SMALL_COL) == expected
    path = tmp_path / "small.col"
    path.write_text(SMALL_COL)
    assert read_dimacs(path) == expected
    assert read_dimacs(str(path)) == expected
    assert read_dimacs(to_dimacs(expected, ["round trip"])) == expected
    assert to_dimacs(expected).splitlines()[0] == "p edge 4 4"
    assert read_dimacs("p edge 3 0") == ((), (), ())
    with pytest.raises(FileNotFoundError):
        read_dimacs(str(tmp_path / "missing.col"))
    assert chromatic_number(read_dimacs(SMALL_COL)) == 3


def test_read_dimacs_self_loops():
    text = "p edge 2 2\ne 1 1\ne 1 2\n"
    assert read_dimacs(text) == ((1,), (0,))
    with pytest.raises(ValueError, match="line 2: self-loop on vertex 1"):
        read_dimacs(text, self_loops="error")
    with pytest.raises(ValueError, match="self_loops"):
        read_dimacs(text, self_loops="keep")


@pytest.mark.parametrize("text, message", [
    ("e 1 2\np edge 2 1\n", "line 1: edge line before the 'p edge N M' line"),
    ("c only comments\n", "no 'p edge N M' problem line"),
    ("p edge 3 1\ne 1 4\n", "line 2: vertex 4 is outside 1..3"),
    ("p edge 3 1\ne 0 1\n", "line 2: vertex 0 is outside 1..3"),
    ("p edge 3 1\ne 1 x\n", "line 2: vertex 'x' is not a positive integer"),
    ("p edge 3 1\ne 1 -2\n", "line 2: vertex '-2' is not a positive integer"),
    ("p edge 3 1\ne 1 2 3\n", "line 2: expected 'e u v'"),
    ("p edge 3\n", "line 1: expected 'p edge N M'"),
    ("p cnf 3 1\n", "line 1: expected 'p edge N M'"),
    ("p edge three 1\n", "line 1: vertex count 'three' is not a non-negative integer"),
    ("p edge 3 1\np edge 3 1\n", "line 2: a second problem line"),
    ("c ok\np edge 3 1\nx 1 2\n", "line 3: unknown line type 'x'"),
])
def test_read_dimacs_errors(text, message):
    with pytest.raises(ValueError) as err:
        parse_dimacs(text.splitlines())
    assert message in str(err.value)


def test_read_dimacs_rejects_other_types():
    with pytest.raises(TypeError):
        read_dimacs(b"p edge 1 0")  # type: ignore[arg-type]


def test_official_record_round_trips_through_json(official_states):
    record = official_states("graphcoloring")[3]
    item = ENGINE.item_from_official(json.loads(json.dumps(record)))
    assert ENGINE.render(item.puzzle, item.current) == repr(record["inputs"]["current"])
