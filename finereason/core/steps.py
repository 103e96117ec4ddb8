"""Readers of written steps that the domains share: bracketed state literals, single written moves,
and applying them in the order written (used by each domain's ``read_steps``).
"""
from __future__ import annotations

import re
from typing import Any, Callable, Iterable, Iterator

from ..common.verdict import ParseError, StateError
from ..reading import list_end
from .engine import BrokenStep, Engine
from .literals import parse_literal

MAX_STEPS = 400               # steps read per answer (the rest are not verified; see ``truncated``)
MAX_LISTS = 2_000             # bracketed lists examined per answer


def bracketed_lists(text: str, limit: int = MAX_LISTS) -> Iterator[tuple[int, Any]]:
    """``(offset, value)`` of each outermost ``[...]`` literal in ``text`` that parses (bounded reader)."""
    pos, seen = 0, 0
    while seen < limit:
        begin = text.find("[", pos)
        if begin < 0:
            return
        seen += 1
        try:
            end = list_end(text, begin)
        except ParseError:
            end = -1
        if end < 0:
            pos = begin + 1
            continue
        try:
            yield begin, parse_literal(text[begin:end])
            pos = end
        except (ParseError, RecursionError, ValueError):
            pos = begin + 1


def literal_states(eng: Engine, puzzle: Any, text: str) -> Iterator[tuple[int, Any]]:
    """``(offset, state)`` of every bracketed literal in ``text`` that is a state of ``puzzle``."""
    for at, value in bracketed_lists(text):
        try:
            yield at, eng.parse_state(puzzle, value)
        except (StateError, ValueError, TypeError, RecursionError):
            continue


# A number followed by more candidates ("5, 7", "2 or 3") is a list of options, not a written move.
NOT_A_LIST = r"(?![0-9])(?!\s*(?:,|/|or\b|and\b)\s*[0-9])"


def written_steps(eng: Engine, puzzle: Any, text: str, pattern: re.Pattern,
                  move_of: Callable[[re.Match], Any]) -> list[Any]:
    """The steps of ``text``: whole states written as literals and single moves matched by ``pattern``
    (``move_of(match)`` turns one into an event for :func:`apply_in_order`), in the order written."""
    events: list[tuple[int, Any]] = list(literal_states(eng, puzzle, text))
    for m in pattern.finditer(text):
        if len(events) > 4 * MAX_STEPS:
            break
        events.append((m.start(), move_of(m)))
    return apply_in_order(eng.initial(puzzle), events)


def apply_in_order(start: Any, events: Iterable[tuple[int, Any]], limit: int = MAX_STEPS + 1) -> list[Any]:
    """Successive states from ``(offset, event)`` pairs sorted by offset: an event is a whole state, a
    :class:`BrokenStep`, or a callable ``state -> state | BrokenStep`` (one written move applied to the
    state before it). A broken step leaves the state as it was: the steps written after it are still
    listed (so that their number is known; process scoring verifies nothing after the first broken
    step). Reading stops after ``limit`` states."""
    out: list[Any] = []
    state = start
    for _, event in sorted(events, key=lambda e: e[0]):
        if len(out) >= limit:
            break
        new = event(state) if callable(event) else event
        out.append(new)
        if not isinstance(new, BrokenStep):
            state = new
    return out


__all__ = ["MAX_LISTS", "MAX_STEPS", "NOT_A_LIST", "apply_in_order", "bracketed_lists", "literal_states", "written_steps"]
