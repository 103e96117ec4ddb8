"""The answer reader: where a model's final answer is, and whether it commits.

One rule for every answer kind, stated once (:mod:`finereason.reading.commit`): *the answer is the
final commitment*. The final region (after the reasoning, :mod:`~finereason.reading.region`) is read
to its end; the last answer statement is the candidate and commits only if nothing after it
withdraws it (:mod:`~finereason.reading.withdrawals`). Each answer kind plugs in a scanner that
lists its answer statements: options (:mod:`~finereason.reading.choice`), state lists
(:mod:`~finereason.reading.lists`), FOLIO truth values (:mod:`~finereason.reading.truth_values`), self-verdicts
(:mod:`~finereason.reading.verdicts`), math ``\\boxed{}`` answers (:mod:`~finereason.reading.boxed`), an
ASP actor's program and query blocks (:mod:`~finereason.reading.blocks`); domains add theirs (Game-of-24
expressions, plans). Hedges come from one table (:mod:`~finereason.reading.hedges`). What changes a
reading besides the text (``starts_in_think``) is one :class:`~finereason.reading.context.ReadContext`.

This package sits below the engines and imports no registry.
"""
from __future__ import annotations

from .choice import Choice, choice_reading, read_choice
from .commit import Reading, Statement, commit
from .context import ReadContext, read_context_of, resolve_context
from .lists import NEXT_STATE_MARKS, SOLUTION_MARKS, list_end, list_reading, next_state_payload, solution_payload
from .normalise import Normalised, normalise, normalised, original_span
from .region import THINK_CLOSE, THINK_OPEN, UNFINISHED, Unfinished, answer_region, blank_tags, final_region
from .withdrawals import Signals, find_signals

__all__ = ["NEXT_STATE_MARKS", "SOLUTION_MARKS", "THINK_CLOSE", "THINK_OPEN", "UNFINISHED", "Choice", "Normalised",
           "ReadContext", "Reading", "Signals", "Statement", "Unfinished", "answer_region", "blank_tags", "choice_reading",
           "commit", "final_region", "find_signals", "list_end", "list_reading", "next_state_payload", "normalise",
           "normalised", "original_span", "read_choice", "read_context_of", "resolve_context", "solution_payload"]
