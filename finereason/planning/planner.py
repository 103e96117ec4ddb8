"""An optimal planner: breadth-first search over states, bounded by a node budget.

BFS with unit action costs returns a shortest plan. Exhausting the reachable states without
meeting the goal proves the problem has no plan (``unsolvable``); running out of the node budget
first gives ``undecided``, never a guess.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from .strips import GroundAction, Task, apply

DEFAULT_MAX_NODES = 500_000

SOLVED, UNSOLVABLE, UNDECIDED = "solved", "unsolvable", "undecided"


@dataclass(frozen=True)
class PlanResult:
    """``status``: ``solved`` (``plan`` is a shortest plan), ``unsolvable`` or ``undecided``."""

    status: str
    plan: tuple[GroundAction, ...] | None
    expanded: int

    @property
    def length(self) -> int | None:
        return None if self.plan is None else len(self.plan)


def _static_unreachable(task: Task, actions: list[GroundAction]) -> bool:
    """A goal atom that is not initially true and that no action adds can never hold."""
    added = set().union(*(a.add for a in actions)) if actions else set()
    return any(atom not in task.init and atom not in added for atom in task.goal)


def plan(task: Task, max_nodes: int = DEFAULT_MAX_NODES) -> PlanResult:
    """A shortest plan for ``task`` by BFS, or a proof that none exists, within ``max_nodes`` states."""
    actions = task.ground_actions()
    if task.is_goal(task.init):
        return PlanResult(SOLVED, (), 0)
    if _static_unreachable(task, actions):
        return PlanResult(UNSOLVABLE, None, 0)
    by_pre: dict = {}
    for action in actions:  # index by one precondition atom: only actions whose key atom holds are tried
        key = min(action.pre) if action.pre else None
        by_pre.setdefault(key, []).append(action)
    always = by_pre.pop(None, [])
    parent: dict[frozenset, tuple[frozenset, GroundAction] | None] = {task.init: None}
    frontier = deque([task.init])
    expanded = 0
    while frontier:
        if expanded >= max_nodes:
            return PlanResult(UNDECIDED, None, expanded)
        state = frontier.popleft()
        expanded += 1
        candidates = [a for atom in state for a in by_pre.get(atom, ())] + always
        for action in candidates:
            if not action.pre <= state:
                continue
            child = apply(state, action)
            if child in parent:
                continue
            parent[child] = (state, action)
            if task.is_goal(child):
                steps = []
                node = child
                while parent[node] is not None:
                    node, act = parent[node]
                    steps.append(act)
                return PlanResult(SOLVED, tuple(reversed(steps)), expanded)
            frontier.append(child)
    return PlanResult(UNSOLVABLE, None, expanded)
