"""The tables of answer markers (:func:`mark_table`) and their gates: marker words grouped under a shared
part ("estado" for "estado siguiente", "siguiente estado" and "estado seguinte"), so that one C-speed search
for the part rules out a whole group when the text lacks it (most texts hold no marker of another language)."""
from __future__ import annotations

import re

Marks = tuple[tuple[str, "re.Pattern[str] | None"], ...]
CORRECTION_MARKS: Marks = (("correct", re.compile(r"correct(?:ed|ion)")),)
_MIN_PART = 4  # a shared part shorter than this is too common to rule anything out


def gated(marks: Marks) -> tuple[tuple[str, Marks], ...]:
    """``marks`` as ``(gate, group)`` pairs, every marker in exactly one group (groups in no set order: the
    looks that use them do not depend on it; within a group, the order of ``marks``): each
    marker word of a group contains its ``gate`` (so a text without the gate holds no word of the
    group); a marker that shares no part of :data:`_MIN_PART` letters or more with another is its own
    gate. Gates are first words of markers (a marker's name, "respuesta", not a common word such as
    "final"). The pairs hold the same markers as ``marks``; only the grouping is new."""
    left = list(marks)
    out: list[tuple[str, Marks]] = []
    while left:
        best, covered = "", [left[0]]
        for part in sorted({re.split(r"[\s_-]+", word)[0] for word, _ in left} - {""}):  # first words: names
            group = [mark for mark in left if part in mark[0]]
            if len(part) >= _MIN_PART and len(group) > len(covered):
                best, covered = part, group
        if not best:  # no part shared: the first marker stands alone, its own word the gate
            best = left[0][0]
        out.append((best, tuple(covered)))
        left = [mark for mark in left if mark not in covered]
    return tuple(out)


_MARK_TABLES: dict[int, tuple] = {}  # id -> (marks, ASCII ones, with corrections, ASCII ones gated)


def mark_table(marks: Marks) -> tuple[Marks, Marks, Marks, tuple[tuple[str, Marks], ...]]:
    """``(marks, its ASCII markers, it + CORRECTION_MARKS, its ASCII markers gated)``, built once per tuple of
    markers (found by identity: hashing a tuple of markers and patterns on every call costs more than the look)."""
    table = _MARK_TABLES.get(id(marks))
    if table is None or table[0] is not marks:
        table = (marks, (plain := tuple(mark for mark in marks if mark[0].isascii())), marks + CORRECTION_MARKS, gated(plain))
        if len(_MARK_TABLES) < 64:  # the table keeps ``marks`` alive, so its id is not reused
            _MARK_TABLES[id(marks)] = table
    return table


__all__ = ["CORRECTION_MARKS", "Marks", "gated", "mark_table"]
