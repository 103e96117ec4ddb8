"""Baseline answerers for every FineReason task (pure Python; the lm-eval models wrap them).

- ``oracle``: answers with the exact solver; scores 1.0 on every task.
- ``random``: a seeded coin for state checking, a random child-or-parent for state transition,
  a random walk of moves for end to end.
- verify documents (``finereason_verify_<domain>``): the oracle answers with the sound verifier's
  verdict and first reason, random with a seeded coin, shallow accepts any candidate that breaks no
  rule yet.
- ``shallow``: the "System 1" floor: looks only at rules already broken, never ahead. It calls a state
  unsolvable only when it breaks a rule, takes the first rule-valid move, and backtracks only from a
  broken state.
- FOLIO documents (``finereason_folio_direct``, ``finereason_folio_cot``: premises, a conclusion and a
  gold ``label``): the oracle answers the gold label, random a seeded pick of True/False/Uncertain,
  shallow "True" when every word of the conclusion occurs in the premises, else "Uncertain" (word
  overlap, no logic).

A document that is neither is refused up front (:func:`check_answerable`, one line naming the task).
"""
from __future__ import annotations

import re
from typing import Any, Callable, Iterable

from ..common.input_errors import InputError
from ..common.vocabulary import END_TO_END, STATE_CHECKING
from ..core.engine import Engine, get_engine
from ..core.oracle import oracle_solvable
from ..core.puzzle_sources import rng_for
from ..core.rows import has_domain_column, row_domain, row_item, row_puzzle
from ..data.folio import TRUTH_VALUES
from ..verification.llm_verifier import VERIFY, candidate_text, oracle_verdict

STRATEGIES = ("oracle", "random", "shallow")
_WORDS = re.compile(r"[a-z0-9]+")


def _is_folio(row: dict) -> bool:
    """A FOLIO document: premises, a conclusion and a gold True/False/Uncertain label, no puzzle."""
    return not has_domain_column(row) and row.get("label") in TRUTH_VALUES and "conclusion" in row and "premises" in row


def check_answerable(docs: Iterable[tuple[str, dict]], strategy: str) -> None:
    """Raise :class:`InputError` naming the first task whose document (``(task name, doc)`` pairs)
    no baseline can answer: neither a FineReason puzzle row nor a FOLIO item."""
    for task, doc in docs:
        if not isinstance(doc, dict) or not (_is_folio(doc) or ("task" in doc and has_domain_column(doc))):
            raise InputError(f"the finereason-{strategy} baseline cannot answer task {task!r}: its documents are "
                             "neither FineReason puzzle rows (domain, task, inputs) nor FOLIO items "
                             "(premises, conclusion, label)")


def _folio_answer(row: dict, strategy: str, seed: int) -> str:
    if strategy == "oracle":
        return f"Answer: {row['label']}"
    if strategy == "random":
        return f"Answer: {rng_for(seed, 'random-baseline', row.get('id', ''), row['conclusion']).choice(TRUTH_VALUES)}"
    premise_words = set(_WORDS.findall(" ".join(map(str, row["premises"])).lower()))
    overlap = set(_WORDS.findall(str(row["conclusion"]).lower())) <= premise_words
    return f"Answer: {'True' if overlap else 'Uncertain'}"


def _next_state(engine: Engine, puzzle: Any, state: Any) -> str:
    return f"Next state: {engine.render(puzzle, state)}"


def _final(engine: Engine, puzzle: Any, state: Any) -> str:
    return f"Answer: {engine.answer_text(puzzle, state)}"


def _choice(solvable: bool) -> str:
    return "Answer: (A)" if solvable else "Answer: (B)"


def _candidate_breaks_no_rule(engine: Engine, row: dict) -> bool:
    """Whether a verify document's candidate reads as a state that breaks no rule already (no look-ahead)."""
    text = candidate_text(row.get("kind"), row["candidate"])
    puzzle = row_puzzle(row)
    try:
        return not engine.violations(puzzle, engine.parse_solution_text(puzzle, text))
    except (ValueError, TypeError, ArithmeticError, RecursionError):  # ParseError and StateError are ValueErrors
        return False


def oracle(row: dict) -> str:
    if _is_folio(row):
        return _folio_answer(row, "oracle", 0)
    engine, task = get_engine(row_domain(row)), row["task"]
    if task == VERIFY:
        return oracle_verdict(row)
    if task == END_TO_END:
        puzzle = row_puzzle(row)
        solution = engine.solve(puzzle)
        return "I cannot find a solution." if solution is None else _final(engine, puzzle, solution)
    item = row_item(row)
    solvable = oracle_solvable(engine, item.puzzle, item.current)
    if task == STATE_CHECKING:
        return _choice(solvable)
    if not solvable:
        return _next_state(engine, item.puzzle, item.parent) if item.parent is not None else "No move is possible."
    for child in engine.children(item.puzzle, item.current):
        if not engine.same(child, item.current) and oracle_solvable(engine, item.puzzle, child):
            return _next_state(engine, item.puzzle, child)
    return "No move is possible."


def random_answer(row: dict, seed: int = 0) -> str:
    if _is_folio(row):
        return _folio_answer(row, "random", seed)
    engine, task = get_engine(row_domain(row)), row["task"]
    rng = rng_for(seed, "random-baseline", row.get("id", ""), row["inputs"])
    if task == STATE_CHECKING:
        return _choice(rng.random() < 0.5)
    if task == VERIFY:
        return "Verdict: correct" if rng.random() < 0.5 else "Verdict: incorrect"
    if task == END_TO_END:
        puzzle = row_puzzle(row)
        state = engine.initial(puzzle)
        for _ in range(1000):
            children = list(engine.children(puzzle, state))
            if not children:
                break
            state = rng.choice(children)
        return _final(engine, puzzle, state)
    item = row_item(row)
    options = list(engine.children(item.puzzle, item.current))[:200]
    if item.parent is not None:
        options.append(item.parent)
    return _next_state(engine, item.puzzle, rng.choice(options)) if options else "No move is possible."


def shallow(row: dict) -> str:
    if _is_folio(row):
        return _folio_answer(row, "shallow", 0)
    engine, task = get_engine(row_domain(row)), row["task"]
    if task == VERIFY:  # accepts whatever breaks no rule yet, never checks that it is complete
        return "Verdict: correct" if _candidate_breaks_no_rule(engine, row) else "Verdict: incorrect"
    if task == END_TO_END:
        puzzle = row_puzzle(row)
        state = engine.initial(puzzle)
        for _ in range(1000):
            child = next(iter(engine.children(puzzle, state)), None)
            if child is None:
                break
            state = child
        return _final(engine, puzzle, state)
    item = row_item(row)
    broken = bool(engine.violations(item.puzzle, item.current))
    if task == STATE_CHECKING:
        return _choice(not broken)
    if broken and item.parent is not None:
        return _next_state(engine, item.puzzle, item.parent)
    child = next(iter(engine.children(item.puzzle, item.current)), None)
    if child is None:
        return _next_state(engine, item.puzzle, item.parent) if item.parent is not None else "No move is possible."
    return _next_state(engine, item.puzzle, child)


def answerer(strategy: str, seed: int = 0) -> Callable[[dict], str]:
    """The answer function of a baseline strategy."""
    if strategy == "oracle":
        return oracle
    if strategy == "random":
        return lambda row: random_answer(row, seed)
    if strategy == "shallow":
        return shallow
    raise ValueError(f"unknown baseline {strategy!r}; use one of {', '.join(STRATEGIES)}")
