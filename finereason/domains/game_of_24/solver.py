"""The exact Game of 24 oracle: can some numbers make a target with + - * / (exact rationals, memoised),
one solution expression, and every solvable multiset in a range."""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from math import gcd
from typing import Iterable, Iterator

from .arith import BinOp, Node, Num, to_text

_ORACLE_CACHE = 1 << 19


# Values are reduced integer pairs (numerator, denominator > 0): exact like Fraction, but an
# order of magnitude faster, since only the memo keys need reducing.
Rational = tuple[int, int]


def _ratio(num: int, den: int) -> Rational:
    if den < 0:
        num, den = -num, -den
    g = gcd(num, den)
    return (num // g, den // g) if g > 1 else (num, den)


def _results(a: Rational, b: Rational) -> set[Rational]:
    """Every value one operation can make from ``a`` and ``b``."""
    (an, ad), (bn, bd) = a, b
    cross, den = an * bd, ad * bd
    out = {_ratio(cross + bn * ad, den), _ratio(cross - bn * ad, den), _ratio(bn * ad - cross, den),
           _ratio(an * bn, den)}
    if bn:
        out.add(_ratio(cross, ad * bn))
    if an:
        out.add(_ratio(bn * ad, bd * an))
    return out


def _pair_makes(a: Rational, b: Rational, target: Rational) -> bool:
    """Whether one operation on ``a`` and ``b`` gives ``target`` (compared by cross-multiplying)."""
    (an, ad), (bn, bd), (tn, td) = a, b, target
    goal = tn * ad * bd  # target times the common denominator, over td
    return (
        (an * bd + bn * ad) * td == goal or (an * bd - bn * ad) * td == goal
        or (bn * ad - an * bd) * td == goal or an * bn * td == goal
        or (bn != 0 and an * bd * td == tn * ad * bn) or (an != 0 and bn * ad * td == tn * bd * an)
    )


@lru_cache(maxsize=_ORACLE_CACHE)
def _can_make(values: tuple[Rational, ...], target: Rational) -> bool:
    """Whether the sorted ``values`` can be combined into ``target`` (memoised)."""
    n = len(values)
    if n <= 2:
        return n == 2 and _pair_makes(values[0], values[1], target) or n == 1 and values[0] == target
    for i in range(n):
        if i and values[i] == values[i - 1]:
            continue  # same pair values as the previous i
        for j in range(i + 1, n):
            if j > i + 1 and values[j] == values[j - 1]:
                continue
            rest = values[:i] + values[i + 1:j] + values[j + 1:]
            for r in _results(values[i], values[j]):
                if n == 3:
                    if _pair_makes(rest[0], r, target):
                        return True
                elif _can_make(tuple(sorted(rest + (r,))), target):
                    return True
    return False


def _key(values: Iterable[Fraction | int]) -> tuple[Rational, ...]:
    return tuple(sorted((Fraction(v).numerator, Fraction(v).denominator) for v in values))


def can_make(values: Iterable[Fraction | int], target: int = 24) -> bool:
    """Whether ``values`` can be combined with + - * / (each used once) into ``target``."""
    return _can_make(_key(values), (target, 1))


def _combinations(a: Node, b: Node, va: Fraction, vb: Fraction) -> Iterator[tuple[Node, Fraction]]:
    """The expressions (with values) of one move on ``a`` (earlier) and ``b`` (later)."""
    yield BinOp("+", a, b), va + vb
    yield BinOp("-", a, b), va - vb
    yield BinOp("-", b, a), vb - va
    yield BinOp("*", a, b), va * vb
    if vb:
        yield BinOp("/", a, b), va / vb
    if va:
        yield BinOp("/", b, a), vb / va


def _solve_items(items: list[tuple[Node, Fraction]], target: int) -> Node | None:
    if not can_make((v for _, v in items), target):
        return None
    if len(items) == 1:
        return items[0][0]
    for i in range(len(items)):
        for j in range(i + 1, len(items)):
            rest = items[:i] + items[i + 1:j] + items[j + 1:]
            (a, va), (b, vb) = items[i], items[j]
            for node, value in _combinations(a, b, va, vb):
                found = _solve_items([(node, value)] + rest, target)
                if found is not None:
                    return found
    return None  # unreachable when the oracle is right


def solve(numbers: Iterable[int], target: int = 24) -> str | None:
    """One solution expression (official text) for ``numbers``, or ``None``."""
    items = [(Num(n), Fraction(n)) for n in numbers]
    node = _solve_items(items, target)
    return None if node is None else to_text(node)


def solvable_multisets(lo: int = 1, hi: int = 13, size: int = 4, target: int = 24) -> list[tuple[int, ...]]:
    """All sorted multisets of ``size`` numbers from ``lo..hi`` that can make ``target``."""
    return [c for c in combinations_with_replacement(range(lo, hi + 1), size) if can_make(c, target)]


__all__ = ["can_make", "solvable_multisets", "solve"]
