"""Reading a Game-of-24 solution process from model text: step lines and successive number lists.

- *step line*: ``a op b = c`` with ``a``, ``b`` numbers (integers or decimals) still available, e.g.
  ``4 * 6 = 24``, ``24 / 3 = 8``, ``8 ÷ 3 = 2.67``. The operands are matched by value to the expressions
  still to be combined; the new expression ``(x op y)`` goes first, as in the official states. A written
  result ``c`` is checked: a decimal counts when it is the true value rounded to its decimals, a
  fraction ``p/q`` must be exact. Lines with more than one operation (the final expression) are no step.
- *number list*: ``[24, 8, 8]``, the values still to be combined; it must be one operation away from the
  state before it. Lists of expression strings are read as official states.

Anything that cannot be a move (an operand that is not available, a false result, a division by zero) is
a :class:`~finereason.core.engine.BrokenStep` naming it.
"""
from __future__ import annotations

import re
from fractions import Fraction
from typing import Any, Callable, Iterator

from ...core.engine import BrokenStep
from .arith import BinOp, DivisionByZero, Node, Num, evaluate
from .engine import format_value, node_values

_NUMBER = r"[0-9]{1,9}(?:\.[0-9]{1,9})?"
_STEP = re.compile(
    r"(?P<a>" + _NUMBER + r")(?P<op>\s*[-+*/×÷−–]\s*|\s+[xX]\s+)(?P<b>" + _NUMBER + r")\s*=\s*"
    r"(?P<c>-?\s*[0-9]{1,12}(?:\.[0-9]{1,12})?(?:\s*/\s*[0-9]{1,12})?)"
)
_OPS = {"×": "*", "x": "*", "X": "*", "÷": "/", "−": "-", "–": "-"}
_BEFORE_OPERAND = frozenset("0123456789)+-*/×÷−–=^(")   # a step starts a calculation, not continues one
_AFTER_RESULT = frozenset("0123456789+*/×÷(^")          # and its result is not followed by more of it


def _exact(text: str) -> Fraction:
    text = re.sub(r"\s+", "", text)
    if "/" in text:
        num, den = text.split("/")
        return Fraction(int(num), int(den)) if int(den) else Fraction(10 ** 13)  # p/0 never matches
    return Fraction(text)


def _decimals(text: str) -> int:
    text = text.strip()
    return len(text.split(".", 1)[1]) if "." in text and "/" not in text else -1


def _matches(value: Fraction, written: Fraction, decimals: int) -> bool:
    """Whether ``written`` (with ``decimals`` decimals, -1 when exact) names ``value``."""
    if decimals < 0:
        return value == written
    return abs(value - written) <= Fraction(1, 2 * 10 ** decimals) + Fraction(1, 10 ** (decimals + 6))


def _listing(values: list[Fraction | None]) -> str:
    return ", ".join("?" if v is None else format_value(v) for v in values)


def _stepper(a: str, op: str, b: str, c: str) -> Callable[[tuple[Node, ...]], Any]:
    """The written step ``a op b = c`` as a move on the state before it."""
    op = _OPS.get(op.strip(), op.strip())

    def apply(state: tuple[Node, ...]) -> Any:
        values = node_values(state)
        chosen: list[int] = []
        for written in (a, b):
            want, dec = _exact(written), _decimals(written)
            k = next((i for i, v in enumerate(values) if i not in chosen and v is not None and _matches(v, want, dec)), None)
            if k is None:
                return BrokenStep((f"{a} {op} {b}: {written} is not among the numbers still to combine ({_listing(values)})",))
            chosen.append(k)
        node = BinOp(op, state[chosen[0]], state[chosen[1]])
        try:
            value = evaluate(node)
        except DivisionByZero:
            return BrokenStep((f"{a} {op} {b} divides by zero",))
        if not _matches(value, _exact(c), _decimals(c)):
            return BrokenStep((f"{a} {op} {b} = {format_value(value)}, not {re.sub(r'[ ]+', '', c)}",))
        return (node,) + tuple(n for i, n in enumerate(state) if i not in chosen)

    return apply


def _number_list(items: list[Any], children: Callable[[tuple[Node, ...]], Iterator[tuple[Node, ...]]]) -> Callable[[tuple[Node, ...]], Any]:
    """A written list of remaining values as a move: the state itself, or a child with those values."""
    written = sorted(Fraction(str(x)) for x in items)

    def apply(state: tuple[Node, ...]) -> Any:
        def same(values: list[Fraction | None]) -> bool:
            return None not in values and sorted(values) == written  # type: ignore[type-var]

        if same(node_values(state)):
            return state
        if len(written) == len(state) - 1:
            for child in children(state):
                if same(node_values(child)):
                    return child
        shown = ", ".join(format_value(v) for v in written)
        return BrokenStep((f"[{shown}] cannot be reached from [{_listing(node_values(state))}] with one operation",))

    return apply


def step_events(text: str, children: Callable[[tuple[Node, ...]], Iterator[tuple[Node, ...]]],
                lists: Iterator[tuple[int, Any]], limit: int) -> list[tuple[int, Any]]:
    """``(offset, move)`` of every step line and number list in ``text`` (at most ``limit``)."""
    events: list[tuple[int, Any]] = []
    for at, value in lists:
        if len(events) >= limit:
            return events
        if isinstance(value, list) and value and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in value):
            events.append((at, _number_list(value, children)))
    for m in _STEP.finditer(text):
        if len(events) >= limit:
            break
        before = text[max(0, m.start() - 64):m.start()].rstrip(" \t")[-1:]   # on the same line
        after = text[m.end():m.end() + 64].lstrip(" \t")[:1]
        if before in _BEFORE_OPERAND and before or after in _AFTER_RESULT and after:
            continue
        events.append((m.start(), _stepper(m["a"], m["op"], m["b"], m["c"])))
    return events


def _operations(node: Node) -> list[BinOp]:
    return [] if not isinstance(node, BinOp) else [node, *_operations(node.left), *_operations(node.right)]


def _replace(node: Node, target: BinOp, new: Node) -> Node:
    if node is target:
        return new
    if isinstance(node, BinOp):
        return BinOp(node.op, _replace(node.left, target, new), _replace(node.right, target, new))
    return node


def mutate_expression(numbers: tuple[int, ...], solution: tuple[Node, ...], rng: Any, kind: str) -> tuple[Node, ...] | None:
    """A wrong candidate from a one-expression solution (see ``Game24Domain.mutate_solution``)."""
    if kind == "random":
        nodes: list[Node] = [Num(n) for n in numbers]
        rng.shuffle(nodes)
        while len(nodes) > 1:
            right, left = nodes.pop(), nodes.pop()
            nodes.append(BinOp(rng.choice("+-*/"), left, right))
        return (nodes[0],)
    if len(solution) != 1:
        return None
    ops = _operations(solution[0])
    if not ops:
        return None
    target = rng.choice(ops)
    if kind == "broken":
        new: Node = BinOp(rng.choice([o for o in "+-*/" if o != target.op]), target.left, target.right)
    elif kind == "ablated":
        new = target.left if rng.random() < 0.5 else target.right
    else:
        return None
    return (_replace(solution[0], target, new),)


__all__ = ["mutate_expression", "step_events"]
