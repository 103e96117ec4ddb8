"""Seeded puzzle sources: determinism, validity of what they make, and the file readers.

Expected values come from the rules (checked by small independent helpers here), from the reference
data in ../shared (puzzle counts, listed solutions, known chromatic numbers, the official question
records and the ToT ranks), and from the engines' exact oracles where the brief asks for them.
"""
from __future__ import annotations

import csv
import json

import pytest

from brute import coloring_completable
from conftest import read_jsonl, shared_path
from finereason.domains.graph_coloring.solver import chromatic_number
from finereason.domains.sudoku.engine import count_solutions, solve
from finereason.domains.game_of_24 import source as g24
from finereason.core.puzzle_sources import rng_for, stable_key
from finereason.domains.graph_coloring import source as gc
from finereason.domains.sudoku import source as sd


def as_json(source) -> str:
    return json.dumps(source.record, sort_keys=True)


# ====================================================================== helpers (independent of the code)
def sudoku_solves(givens, solution) -> bool:
    """The rule, read literally: every row, column and box holds 1..9 once, and the givens are kept."""
    full = set(range(1, 10))
    rows = [solution[r * 9:r * 9 + 9] for r in range(9)]
    cols = [solution[c::9] for c in range(9)]
    boxes = [[solution[(br * 3 + r) * 9 + bc * 3 + c] for r in range(3) for c in range(3)]
             for br in range(3) for bc in range(3)]
    return (all(set(unit) == full for unit in rows + cols + boxes)
            and all(g in (0, s) for g, s in zip(givens, solution)))


def flat(rows) -> tuple[int, ...]:
    return tuple(d for row in rows for d in row)


def connected(adjacency) -> bool:
    seen, stack = {0}, [0]
    while stack:
        for u in adjacency[stack.pop()]:
            if u not in seen:
                seen.add(u)
                stack.append(u)
    return len(seen) == len(adjacency)


# ====================================================================== sudoku: generator
def test_sudoku_generate_is_deterministic_per_index():
    a, b = sd.generate(11, 3, empty_cells=45), sd.generate(11, 3, empty_cells=45)
    assert as_json(a) == as_json(b) and a.key == b.key and a.difficulty == b.difficulty
    assert sd.generate(11, 4, empty_cells=45).key != a.key
    assert sd.generate(12, 3, empty_cells=45).key != a.key
    # the drawn target is seeded too (no local search, to stay quick)
    c, d = sd.generate(5, 0, search_steps=0), sd.generate(5, 0, search_steps=0)
    assert as_json(c) == as_json(d)
    assert 30 <= c.difficulty["empty_cells"] <= 64


@pytest.mark.parametrize("target", [30, 45, 55])
def test_sudoku_generate_reaches_target_with_unique_solution(target):
    keys = set()
    for index in range(4):
        source = sd.generate(2, index, empty_cells=target)
        givens = flat(source.record["inputs"]["initial"])
        solution = flat(source.record["outputs"]["final"])
        assert source.difficulty == {"empty_cells": target}
        assert givens.count(0) == target
        assert source.puzzle.givens == givens
        assert source.key == "".join(str(d) if d else "." for d in givens)
        assert count_solutions(givens, limit=2) == 1
        assert sudoku_solves(givens, solution)
        assert solve(givens) == solution
        keys.add(source.key)
    assert len(keys) == 4


def test_sudoku_unreachable_target_gives_a_minimal_puzzle():
    # 64 empty cells (17 givens) is not reached by digging alone, which then stops at a minimal
    # puzzle: emptying any one more given breaks uniqueness.
    source = sd.generate(3, 0, empty_cells=64, search_steps=0)
    givens = list(flat(source.record["inputs"]["initial"]))
    empty = source.difficulty["empty_cells"]
    assert empty == givens.count(0) and 50 <= empty < 64
    assert count_solutions(tuple(givens), limit=2) == 1
    for i, d in enumerate(givens):
        if d:
            givens[i] = 0
            assert count_solutions(tuple(givens), limit=2) == 2
            givens[i] = d


def test_sudoku_local_search_never_loses_cells():
    full = sd.random_full_grid(rng_for(0, "t"))
    dug = sd.dig(full, 64, rng_for(0, "d"))
    better = sd.improve(dug, full, 64, rng_for(0, "i"), 5)
    assert better.count(0) >= dug.count(0)
    assert count_solutions(better, limit=2) == 1
    assert sudoku_solves(better, full)


@pytest.mark.parametrize("bad", [-1, 65, 81, True, 45.0, "45"])
def test_sudoku_generate_rejects_bad_targets(bad):
    with pytest.raises(ValueError, match="empty_cells"):
        sd.generate(0, 0, empty_cells=bad)


def test_sudoku_record_matches_official_schema():
    official = read_jsonl(shared_path("finereason_official", "sudoku_questions.jsonl"))[0]
    record = sd.generate(0, 0, empty_cells=45).record
    assert record.keys() == official.keys()
    assert record["inputs"].keys() == official["inputs"].keys()
    assert record["outputs"].keys() == official["outputs"].keys()
    for grid in (record["inputs"]["initial"], record["outputs"]["final"]):
        assert len(grid) == 9 and all(len(row) == 9 and all(type(d) is int for d in row) for row in grid)


# ====================================================================== sudoku: readers
@pytest.mark.parametrize("name, count", [
    ("norvig/top95.txt", 95),
    ("norvig/easy50.txt", 50),
    ("derived_solutions/norvig_top95.solutions.csv", 95),
])
def test_sudoku_read_counts(name, count):
    sources = sd.read_puzzles(shared_path("sudoku", *name.split("/")))
    assert len(sources) == count
    for s in sources[:10]:
        givens = flat(s.record["inputs"]["initial"])
        assert s.difficulty["empty_cells"] == givens.count(0)
        assert sudoku_solves(givens, flat(s.record["outputs"]["final"]))


def test_sudoku_read_same_puzzle_same_key_across_formats():
    lines = sd.read_puzzles(shared_path("sudoku", "norvig", "top95.txt"))
    listed = sd.read_puzzles(shared_path("sudoku", "derived_solutions", "norvig_top95.solutions.csv"))
    assert [s.key for s in lines] == [s.key for s in listed]
    assert [as_json(s) for s in lines] == [as_json(s) for s in listed]


def test_sudoku_read_skips_comments_and_honours_limit():
    path = shared_path("sudoku", "tdoku", "puzzles3_magictour_top1465.txt")  # '#' lines and a blank line
    sources = sd.read_puzzles(path, limit=20)
    with open(path, encoding="utf-8") as fh:
        first = [line.strip() for line in fh if line.strip() and not line.startswith("#")][:20]
    assert [s.key for s in sources] == first


def test_sudoku_read_kaggle_csv_keeps_solution_and_rating():
    path = shared_path("sudoku", "kaggle3m_sample", "sudoku_3m_sample7034.csv")
    sources = sd.read_puzzles(path, limit=50)
    with open(path, encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))[:50]
    assert len(sources) == 50
    for s, row in zip(sources, rows):
        assert s.key == row["puzzle"].replace("0", ".")
        assert "".join(map(str, flat(s.record["outputs"]["final"]))) == row["solution"]
        assert s.difficulty == {"empty_cells": 81 - int(row["clues"]), "rating": float(row["difficulty"])}


def test_sudoku_read_rejects_or_skips_puzzles_without_unique_solution():
    path = shared_path("sudoku", "sudopedia_test_cases", "sudopedia_test_cases.csv")
    with pytest.raises(ValueError, match=r"sudopedia_test_cases\.csv:\d+: the puzzle has"):
        sd.read_puzzles(path)
    with open(path, encoding="utf-8") as fh:
        valid = [row for row in csv.DictReader(fh) if row["expected_outcome"] == "unique_solution"]
    assert [s.key for s in sd.read_puzzles(path, skip_invalid=True)] == [r["puzzle"] for r in valid]


TOP = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


@pytest.mark.parametrize("text, line, message", [
    ("# comment\n\n" + TOP + "\n" + TOP[:80] + "\n", 4, "expected 81 characters, got 80"),
    (TOP + "\n" + TOP[:-1] + "x\n", 2, "'x'"),
    (TOP.replace(".", "0") + "\n" + "." * 81 + "\n", 2, "more than one solution"),
    ("11" + TOP[2:] + "\n", 1, "no solution"),
    ("puzzle,solution\n" + TOP + "\n", 2, "expected 2 columns"),
    ("puzzle,solution\n" + TOP + "," + "1" * 81 + "\n", 2, "listed solution"),
    ("puzzle,difficulty\n" + TOP + ",hard\n", 2, "difficulty 'hard'"),
])
def test_sudoku_read_malformed_lines_name_file_and_line(tmp_path, text, line, message):
    path = tmp_path / "bad.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=rf"bad\.txt:{line}: .*{message}"):
        sd.read_puzzles(path)


def test_sudoku_read_accepts_zero_blanks_and_dot_blanks_alike(tmp_path):
    path = tmp_path / "two.txt"
    path.write_text(TOP + "\n\n" + TOP.replace(".", "0") + "\n", encoding="utf-8")
    a, b = sd.read_puzzles(path)
    assert a.key == b.key == TOP and as_json(a) == as_json(b)


# ====================================================================== graph coloring
@pytest.mark.parametrize("kind", gc.KINDS)
def test_graph_generate_is_deterministic_per_index(kind):
    a, b = gc.generate(4, 9, kind=kind), gc.generate(4, 9, kind=kind)
    assert as_json(a) == as_json(b) and a.key == b.key and a.difficulty == b.difficulty
    assert gc.generate(4, 10, kind=kind).key != a.key


@pytest.mark.parametrize("kind", gc.KINDS)
@pytest.mark.parametrize("n", [3, 8, 12, 20])
def test_graph_generate_is_valid(kind, n):
    for index in range(5):
        source = gc.generate(1, index, vertices=n, kind=kind)
        graph, k = source.record["inputs"]["graph"], source.record["inputs"]["chromatic_number"]
        m = sum(len(row) for row in graph) // 2
        assert len(graph) == n and connected(graph)
        assert all(row == sorted(set(row)) and v not in row for v, row in enumerate(graph))
        assert all(v in graph[u] for v, row in enumerate(graph) for u in row)  # symmetric
        assert k == chromatic_number(graph) == source.puzzle.k
        if n <= 12:  # independent check of chi
            assert coloring_completable(graph, k, [0] * n) and not coloring_completable(graph, k - 1, [0] * n)
        if kind == "planar":
            assert m <= 3 * n - 6 and 2 <= k <= 4
        assert source.difficulty == {"vertices": n, "edges": m, "k": k}
        edges = sorted((u, v) for u, row in enumerate(graph) for v in row if u < v)
        assert source.key == stable_key(edges)


def test_graph_presets_draw_from_their_ranges():
    small = [gc.generate(0, i).difficulty for i in range(15)]
    official = [gc.generate(0, i, preset="official").difficulty for i in range(15)]
    assert all(8 <= d["vertices"] <= 20 for d in small)
    assert all(15 <= d["vertices"] <= 25 for d in official)
    for d in official:
        assert 0.3 <= d["edges"] / (d["vertices"] * (d["vertices"] - 1) / 2) <= 0.95


def test_graph_density_extremes():
    complete = gc.generate(0, 0, vertices=7, density=1.0)
    assert complete.difficulty == {"vertices": 7, "edges": 21, "k": 7}
    tree = gc.generate(0, 0, vertices=15, kind="planar", density=0.0)
    assert tree.difficulty == {"vertices": 15, "edges": 14, "k": 2}
    triangulation = gc.generate(0, 0, vertices=15, kind="planar", density=1.0)
    assert triangulation.difficulty == {"vertices": 15, "edges": 39, "k": 4}


@pytest.mark.parametrize("kwargs", [
    {"kind": "grid"}, {"preset": "huge"}, {"vertices": 1}, {"vertices": 2, "kind": "planar"},
    {"vertices": True}, {"density": 1.5}, {"density": -0.1}, {"vertices": 30, "density": 0.0},
])
def test_graph_generate_rejects_bad_arguments(kwargs):
    with pytest.raises(ValueError):
        gc.generate(0, 0, **kwargs)


def test_graph_record_matches_official_schema():
    official = read_jsonl(shared_path("finereason_official", "graphcoloring_questions.jsonl"))
    record = gc.generate(0, 0).record
    for ref in official:
        assert record.keys() == ref.keys() and record["inputs"].keys() == ref["inputs"].keys()
    assert isinstance(record["inputs"]["chromatic_number"], int)
    assert all(isinstance(row, list) for row in record["inputs"]["graph"])


@pytest.mark.parametrize("name", ["myciel3", "myciel4", "queen5_5"])
def test_read_dimacs_puzzle_has_the_published_chromatic_number(name):
    with open(shared_path("graph_coloring", "chromatic_numbers.csv"), encoding="utf-8") as fh:
        row = next(r for r in csv.DictReader(fh) if r["instance"] == name)
    source = gc.read_dimacs_puzzle(shared_path("graph_coloring", *row["file"].split("/")))
    assert source.difficulty == {
        "vertices": int(row["vertices"]), "edges": int(row["undirected_edges"]), "k": int(row["chromatic_number"]),
    }
    assert source.record["inputs"]["chromatic_number"] == int(row["chromatic_number"])


def test_read_dimacs_puzzle_with_known_k_and_malformed_file(tmp_path):
    path = tmp_path / "c4.col"
    path.write_text("c a 4-cycle\np edge 4 4\ne 1 2\ne 2 3\ne 3 4\ne 4 1\n", encoding="utf-8")
    assert gc.read_dimacs_puzzle(path).difficulty == {"vertices": 4, "edges": 4, "k": 2}
    assert gc.read_dimacs_puzzle(str(path), k=3).record["inputs"]["chromatic_number"] == 3
    path.write_text("p edge 4 1\ne 1 9\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 2"):
        gc.read_dimacs_puzzle(path)


# ====================================================================== game of 24
def test_game24_solvable_multisets():
    sets = g24.solvable_multisets()
    assert len(sets) == 1362 == len(set(sets))
    assert sets == sorted(sets)
    assert all(len(s) == 4 and list(s) == sorted(s) and 1 <= s[0] and s[-1] <= 13 for s in sets)
    sets.clear()  # the cache hands out copies
    assert len(g24.solvable_multisets()) == 1362


def test_game24_ranks_cover_every_solvable_multiset():
    ranks = g24.read_tot_ranks(shared_path("game24", "24.csv"))
    assert set(ranks) == set(g24.solvable_multisets())
    assert sorted(ranks.values()) == list(range(1, 1363))
    assert ranks[(1, 1, 4, 6)] == 1
    sources = g24.puzzles(ranks)
    assert len(sources) == 1362 and all(s.difficulty["human_rank"] for s in sources)
    assert all(s.difficulty["human_rank"] is None for s in g24.puzzles())


def test_game24_records_match_the_official_questions():
    official = read_jsonl(shared_path("finereason_official", "game24_questions.jsonl"))
    ranks = g24.read_tot_ranks(shared_path("game24", "24.csv"))
    by_record = {json.dumps(s.record): s for s in g24.puzzles(ranks)}
    for ref in official:
        source = by_record[json.dumps(ref)]  # same schema, same strings, same (ascending) order
        assert source.key == "24:" + " ".join(ref["inputs"]["initial_state"])
        assert 901 <= source.difficulty["human_rank"] <= 1000  # FineReason drew from the ToT test set
        assert source.puzzle.numbers == tuple(int(x) for x in ref["inputs"]["initial_state"])


def test_game24_generate_is_a_seeded_permutation():
    first = [g24.generate(8, i) for i in range(1362)]
    assert len({s.key for s in first}) == 1362
    assert as_json(g24.generate(8, 5)) == as_json(first[5]) and g24.generate(8, 5).key == first[5].key
    assert g24.generate(8, 5 + 1362).key == first[5].key and g24.generate(8, -1).key == first[-1].key
    assert [s.key for s in first[:20]] != [g24.generate(9, i).key for i in range(20)]
    assert [s.key for s in first] != [s.key for s in g24.puzzles()]


@pytest.mark.parametrize("text, line, message", [
    ("Puzzles,AMT (s)\n1 1 4 6,4.4\n", 1, "missing column"),
    ("Rank,Puzzles\n1,1 1 4 6\nx,1 1 11 11\n", 3, "rank 'x'"),
    ("Rank,Puzzles\n1,1 1 4 six\n", 2, "not a list of numbers"),
    ("Rank,Puzzles\n1,1 1 4 6\n2,6 4 1 1\n", 3, "listed twice"),
])
def test_game24_read_tot_ranks_rejects_malformed_rows(tmp_path, text, line, message):
    path = tmp_path / "24.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=rf"24\.csv:{line}: .*{message}"):
        g24.read_tot_ranks(path)
