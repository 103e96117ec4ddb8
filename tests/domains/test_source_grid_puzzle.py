"""Generated logic-grid puzzles: determinism, soundness, uniqueness, minimality, trees, official import."""
from __future__ import annotations

import json
import re
from functools import lru_cache

import pytest

from conftest import read_jsonl, shared_path
from finereason.core.engine import StepKind, get_engine
from finereason.domains.grid_puzzle.conditions import parse_condition
from finereason.domains.grid_puzzle.puzzle import GridPuzzle
from finereason.core.puzzle_sources import SourcePuzzle
from finereason.domains.grid_puzzle.source import ENTRY_RANGE, generate, official_puzzles
from finereason.domains.grid_puzzle.themes import THEMES

ENGINE = get_engine("grid_puzzle")
SIZES = [(c, e) for c in (3, 4, 5) for e in (3, 4, 5)]  # (categories with the key, entries)
SEEDS = (0, 1, 2, 3)  # 36 puzzles over every size


@lru_cache(maxsize=None)
def made(seed: int, categories: int, entries: int) -> SourcePuzzle:
    return generate(seed, 10 * categories + entries, categories=categories, entries=entries)


def without(puzzle: GridPuzzle, k: int) -> GridPuzzle:
    return GridPuzzle(puzzle.header, puzzle.keys, puzzle.domains, puzzle.clues[:k] + puzzle.clues[k + 1:])


def solution_of(source: SourcePuzzle):
    return ENGINE.parse_state(source.puzzle, source.record["outputs"]["solution"])


def canonical(record: dict) -> str:
    return json.dumps(record, sort_keys=True)


# ------------------------------------------------------------------ determinism
def test_same_seed_and_index_rebuild_the_same_puzzle():
    a, b = generate(7, 3), generate(7, 3)
    assert canonical(a.record) == canonical(b.record)
    assert a.key == b.key and a.difficulty == b.difficulty and a.puzzle == b.puzzle


def test_other_indices_and_seeds_give_other_puzzles():
    keys = {generate(7, i).key for i in range(12)} | {generate(8, 0).key}
    assert len(keys) == 13
    assert canonical(generate(7, 0).record) != canonical(generate(7, 1).record)


def test_passing_the_drawn_sizes_rebuilds_the_same_puzzle():
    # sizes are drawn whether or not they are given, so the stream stays aligned
    source = generate(4, 9)
    again = generate(4, 9, categories=source.difficulty["categories"], entries=source.difficulty["entries"])
    assert canonical(again.record) == canonical(source.record)


def test_default_sizes_are_drawn_from_three_to_five():
    sizes = [generate(5, i).difficulty for i in range(24)]
    assert {d["categories"] for d in sizes} == {3, 4, 5}
    assert {d["entries"] for d in sizes} == {3, 4, 5}


def test_generation_is_pinned():
    # Guards "same seed, same data" across releases: a dataset rebuilt from its seeds must not drift.
    # An intentional change to the generator, its themes, or the grid engine's search order (used
    # when no probe is left as a witness) changes these keys: update them and say so in the changelog.
    assert [generate(0, i).key for i in range(3)] == PINNED_KEYS


PINNED_KEYS = ["32ae3318275b1280", "f752fea3ca451a01", "11cb6c1fde5b3e4f"]


@pytest.mark.parametrize("bad", [{"categories": 2}, {"categories": 6}, {"entries": 2}, {"entries": ENTRY_RANGE[1] + 1},
                                 {"categories": True}, {"entries": 4.0}])
def test_sizes_outside_the_supported_range_are_rejected(bad):
    with pytest.raises(ValueError):
        generate(0, 0, **bad)


# ------------------------------------------------------------------ soundness of every generated puzzle
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_generated_puzzle_is_sound_and_unique(seed, size):
    categories, entries = size
    source = made(seed, categories, entries)
    record, puzzle = source.record, source.puzzle
    clues = record["inputs"]["clues"]

    # official schema, JSON-ready, read back by the engine to the same puzzle
    assert set(record) == {"inputs", "outputs"}
    assert set(record["inputs"]) == {"question", "categories", "clues", "initial"}
    assert json.loads(json.dumps(record)) == record
    assert ENGINE.puzzle_from_official(json.loads(json.dumps(record))) == puzzle
    assert source.difficulty == {"categories": categories, "entries": entries, "clues": len(clues)}
    assert list(clues) == [str(n) for n in range(1, len(clues) + 1)]
    assert "Using only the clues below" in record["inputs"]["question"]

    # table: a numeric key column with a fixed step, values unique across the whole table
    initial, solution = record["inputs"]["initial"], record["outputs"]["solution"]
    assert initial[0] == solution[0] and len(initial) == entries + 1 and len(initial[0]) == categories
    keys = [row[0] for row in initial[1:]]
    assert all(type(k) is int for k in keys) and len({b - a for a, b in zip(keys, keys[1:])}) == 1 and keys[1] > keys[0]
    assert all(row[1:] == [""] * (categories - 1) for row in initial[1:])
    values = [v for row in solution[1:] for v in row]
    assert len(set(values)) == len(values)
    assert all(isinstance(v, str) and "'" not in v and "\\" not in v for row in solution[1:] for v in row[1:])

    # clues: readable, distinct, in the official grammar, all true of the stored solution
    texts = [c["text"] for c in clues.values()]
    assert all(t and t[0].isupper() and t.endswith(".") for t in texts)
    assert len(set(texts)) == len(texts)
    for clue in clues.values():
        parse_condition(clue["conditions"])
    stored = solution_of(source)
    assert ENGINE.check_solution(puzzle, stored) == []
    assert ENGINE.violations(puzzle, stored) == []

    # exactly one solution, found by the engine's own solver
    assert ENGINE.count_solutions(puzzle, limit=2) == 1
    assert ENGINE.solve(puzzle).cells == stored.cells


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_clue_is_needed(size):
    source = made(0, *size)
    for k in range(len(source.puzzle.clues)):
        assert ENGINE.count_solutions(without(source.puzzle, k), limit=2) == 2, source.puzzle.clues[k].text


def test_each_clue_alone_is_true_of_the_solution():
    source = made(1, 5, 5)
    stored = solution_of(source)
    for clue in source.puzzle.clues:
        alone = GridPuzzle(source.puzzle.header, source.puzzle.keys, source.puzzle.domains, (clue,))
        assert ENGINE.check_solution(alone, stored) == [], clue.text


def test_categories_line_lists_the_tables_values():
    # the engine falls back to the "categories" text when a record has no solution
    for size in SIZES:
        source = made(2, *size)
        bare = {"inputs": source.record["inputs"]}
        puzzle = ENGINE.puzzle_from_official(bare)
        assert puzzle.keys == source.puzzle.keys
        assert [set(d) for d in puzzle.domains] == [set(d) for d in source.puzzle.domains]
        header = [line.split(" : ")[0] for line in source.record["inputs"]["categories"].splitlines()]
        assert header == list(source.puzzle.header)


def test_clue_wording_matches_the_official_style():
    texts = [c.text for s in SEEDS for size in SIZES for c in made(s, *size).puzzle.clues]
    for pattern in (r" is either ", r"^Neither ", r"^Of .+, one .+ and the other ", r" different ", r" are "):
        assert any(re.search(pattern, t) for t in texts), pattern
    conditions = [c.condition for s in SEEDS for size in SIZES for c in made(s, *size).puzzle.clues]
    for pattern in (r"\] [+-] \d+\)$", r"\] [<>] T\[", r" != ", r" or "):
        assert any(re.search(pattern, c) for c in conditions), pattern


# ------------------------------------------------------------------ trees
@pytest.mark.parametrize("size", [(3, 3), (4, 4), (5, 5)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_trees_grow_from_generated_puzzles(size):
    source = made(3, *size)
    puzzle, stored = source.puzzle, solution_of(source)
    children = list(ENGINE.children(puzzle, puzzle.empty))
    assert children
    assert all(ENGINE.step(puzzle, puzzle.empty, child).kind is StepKind.FORWARD for child in children)
    # follow solvable children: every state on the path still completes to the one stored solution
    state = puzzle.empty
    for _ in range(len(puzzle.clues)):
        nxt = next((c for c in ENGINE.children(puzzle, state) if ENGINE.is_solvable(puzzle, c)), None)
        if nxt is None:
            break
        state = nxt
        assert ENGINE.solve(puzzle, state).cells == stored.cells
    assert len(state.applied) >= 1


# ------------------------------------------------------------------ themes
def test_theme_vocabulary_survives_the_grammar_and_the_categories_line():
    for theme in THEMES:
        assert len(theme.categories) >= 4 and theme.stories
        names = [theme.key.name] + [c.name for c in theme.categories]
        assert len({n.lower() for n in names}) == len(names)
        values = [v for c in theme.categories for v in c.values]
        assert len({v.lower() for v in values}) == len(values), theme.key.name
        for cat in theme.categories:
            assert len(cat.values) >= ENTRY_RANGE[1], cat.name
            for v in cat.values:
                assert v == v.strip() and v and not re.search(r"['\"\\,]", v) and not v.endswith("."), v
                assert not re.fullmatch(r"\d+(\.\d+)?", v), v
            for template in (cat.ref, cat.pred, cat.neg):
                assert "{v}" in template
        key = theme.key
        for template in (key.ref, key.pred, key.neg):
            assert "{k}" in template
        for template in (key.less, key.more):
            assert {"{a}", "{b}", "{d}"} <= set(re.findall(r"\{\w\}", template))
        for step in key.steps:  # every size has a start that fits, and every value has a label
            for entries in range(3, ENTRY_RANGE[1] + 1):
                fits = [s for s in key.starts if key.maximum is None or s + step * (entries - 1) <= key.maximum]
                assert fits, (key.name, step, entries)
                assert all(key.label(s + step * i) for s in fits for i in range(entries))


# ------------------------------------------------------------------ official importer
def test_official_importer_reads_every_record():
    path = shared_path("finereason_official", "gridpuzzle_questions.jsonl")
    sources = official_puzzles(path)
    records = read_jsonl(path)
    assert len(sources) == len(records) == 46
    assert len({s.key for s in sources}) == 46
    for source, record in zip(sources, records):
        assert source.record == record
        assert source.puzzle == ENGINE.puzzle_from_official(record)
        initial = record["inputs"]["initial"]
        assert source.difficulty == {"categories": len(initial[0]), "entries": len(initial) - 1,
                                     "clues": len(record["inputs"]["clues"])}
        assert ENGINE.check_solution(source.puzzle, solution_of(source)) == []
    assert official_puzzles(path)[0].key == sources[0].key
