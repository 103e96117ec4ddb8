"""Sampling states for state checking and state transition, as in the paper.

Each sample comes from a seeded random descent of the puzzle's tree (a randomised depth-first
probe): a walk from the initial state through solvable children down to a solution fixes the
solution path; a *solvable* sample is a uniformly chosen non-final state of that path, an
*unsolvable* sample steps from a uniformly chosen path state into one of its unsolvable children and
may go a few more valid moves into that dead subtree. Each sample keeps its path (parent,
grandparent), its oracle label and one unsolvable child (the "explored next state").

Two rules keep every item well defined (the full official schema):

- paths hold real moves only: a child equal to its parent (a grid clue applied without filling a
  cell) is never a step, so "back to the parent" always differs from "stay" (:func:`moves`);
- every item has an ``unsolvable_child`` whenever one exists: from an unsolvable state any valid
  child is one; from a solvable state the branch order is searched first, then every other move
  (:func:`find_unsolvable_child`). It is ``None`` only when the state has no valid move, or (solvable
  states) when every move keeps it solvable.
"""
from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from typing import Any, Iterator

from ..common.vocabulary import PAPER
from ..core.engine import Engine, StateItem
from ..core.oracle import oracle_solvable

DEAD_END_STEPS = 2  # at most this many extra moves below the first unsolvable state


@dataclass(frozen=True)
class Sample:
    """A sampled state with its path and label (``item.solvable``) and its depth in the tree."""

    item: StateItem
    depth: int


def moves(engine: Engine, puzzle: Any, state: Any, order: str | None = PAPER) -> Iterator[Any]:
    """Children that change the state, from :meth:`Engine.branch` (``order``) or, with ``order=None``,
    from every minimal move (:meth:`Engine.children`). An unchanged state is never a move."""
    kids = engine.children(puzzle, state) if order is None else engine.branch(puzzle, state, order)
    return (child for child in kids if child != state)  # state equality is node identity (grid: the cells)


def find_unsolvable_child(engine: Engine, puzzle: Any, state: Any, order: str = PAPER, solvable: bool | None = None,
                          branch_only: bool = False) -> Any | None:
    """One unsolvable child of ``state`` when any exists: the branch order's first, else the first of
    every other move (``branch_only``: the branch order's only). From an unsolvable state that is
    simply its first valid move."""
    if solvable is None:
        solvable = oracle_solvable(engine, puzzle, state)
    candidates = moves(engine, puzzle, state, order)
    if not branch_only:
        candidates = itertools.chain(candidates, moves(engine, puzzle, state, None))
    for child in candidates:
        if not solvable or not oracle_solvable(engine, puzzle, child):
            return child
    return None


def solution_path(engine: Engine, puzzle: Any, root: Any, rng: random.Random, order: str = PAPER) -> list[Any]:
    """A random root-to-solution path through solvable children (just ``[root]`` when unsolvable)."""
    path = [root]
    if not oracle_solvable(engine, puzzle, root):
        return path
    state = root
    while True:
        good = [c for c in moves(engine, puzzle, state, order) if oracle_solvable(engine, puzzle, c)]
        if not good:
            return path
        state = rng.choice(good)
        path.append(state)


def make_item(engine: Engine, puzzle: Any, path: list[Any], order: str = PAPER, child: Any | None = None) -> StateItem:
    """The item of the last state of ``path``: its parent, grandparent, label and unsolvable child
    (``child`` when the caller found one already)."""
    current = path[-1]
    solvable = oracle_solvable(engine, puzzle, current)
    return StateItem(
        puzzle=puzzle,
        current=current,
        parent=path[-2] if len(path) >= 2 else None,
        grandparent=path[-3] if len(path) >= 3 else None,
        unsolvable_child=child if child is not None else find_unsolvable_child(engine, puzzle, current, order, solvable),
        solvable=solvable,
    )


def sample_solvable(
    engine: Engine, puzzle: Any, path: list[Any], rng: random.Random, order: str = PAPER, need_dead_end: bool = False
) -> Sample | None:
    """A uniformly chosen non-final state of ``path`` (a state that still needs a move).

    With ``need_dead_end`` only states that have an unsolvable child are chosen (state-transition
    items show one as the explored next state): first those with one in the branch order (cheap),
    then any.
    """
    depths = list(range(len(path) - 1))
    rng.shuffle(depths)
    if not need_dead_end:
        return Sample(make_item(engine, puzzle, path[: depths[0] + 1], order), depths[0]) if depths else None
    for branch_only in (True, False):
        for depth in depths:
            child = find_unsolvable_child(engine, puzzle, path[depth], order, True, branch_only)
            if child is not None:
                return Sample(make_item(engine, puzzle, path[: depth + 1], order, child), depth)
    return None


def sample_unsolvable(engine: Engine, puzzle: Any, path: list[Any], rng: random.Random, order: str = PAPER) -> Sample | None:
    """A dead-end state: an unsolvable child of a uniformly chosen path state, plus up to
    ``DEAD_END_STEPS`` further valid moves inside the dead subtree."""
    depths = list(range(len(path)))
    rng.shuffle(depths)
    for depth in depths:
        dead = [c for c in moves(engine, puzzle, path[depth], order) if not oracle_solvable(engine, puzzle, c)]
        if not dead:
            continue
        trail = path[: depth + 1] + [rng.choice(dead)]
        for _ in range(rng.randint(0, DEAD_END_STEPS)):
            deeper = list(moves(engine, puzzle, trail[-1], order))
            if not deeper:
                break
            trail.append(rng.choice(deeper))
        return Sample(make_item(engine, puzzle, trail, order), len(trail) - 1)
    return None


def sample_states(
    engine: Engine,
    puzzle: Any,
    root: Any,
    rng: random.Random,
    labels: list[bool],
    order: str = PAPER,
    need_dead_end: bool = False,
    path: list[Any] | None = None,
) -> list[Sample]:
    """One sample per wanted label (``True`` = solvable); a label the tree cannot give is swapped
    for the other one, so callers should count the achieved balance. Duplicate states are avoided.
    ``path``: a solution path to sample from (default: a new one drawn with ``rng``)."""
    if path is None:
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
