r"""Safe arithmetic for Game of 24: a bounded tokenizer and recursive-descent parser.

Nothing here evaluates code. The grammar is tiny and every input is bounded before any work is
done (length, then tokens, then nesting), so hostile model text fails fast with a
:class:`~finereason.common.verdict.ParseError` instead of exhausting time, memory or the Python stack.

Grammar (usual precedence, left-associative)::

    expr   := term (("+" | "-") term)*
    term   := factor (("*" | "/") factor | group)*     # a group right after a factor multiplies
    factor := NUMBER | group
    group  := "(" expr ")" | "{" expr "}" | FRAC "{" expr "}" "{" expr "}"
    NUMBER := 1 to 6 ASCII digits

Accepted spellings: ``×``, ``·``, ``⋅``, ``∗``, ``\times``, ``\cdot``, ``\ast`` for ``*``; ``÷``,
``\div`` for ``/``; ``−`` (minus sign) and ``–`` (en dash) for ``-``; ``\frac``/``\dfrac``/``\tfrac``
(nested) for division; ``\left``/``\right`` and LaTeX spacing (``\,`` ``\;`` ``\!`` ``\:``) are
ignored. Implicit multiplication is read only before a group: ``(10 - 4)(13 - 9)``, ``8(13 - 12 + 2)``
(a number right after a group, ``(4 + 7)2``, is rejected).
Unary minus/plus, exponentiation, factorials, roots, decimals, names, other LaTeX commands and
non-ASCII digits are rejected: the whole text must be one expression.

Glossary:
- *node*: an immutable, hashable AST value, :class:`Num` or :class:`BinOp`.
- *official text*: numbers bare and every binary operation parenthesised with spaces,
  ``"((4 + 7) * 2)"``; :func:`to_text` writes it and :func:`parse` reads it back.
- *leaves*: the multiset of numbers an expression uses.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Union

from ...common.verdict import ParseError

MAX_CHARS = 1_000      # longest accepted expression text
MAX_DEPTH = 50         # deepest parenthesis nesting
MAX_NODES = 101        # numbers + operators; also bounds the tree depth to 50 operators
MAX_DIGITS = 6         # longest integer literal

OPERATORS = ("+", "-", "*", "/")
_ALIASES = {"×": "*", "÷": "/", "−": "-", "–": "-", "·": "*", "⋅": "*", "∗": "*"}
_SIGNS = frozenset("+-*/") | frozenset(_ALIASES)
_COMMANDS = {"times": "*", "cdot": "*", "ast": "*", "div": "/", "frac": "frac", "dfrac": "frac", "tfrac": "frac",
             "left": "", "right": ""}
_SPACING = frozenset(",;!: ")
_FRAC = "frac"
_OPENERS = {"(": ")", "{": "}"}


@dataclass(frozen=True, slots=True)
class Num:
    """A non-negative integer literal."""

    value: int


@dataclass(frozen=True, slots=True)
class BinOp:
    """``left op right`` with ``op`` one of ``+ - * /``."""

    op: str
    left: "Node"
    right: "Node"


Node = Union[Num, BinOp]


class DivisionByZero(ZeroDivisionError):
    """An expression divides by zero; ``node`` is the offending division."""

    def __init__(self, node: BinOp) -> None:
        super().__init__(f"{to_text(node)} divides by zero")
        self.node = node


# ------------------------------------------------------------------ tokenizer
def _tokens(text: str) -> list[str | int]:
    """Split ``text`` into ints, operator signs and parentheses (bounded, ASCII digits only)."""
    if not isinstance(text, str):
        raise ParseError(f"expected an expression string, got {type(text).__name__}")
    if len(text) > MAX_CHARS:
        raise ParseError(f"expression longer than {MAX_CHARS} characters")
    out: list[str | int] = []
    nodes = 0
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if "0" <= ch <= "9":
            j = i
            while j < n and "0" <= text[j] <= "9":
                j += 1
            if j < n and (text[j] == "." or text[j].isalnum() or text[j] == "_"):
                if text[j] == ".":
                    raise ParseError("decimal numbers are not allowed; use integers")
                raise ParseError(f"malformed number at offset {i}: {text[i:j + 1]!r}")
            if j - i > MAX_DIGITS:
                raise ParseError(f"number longer than {MAX_DIGITS} digits")
            out.append(int(text[i:j]))
            nodes += 1
            i = j
        elif ch in _SIGNS:
            if ch == "*" and i + 1 < n and text[i + 1] == "*":
                raise ParseError("exponentiation (**) is not allowed")
            out.append(_ALIASES.get(ch, ch))
            nodes += 1
            i += 1
        elif ch in "(){}":
            out.append(ch)
            i += 1
        elif ch == "\\":
            j = i + 1
            while j < n and j - i <= 12 and ("a" <= text[j] <= "z" or "A" <= text[j] <= "Z"):
                j += 1
            name = text[i + 1:j]
            if not name:
                if j < n and text[j] in _SPACING:
                    i = j + 1
                    continue
                raise ParseError(f"unexpected character {ch!r} at offset {i}")
            if name not in _COMMANDS:
                raise ParseError(f"unsupported LaTeX command \\{name[:12]}")
            if _COMMANDS[name]:
                out.append(_COMMANDS[name])
                nodes += _COMMANDS[name] != _FRAC
            i = j
        elif ch.isspace():
            i += 1
        elif ch.isalpha() or ch == "_":
            j = i
            while j < n and j - i < 20 and (text[j].isalnum() or text[j] == "_"):
                j += 1
            raise ParseError(f"names are not allowed: {text[i:j]!r}")
        elif ch.isdigit() or ch.isnumeric():
            raise ParseError(f"only ASCII digits are allowed, found {ch!r}")
        elif ch == ".":
            raise ParseError("decimal numbers are not allowed; use integers")
        else:
            raise ParseError(f"unexpected character {ch!r} at offset {i}")
        if nodes > MAX_NODES:
            raise ParseError(f"expression has more than {MAX_NODES} numbers and operators")
    return out


# ------------------------------------------------------------------ parser
class _Parser:
    """Recursive descent over a token list; nesting is bounded by ``MAX_DEPTH``."""

    def __init__(self, tokens: list[str | int]) -> None:
        self.tokens = tokens
        self.pos = 0
        self.depth = 0

    def peek(self) -> str | int | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def expr(self) -> Node:
        node = self.term()
        while self.peek() in ("+", "-"):
            op = self.tokens[self.pos]
            self.pos += 1
            node = BinOp(str(op), node, self.term())
        return node

    def term(self) -> Node:
        node, _ = self.factor()
        while True:
            tok = self.peek()
            if tok in ("*", "/"):
                self.pos += 1
                right, _ = self.factor()
                node = BinOp(str(tok), node, right)
            elif tok in ("(", "{", _FRAC):  # implicit multiplication: (a)(b), 8(a)
                right, _ = self.factor()
                node = BinOp("*", node, right)
            else:
                return node

    def group(self, close: str) -> Node:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ParseError(f"parentheses nested deeper than {MAX_DEPTH} levels")
        self.pos += 1
        node = self.expr()
        if self.peek() != close:
            raise ParseError(f"missing {close!r}")
        self.pos += 1
        self.depth -= 1
        return node

    def factor(self) -> tuple[Node, bool]:
        """The next factor, and whether it is a group (parenthesised, braced or a fraction)."""
        tok = self.peek()
        if tok is None:
            raise ParseError("expression ends too early")
        if isinstance(tok, int):
            self.pos += 1
            return Num(tok), False
        if tok in _OPENERS:
            return self.group(_OPENERS[tok]), True
        if tok == _FRAC:
            self.pos += 1
            if self.peek() != "{":
                raise ParseError("\\frac needs {numerator}{denominator}")
            top = self.group("}")
            if self.peek() != "{":
                raise ParseError("\\frac needs {numerator}{denominator}")
            return BinOp("/", top, self.group("}")), True
        if tok in ("-", "+"):
            raise ParseError(f"unary {'minus' if tok == '-' else 'plus'} is not allowed")
        raise ParseError(f"unexpected {tok!r}")


def parse(text: str) -> Node:
    """The AST of an arithmetic expression. Raises :class:`ParseError` on anything else."""
    tokens = _tokens(text)
    if not tokens:
        raise ParseError("empty expression")
    # Cheap pre-check so deep nesting fails before any recursion.
    stack: list[str] = []
    for tok in tokens:
        if tok in _OPENERS:
            stack.append(_OPENERS[tok])
            if len(stack) > MAX_DEPTH:
                raise ParseError(f"parentheses nested deeper than {MAX_DEPTH} levels")
        elif tok in (")", "}"):
            if not stack or stack.pop() != tok:
                raise ParseError(f"unbalanced {tok!r}")
    if stack:
        raise ParseError(f"missing {stack[-1]!r}")
    parser = _Parser(tokens)
    node = parser.expr()
    if parser.pos != len(tokens):
        raise ParseError(f"unexpected {tokens[parser.pos]!r} after the expression")
    return node


# ------------------------------------------------------------------ operations on nodes
def evaluate(node: Node) -> Fraction:
    """The exact value of ``node``. Raises :class:`DivisionByZero`."""
    if isinstance(node, Num):
        return Fraction(node.value)
    left = evaluate(node.left)
    right = evaluate(node.right)
    op = node.op
    if op == "+":
        return left + right
    if op == "-":
        return left - right
    if op == "*":
        return left * right
    if op == "/":
        if right == 0:
            raise DivisionByZero(node)
        return left / right
    raise ValueError(f"unknown operator {op!r}")


def to_text(node: Node) -> str:
    """The official text: numbers bare, every operation as ``(a op b)``."""
    if isinstance(node, Num):
        return str(node.value)
    return f"({to_text(node.left)} {node.op} {to_text(node.right)})"


def leaves(node: Node) -> Counter[int]:
    """The multiset of numbers used by ``node``."""
    out: Counter[int] = Counter()
    stack: list[Node] = [node]
    while stack:
        cur = stack.pop()
        if isinstance(cur, Num):
            out[cur.value] += 1
        else:
            stack.append(cur.right)
            stack.append(cur.left)
    return out


def count_ops(node: Node) -> int:
    """The number of binary operations in ``node``."""
    count = 0
    stack: list[Node] = [node]
    while stack:
        cur = stack.pop()
        if isinstance(cur, BinOp):
            count += 1
            stack.append(cur.left)
            stack.append(cur.right)
    return count


def canonical(node: Node) -> Node:
    """``node`` with the operands of ``+`` and ``*`` put in a fixed order, at every level.

    Two expressions that differ only by swapping operands of commutative operations have the
    same canonical form (associativity is *not* applied: ``((1 + 2) + 3)`` stays distinct from
    ``(1 + (2 + 3))``, since they record different moves).
    """
    if isinstance(node, Num):
        return node
    left, right = canonical(node.left), canonical(node.right)
    if node.op in ("+", "*") and _order_key(right) < _order_key(left):
        left, right = right, left
    return BinOp(node.op, left, right)


def _order_key(node: Node) -> tuple[int, int | str]:
    return (0, node.value) if isinstance(node, Num) else (1, to_text(node))


__all__ = [
    "BinOp", "DivisionByZero", "MAX_CHARS", "MAX_DEPTH", "MAX_DIGITS", "MAX_NODES", "Node", "Num",
    "OPERATORS", "canonical", "count_ops", "evaluate", "leaves", "parse", "to_text",
]
