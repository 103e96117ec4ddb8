"""A bounded reader for the STRIPS subset of PDDL used by PlanBench's Blocksworld files.

Supports ``(define (domain ..) (:requirements ..) (:types ..) (:predicates ..) (:action ..))`` with
positive conjunctive preconditions and add/delete effects, and ``(define (problem ..) (:domain ..)
(:objects ..) (:init ..) (:goal (and ..)))``. Typed parameters (``?x - object``) are accepted and the
types ignored. Anything else raises :class:`PDDLError` with a one-line message. The parser is
iterative (no recursion), and the text size and nesting depth are bounded.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Union

MAX_PDDL_CHARS = 2_000_000
MAX_DEPTH = 64

Atom = tuple[str, ...]          # ("on", "a", "b"); the predicate name first, lower case
SExpr = Union[str, list]        # a token or a nested list

_TOKEN = re.compile(r"\(|\)|[^\s()]+")


class PDDLError(ValueError):
    """A PDDL file this reader cannot use: a one-line message naming the problem."""


@dataclass(frozen=True)
class ActionSchema:
    """A lifted STRIPS action: parameters (``?ob``) and atom templates over them."""

    name: str
    params: tuple[str, ...]
    pre: tuple[Atom, ...]
    add: tuple[Atom, ...]
    delete: tuple[Atom, ...]


@dataclass(frozen=True)
class Domain:
    name: str
    predicates: dict[str, int]          # name -> arity
    actions: tuple[ActionSchema, ...]

    def action(self, name: str) -> ActionSchema | None:
        for schema in self.actions:
            if schema.name == name:
                return schema
        return None


@dataclass(frozen=True)
class Problem:
    name: str
    domain: str
    objects: tuple[str, ...]
    init: frozenset[Atom]
    goal: tuple[Atom, ...]


def parse_sexprs(text: str) -> list[SExpr]:
    """The top-level s-expressions of ``text`` (comments after ``;`` dropped, lower-cased)."""
    if len(text) > MAX_PDDL_CHARS:
        raise PDDLError(f"PDDL text is too long ({len(text)} characters, limit {MAX_PDDL_CHARS})")
    text = "\n".join(line.split(";", 1)[0] for line in text.lower().splitlines())
    stack: list[list] = [[]]
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token == "(":
            if len(stack) > MAX_DEPTH:
                raise PDDLError(f"PDDL is nested too deeply (over {MAX_DEPTH} levels)")
            new: list = []
            stack[-1].append(new)
            stack.append(new)
        elif token == ")":
            if len(stack) == 1:
                raise PDDLError("unbalanced ')' in PDDL")
            stack.pop()
        else:
            stack[-1].append(token)
    if len(stack) != 1:
        raise PDDLError("unbalanced '(' in PDDL: the text ends inside an expression")
    return stack[0]


def _define(text: str, kind: str) -> list[SExpr]:
    for expr in parse_sexprs(text):
        if isinstance(expr, list) and expr[:1] == ["define"] and len(expr) > 1 and isinstance(expr[1], list) \
                and expr[1][:1] == [kind] and len(expr[1]) == 2 and isinstance(expr[1][1], str):
            return expr
    raise PDDLError(f"no (define ({kind} NAME) ...) found")


def _names(items: list[SExpr], what: str) -> tuple[str, ...]:
    """Names of a typed list (``a b - object c``), the types dropped."""
    out: list[str] = []
    skip = False
    for item in items:
        if not isinstance(item, str):
            raise PDDLError(f"{what}: expected names, found a nested expression")
        if skip:
            skip = False
        elif item == "-":
            skip = True
        else:
            out.append(item)
    if skip:
        raise PDDLError(f"{what}: '-' without a type")
    return tuple(out)


def _atom(expr: SExpr, what: str) -> Atom:
    if not isinstance(expr, list) or not expr or not all(isinstance(x, str) for x in expr):
        raise PDDLError(f"{what}: expected an atom like (on a b), found {_show(expr)}")
    return tuple(expr)


def _conjunction(expr: SExpr, what: str, negation: bool) -> tuple[list[Atom], list[Atom]]:
    """(positive, negative) atoms of an atom or ``(and ...)``; negatives only where allowed."""
    items = expr[1:] if isinstance(expr, list) and expr[:1] == ["and"] else [expr]
    pos: list[Atom] = []
    neg: list[Atom] = []
    for item in items:
        if isinstance(item, list) and item[:1] == ["not"]:
            if not negation or len(item) != 2:
                raise PDDLError(f"{what}: negation is not supported here (STRIPS only)")
            neg.append(_atom(item[1], what))
        else:
            pos.append(_atom(item, what))
    return pos, neg


def _show(expr: SExpr) -> str:
    if isinstance(expr, str):
        return expr
    return "(" + " ".join(x if isinstance(x, str) else "(...)" for x in expr[:6]) + (" ...)" if len(expr) > 6 else ")")


def _sections(define: list[SExpr], what: str) -> list[list[SExpr]]:
    out = []
    for section in define[2:]:
        if not isinstance(section, list) or not section or not isinstance(section[0], str):
            raise PDDLError(f"{what}: unexpected {_show(section)}")
        out.append(section)
    return out


def parse_domain(text: str) -> Domain:
    """A :class:`Domain` from PDDL domain text."""
    define = _define(text, "domain")
    name = define[1][1]
    predicates: dict[str, int] = {}
    actions: list[ActionSchema] = []
    for section in _sections(define, f"domain {name}"):
        head = section[0]
        if head == ":predicates":
            for pred in section[1:]:
                if not isinstance(pred, list) or not pred or not isinstance(pred[0], str):
                    raise PDDLError(f"domain {name}: bad predicate {_show(pred)}")
                predicates[pred[0]] = len(_names(pred[1:], f"predicate {pred[0]}"))
        elif head == ":action":
            actions.append(_action(section, name))
        elif head in (":requirements", ":types", ":constants"):
            if head == ":constants" and len(section) > 1:
                raise PDDLError(f"domain {name}: :constants are not supported")
        else:
            raise PDDLError(f"domain {name}: unsupported section {head}")
    if not actions:
        raise PDDLError(f"domain {name}: no actions")
    return Domain(name, predicates, tuple(actions))


def _action(section: list[SExpr], domain: str) -> ActionSchema:
    if len(section) < 2 or not isinstance(section[1], str):
        raise PDDLError(f"domain {domain}: an action without a name")
    name = section[1]
    fields: dict[str, SExpr] = {}
    rest = section[2:]
    if len(rest) % 2:
        raise PDDLError(f"action {name}: expected ':key value' pairs")
    for key, value in zip(rest[::2], rest[1::2]):
        if key not in (":parameters", ":precondition", ":effect"):
            raise PDDLError(f"action {name}: unsupported field {_show(key)}")
        fields[key] = value
    params_expr = fields.get(":parameters", [])
    if not isinstance(params_expr, list):
        raise PDDLError(f"action {name}: :parameters must be a list")
    params = _names(params_expr, f"action {name} parameters")
    pre, _ = _conjunction(fields.get(":precondition", ["and"]), f"action {name} precondition", negation=False)
    add, delete = _conjunction(fields.get(":effect", ["and"]), f"action {name} effect", negation=True)
    for atom in (*pre, *add, *delete):
        for arg in atom[1:]:
            if arg not in params:
                raise PDDLError(f"action {name}: {arg} is not a parameter")
    return ActionSchema(name, params, tuple(pre), tuple(add), tuple(delete))


def parse_problem(text: str) -> Problem:
    """A :class:`Problem` from PDDL problem text."""
    define = _define(text, "problem")
    name = define[1][1]
    domain = ""
    objects: tuple[str, ...] = ()
    init: list[Atom] = []
    goal: list[Atom] | None = None
    for section in _sections(define, f"problem {name}"):
        head = section[0]
        if head == ":domain":
            domain = section[1] if len(section) == 2 and isinstance(section[1], str) else ""
        elif head == ":objects":
            objects = _names(section[1:], f"problem {name} objects")
        elif head == ":init":
            init = [_atom(a, f"problem {name} init") for a in section[1:]]
        elif head == ":goal":
            if len(section) != 2:
                raise PDDLError(f"problem {name}: :goal takes one expression")
            goal, _ = _conjunction(section[1], f"problem {name} goal", negation=False)
        elif head == ":requirements":
            pass
        else:
            raise PDDLError(f"problem {name}: unsupported section {head}")
    if goal is None:
        raise PDDLError(f"problem {name}: no :goal")
    return Problem(name, domain, objects, frozenset(init), tuple(goal))


def _read(path: str | Path) -> str:
    path = Path(path)
    size = path.stat().st_size
    if size > MAX_PDDL_CHARS:
        raise PDDLError(f"{path}: PDDL file is too large ({size} bytes)")
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise PDDLError(f"{path}: not UTF-8 text") from None


@lru_cache(maxsize=64)
def _domain_cached(path: str, mtime: float) -> Domain:
    return parse_domain(_read(path))


def read_domain(path: str | Path) -> Domain:
    """The domain in a PDDL file (cached per path and modification time)."""
    try:
        return _domain_cached(str(path), Path(path).stat().st_mtime)
    except PDDLError as err:
        raise PDDLError(f"{path}: {err}" if str(path) not in str(err) else str(err)) from None


def read_problem(path: str | Path) -> Problem:
    """The problem in a PDDL file."""
    try:
        return parse_problem(_read(path))
    except PDDLError as err:
        raise PDDLError(f"{path}: {err}" if str(path) not in str(err) else str(err)) from None
