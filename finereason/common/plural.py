"""Counts that agree in number with their noun: ``1 response``, ``2 responses``."""
from __future__ import annotations


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun`` in the number ``n`` asks for (``plural`` defaults to ``noun + "s"``)."""
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {plural or noun + 's'}"


__all__ = ["count"]
