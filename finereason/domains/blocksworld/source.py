"""Blocksworld puzzle sources: seeded random instances, and PlanBench's PDDL files.

Glossary:
- *arrangement*: the blocks as towers on the table, hand empty (a random permutation of the blocks
  cut at random places into towers).
- *instance*: a random initial arrangement and the ``on`` facts of another random arrangement as the
  goal (as PlanBench's generator does), redrawn until the goal has an ``on`` fact and the initial
  facts do not already reach it.
- *budget*: the optimal plan length (breadth-first search) plus :data:`SLACK` actions.

Generated instances have 3 to 5 blocks (PlanBench's ``generated_basic`` sets have 4-5,
``generated_basic_3`` 3), so the oracle's state space stays under a thousand states.
"""
from __future__ import annotations

import random
from pathlib import Path

from ...core.puzzle_sources import SourcePuzzle, rng_for, stable_key
from ...planning.pddl import Atom, read_domain, read_problem
from ...planning.planner import SOLVED, plan
from ...planning.strips import Task
from .engine import puzzle_inputs, puzzle_outputs
from .puzzle import MYSTERY_NAMES, BlocksPuzzle, fact_text, pddl_domain, vocabulary_of

SLACK = 2                 # actions allowed beyond the optimal plan length
BLOCK_COUNTS = (3, 4, 5)  # blocks in a generated instance
LETTERS = "abcdefghijkl"


def arrangement(blocks: list[str], rng: random.Random) -> list[list[str]]:
    """Random towers (bottom first) holding every block once."""
    order = blocks[:]
    rng.shuffle(order)
    towers: list[list[str]] = [[order[0]]]
    for block in order[1:]:
        if rng.random() < 0.5:
            towers.append([block])
        else:
            towers[-1].append(block)
    return towers


def tower_facts(towers: list[list[str]]) -> set[Atom]:
    """The Blocksworld facts of an arrangement, hand empty."""
    facts: set[Atom] = {("handempty",)}
    for tower in towers:
        facts.add(("ontable", tower[0]))
        facts.add(("clear", tower[-1]))
        facts.update(("on", upper, lower) for lower, upper in zip(tower, tower[1:]))
    return facts


def rename(atoms, vocabulary: str) -> set[Atom]:
    """Blocksworld facts in ``vocabulary``'s predicate names."""
    if vocabulary == "blocksworld":
        return set(atoms)
    return {(MYSTERY_NAMES[a[0]], *a[1:]) for a in atoms}


def generate(vocabulary: str, seed: int, index: int, *, blocks: int | None = None, slack: int = SLACK) -> SourcePuzzle:
    """The ``index``-th random instance of ``seed`` in ``vocabulary`` (``blocksworld`` or ``mystery``).

    The same ``(seed, index)`` gives the same arrangement in both vocabularies (only names differ).
    """
    rng = rng_for(seed, "blocksworld", index)
    n = rng.choice(BLOCK_COUNTS) if blocks is None else blocks
    if not 2 <= n <= len(LETTERS):
        raise ValueError(f"blocks must be in 2..{len(LETTERS)}, got {n}")
    names = list(LETTERS[:n])
    while True:
        init = tower_facts(arrangement(names, rng))
        goal = {a for a in tower_facts(arrangement(names, rng)) if a[0] == "on"}
        if goal and not goal <= init:
            break
    return make_source(BlocksPuzzle(vocabulary, tuple(names), frozenset(rename(init, vocabulary)),
                                    tuple(sorted(rename(goal, vocabulary))), 0), slack)


def make_source(puzzle: BlocksPuzzle, slack: int = SLACK, budget: int | None = None) -> SourcePuzzle:
    """A :class:`SourcePuzzle` for ``puzzle`` with the budget set to its optimal length plus ``slack``
    (or ``budget``); an instance without a plan keeps ``budget`` (default ``slack``)."""
    task = Task(pddl_domain(puzzle.vocabulary), puzzle.problem)
    found = plan(task)
    optimal = found.length if found.status == SOLVED else None
    if budget is None:
        budget = slack if optimal is None else optimal + slack
    puzzle = BlocksPuzzle(puzzle.vocabulary, puzzle.objects, puzzle.init, puzzle.goal, budget)
    inputs = puzzle_inputs(puzzle)
    record = {"inputs": inputs, "outputs": puzzle_outputs(puzzle)}
    key = stable_key(inputs["domain"], " ".join(inputs["objects"]), " ".join(inputs["initial"]), " ".join(inputs["goal"]))
    # no difficulty columns: the row schema's are the built-in puzzles' (the block count and the optimal
    # length are in the record's inputs and outputs)
    return SourcePuzzle(puzzle=puzzle, key=key, difficulty={}, record=record)


def read_instance(problem_path: str | Path, domain_path: str | Path | None = None, *, slack: int = SLACK,
                  budget: int | None = None) -> SourcePuzzle:
    """A PlanBench instance (``instance-N.pddl``) as a source puzzle; the domain file defaults to
    ``generated_domain.pddl`` beside the problem's folder."""
    problem_path = Path(problem_path)
    domain_path = Path(domain_path) if domain_path else problem_path.parent.parent / "generated_domain.pddl"
    domain = read_domain(domain_path)
    problem = read_problem(problem_path)
    vocabulary = vocabulary_of(domain.name)
    puzzle = BlocksPuzzle(vocabulary, problem.objects, problem.init, tuple(sorted(set(problem.goal))), 0)
    return make_source(puzzle, slack, budget)


__all__ = ["BLOCK_COUNTS", "SLACK", "arrangement", "fact_text", "generate", "make_source", "read_instance",
           "tower_facts"]
