"""The list answer of a task (:func:`task_reading`): the commitment rule of :func:`~.lists.task_list_reading`,
with a shortcut for the commonest withdrawn answer.

A response that states one marked list and then withdraws it ("Answer: [[...]]\\nWait, that is wrong. I take
that answer back.") gets from the full rule the reading "the solution is withdrawn after it is given
('wait')". The shortcut builds exactly that reading when the text is that plain: the only answer marker
before the list's end (each marker word there once, no "correct"), a complete list with content and no
``[`` after it (so no other list statement, rejection or bare list), nothing that hedges, conditions or
rejects the list (the same looks as the scanner's), no negation, prompt echo, condition or reference
around it (the same looks as the rule's candidate step), and a withdrawal signal after it before the
answer's scope ends (the rule's first step). Any other shape, or any doubt, goes to the full rule; so
the reading is the full rule's own (``tests/reading/test_lone.py`` holds the two equal).
"""
from __future__ import annotations

import re

from . import meaning, scope
from .commit import Reading, Statement, _quote
from .hedges import conditional, hedged, hedged_after, introduced_by_hedge, offered_after_another, sentence_before
from .lists import _REJECTED, Marks, _has_content, _key, _lowered, _mark_table, lone_list, task_list_reading
from .region import blank_tags
from .withdrawals import Signals, signal_words


def task_reading(region: str, transition: bool) -> Reading:
    """The committed list answer of a task's final ``region`` (``transition``: the ``Next state:`` list,
    else the solution list): :func:`~.lists.task_list_reading`, with the withdrawn-answer shortcut."""
    return task_list_reading(region, transition, _withdrawn)


def _withdrawn(region: str, marks: Marks, bare: bool, what: str) -> Reading | None:
    """:func:`withdrawn_reading` when some withdrawal word follows the last list (asked by the list reader
    only after its plain-answer look declined)."""
    rest = region[region.rfind("]") + 1:] if "]" in region else ""
    if rest and not rest.isspace() and region.isascii() and signal_words(rest.lower(), 0, len(rest)):
        return withdrawn_reading(region, marks, bare, what)
    return None


def _markers(low: str, marks: Marks) -> list[tuple[int, str, "re.Pattern[str] | None"]]:
    """``(first offset, word, pattern)`` of every marker word of ``marks`` that occurs in ``low``, first first."""
    found = []
    for word, pattern in _mark_table(marks)[1] if low.isascii() else marks:  # ASCII text holds no other marker
        at = low.find(word)
        if at >= 0:
            found.append((at, word, pattern))
    found.sort(key=lambda f: f[0])
    return found


def _lone_marker(low: str, found: list) -> tuple[int, int] | None:
    """``(start, end)`` of the first answer marker of ``low`` (confirmed by its pattern; ``found`` from
    :func:`_markers`), or ``None`` when there is none or the first word there is not confirmed."""
    if not found:
        return None
    at, word, pattern = found[0]
    if pattern is None:
        return at, at + len(word)
    m = pattern.match(low, at)
    return None if m is None else (at, m.end())


def _other_marker_before(low: str, found: list, stop: int) -> bool:
    """Whether a marker word occurs before ``stop`` other than once, at the first marker."""
    at, word, _ = found[0]
    return any(first < stop for first, _, _ in found[1:]) or 0 <= low.find(word, at + 1) < stop


def withdrawn_reading(region: str, marks: Marks, bare: bool, what: str) -> Reading | None:
    """The full rule's reading of a lone marked list withdrawn after it (module docstring), or ``None``
    when the text is not that plain."""
    text = blank_tags(region)
    low = _lowered(text)
    if "correct" in low or "\\boxed" in text:
        return None
    found = _markers(low, marks)
    span = lone_list(text, _lone_marker(low, found))
    if span is None:
        return None
    at, begin, stop = span
    if _other_marker_before(low, found, stop):
        return None
    payload = text[begin:stop]
    if not _has_content(payload):
        return None
    before = sentence_before(text, at)
    if (_REJECTED.match(text, stop, min(len(text), stop + 60)) or offered_after_another(text, begin)
            or hedged(text, at, before) or conditional(text, at, stop, before) or hedged_after(text, stop)
            or introduced_by_hedge(text, at)):
        return None
    limit = scope.answer_end(low, at)
    if limit <= stop or meaning.negated(low, at, stop) or scope.echoed_options(low, at, stop) or (
            scope.echoed_instruction(low, at) or meaning.conditioned(low, at)):
        return None
    if meaning.reference(low, stop, limit) is not None:
        return None
    signal = Signals(low, bare).first_in(stop, limit)
    if signal is None:
        return None
    statement = Statement(at, stop, value=payload, key=_key(payload), marked=True)
    return Reading(None, f"the {what} is withdrawn after it is given ({_quote(signal)})", statement, 0, (statement,))


__all__ = ["task_reading", "withdrawn_reading"]
