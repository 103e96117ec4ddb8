"""Proportions with their 95 % intervals, and means of them (report plots and the leaderboard).

A share of ``n`` rows gets the Wilson score interval. A mean over tasks is defined only when every
part is; its interval combines the parts' half-widths in quadrature (independent tasks, equal
weights), and its n is the parts' total.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) of a proportion ``k / n``; ``(0, 1)`` when ``n`` is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


MISSING = "—"


@dataclass(frozen=True)
class Cell:
    """A value in [0, 1] with its n and 95 % interval (``lo``/``hi``; ``None`` when unknown)."""

    value: float | None
    n: int | None = None
    lo: float | None = None
    hi: float | None = None

    @property
    def defined(self) -> bool:
        return self.value is not None

    def pct(self) -> str:
        return MISSING if self.value is None else f"{100 * self.value:.1f}"

    def half(self) -> float | None:
        if self.value is None or self.lo is None or self.hi is None:
            return None
        return max(self.hi - self.value, self.value - self.lo)

    def text(self) -> str:
        """``41.7 ± 4.3`` (percentage points), ``—`` when undefined."""
        half = self.half()
        return self.pct() if half is None else f"{self.pct()} ± {100 * half:.1f}"

    def tip(self) -> str:
        if self.value is None:
            return "undefined (no data, or an empty denominator)"
        n = f"n = {self.n}" if self.n is not None else "n unknown"
        if self.lo is None or self.hi is None:
            return f"{self.pct()} %, {n}, no interval (class counts unknown: submit with logged samples)"
        return f"{self.pct()} %, 95 % CI {100 * self.lo:.1f}–{100 * self.hi:.1f}, {n}"

    def as_json(self) -> dict:
        return {"value": self.value, "n": self.n, "lo": self.lo, "hi": self.hi}


UNDEFINED = Cell(None)


def proportion(value: float | None, n: int | None) -> Cell:
    """A share ``value`` of ``n`` rows with its Wilson interval (``n`` unknown: no interval)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return UNDEFINED
    if not n:
        return Cell(value, None if n is None else 0)
    lo, hi = wilson(value * n, n)
    return Cell(value, n, min(lo, value), max(hi, value))  # rounding never puts the value outside


def mean(cells: Sequence[Cell]) -> Cell:
    """The unweighted mean of ``cells``: undefined unless every part is defined."""
    if not cells or any(c.value is None for c in cells):
        return UNDEFINED
    k = len(cells)
    value = sum(c.value for c in cells) / k  # type: ignore[misc]
    ns = [c.n for c in cells]
    n = sum(ns) if all(x is not None for x in ns) else None  # type: ignore[misc]
    if any(c.lo is None or c.hi is None for c in cells):
        return Cell(value, n)
    down = math.sqrt(sum((c.value - c.lo) ** 2 for c in cells)) / k  # type: ignore[operator]
    up = math.sqrt(sum((c.hi - c.value) ** 2 for c in cells)) / k  # type: ignore[operator]
    return Cell(value, n, max(0.0, value - down), min(1.0, value + up))


def paired_difference(both: int, first_only: int, second_only: int, n: int,
                      z: float = 1.96) -> tuple[float, float, float] | None:
    """The difference of two proportions measured on the same ``n`` items (second minus first) and its
    95 % interval, ``(value, lo, hi)``: ``both`` items are credited by both measurements, ``first_only``
    and ``second_only`` by one. Newcombe's hybrid score interval for paired data (1998, method 10),
    built from the Wilson intervals of both proportions and their correlation; ``None`` when ``n`` is 0."""
    if n <= 0:
        return None
    a, b, c = both, first_only, second_only
    d = n - a - b - c
    p1, p2 = (a + b) / n, (a + c) / n
    l1, u1 = wilson(a + b, n, z)
    l2, u2 = wilson(a + c, n, z)
    product = (a + b) * (c + d) * (a + c) * (b + d)
    phi = (a * d - b * c) / math.sqrt(product) if product > 0 else 0.0
    diff = p2 - p1
    down = math.sqrt(max((p2 - l2) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1) + (u1 - p1) ** 2, 0.0))
    up = math.sqrt(max((u2 - p2) ** 2 - 2 * phi * (u2 - p2) * (p1 - l1) + (p1 - l1) ** 2, 0.0))
    return diff, max(-1.0, diff - down), min(1.0, diff + up)
