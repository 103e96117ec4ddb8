"""Blocksworld puzzle and state values: the 4-operator PDDL domains (``blocksworld`` and its renamed
``mystery`` twin), a :class:`BlocksPuzzle` (one instance with a step budget), a :class:`BlocksState`
(facts and steps taken), a :class:`Plan` read from text, and fact parsing."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Sequence

from ...common.verdict import StateError
from ...planning.pddl import Atom, Domain, Problem, parse_domain
from ...planning.plan_text import COLOURS
from ...planning.plan_text import PlanAction
from ...planning.strips import Task

MAX_BLOCKS = 12          # objects a..l, as in PlanBench

BLOCKSWORLD_PDDL = """(define (domain blocksworld-4ops)
  (:requirements :strips)
  (:predicates (clear ?x) (ontable ?x) (handempty) (holding ?x) (on ?x ?y))
  (:action pick-up :parameters (?ob)
    :precondition (and (clear ?ob) (ontable ?ob) (handempty))
    :effect (and (holding ?ob) (not (clear ?ob)) (not (ontable ?ob)) (not (handempty))))
  (:action put-down :parameters (?ob)
    :precondition (holding ?ob)
    :effect (and (clear ?ob) (handempty) (ontable ?ob) (not (holding ?ob))))
  (:action stack :parameters (?ob ?underob)
    :precondition (and (clear ?underob) (holding ?ob))
    :effect (and (handempty) (clear ?ob) (on ?ob ?underob) (not (clear ?underob)) (not (holding ?ob))))
  (:action unstack :parameters (?ob ?underob)
    :precondition (and (on ?ob ?underob) (clear ?ob) (handempty))
    :effect (and (holding ?ob) (clear ?underob) (not (on ?ob ?underob)) (not (clear ?ob)) (not (handempty)))))
"""

#: Mystery Blocksworld renames the predicates and actions, nothing else (PlanBench's mystery-4ops).
MYSTERY_NAMES = {"clear": "province", "ontable": "planet", "handempty": "harmony", "holding": "pain", "on": "craves",
                 "pick-up": "attack", "put-down": "succumb", "stack": "overcome", "unstack": "feast",
                 "blocksworld-4ops": "mystery-4ops"}
MYSTERY_PDDL = re.sub(r"[a-z][a-z0-9-]*", lambda m: MYSTERY_NAMES.get(m.group(), m.group()), BLOCKSWORLD_PDDL)

VOCABULARIES = ("blocksworld", "mystery")
_PDDL = {"blocksworld": BLOCKSWORLD_PDDL, "mystery": MYSTERY_PDDL}


@lru_cache(maxsize=None)
def pddl_domain(vocabulary: str) -> Domain:
    """The 4-operator PDDL domain of ``vocabulary`` (``blocksworld`` or ``mystery``)."""
    if vocabulary not in _PDDL:
        raise ValueError(f"unknown vocabulary {vocabulary!r}; use one of {', '.join(VOCABULARIES)}")
    return parse_domain(_PDDL[vocabulary])


def vocabulary_of(domain_name: str) -> str:
    """The vocabulary whose PDDL domain is called ``domain_name``."""
    for vocabulary in VOCABULARIES:
        if pddl_domain(vocabulary).name == domain_name:
            return vocabulary
    raise StateError(f"unknown planning domain {domain_name!r}")


def fact_text(atom: Atom) -> str:
    """``("on", "a", "b")`` -> ``"(on a b)"``."""
    return "(" + " ".join(atom) + ")"


# ---------------------------------------------------------------- puzzles and states
@dataclass(frozen=True)
class BlocksPuzzle:
    """One planning instance with a step budget (hashable: the oracle caches per puzzle)."""

    vocabulary: str
    objects: tuple[str, ...]
    init: frozenset[Atom]
    goal: tuple[Atom, ...]
    budget: int

    def __post_init__(self) -> None:
        if self.vocabulary not in VOCABULARIES:
            raise StateError(f"unknown vocabulary {self.vocabulary!r}")
        if not 1 <= len(self.objects) <= MAX_BLOCKS or len(set(self.objects)) != len(self.objects):
            raise StateError(f"a puzzle needs 1..{MAX_BLOCKS} distinct objects, got {len(self.objects)}")
        if type(self.budget) is not int or not 0 <= self.budget <= 1000:
            raise StateError(f"step budget must be an integer in 0..1000, got {self.budget!r}")
        domain = pddl_domain(self.vocabulary)
        for atom in (*self.init, *self.goal):
            check_atom(atom, domain, self.objects)

    @property
    def problem(self) -> Problem:
        return Problem("finereason", pddl_domain(self.vocabulary).name, self.objects, self.init, self.goal)

    @property
    def task(self) -> Task:
        return _task(self)


@dataclass(frozen=True)
class BlocksState:
    """The true facts and the number of actions taken to get here."""

    atoms: frozenset[Atom]
    steps: int


@dataclass(frozen=True)
class Plan:
    """A plan read from model text (an end-to-end answer): its steps as read."""

    steps: tuple[PlanAction, ...]


def check_atom(atom: Atom, domain: Domain, objects: Sequence[str]) -> None:
    """Raise :class:`StateError` unless ``atom`` is a predicate of ``domain`` over ``objects``."""
    arity = domain.predicates.get(atom[0]) if atom else None
    if arity is None:
        raise StateError(f"fact {fact_text(atom)}: unknown predicate; use {', '.join(sorted(domain.predicates))}")
    if len(atom) - 1 != arity:
        raise StateError(f"fact {fact_text(atom)}: {atom[0]} takes {arity} object(s)")
    for arg in atom[1:]:
        if arg not in objects:
            raise StateError(f"fact {fact_text(atom)}: unknown object {arg!r} (objects: {', '.join(objects)})")


_FACT_SPLIT = re.compile(r"[\s(),]+")


def parse_fact(text: Any, puzzle: BlocksPuzzle) -> Atom:
    """A fact from ``"(on a b)"``, ``"on a b"`` or ``"on(a, b)"`` (any case; colour names for blocks)."""
    if not isinstance(text, str):
        raise StateError(f"a fact must be a string like \"(on a b)\", got {type(text).__name__}")
    words = [w for w in _FACT_SPLIT.split(text.strip().lower()) if w]
    if not words or len(words) > 3:
        raise StateError(f"fact {text[:40]!r} is not like \"(on a b)\"")
    if puzzle.vocabulary == "blocksworld":
        words = [words[0]] + [w if w in puzzle.objects else COLOURS.get(w, w) for w in words[1:]]
    atom = tuple(words)
    check_atom(atom, pddl_domain(puzzle.vocabulary), puzzle.objects)
    return atom


def parse_facts(value: Any, puzzle: BlocksPuzzle, what: str = "facts") -> frozenset[Atom]:
    """A set of facts from a list of fact strings."""
    if isinstance(value, (str, bytes, dict)) or not isinstance(value, (list, tuple)):
        raise StateError(f"{what} must be a list of facts like \"(on a b)\", got {type(value).__name__}")
    if len(value) > 4 * MAX_BLOCKS * MAX_BLOCKS:
        raise StateError(f"{what}: too many facts ({len(value)})")
    return frozenset(parse_fact(v, puzzle) for v in value)



@lru_cache(maxsize=256)
def _task(puzzle: BlocksPuzzle) -> Task:
    return Task(pddl_domain(puzzle.vocabulary), puzzle.problem)


__all__ = ["BLOCKSWORLD_PDDL", "MAX_BLOCKS", "MYSTERY_NAMES", "MYSTERY_PDDL", "VOCABULARIES", "BlocksPuzzle",
           "BlocksState", "Plan", "check_atom", "fact_text", "parse_fact", "parse_facts", "pddl_domain",
           "vocabulary_of"]
