"""The answer corpus: realistic responses, each with a careful human grader's reading, asserted one by one.

``tests/data/answer_corpus.jsonl`` holds responses in the styles of reasoning models (long thinking,
self-corrections, truncation at the token limit), chat models (markdown, bold, LaTeX, tables) and small
models (bare letters, repetition), for the 4 puzzles x 3 tasks. Each row carries the reading:

- state checking: ``reading`` is the option committed to (``"A"``, ``"B"``) or ``null`` (no committed
  answer: a ``parse_error``). The row is judged on a solvable and on an unsolvable official state.
- state transition: ``expected`` is the strict-mode category on an official state of kind ``item``
  (``solvable``/``unsolvable``); placeholders name states of that item (``{good}``: a solvable child,
  ``{dead}``: the explored unsolvable child, ``{same}``, ``{two}``: two moves at once, ``{parent}``,
  ``{sibling}``; ``_cut`` cuts a state in the middle, as the token limit does).
- end to end: ``expected`` is the category; Game-of-24 rows give their ``numbers``, the others use the
  first official state's puzzle (``{solution}``, ``{wrong}``: a solution breaking a rule, ``{initial}``).

``no_credit`` marks answers a grader may file under either failure category (never ``correct``); ``format``
(when present) is the format check's expected result where it differs from "read without a parse error".
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from finereason.verification.verifiers import format_ok
from finereason.core.engine import get_engine
from finereason.domains.game_of_24.puzzle import Game24Puzzle
from finereason.core.oracle import oracle_solvable
from finereason.verification.verifiers import verify_end_to_end, verify_state_checking, verify_state_transition_modes

CORPUS = Path(__file__).parents[1] / "data" / "answer_corpus.jsonl"
OFFICIAL = {"sudoku": "sudoku", "graph_coloring": "graphcoloring", "game_of_24": "game24", "grid_puzzle": "gridpuzzle"}
ROWS = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]


def _rows(task: str) -> list[dict]:
    return [r for r in ROWS if r["task"] == task]


def test_corpus_covers_every_puzzle_and_task():
    assert len(ROWS) >= 400
    for puzzle in OFFICIAL:
        for task in ("state_checking", "state_transition", "end_to_end"):
            assert sum(r["puzzle"] == puzzle and r["task"] == task for r in ROWS) >= 15, (puzzle, task)
    assert len({r["id"] for r in ROWS}) == len(ROWS)
    styles = {r.get("style") for r in _rows("state_checking")}
    assert {"plain", "reasoning", "chat", "small", "reasoning-template", "truncated"} <= styles


# ------------------------------------------------------------------ states for the placeholders
def _cut(text: str) -> str:
    return text[: len(text) // 2]


def _game24_forms(engine: Any, puzzle: Any, state: Any) -> dict[str, str]:
    items = engine.to_official(puzzle, state)
    latex = ["$" + item.replace("*", "\\times").replace("/", "\\div") + "$" for item in items]
    return {"bare": "[" + ", ".join(items) + "]", "latex": "[" + ", ".join(latex) + "]",
            "first": items[0], "rest": ", ".join(items[1:])}


@pytest.fixture(scope="session")
def contexts():
    """Per puzzle: a solvable and an unsolvable official item, and the placeholder texts of each."""
    from conftest import read_jsonl, shared_path

    out = {}
    for name, official in OFFICIAL.items():
        engine = get_engine(name)
        items = [engine.item_from_official(r) for r in read_jsonl(shared_path("finereason_official", f"{official}_states_sample.jsonl"))]
        solvable = _solvable_item(engine, items)
        unsolvable = _unsolvable_item(engine, items)
        out[name] = {"engine": engine, "solvable": solvable, "unsolvable": unsolvable}
        p = solvable[0].puzzle
        item, good, two = solvable
        fills = {"good": engine.render(p, good), "dead": engine.render(p, item.unsolvable_child),
                 "same": engine.render(p, item.current), "two": engine.render(p, two),
                 "parent": engine.render(p, item.parent)}
        fills["good_cut"] = _cut(fills["good"])
        if name == "game_of_24":
            fills.update({f"good:{k}": v for k, v in _game24_forms(engine, p, good).items()})
        out[name]["solvable_fills"] = fills
        u_item, sibling = unsolvable
        up = u_item.puzzle
        ufills = {"parent": engine.render(up, u_item.parent), "same": engine.render(up, u_item.current),
                  "sibling": engine.render(up, sibling)}
        ufills["parent_cut"] = _cut(ufills["parent"])
        out[name]["unsolvable_fills"] = ufills
    return out


def _solvable_item(engine: Any, items: list) -> tuple:
    for item in items:
        if item.parent is None or item.unsolvable_child is None or not oracle_solvable(engine, item.puzzle, item.current):
            continue
        for good in engine.children(item.puzzle, item.current):
            if not oracle_solvable(engine, item.puzzle, good) or engine.same(good, item.unsolvable_child):
                continue
            two = next(iter(engine.children(item.puzzle, good)), None)
            if two is not None and engine.step(item.puzzle, item.current, two).kind.value == "multiple":
                return item, good, two
    raise AssertionError("no solvable official state with a solvable child and a two-move state")


def _unsolvable_item(engine: Any, items: list) -> tuple:
    for item in items:
        if item.parent is None or oracle_solvable(engine, item.puzzle, item.current):
            continue
        for sibling in engine.children(item.puzzle, item.parent):
            if not engine.same(sibling, item.current):
                return item, sibling
    raise AssertionError("no unsolvable official state with a sibling")


def _fill(template: str, fills: dict[str, str]) -> str:
    out = template
    for key in sorted(fills, key=len, reverse=True):
        out = out.replace("{" + key + "}", fills[key])
    assert "{good" not in out and "{parent" not in out and "{dead" not in out, template
    return out


def _check(category: str, expected: str, where: Any) -> None:
    if expected == "no_credit":
        assert category != "correct", where
    else:
        assert category == expected, where


# ------------------------------------------------------------------ the readings, one by one
@pytest.mark.parametrize("row", _rows("state_checking"), ids=lambda r: r["id"])
def test_state_checking_reading(contexts, row):
    ctx = contexts[row["puzzle"]]
    engine = ctx["engine"]
    for item, truth in ((ctx["solvable"][0], "A"), (ctx["unsolvable"][0], "B")):
        verdict = verify_state_checking(engine, item, row["response"], starts_in_think=row["starts_in_think"])
        expected = "parse_error" if row["reading"] is None else ("correct" if row["reading"] == truth else "incorrect")
        assert verdict.category == expected, (row["id"], row["response"], verdict)
    ok = format_ok("state_checking", row["response"], starts_in_think=row["starts_in_think"])
    assert not ok or row["reading"] is not None, row["id"]


@pytest.mark.parametrize("row", _rows("state_transition"), ids=lambda r: r["id"])
def test_state_transition_reading(contexts, row):
    ctx = contexts[row["puzzle"]]
    engine = ctx["engine"]
    item = ctx[row["item"]][0]
    response = _fill(row["response"], ctx[f"{row['item']}_fills"])
    verdicts = verify_state_transition_modes(engine, item, response, starts_in_think=row["starts_in_think"])
    for mode in ("strict", "paper"):
        _check(verdicts[mode].category, row.get(f"expected_{mode}", row["expected"]), (row["id"], mode, response[-300:], verdicts[mode]))
    ok = format_ok("state_transition", response, starts_in_think=row["starts_in_think"], domain=row["puzzle"])
    assert ok == (verdicts["strict"].category != "parse_error"), (row["id"], ok, verdicts["strict"])


@pytest.fixture(scope="session")
def solutions(contexts):
    """Per list puzzle: its puzzle and the {solution}, {wrong}, {initial} texts."""
    out = {}
    for name in ("sudoku", "graph_coloring", "grid_puzzle"):
        engine = contexts[name]["engine"]
        puzzle = contexts[name]["solvable"][0].puzzle
        solution = engine.solve(puzzle)
        wrong = _broken(engine, puzzle, solution)
        fills = {"solution": engine.render(puzzle, solution), "wrong": engine.render(puzzle, wrong),
                 "initial": engine.render(puzzle, engine.initial(puzzle))}
        fills["solution_cut"] = _cut(fills["solution"])
        out[name] = (engine, puzzle, fills)
    return out


def _broken(engine: Any, puzzle: Any, solution: Any) -> Any:
    """A complete state breaking a rule: one value copied from another cell of the solution."""
    value = engine.to_official(puzzle, solution)

    def leaves(v: Any, path: tuple = ()) -> list[tuple]:
        return [p for i, x in enumerate(v) for p in (leaves(x, path + (i,)) if isinstance(x, list) else [path + (i,)])]

    def get(v: Any, path: tuple) -> Any:
        for i in path:
            v = v[i]
        return v

    spots = [p for p in leaves(value) if not (len(p) > 1 and p[0] == 0 and isinstance(get(value, p), str))]
    for a in spots:
        for b in spots:
            if a == b or get(value, a) == get(value, b) or type(get(value, a)) is not type(get(value, b)):
                continue
            copy = json.loads(json.dumps(value))
            target = copy
            for i in a[:-1]:
                target = target[i]
            target[a[-1]] = get(value, b)
            try:
                state = engine.parse_state(puzzle, copy)
            except ValueError:
                continue
            if engine.check_solution(puzzle, state):
                return state
    raise AssertionError("could not break the solution")


@pytest.mark.parametrize("row", _rows("end_to_end"), ids=lambda r: r["id"])
def test_end_to_end_reading(solutions, row):
    if row["puzzle"] == "game_of_24":
        engine, puzzle, response = get_engine("game_of_24"), Game24Puzzle(tuple(row["numbers"])), row["response"]
    else:
        engine, puzzle, fills = solutions[row["puzzle"]]
        response = _fill(row["response"], fills)
    verdict = verify_end_to_end(engine, puzzle, response, starts_in_think=row["starts_in_think"])
    _check(verdict.category, row["expected"], (row["id"], response[-300:], verdict))
    ok = format_ok("end_to_end", response, starts_in_think=row["starts_in_think"], domain=row["puzzle"])
    assert ok == row.get("format", verdict.category != "parse_error"), (row["id"], ok, verdict)
