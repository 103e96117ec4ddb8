"""Sampling states for state checking and state transition, as in the paper.

Each sample comes from a seeded random descent of the puzzle's tree (a randomised depth-first
probe): a walk from the initial state through solvable children down to a solution fixes the
solution path; a *solvable* sample is a uniformly chosen non-final state of that path, an
*unsolvable* sample steps from a uniformly chosen path state into one of its unsolvable children and
may go a few more valid moves into that dead subtree. Each sample keeps its path (parent,
grandparent), its oracle label and one unsolvable child (the "explored next state").
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from .engines import Engine, StateItem
from .verifiers import is_solvable

DEAD_END_STEPS = 2  # at most this many extra moves below the first unsolvable state


@dataclass(frozen=True)
class Sample:
    """A sampled state with its path and label (``item.solvable``) and its depth in the tree."""

    item: StateItem
    depth: int


def solution_path(engine: Engine, puzzle: Any, root: Any, rng: random.Random, order: str = "paper") -> list[Any]:
    """A random root-to-solution path through solvable children (just ``[root]`` when unsolvable)."""
    path = [root]
    if not is_solvable(engine, puzzle, root):
        return path
    state = root
    while True:
        good = [c for c in engine.branch(puzzle, state, order) if is_solvable(engine, puzzle, c)]
        if not good:
            return path
        state = rng.choice(good)
        path.append(state)


def _first_unsolvable_child(engine: Engine, puzzle: Any, state: Any, order: str) -> Any | None:
    for child in engine.branch(puzzle, state, order):
        if not is_solvable(engine, puzzle, child):
            return child
    return None


def _item(engine: Engine, puzzle: Any, path: list[Any], order: str) -> StateItem:
    current = path[-1]
    return StateItem(
        puzzle=puzzle,
        current=current,
        parent=path[-2] if len(path) >= 2 else None,
        grandparent=path[-3] if len(path) >= 3 else None,
        unsolvable_child=_first_unsolvable_child(engine, puzzle, current, order),
        solvable=is_solvable(engine, puzzle, current),
    )


def sample_solvable(
    engine: Engine, puzzle: Any, path: list[Any], rng: random.Random, order: str = "paper", need_dead_end: bool = False
) -> Sample | None:
    """A uniformly chosen non-final state of ``path`` (a state that still needs a move).

    With ``need_dead_end`` only states that have an unsolvable child are chosen (state-transition
    items show one as the explored next state).
    """
    depths = list(range(len(path) - 1))
    rng.shuffle(depths)
    for depth in depths:
        item = _item(engine, puzzle, path[: depth + 1], order)
        if item.unsolvable_child is not None or not need_dead_end:
            return Sample(item, depth)
    return None


def sample_unsolvable(engine: Engine, puzzle: Any, path: list[Any], rng: random.Random, order: str = "paper") -> Sample | None:
    """A dead-end state: an unsolvable child of a uniformly chosen path state, plus up to
    ``DEAD_END_STEPS`` further valid moves inside the dead subtree."""
    depths = list(range(len(path)))
    rng.shuffle(depths)
    for depth in depths:
        dead = [c for c in engine.branch(puzzle, path[depth], order) if not is_solvable(engine, puzzle, c)]
        if not dead:
            continue
        trail = path[: depth + 1] + [rng.choice(dead)]
        for _ in range(rng.randint(0, DEAD_END_STEPS)):
            deeper = list(engine.branch(puzzle, trail[-1], order))
            if not deeper:
                break
            trail.append(rng.choice(deeper))
        return Sample(_item(engine, puzzle, trail, order), len(trail) - 1)
    return None


def sample_states(
    engine: Engine,
    puzzle: Any,
    root: Any,
    rng: random.Random,
    labels: list[bool],
    order: str = "paper",
    need_dead_end: bool = False,
) -> list[Sample]:
    """One sample per wanted label (``True`` = solvable); a label the tree cannot give is swapped
    for the other one, so callers should count the achieved balance. Duplicate states are avoided."""
    path = solution_path(engine, puzzle, root, rng, order)
    out: list[Sample] = []
    seen: set[Any] = set()
    for want in labels:
        for attempt in range(6):
            pick = want if attempt < 4 else not want
            if pick:
                sample = sample_solvable(engine, puzzle, path, rng, order, need_dead_end)
            else:
                sample = sample_unsolvable(engine, puzzle, path, rng, order)
            if sample is not None and sample.item.current not in seen:
                seen.add(sample.item.current)
                out.append(sample)
                break
    return out
