"""The blocksworld oracle: breadth-first search over an instance's state space (distances to the goal,
shortest plans, solving a state within the step budget); more than :data:`MAX_NODES` stored states
raises :class:`~finereason.common.verdict.Undecided`."""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, replace
from functools import lru_cache

from ...common.verdict import Undecided
from ...planning.pddl import Atom
from ...planning.planner import UNDECIDED, BitTask, applicable_actions, bit_task, search
from ...planning.strips import GroundAction, apply
from .puzzle import BlocksPuzzle, BlocksState, _task

MAX_NODES = 100_000      # states stored by the oracle's search before it gives up (Undecided)


@lru_cache(maxsize=256)
def _compiled(puzzle: BlocksPuzzle) -> BitTask:
    bits = bit_task(_task(puzzle))
    # an action naming one object twice ((stack a a)) never applies in a state reachable from consistent facts
    return replace(bits, actions=tuple(a for a in bits.actions if len(set(a[3].args)) == len(a[3].args)))


@dataclass(frozen=True)
class _Space:
    """Every state reachable from the initial facts, each with its distance to the nearest goal
    state (``None``: the goal cannot be reached) and its BFS parent from the initial state."""

    dist: dict[int, int | None]
    parent: dict[int, tuple[int, GroundAction] | None]


@lru_cache(maxsize=64)
def _space(puzzle: BlocksPuzzle) -> _Space:
    comp = _compiled(puzzle)
    init = comp.mask(puzzle.init)
    assert init is not None
    parent: dict[int, tuple[int, GroundAction] | None] = {init: None}
    back: dict[int, list[int]] = {init: []}
    frontier = deque([init])
    goal = comp.goal
    applicable = applicable_actions(comp)
    while frontier:
        state = frontier.popleft()
        if state & goal == goal:
            continue  # goal states are complete: no moves out of them
        for _, keep, add, action in applicable(state):
            child = (state & keep) | add
            if child not in parent:
                if len(parent) >= MAX_NODES:
                    raise Undecided(f"the planning oracle stored {MAX_NODES} states without finishing")
                parent[child] = (state, action)
                back[child] = []
                frontier.append(child)
            back[child].append(state)
    dist: dict[int, int | None] = dict.fromkeys(parent)
    todo = deque()
    for state in parent:
        if state & goal == goal:
            dist[state] = 0
            todo.append(state)
    while todo:
        state = todo.popleft()
        for before in back[state]:
            if dist[before] is None:
                dist[before] = dist[state] + 1  # type: ignore[operator]
                todo.append(before)
    return _Space(dist, parent)


def distance(puzzle: BlocksPuzzle, atoms: frozenset[Atom]) -> int | None:
    """Fewest actions from ``atoms`` to the goal (``None``: never). Raises :class:`Undecided`
    when the state space exceeds :data:`MAX_NODES` or ``atoms`` is outside it and its own search does."""
    comp = _compiled(puzzle)
    mask = comp.mask(atoms)
    if mask is None:
        return None
    space = _space(puzzle)
    if mask in space.dist:
        return space.dist[mask]
    found = search(comp, mask, MAX_NODES)  # a state outside the initial state's component
    if found.status == UNDECIDED:
        raise Undecided(f"the planning oracle stored {MAX_NODES} states without finishing")
    return found.length


def shortest_plan_to(puzzle: BlocksPuzzle, atoms: frozenset[Atom]) -> list[GroundAction] | None:
    """A shortest action sequence from the initial facts to exactly ``atoms`` (``None``: unreachable)."""
    comp = _compiled(puzzle)
    mask = comp.mask(atoms)
    space = _space(puzzle)
    if mask is None or mask not in space.parent:
        return None
    out: list[GroundAction] = []
    while (link := space.parent[mask]) is not None:
        mask, action = link
        out.append(action)
    return out[::-1]


def solve_state(puzzle: BlocksPuzzle, state: BlocksState) -> BlocksState | None:
    """A goal state reached from ``state`` by a shortest plan within the budget, or ``None``."""
    left = puzzle.budget - state.steps
    d = distance(puzzle, state.atoms)
    if left < 0 or d is None or d > left:
        return None
    goal = set(puzzle.goal)
    while not goal <= state.atoms:
        for action in _compiled(puzzle).actions:
            if action[3].pre <= state.atoms:
                child = BlocksState(apply(state.atoms, action[3]), state.steps + 1)
                if distance(puzzle, child.atoms) == d - 1:
                    state, d = child, d - 1
                    break
    return state


def optimal_plan(puzzle: BlocksPuzzle) -> list[GroundAction] | None:
    """A shortest plan within the budget (``None``: none)."""
    final = solve_state(puzzle, BlocksState(puzzle.init, 0))
    return None if final is None else shortest_plan_to(puzzle, final.atoms)


def _reachable(puzzle: BlocksPuzzle, atoms: frozenset[Atom]) -> bool:
    """Whether ``atoms`` is a state reachable from the puzzle's initial facts."""
    mask = _compiled(puzzle).mask(atoms)
    return mask is not None and mask in _space(puzzle).parent


__all__ = ["MAX_NODES", "distance", "optimal_plan", "shortest_plan_to", "solve_state"]
