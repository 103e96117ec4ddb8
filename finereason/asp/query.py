"""The LLM-ARC query language, evaluated over answer sets to FOLIO labels.

Grammar (keywords upper case, atoms in clingo syntax)::

    query := atom | ATOM(atom) | NOT(query) | AND(query, ...) | OR(query, ...) | XOR(query, ...)
           | IF-THEN(query, query) | IFF(query, query) | SOME(Var, query) | ALL(Var, query)
           | N                              (a numbered proposition, in the numbered format)
           | SOME(N, ...) | ALL(N, M)       (numbered: bind every variable free in the propositions)
    atom  := [-]name | [-]name(term, ...)
    term  := Var | constant | integer | "string" | name(term, ...)

The *numbered format* of LLM-ARC: one proposition per line, ``1. ATOM(cat(X))``,
``2. ATOM(black(X))``, then the query, e.g. ``SOME(1, 2)`` (some X with both) or ``ALL(1, 2)``
(every X with 1 has 2) or ``AND(1, 2)``. The last line is the query (numbered or not); a list of
lines is the same as the lines joined. A list of plain queries (no numbers) means all of them (AND).

``XOR`` is parity: it holds when an odd number of its arguments hold (for two: exactly one).
``SOME``/``ALL`` range over the terms that occur in the answer set being checked (its Herbrand
universe). A query is *True* when it holds in every answer set, *False* when it holds in none and
*Uncertain* otherwise; a program without answer sets has no truth value. Queries are parsed with size and
depth limits; nothing is evaluated by Python.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Union

from ..common.deprecated import renamed_names
from ..reading.truth_values import TRUTH_VALUES

MAX_QUERY_CHARS = 5_000
MAX_QUERY_DEPTH = 40
MAX_QUANTIFIERS = 3
MAX_DOMAIN = 2_000


class QueryError(ValueError):
    """A query outside the grammar or the limits."""


# ------------------------------------------------------------------ syntax tree
@dataclass(frozen=True)
class Var:
    name: str


@dataclass(frozen=True)
class Func:
    """A constant or function term; ``text`` is its canonical (clingo ``str``) form when ground."""

    name: str
    args: tuple["Term", ...] = ()


@dataclass(frozen=True)
class Lit:
    """A ground-able term: a number or a string, already in canonical form."""

    text: str


Term = Union[Var, Func, Lit]


@dataclass(frozen=True)
class Atom:
    negated: bool  # classical negation: -p(a)
    name: str
    args: tuple[Term, ...]


@dataclass(frozen=True)
class Op:
    op: str  # NOT AND OR XOR IF-THEN IFF
    items: tuple["Query", ...]


@dataclass(frozen=True)
class Quant:
    op: str  # SOME or ALL
    var: str
    body: "Query"


Query = Union[Atom, Op, Quant]
_ARITY = {"NOT": (1, 1), "AND": (1, None), "OR": (1, None), "XOR": (2, None), "IF-THEN": (2, 2), "IFF": (2, 2)}
_ALIASES = {"IF_THEN": "IF-THEN", "IFTHEN": "IF-THEN", "IMPLIES": "IF-THEN", "EXISTS": "SOME", "FORALL": "ALL"}
_TOKEN = re.compile(
    r"\s*(?:(?P<kw>IF-THEN|[A-Z][A-Z_]*(?=\s*\())|(?P<var>[A-Z_][A-Za-z0-9_']*)|(?P<name>_*[a-z][A-Za-z0-9_']*)|"
    r"(?P<num>-?\d+)|(?P<str>\"(?:[^\"\\\n]|\\.)*\")|(?P<punct>[(),-]))"
)


def quote(text: str) -> str:
    """A string in clingo's canonical printed form."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _tokens(text: str) -> list[tuple[str, str]]:
    if not isinstance(text, str):
        raise QueryError("the query must be a string")
    if len(text) > MAX_QUERY_CHARS:
        raise QueryError(f"the query is longer than {MAX_QUERY_CHARS} characters")
    out, pos, end = [], 0, len(text.rstrip())
    while pos < end:
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise QueryError(f"unexpected {text[pos:pos + 12].strip()!r} at character {pos + 1}")
        kind = m.lastgroup
        out.append((kind, m.group(kind)))
        pos = m.end()
    return out


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]], props: dict[int, "Query"] | None = None):
        self.tokens, self.i, self.depth, self.quantifiers = tokens, 0, 0, 0
        self.props = props

    def peek(self, k: int = 0) -> tuple[str, str] | None:
        return self.tokens[self.i + k] if self.i + k < len(self.tokens) else None

    def take(self, value: str | None = None, kind: str | None = None) -> str:
        tok = self.peek()
        if tok is None or (value is not None and tok[1] != value) or (kind is not None and tok[0] != kind):
            want = value or {"var": "a variable", "name": "a name"}.get(kind or "", "more input")
            raise QueryError(f"expected {want!r} but found {tok[1] if tok else 'the end of the query'!r}")
        self.i += 1
        return tok[1]

    def query(self) -> Query:
        self.depth += 1
        if self.depth > MAX_QUERY_DEPTH:
            raise QueryError(f"the query is nested more than {MAX_QUERY_DEPTH} deep")
        tok = self.peek()
        if tok is not None and tok[0] == "kw":
            node = self.operator()
        elif tok is not None and tok[0] == "num" and self.props is not None:
            node = self.reference()
        else:
            node = self.atom()
        self.depth -= 1
        return node

    def reference(self) -> Query:
        number = int(self.take(kind="num"))
        if number not in self.props:
            raise QueryError(f"proposition {number} is not defined on an earlier line")
        return self.props[number]

    def numbered_quantifier(self, op: str) -> Query:
        """SOME(1, 2): some binding of the free variables makes 1 and 2 hold; ALL(1, 2): every binding
        that makes 1 hold makes 2 hold (ALL(1): 1 holds for every binding)."""
        items = [self.reference()]
        while self.peek() is not None and self.peek()[1] == ",":
            self.take(",")
            items.append(self.reference())
        self.take(")")
        if op == "ALL" and len(items) > 2:
            raise QueryError("ALL takes one or two numbered propositions")
        body: Query = (items[0] if len(items) == 1 else Op("AND", tuple(items)) if op == "SOME"
                       else Op("IF-THEN", (items[0], items[1])))
        names = sorted(set().union(*(free_variables(q) for q in items)))
        if self.quantifiers + len(names) > MAX_QUANTIFIERS:
            raise QueryError(f"more than {MAX_QUANTIFIERS} nested SOME/ALL variables")
        for name in reversed(names):
            body = Quant(op, name, body)
        return body

    def operator(self) -> Query:
        word = self.take(kind="kw")
        op = _ALIASES.get(word, word)
        self.take("(")
        if op == "ATOM":
            node: Query = self.atom()
            self.take(")")
            return node
        if op in ("SOME", "ALL") and self.props is not None and self.peek() is not None and self.peek()[0] == "num":
            return self.numbered_quantifier(op)
        if op in ("SOME", "ALL"):
            self.quantifiers += 1
            if self.quantifiers > MAX_QUANTIFIERS:
                raise QueryError(f"more than {MAX_QUANTIFIERS} nested SOME/ALL")
            var = self.take(kind="var")
            self.take(",")
            body = self.query()
            self.take(")")
            self.quantifiers -= 1
            return Quant(op, var, body)
        if op not in _ARITY:
            raise QueryError(f"unknown operator {word!r} (use ATOM, AND, OR, NOT, XOR, IF-THEN, IFF, SOME, ALL)")
        items = [self.query()]
        while self.peek() is not None and self.peek()[1] == ",":
            self.take(",")
            items.append(self.query())
        self.take(")")
        low, high = _ARITY[op]
        if len(items) < low or (high is not None and len(items) > high):
            raise QueryError(f"{op} takes {low if low == high else f'at least {low}'} argument(s), got {len(items)}")
        return Op(op, tuple(items))

    def atom(self) -> Atom:
        negated = False
        if self.peek() is not None and self.peek()[1] == "-":
            self.take("-")
            negated = True
        name = self.take(kind="name")
        if name == "not":
            raise QueryError("'not' is a reserved word in clingo: use NOT(q) or another name")
        return Atom(negated, name, self.arguments())

    def arguments(self) -> tuple[Term, ...]:
        if self.peek() is None or self.peek()[1] != "(":
            return ()
        self.take("(")
        args = [self.term()]
        while self.peek() is not None and self.peek()[1] == ",":
            self.take(",")
            args.append(self.term())
        self.take(")")
        return tuple(args)

    def term(self) -> Term:
        tok = self.peek()
        if tok is None:
            raise QueryError("the query ends inside an atom")
        kind, value = tok
        self.i += 1
        if kind == "var":
            return Var(value)
        if kind == "num":
            return Lit(str(int(value)))
        if kind == "str":
            return Lit(quote(re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), value[1:-1])))
        if kind == "name":
            if value == "not":
                raise QueryError("'not' is a reserved word in clingo: use another name")
            self.depth += 1
            if self.depth > MAX_QUERY_DEPTH:
                raise QueryError(f"the query is nested more than {MAX_QUERY_DEPTH} deep")
            term = Func(value, self.arguments())
            self.depth -= 1
            return term
        raise QueryError(f"unexpected {value!r} inside an atom")


_NUMBERED = re.compile(r"\s*(\d{1,4})\s*[.):]\s+")
MAX_PROPOSITIONS = 50


def _parse_one(text: str, props: dict[int, Query] | None = None) -> Query:
    tokens = _tokens(text)
    if not tokens:
        raise QueryError("the query is empty")
    parser = _Parser(tokens, props)
    node = parser.query()
    if parser.peek() is not None:
        raise QueryError(f"unexpected {parser.peek()[1]!r} after the end of the query")
    return node


def _parse_numbered(lines: list[str]) -> Query:
    props: dict[int, Query] = {}
    node: Query | None = None
    for i, line in enumerate(lines):
        m = _NUMBERED.match(line)
        if m is None and i != len(lines) - 1:
            raise QueryError(f"line {i + 1} ({line.strip()[:30]!r}) is not numbered; only the last line (the query) may be unnumbered")
        try:
            node = _parse_one(line[m.end():] if m else line, props)
        except QueryError as err:
            raise QueryError(f"line {i + 1}: {err}") from None
        if m:
            number = int(m.group(1))
            if number in props:
                raise QueryError(f"proposition {number} is numbered twice")
            props[number] = node
    assert node is not None
    return node


def parse_query(text: str | list[str]) -> Query:
    """Parse a query (see the module docstring): one expression, the numbered format, or a list of
    lines / propositions; raises :class:`QueryError`."""
    if isinstance(text, (list, tuple)):
        if not text or len(text) > MAX_PROPOSITIONS or not all(isinstance(t, str) for t in text):
            raise QueryError(f"a list query needs 1 to {MAX_PROPOSITIONS} strings")
        if not any(_NUMBERED.match(t) for t in text):
            parts = tuple(parse_query(t) for t in text)
            return parts[0] if len(parts) == 1 else Op("AND", parts)
        text = "\n".join(text)
    if not isinstance(text, str):
        raise QueryError("the query must be a string")
    if len(text) > MAX_QUERY_CHARS:
        raise QueryError(f"the query is longer than {MAX_QUERY_CHARS} characters")
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if len(lines) > MAX_PROPOSITIONS:
        raise QueryError(f"more than {MAX_PROPOSITIONS} lines")
    node = _parse_numbered(lines) if lines and _NUMBERED.match(lines[0]) else _parse_one(text)
    free = free_variables(node)
    if free:
        raise QueryError(f"variable {sorted(free)[0]} is not bound by SOME or ALL")
    return node


def free_variables(node: Query | Term, bound: frozenset[str] = frozenset()) -> set[str]:
    if isinstance(node, Var):
        return set() if node.name in bound else {node.name}
    if isinstance(node, (Func, Atom)):
        return set().union(*(free_variables(a, bound) for a in node.args)) if node.args else set()
    if isinstance(node, Lit):
        return set()
    if isinstance(node, Quant):
        return free_variables(node.body, bound | {node.var})
    return set().union(*(free_variables(q, bound) for q in node.items))


# ------------------------------------------------------------------ evaluation
@dataclass(frozen=True)
class Model:
    """One answer set: its atoms and terms in clingo's printed form."""

    atoms: frozenset[str]
    universe: tuple[str, ...]


def ground_term(term: Term, env: dict[str, str]) -> str:
    """``term`` as clingo text, its variables replaced by their values in ``env``."""
    if isinstance(term, Var):
        return env[term.name]
    if isinstance(term, Lit):
        return term.text
    if not term.args:
        return term.name
    return f"{term.name}({','.join(ground_term(a, env) for a in term.args)})"


def holds(node: Query, model: Model, env: dict[str, str] | None = None) -> bool:
    """Whether ``node`` holds in one answer set."""
    env = env or {}
    if isinstance(node, Atom):
        text = node.name if not node.args else f"{node.name}({','.join(ground_term(a, env) for a in node.args)})"
        return ("-" + text if node.negated else text) in model.atoms
    if isinstance(node, Quant):
        if len(model.universe) > MAX_DOMAIN:
            raise QueryError(f"SOME/ALL over more than {MAX_DOMAIN} terms")
        results = (holds(node.body, model, {**env, node.var: t}) for t in model.universe)
        return any(results) if node.op == "SOME" else all(results)
    op, items = node.op, node.items
    if op == "NOT":
        return not holds(items[0], model, env)
    if op == "AND":
        return all(holds(q, model, env) for q in items)
    if op == "OR":
        return any(holds(q, model, env) for q in items)
    if op == "XOR":  # parity
        return sum(holds(q, model, env) for q in items) % 2 == 1
    if op == "IF-THEN":
        return not holds(items[0], model, env) or holds(items[1], model, env)
    return holds(items[0], model, env) == holds(items[1], model, env)  # IFF


def truth_value(node: Query, models: Iterable[Model]) -> str | None:
    """The query's truth value: ``True`` if the query holds in every answer set, ``False`` in none, else ``Uncertain``;
    ``None`` when there is no answer set (the program is contradictory)."""
    seen_true = seen_false = False
    for model in models:
        if holds(node, model):
            seen_true = True
        else:
            seen_false = True
        if seen_true and seen_false:
            return "Uncertain"
    if not (seen_true or seen_false):
        return None
    return "True" if seen_true else "False"


def negate(node: Query) -> Query:
    return Op("NOT", (node,))


__getattr__ = renamed_names(__name__, {"LABELS": "TRUTH_VALUES", "label": "truth_value"}, globals())  # FOLIO's answers
