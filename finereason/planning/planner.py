"""An optimal planner: breadth-first search over states, bounded by a node budget.

BFS with unit action costs returns a shortest plan. Exhausting the reachable states without
meeting the goal proves the problem has no plan (``unsolvable``); storing more than the node budget
of states first gives ``undecided``, never a guess. States are searched as bit masks over the
task's atoms (an atom is one bit, :class:`BitTask`): a million stored states of a 15-block problem
take under 200 MB.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Iterable

from .pddl import Atom
from .strips import GroundAction, Task

DEFAULT_MAX_NODES = 1_000_000

SOLVED, UNSOLVABLE, UNDECIDED = "solved", "unsolvable", "undecided"


@dataclass(frozen=True)
class PlanResult:
    """``status``: ``solved`` (``plan`` is a shortest plan), ``unsolvable`` or ``undecided``;
    ``nodes``: the states stored by the search."""

    status: str
    plan: tuple[GroundAction, ...] | None
    nodes: int

    @property
    def length(self) -> int | None:
        return None if self.plan is None else len(self.plan)


@dataclass(frozen=True)
class BitTask:
    """A task's ground actions over bit masks: one bit per atom (in sorted atom order), each action
    as ``(pre, keep, add, action)`` (``keep`` clears its delete list), and the goal's mask."""

    bit: dict[Atom, int]
    actions: tuple[tuple[int, int, int, GroundAction], ...]
    goal: int

    def mask(self, atoms: Iterable[Atom]) -> int | None:
        """The mask of ``atoms`` (``None`` when one is no atom of the task)."""
        out = 0
        for atom in atoms:
            b = self.bit.get(atom)
            if b is None:
                return None
            out |= b
        return out


def bit_task(task: Task) -> BitTask:
    """``task`` compiled to bit masks (every ground action, in :meth:`Task.ground_actions` order)."""
    ground = task.ground_actions()
    atoms = set(task.init) | set(task.goal) | {a for act in ground for a in (*act.pre, *act.add, *act.delete)}
    bit = {atom: 1 << i for i, atom in enumerate(sorted(atoms))}

    def m(xs: frozenset[Atom]) -> int:
        return sum(bit[a] for a in xs)

    return BitTask(bit, tuple((m(a.pre), ~m(a.delete), m(a.add), a) for a in ground), m(task.goal))


def search(bits: BitTask, start: int, max_nodes: int = DEFAULT_MAX_NODES) -> PlanResult:
    """A shortest plan from the state ``start`` (a mask) to the goal by BFS, or a proof that none
    exists, within ``max_nodes`` stored states."""
    goal = bits.goal
    if start & goal == goal:
        return PlanResult(SOLVED, (), 1)
    parent: dict[int, tuple[int, GroundAction] | None] = {start: None}
    frontier = deque([start])
    while frontier:
        state = frontier.popleft()
        for pre, keep, add, action in bits.actions:
            if state & pre != pre:
                continue
            child = (state & keep) | add
            if child in parent:
                continue
            parent[child] = (state, action)
            if child & goal == goal:
                steps = []
                node = child
                while (link := parent[node]) is not None:
                    node, act = link
                    steps.append(act)
                return PlanResult(SOLVED, tuple(reversed(steps)), len(parent))
            if len(parent) >= max_nodes:
                return PlanResult(UNDECIDED, None, len(parent))
            frontier.append(child)
    return PlanResult(UNSOLVABLE, None, len(parent))


def plan(task: Task, max_nodes: int = DEFAULT_MAX_NODES) -> PlanResult:
    """A shortest plan for ``task`` by BFS, or a proof that none exists, within ``max_nodes`` states."""
    bits = bit_task(task)
    init = bits.mask(task.init)
    assert init is not None  # every initial atom has a bit
    if init & bits.goal == bits.goal:
        return PlanResult(SOLVED, (), 1)
    added = 0
    for _, _, add, _ in bits.actions:
        added |= add
    if bits.goal & ~(init | added):  # a goal atom that is not true and that no action adds
        return PlanResult(UNSOLVABLE, None, 1)
    return search(bits, init, max_nodes)
