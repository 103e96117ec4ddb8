"""An optimal planner: breadth-first search over states, bounded by a node budget.

BFS with unit action costs returns a shortest plan. Exhausting the reachable states without
meeting the goal proves the problem has no plan (``unsolvable``); storing more than the node budget
of states first gives ``undecided``, never a guess. States are searched as bit masks over the
task's atoms (an atom is one bit, :class:`BitTask`): a million stored states of a 15-block problem
take under 200 MB.
"""
from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass
from typing import Callable, Iterable

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


Action = tuple[int, int, int, GroundAction]


def _bits_of(mask: int) -> Iterable[int]:
    """The set bits of ``mask``, each as a one-bit mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low
        mask ^= low


def applicable_actions(bits: BitTask) -> Callable[[int], list[Action]]:
    """A function giving the actions of ``bits`` that apply in a state, in ``bits.actions`` order.

    Each action is filed under one bit of its precondition, the one the fewest actions need (for
    blocksworld ``on(b, a)`` rather than ``handempty``), so a state looks only at the actions filed
    under its true atoms: a handful instead of every ground action."""
    actions = bits.actions
    uses = Counter(b for pre, _, _, _ in actions for b in _bits_of(pre))
    always: list[int] = []
    filed: dict[int, list[int]] = {}
    for i, (pre, _, _, _) in enumerate(actions):
        if pre:
            filed.setdefault(min(_bits_of(pre), key=lambda b: (uses[b], b.bit_length())), []).append(i)
        else:
            always.append(i)

    def applicable(state: int) -> list[Action]:
        found = list(always)
        rest = state
        while rest:
            low = rest & -rest
            rest ^= low
            here = filed.get(low)
            if here is not None:
                for i in here:
                    pre = actions[i][0]
                    if state & pre == pre:
                        found.append(i)
        found.sort()
        return [actions[i] for i in found]

    return applicable


def search(bits: BitTask, start: int, max_nodes: int = DEFAULT_MAX_NODES) -> PlanResult:
    """A shortest plan from the state ``start`` (a mask) to the goal by BFS, or a proof that none
    exists, within ``max_nodes`` stored states."""
    goal = bits.goal
    if start & goal == goal:
        return PlanResult(SOLVED, (), 1)
    parent: dict[int, tuple[int, GroundAction] | None] = {start: None}
    frontier = deque([start])
    applicable = applicable_actions(bits)
    while frontier:
        state = frontier.popleft()
        for _, keep, add, action in applicable(state):
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
