"""STRIPS semantics: ground actions from a domain's schemas; states are frozensets of atoms.

Applying an action removes its delete list, then adds its add list (PDDL semantics: an atom both
deleted and added is true afterwards).
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from .pddl import ActionSchema, Atom, Domain, PDDLError, Problem

MAX_GROUND_ACTIONS = 200_000


@dataclass(frozen=True)
class GroundAction:
    name: str
    args: tuple[str, ...]
    pre: frozenset[Atom]
    add: frozenset[Atom]
    delete: frozenset[Atom]

    def __str__(self) -> str:
        return "(" + " ".join((self.name, *self.args)) + ")"


def ground(schema: ActionSchema, args: tuple[str, ...]) -> GroundAction:
    """``schema`` with its parameters bound to ``args`` (same length)."""
    binding = dict(zip(schema.params, args))

    def sub(atoms: tuple[Atom, ...]) -> frozenset[Atom]:
        return frozenset((a[0], *(binding[x] for x in a[1:])) for a in atoms)

    return GroundAction(schema.name, tuple(args), sub(schema.pre), sub(schema.add), sub(schema.delete))


def apply(state: frozenset[Atom], action: GroundAction) -> frozenset[Atom]:
    return (state - action.delete) | action.add


@dataclass(frozen=True)
class Task:
    """A domain and a problem together: the objects, initial state, goal and every ground action."""

    domain: Domain
    problem: Problem

    def __post_init__(self) -> None:
        if self.problem.domain and self.problem.domain != self.domain.name:
            raise PDDLError(f"problem {self.problem.name} is for domain {self.problem.domain}, "
                            f"not {self.domain.name}")
        n = len(self.problem.objects)
        if sum(n ** len(s.params) for s in self.domain.actions) > MAX_GROUND_ACTIONS:
            raise PDDLError(f"problem {self.problem.name}: too many ground actions for {n} objects")
        for atom in (*self.problem.init, *self.problem.goal):
            if self.domain.predicates.get(atom[0], len(atom) - 1) != len(atom) - 1:
                raise PDDLError(f"problem {self.problem.name}: {atom[0]} has the wrong number of arguments")

    @property
    def init(self) -> frozenset[Atom]:
        return self.problem.init

    @property
    def goal(self) -> frozenset[Atom]:
        return frozenset(self.problem.goal)

    def ground_actions(self) -> list[GroundAction]:
        """Every ground action, objects bound in every combination (repeats included, as in PDDL)."""
        return [ground(s, args) for s in self.domain.actions
                for args in product(self.problem.objects, repeat=len(s.params))]

    def action(self, name: str, args: tuple[str, ...]) -> GroundAction:
        """One ground action; ``KeyError`` naming the problem for an unknown action, arity or object."""
        schema = self.domain.action(name)
        if schema is None:
            raise KeyError(f"unknown action {name!r}")
        if len(args) != len(schema.params):
            raise KeyError(f"{name} takes {len(schema.params)} argument(s), got {len(args)}")
        for arg in args:
            if arg not in self.problem.objects:
                raise KeyError(f"unknown object {arg!r}")
        return ground(schema, args)
