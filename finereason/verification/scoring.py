"""Scoring dataset rows: the per-row verdicts and the metric aggregation behind lm-eval tasks,
metric modules, ``finereason score --data`` and reports.

A row is a dataset row (``puzzle``, ``task``, ``label``, ``inputs``/``outputs`` JSON strings in the
official schema). The truth of a state is the oracle's (:func:`finereason.data.state_labels.state_truth`):
a row's stored ``label`` is used only when the caller says it has verified it (``verified_label=True``).
:func:`score_row` returns one :class:`RowScore`; :func:`aggregate` turns a list of them into the named
metrics declared in :mod:`finereason.verification.aggregation`. No verdict is computed anywhere else.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from ..common.verdict import Undecided, Verdict, label_solvable
from ..common.vocabulary import END_TO_END, STATE_CHECKING, STATE_TRANSITION
from ..core.engine import get_engine
from ..core.rows import row_domain, row_item, row_puzzle
from ..data.state_labels import state_truth
from ..reading.completion import completion_text
from ..reading.context import ReadContext, resolve_context
from .aggregation import summarize_rows
from .verifiers import verify_end_to_end, verify_state_checking, verify_state_transition_modes


@dataclass(frozen=True)
class RowScore:
    """The verdicts of one answer: strict (headline) and, for state transition, paper mode."""

    task: str
    verdict: Verdict
    paper: Verdict | None
    solvable: bool | None

    @property
    def correct(self) -> bool:
        """Whether the (strict) verdict is correct (the registry's per-row ``acc``)."""
        return self.verdict.correct

    def as_tuple(self) -> tuple:
        """A compact, JSON-friendly form (lm-eval passes it to the aggregation functions)."""
        paper = None if self.paper is None else (self.paper.correct, self.paper.category)
        return (self.task, self.verdict.correct, self.verdict.category, self.verdict.prediction, self.solvable, paper)

    @classmethod
    def from_tuple(cls, value: Sequence[Any]) -> "RowScore":
        task, correct, category, prediction, solvable, paper = value
        return cls(task, Verdict(bool(correct), category, (), prediction), None if paper is None else Verdict(bool(paper[0]), paper[1]), solvable)


def score_row(row: dict, response: Any, *, context: ReadContext | None = None,
              starts_in_think: bool | None = None, verified_label: bool = False) -> RowScore:
    """Verify one model response to one row (never raises on the response).

    ``response``: the model's text, or a completion in any chat shape
    (:func:`~finereason.reading.completion.completion_text`). ``context``: the run's
    :class:`~finereason.reading.context.ReadContext`; with ``starts_in_think`` (the prompt already
    opened ``<think>``, R1-distill-style chat templates; also accepted as the keyword
    ``starts_in_think=``) a response without ``</think>`` is unfinished reasoning and a ``parse_error``.
    The state's truth is the oracle's; ``verified_label``: the caller has checked the row's ``label``
    against the oracle, so it stands in for the oracle.
    """
    context = resolve_context(context, starts_in_think)
    task = row["task"]
    engine = get_engine(row_domain(row))
    response = completion_text(response)
    if task == END_TO_END:
        return RowScore(task, verify_end_to_end(engine, row_puzzle(row), response, context=context), None, None)
    item = row_item(row)
    try:
        stored = label_solvable(row.get("label")) if verified_label else None
        solvable: bool | None = state_truth(engine, item.puzzle, item.current, stored, verified=verified_label)
    except Undecided:  # the verifier reports it as the ``undecided`` verdict
        solvable = None
    if task == STATE_CHECKING:
        return RowScore(task, verify_state_checking(engine, item, response, solvable=solvable, context=context), None, solvable)
    if task == STATE_TRANSITION:
        both = verify_state_transition_modes(engine, item, response, ("strict", "paper"), solvable=solvable,
                                             context=context)
        return RowScore(task, both["strict"], both["paper"], solvable)
    raise ValueError(f"unknown task {task!r}")


def aggregate(scores: Iterable[RowScore]) -> dict[str, float]:
    """All metrics of one task's scores (``acc``, ``acc_paper``, P/R/F1, rates, ...)."""
    scores = list(scores)
    if not scores:
        return {}
    task = scores[0].task
    return summarize_rows(task, scores, labels=task != END_TO_END, paper=task == STATE_TRANSITION)
