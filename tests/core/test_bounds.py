"""Bounded work: documented size limits per puzzle and oracle work budgets that answer
``undecided`` (never a guessed verdict), deterministically (budgets count search steps, not time)."""
from __future__ import annotations

import json
import random

import pytest

from conftest import read_jsonl, shared_path
from finereason.commands import main
from finereason.core.engine import get_engine
from finereason.domains.graph_coloring import engine as graph_coloring
from finereason.domains.grid_puzzle import engine as grid_puzzle
from finereason.domains.grid_puzzle.puzzle import MAX_CATEGORIES, MAX_ENTRIES, GridPuzzle
from finereason.domains.game_of_24.puzzle import MAX_NUMBERS, Game24Puzzle
from finereason.domains.graph_coloring.puzzle import MAX_COLORS, MAX_VERTICES, GraphColoringPuzzle
from finereason.domains.graph_coloring.solver import chromatic_number
from finereason.core.engine import StateItem
from finereason.common.verdict import UNDECIDED, StateError, Undecided
from finereason.verification.verifiers import verify_state_checking, verify_state_transition_modes

COLORING = get_engine("graph_coloring")


def random_graph(n: int, p: float, seed: int = 0) -> list[tuple[int, int]]:
    rng = random.Random(seed)
    return [(u, v) for u in range(n) for v in range(u + 1, n) if rng.random() < p]


# ------------------------------------------------------------------ size limits
def test_game24_number_limit():
    Game24Puzzle(tuple(range(1, MAX_NUMBERS + 1)))
    with pytest.raises(ValueError, match=f"at most {MAX_NUMBERS} numbers"):
        Game24Puzzle(tuple(range(1, MAX_NUMBERS + 2)))


def test_graph_coloring_limits_fail_before_any_allocation():
    with pytest.raises(StateError, match=f"at most {MAX_COLORS} colors"):
        GraphColoringPuzzle([[1], [0]], 10**12)
    with pytest.raises(StateError, match=f"at most {MAX_VERTICES} vertices"):
        GraphColoringPuzzle([[]] * (MAX_VERTICES + 1), 3)
    assert GraphColoringPuzzle([[]] * MAX_VERTICES, MAX_COLORS).n == MAX_VERTICES


def test_grid_puzzle_limits():
    record = read_jsonl(shared_path("finereason_official", "gridpuzzle_states_sample.jsonl"))[0]
    engine = get_engine("grid_puzzle")
    puzzle = engine.puzzle_from_official(record)
    assert len(puzzle.keys) <= MAX_ENTRIES and len(puzzle.header) <= MAX_CATEGORIES
    keys = tuple(range(MAX_ENTRIES + 1))
    with pytest.raises(StateError, match="at most 10 entries"):
        GridPuzzle(("k", "a"), keys, (tuple(f"v{i}" for i in keys),), ())


# ------------------------------------------------------------------ work budgets
@pytest.fixture()
def hard_coloring(monkeypatch):
    """G(40, 0.5) with k one below its chromatic number, and a budget too small to prove it."""
    monkeypatch.setattr(graph_coloring, "ORACLE_WORK", 30)
    edges = random_graph(40, 0.5)
    chi = chromatic_number(GraphColoringPuzzle.from_edges(40, edges, 1))
    return GraphColoringPuzzle.from_edges(40, edges, chi - 1)


def test_graph_coloring_budget_gives_undecided_deterministically(hard_coloring):
    empty = (0,) * hard_coloring.n
    messages = set()
    for _ in range(3):
        with pytest.raises(Undecided) as info:
            COLORING.is_solvable(hard_coloring, empty)
        messages.add(str(info.value))
    assert len(messages) == 1 and "work budget" in messages.pop()
    graph_coloring.ORACLE_WORK = 10**9  # with room, the same question is decided (no coloring)
    assert COLORING.is_solvable(hard_coloring, empty) is False


def test_verifiers_report_undecided_not_a_guess(hard_coloring):
    empty = (0,) * hard_coloring.n
    item = StateItem(hard_coloring, empty)
    for answer in ("Answer: (A)", "Answer: (B)"):
        verdict = verify_state_checking(COLORING, item, answer)
        assert verdict.category == UNDECIDED and not verdict.correct and "work budget" in verdict.reasons[0]
    child = (1,) + empty[1:]
    verdicts = verify_state_transition_modes(COLORING, item, f"Next state: {list(child)}", solvable=True)
    assert verdicts["strict"].category == UNDECIDED and not verdicts["strict"].correct
    assert verdicts["paper"].category == "correct"  # paper mode needs no oracle for the child


def test_label_writes_null_for_undecided_states_and_exits_1(hard_coloring, tmp_path, capsys):
    adjacency = [list(row) for row in hard_coloring.adjacency]
    src = tmp_path / "g.jsonl"
    src.write_text(json.dumps({"graph": adjacency, "k": hard_coloring.k}) + "\n"
                   + json.dumps({"graph": [[1], [0]], "k": 2}) + "\n")
    out = tmp_path / "labels.jsonl"
    assert main(["label", "--domain", "graph_coloring", "--input", str(src), "--out", str(out)]) == 1
    first, second = [json.loads(line) for line in out.read_text().splitlines()]
    assert first["solvable"] is None and "work budget" in first["undecided"]
    assert second == {"solvable": True}
    assert "solvable: 1/2 (1 undecided)" in capsys.readouterr().out


def test_grid_budget_gives_undecided(monkeypatch):
    record = read_jsonl(shared_path("finereason_official", "gridpuzzle_states_sample.jsonl"))[0]
    engine = get_engine("grid_puzzle")
    item = engine.item_from_official(record)
    initial = engine.initial(item.puzzle)
    decided = engine.is_solvable(item.puzzle, initial)
    monkeypatch.setattr(grid_puzzle, "ORACLE_WORK", 1)
    with pytest.raises(Undecided, match="candidate placements"):
        engine.is_solvable(item.puzzle, initial)
    monkeypatch.setattr(grid_puzzle, "ORACLE_WORK", 10**9)
    assert engine.is_solvable(item.puzzle, initial) is decided


def test_budgets_never_fire_on_the_official_samples(capsys):
    """Every official sample state is decided within the default budgets (agreement 400/400)."""
    assert main(["check-official", "--src", str(shared_path("finereason_official"))]) == 0
    out = capsys.readouterr().out
    assert "undecided" not in out and out.strip().splitlines()[-1] == "agreement: 400/400"



def test_check_official_counts_undecided_states_as_disagreeing(hard_coloring, tmp_path, capsys):
    records = read_jsonl(shared_path("finereason_official", "graphcoloring_states_sample.jsonl"))[:4]
    n = hard_coloring.n
    records.append({"inputs": {"graph": [list(row) for row in hard_coloring.adjacency], "chromatic_number": hard_coloring.k,
                               "current": [0] * n, "parent": None, "grandparent": None, "unsolvable_child": None},
                    "outputs": {"current_status": "Unsolvable"}})
    (tmp_path / "graphcoloring_states.json").write_text("".join(json.dumps(r) + "\n" for r in records))
    assert main(["check-official", "--src", str(tmp_path)]) == 1
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[-2].startswith("undecided: 1 state ") and lines[-1] == "agreement: 4/5"
