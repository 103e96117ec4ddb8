"""Why a response reads as it does: the candidate statements, the committed one and the signal or rule
that voided or replaced the others, with character offsets in the response.

Everything here is derived from the reader's own :class:`~finereason.reading.Reading` (its
``statements``, ``statement`` and ``reason``): nothing is read twice and no rule is restated. The
offsets are those of the whole response (the final region's offset added, normalisation undone by
:func:`~finereason.reading.original_span`).
"""
from __future__ import annotations

import re
from typing import Any

from ..common.vocabulary import END_TO_END, STATE_CHECKING
from ..core.engine import Engine, get_engine
from ..reading import UNFINISHED, Reading, Statement, original_span
from ..reading.choice import choice_reading
from ..reading.context import ReadContext

_WITHDRAWN = re.compile(r"withdrawn after it is given \((['\"])(.{0,200}?)\1\)\Z", re.S)

COMMITTED = "committed"
VOIDED = "voided"          # the candidate, not committed: the reading's reason says why
RESTATED = "restated"      # an earlier statement of the committed answer
REPLACED = "replaced"      # an earlier different answer that a later one replaced
REJECTION = "rejection"    # a statement that only rules an answer out
CONDITIONAL = "conditional"  # stated under a condition, or prompt text: never commits


def _span(text: str, region: str, start: int, end: int) -> tuple[int, int]:
    """``start``/``end`` of the final ``region`` as offsets in the whole response ``text``."""
    offset = len(text) - len(region)
    start, end = max(0, min(start, len(region))), max(0, min(end, len(region)))
    try:
        lo, hi = original_span(region, start, end)
    except (IndexError, ValueError):
        lo, hi = start, end
    return offset + lo, offset + hi


def withdrawing_signal(reading: Reading) -> str | None:
    """The words of the signal that withdrew the candidate (as the reader quotes them), or ``None``."""
    found = _WITHDRAWN.search(reading.reason or "")
    return found.group(2) if found else None


def _role(s: Statement, reading: Reading) -> str:
    committed = reading.statement
    if s.rejects is not None:
        return REJECTION
    if s.conditional:
        return CONDITIONAL
    if committed is not None and (s is committed or s == committed):
        return COMMITTED if reading.value is not None else VOIDED
    if committed is not None and s.key == committed.key and s.end <= committed.start:
        return RESTATED
    return REPLACED


def explain_reading(text: str, region: str | None, reading: Reading) -> dict[str, Any]:
    """The explanation of ``reading`` (read from ``region``, the final region of ``text``):
    ``{"committed": span or None, "reason": why nothing commits ("" when it does), "signal": the withdrawing
    words or None, "candidates": [{"start", "end", "text", "role", "hedged"}...]}``; spans are
    ``{"start", "end", "text"}`` in ``text``."""
    def span(s: Statement) -> dict[str, Any]:
        lo, hi = _span(text, region or "", s.start, s.end)
        return {"start": lo, "end": hi, "text": text[lo:hi]}

    candidates = []
    for s in reading.statements if region is not None else ():
        item = span(s)
        item.update(role=_role(s, reading), hedged=s.hedged or "")
        candidates.append(item)
    signal = withdrawing_signal(reading)
    signal_span = None
    if signal is not None and reading.statement is not None and region is not None:
        at = region.lower().find(signal.lower(), reading.statement.end)
        if at >= 0:
            lo, hi = _span(text, region, at, at + len(signal))
            signal_span = {"start": lo, "end": hi, "text": text[lo:hi]}
    committed = span(reading.statement) if reading.statement is not None and reading.value is not None and region is not None else None
    return {"committed": committed, "reason": reading.reason, "signal": signal_span or (signal and {"text": signal}),
            "candidates": candidates}


def explain_response(engine: Engine | str, response: str, *, task: str = END_TO_END,
                     context: ReadContext | None = None) -> dict[str, Any]:
    """:func:`explain_reading` of the answer the reader of ``task`` commits to in ``response``: the
    (A)/(B) reader for state checking, ``engine``'s answer reader otherwise (the readers the verdicts use)."""
    eng = get_engine(engine)
    context = context or ReadContext()
    text = response if isinstance(response, str) else ""
    region = context.region(text)
    if region is None:
        return explain_reading(text, None, Reading(None, UNFINISHED))
    if task == STATE_CHECKING:
        return explain_reading(text, region, choice_reading(text, starts_in_think=context.starts_in_think))
    return explain_reading(text, region, eng.read_answer(region, task))


__all__ = ["COMMITTED", "CONDITIONAL", "REJECTION", "REPLACED", "RESTATED", "VOIDED", "explain_reading",
           "explain_response", "withdrawing_signal"]
