"""A restricted reader for logic-grid clue conditions, and their three-valued evaluation.

The official release writes each clue as a Python-like boolean expression over the table ``T``::

    (T[r('Guy')][c('times')] - 2 == T[r('back pain')][c('times')]) and (T[r(12)][c('names')] != 'Terry')

``r(x)`` is the row holding value ``x`` and ``c(name)`` the column of a category. This module accepts
exactly that grammar (cells, integer/decimal/string constants, ``+ -``, comparisons, ``and or not``
and parentheses) and rejects anything else with :class:`ConditionError`. Nothing is ever evaluated
by Python: conditions become small trees, compiled into closures over a partial table.

Evaluation is three-valued: a cell whose row or value is not placed yet is ``UNKNOWN``; ``and``/``or``
follow Kleene logic, so a clue is definitely violated only when no completion could satisfy it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Iterator, Union

MAX_CONDITION_CHARS = 20_000
MAX_CONDITION_DEPTH = 60


class ConditionError(ValueError):
    """A clue condition outside the accepted grammar, or naming unknown values or categories."""


class _Unknown:
    __slots__ = ()

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN: Any = _Unknown()


# ------------------------------------------------------------------ syntax tree
@dataclass(frozen=True)
class Const:
    value: Union[int, float, str]


@dataclass(frozen=True)
class Cell:
    """``T[r(key)][c(category)]``."""

    key: Union[int, float, str]
    category: str


@dataclass(frozen=True)
class Arith:
    op: str  # '+' or '-'
    left: "Node"
    right: "Node"


@dataclass(frozen=True)
class Compare:
    op: str  # == != < <= > >=
    left: "Node"
    right: "Node"


@dataclass(frozen=True)
class BoolOp:
    op: str  # 'and' or 'or'
    items: tuple["Node", ...]


@dataclass(frozen=True)
class Not:
    item: "Node"


Node = Union[Const, Cell, Arith, Compare, BoolOp, Not]

# ------------------------------------------------------------------ tokenizer and parser
_TOKENS = re.compile(
    r"""\s*(?:(?P<num>\d+(?:\.\d+)?)(?![\w.])|(?P<str>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")|"""
    r"""(?P<op>==|!=|<=|>=|<|>|\+|-|\(|\)|\[|\])|(?P<word>[A-Za-z_]\w*))"""
)
_WORDS = {"and", "or", "not", "T", "r", "c"}


def _tokenize(text: str) -> list[tuple[str, Any]]:
    if len(text) > MAX_CONDITION_CHARS:
        raise ConditionError(f"condition longer than {MAX_CONDITION_CHARS} characters")
    out: list[tuple[str, Any]] = []
    pos = 0
    end = len(text.rstrip())
    while pos < end:
        m = _TOKENS.match(text, pos)
        if m is None or m.end() == pos:
            raise ConditionError(f"unexpected character {text[pos:pos + 10]!r} at offset {pos}")
        kind = m.lastgroup
        raw = m.group(kind)
        if kind == "num":
            out.append(("const", float(raw) if "." in raw else int(raw)))
        elif kind == "str":
            out.append(("const", re.sub(r"\\(.)", r"\1", raw[1:-1])))
        elif kind == "word":
            if raw not in _WORDS:
                raise ConditionError(f"name {raw!r} is not allowed (only T, r, c, and, or, not)")
            out.append((raw, raw))
        else:
            out.append((raw, raw))
        pos = m.end()
    return out


class _Parser:
    def __init__(self, tokens: list[tuple[str, Any]]):
        self.tokens = tokens
        self.i = 0
        self.depth = 0

    def peek(self) -> str | None:
        return self.tokens[self.i][0] if self.i < len(self.tokens) else None

    def take(self, kind: str) -> Any:
        if self.peek() != kind:
            found = self.peek() or "end of condition"
            raise ConditionError(f"expected {kind!r} but found {found!r}")
        value = self.tokens[self.i][1]
        self.i += 1
        return value

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_CONDITION_DEPTH:
            raise ConditionError("condition nested too deeply")

    def parse(self) -> Node:
        node = self.boolean("or")
        if self.peek() is not None:
            raise ConditionError(f"unexpected {self.peek()!r} after the end of the condition")
        return node

    def boolean(self, op: str) -> Node:
        sub = (lambda: self.boolean("and")) if op == "or" else self.negation
        items = [sub()]
        while self.peek() == op:
            self.take(op)
            items.append(sub())
        return items[0] if len(items) == 1 else BoolOp(op, tuple(items))

    def negation(self) -> Node:
        if self.peek() == "not":
            self.take("not")
            self.enter()
            node = Not(self.negation())
            self.depth -= 1
            return node
        return self.comparison()

    def comparison(self) -> Node:
        left = self.sum()
        pairs: list[Node] = []
        while self.peek() in ("==", "!=", "<", "<=", ">", ">="):
            op = self.take(self.peek())
            right = self.sum()
            pairs.append(Compare(op, left, right))
            left = right
        if not pairs:
            return left
        return pairs[0] if len(pairs) == 1 else BoolOp("and", tuple(pairs))

    def sum(self) -> Node:
        node = self.atom()
        while self.peek() in ("+", "-"):
            op = self.take(self.peek())
            node = Arith(op, node, self.atom())
        return node

    def atom(self) -> Node:
        kind = self.peek()
        if kind == "const":
            return Const(self.take("const"))
        if kind == "-" and self.i + 1 < len(self.tokens) and self.tokens[self.i + 1][0] == "const":
            self.take("-")
            value = self.take("const")
            if isinstance(value, str):
                raise ConditionError("cannot negate a string")
            return Const(-value)
        if kind == "(":
            self.take("(")
            self.enter()
            node = self.boolean("or")
            self.depth -= 1
            self.take(")")
            return node
        if kind == "T":
            self.take("T")
            self.take("[")
            self.take("r")
            self.take("(")
            key = self.take("const")
            self.take(")")
            self.take("]")
            self.take("[")
            self.take("c")
            self.take("(")
            category = self.take("const")
            if not isinstance(category, str):
                raise ConditionError("c(...) takes a category name")
            self.take(")")
            self.take("]")
            return Cell(key, category)
        raise ConditionError(f"unexpected {kind or 'end of condition'!r}")


@lru_cache(maxsize=8192)
def parse_condition(text: str) -> Node:
    """Parse one official ``conditions`` string into a tree (no evaluation, no ``eval``).

    Trees are immutable, so parses are memoised: the official states repeat their puzzles' clues.
    """
    if not isinstance(text, str):
        raise ConditionError("condition must be a string")
    return _Parser(_tokenize(text)).parse()


# ------------------------------------------------------------------ compilation
Context = tuple[dict, list]  # (value -> row index, cells[row][column] with None for empty)
Compiled = Callable[[Context], Any]

_CMP: dict[str, Callable[[Any, Any], bool]] = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}


def compile_condition(node: Node, column_of: Callable[[str], int], column_of_value: Callable[[Any], int | None]) -> Compiled:
    """Compile a tree into a closure ``f((row_of, cells)) -> True | False | UNKNOWN``.

    ``column_of(category)`` gives a column index; ``column_of_value(v)`` the column whose domain
    holds ``v`` (``None`` when ``v`` is no table value). Equality between a cell and a value of the
    cell's own column is decided by positions, so it is known as soon as the value is placed.
    """
    if isinstance(node, Const):
        value = node.value
        return lambda ctx: value
    if isinstance(node, Cell):
        key, col = node.key, column_of(node.category)

        def cell(ctx: Context) -> Any:
            row = ctx[0].get(key)
            if row is None:
                return UNKNOWN
            value = ctx[1][row][col]
            return UNKNOWN if value is None else value

        return cell
    if isinstance(node, Arith):
        left, right = compile_condition(node.left, column_of, column_of_value), compile_condition(node.right, column_of, column_of_value)
        sign = 1 if node.op == "+" else -1

        def arith(ctx: Context) -> Any:
            a, b = left(ctx), right(ctx)
            if a is UNKNOWN or b is UNKNOWN:
                return UNKNOWN
            if isinstance(a, str) or isinstance(b, str):
                return False  # arithmetic on names never holds
            return a + sign * b

        return arith
    if isinstance(node, Compare):
        return _compile_compare(node, column_of, column_of_value)
    if isinstance(node, Not):
        inner = compile_condition(node.item, column_of, column_of_value)

        def negate(ctx: Context) -> Any:
            v = inner(ctx)
            return UNKNOWN if v is UNKNOWN else not v

        return negate
    parts = tuple(compile_condition(item, column_of, column_of_value) for item in node.items)
    if node.op == "and":

        def conj(ctx: Context) -> Any:
            result: Any = True
            for part in parts:
                v = part(ctx)
                if v is False:
                    return False
                if v is UNKNOWN:
                    result = UNKNOWN
            return result

        return conj

    def disj(ctx: Context) -> Any:
        result: Any = False
        for part in parts:
            v = part(ctx)
            if v is True:
                return True
            if v is UNKNOWN:
                result = UNKNOWN
        return result

    return disj


def _compile_compare(node: Compare, column_of: Callable[[str], int], column_of_value: Callable[[Any], int | None]) -> Compiled:
    op = node.op
    fn = _CMP[op]
    cell, const = (node.left, node.right) if isinstance(node.right, Const) else (node.right, node.left)
    if op in ("==", "!=") and isinstance(cell, Cell) and isinstance(const, Const):
        col = column_of(cell.category)
        if column_of_value(const.value) == col and col != 0:
            key, value, want = cell.key, const.value, op == "=="

            def positional(ctx: Context) -> Any:
                row_of = ctx[0]
                row = row_of.get(key)
                if row is not None:
                    filled = ctx[1][row][col]
                    if filled is not None:
                        return (filled == value) == want
                vrow = row_of.get(value)
                if row is None or vrow is None:
                    return UNKNOWN
                return (row == vrow) == want

            return positional
    left = compile_condition(node.left, column_of, column_of_value)
    right = compile_condition(node.right, column_of, column_of_value)

    def compare(ctx: Context) -> Any:
        a, b = left(ctx), right(ctx)
        if a is UNKNOWN or b is UNKNOWN:
            return UNKNOWN
        try:
            return bool(fn(a, b))
        except TypeError:  # e.g. a name compared with '<' to a number: never holds
            return False

    return compare


def referenced_values(node: Node) -> list[Any]:
    """Values the condition names: ``r(...)`` keys and constants compared with a cell, in order."""
    out: list[Any] = []
    for n in walk(node):
        if isinstance(n, Cell):
            out.append(n.key)
        elif isinstance(n, Compare):
            out += [side.value for side, other in ((n.left, n.right), (n.right, n.left))
                    if isinstance(side, Const) and isinstance(other, Cell)]
    return list(dict.fromkeys(out))


def walk(node: Node) -> Iterator[Node]:
    """Every node of a condition tree, depth first."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, BoolOp):
            stack.extend(reversed(n.items))
        elif isinstance(n, (Arith, Compare)):
            stack.extend((n.right, n.left))
        elif isinstance(n, Not):
            stack.append(n.item)


def referenced_keys(node: Node) -> list[Any]:
    """Values used as ``r(...)`` row keys, in order."""
    return list(dict.fromkeys(n.key for n in walk(node) if isinstance(n, Cell)))


def referenced_categories(node: Node) -> list[str]:
    """Category names used in ``c(...)``, in order."""
    return list(dict.fromkeys(n.category for n in walk(node) if isinstance(n, Cell)))
