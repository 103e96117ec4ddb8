"""Process scoring of full solutions: the first step that breaks a rule and the first that enters a dead end.

An end-to-end answer that shows its work (a Sudoku fill order or a sequence of grids, a Game-of-24
step list, a coloring order, a plan) is read by its domain's :meth:`~finereason.core.engine.Engine.read_steps`
into successive states. Which text is read is one rule for every domain (:func:`committed_attempt`):

    The steps are those of the committed attempt: the final region from the end of the last
    withdrawal signal before the committed answer (a retraction such as "Wait, scrap that", doubt,
    inability, an alternative: the reader's signals, :mod:`finereason.reading.withdrawals`) to the
    first signal after it. Steps withdrawn by a signal are not counted. When nothing commits, the
    attempt is the text after the last signal.

So ``10 + 1 = 12 ... Wait, scrap that`` followed by a correct step list and answer shows the correct
steps only, in every domain (a Blocksworld answer's steps are its committed plan's actions). :func:`process_score` walks them from the initial state: each pair is classified
with the engine's own ``step`` (the rules of the state-transition task) and each state reached by a valid
step is labelled by the exact oracle.

Glossary:
- *step*: one written state that differs from the one before it (restating a state is no step);
  steps are numbered from 1 in the order they are written.
- *invalid step*: the engine calls the move ``invalid``, or several moves made at once reach a state
  that already breaks a rule, or the text names a move that cannot be made at all (a false
  calculation, a cell or vertex that does not exist: a :class:`~finereason.core.engine.BrokenStep`).
  Verifying stops there (later states grow from a broken one), but the steps written after it are
  counted: an answer whose first step breaks a rule and goes on writing steps shows a process.
- *dead end*: a state reached by a valid step from which the oracle says no solution can be reached.
  Backtracking out of a dead end is a valid step; the first dead end entered is what is reported.
- *undecided*: the oracle's work budget ran out; the walk stops and nothing after it is reported.

Answers whose text shows fewer than :data:`MIN_PROCESS_STEPS` steps are final answers, not processes:
the loop's ``first_error`` feedback then keeps the verdict's first reason.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ..common.verdict import ParseError, StateError, Undecided
from ..common.vocabulary import END_TO_END
from ..core.engine import BrokenStep, Engine, StepKind, get_engine
from ..core.oracle import oracle_solvable
from ..core.steps import MAX_STEPS
from ..reading.context import ReadContext, resolve_context
from ..reading.normalise import original_span
from ..reading.region import blank_tags
from ..reading.withdrawals import Signals, find_signals
from .metrics import PROCESS, compute, task_metrics

MAX_PROCESS_CHARS = 200_000   # characters of a response read for steps
MIN_PROCESS_STEPS = 2         # fewer written steps: a final answer, not a process

# The process metrics in report order (a public contract, declared in the metric registry),
# each with whether higher is better.
PROCESS_HIGHER_IS_BETTER: dict[str, bool] = {m.name: m.higher_is_better for m in task_metrics(END_TO_END, PROCESS)}
PROCESS_METRICS: tuple[str, ...] = tuple(PROCESS_HIGHER_IS_BETTER)


@dataclass(frozen=True)
class ProcessVerdict:
    """Where a written solution process first goes wrong.

    ``first_invalid_step`` / ``first_dead_end_step`` are 1-based step numbers (``None``: no such step
    among those verified); ``steps_read`` counts the steps the answer shows (those after the first invalid
    step are counted, not verified), ``reasons`` explain the first invalid step
    (the engine's words) and ``undecided`` is set when the oracle gave up (nothing after it is verified).
    """

    first_invalid_step: int | None = None
    first_dead_end_step: int | None = None
    steps_read: int = 0
    reasons: tuple[str, ...] = ()
    undecided: bool = False
    truncated: bool = False

    @property
    def readable(self) -> bool:
        """Whether the answer shows a process (at least :data:`MIN_PROCESS_STEPS` steps)."""
        return self.steps_read >= MIN_PROCESS_STEPS

    def first_error(self) -> str | None:
        """The earliest problem as one feedback sentence (``None`` when there is none or no process)."""
        if not self.readable:
            return None
        bad, dead = self.first_invalid_step, self.first_dead_end_step
        if dead is not None and (bad is None or dead < bad):
            return f"Step {dead} enters a dead end: from the state it reaches, the puzzle can no longer be solved."
        if bad is not None:
            why = "; ".join(self.reasons) or "it is not a valid move"
            return f"Step {bad} breaks a rule: {why}."
        return None

    def to_dict(self) -> dict[str, Any]:
        return {"first_invalid_step": self.first_invalid_step, "first_dead_end_step": self.first_dead_end_step,
                "steps_read": self.steps_read, "reasons": list(self.reasons), "undecided": self.undecided,
                "truncated": self.truncated}


def _verify_step(eng: Engine, puzzle: Any, prev: Any, cur: Any) -> tuple[str, tuple[str, ...]]:
    """``("valid" | "invalid" | "none", reasons)`` for the move ``prev -> cur``."""
    try:
        step = eng.step(puzzle, prev, cur)
        if step.kind is StepKind.NONE:
            return "none", ()
        if step.kind is StepKind.INVALID:
            return "invalid", step.reasons or ("it is not a valid move",)
        if step.kind is StepKind.MULTIPLE:  # several moves at once: fine unless the state breaks a rule
            broken = eng.violations(puzzle, cur)
            return ("invalid", tuple(broken)) if broken else ("valid", ())
        return "valid", ()
    except (StateError, ValueError, TypeError, ArithmeticError, RecursionError) as err:
        return "invalid", (f"the step cannot be judged: {err}",)


def _shown(number: int, prev: Any, rest: Sequence[Any], max_steps: int) -> int:
    """``number`` plus the steps written after the first invalid one (counted, never verified): each
    broken step and each state that differs from the one before it, up to ``max_steps`` in all."""
    for state in rest:
        if number >= max_steps:
            break
        if isinstance(state, BrokenStep) or state != prev:
            number += 1
        if not isinstance(state, BrokenStep):
            prev = state
    return number


def _last_signal_end(signals: Signals, lo: int, hi: int) -> int:
    """The end of the last withdrawal signal starting in ``[lo, hi)`` of the reader's text (``lo`` if none):
    a binary search on where the last one starts (``signals.first(at, hi)`` finds one for every ``at`` up
    to it and none after), so a text full of signals costs a few range queries."""
    found = signals.first(lo, hi)
    if found is None:
        return lo
    yes, no = found[0], hi  # a signal starts at or after ``yes``; none at or after ``no``
    while no - yes > 1:
        mid = (yes + no) // 2
        if signals.first(mid, hi) is None:
            no = mid
        else:
            yes = mid
    last = signals.first(yes, hi)
    return lo if last is None else last[0] + len(last[1])


def committed_attempt(engine: Engine | str, region: str) -> str:
    """The text of ``region`` (a final region) whose steps count: the committed attempt (the one
    process-steps rule of this module's docstring). What withdraws a step is the reader's decision
    (:mod:`finereason.reading.withdrawals`, read on the text as the reader reads it,
    :func:`~finereason.reading.region.blank_tags`); where the committed answer is, is the domain's
    answer reader's (:meth:`~finereason.core.engine.Engine.read_answer`)."""
    eng = get_engine(engine)
    read = blank_tags(region)
    signals = find_signals(read, solving=True)
    try:
        reading = eng.read_answer(region, END_TO_END)
    except (ParseError, StateError, ValueError, TypeError, RecursionError):
        reading = None
    statement = reading.statement if reading is not None and reading.value is not None else None
    if statement is None:  # nothing commits: the text after the last signal
        start, end = _last_signal_end(signals, 0, len(read)), len(read)
    else:
        start = _last_signal_end(signals, 0, statement.start)
        after = signals.first(statement.end)
        end = len(read) if after is None else after[0]
    if start == 0 and end == len(read):
        return region
    lo, hi = original_span(region, start, end)
    return region[lo:hi]


def process_score(engine: Engine | str, puzzle: Any, response: str, *, max_steps: int = MAX_STEPS,
                  context: ReadContext | None = None, starts_in_think: bool | None = None) -> ProcessVerdict:
    """Read the steps of an end-to-end ``response`` and verify them (never raises on the response).

    Only the final region counts (text after ``</think>``; unfinished reasoning shows no steps, and with
    the run's ``context`` starting in think, or ``starts_in_think=True``, a response without ``</think>``
    is unfinished reasoning), and of it only the committed attempt (:func:`committed_attempt`).
    """
    eng = get_engine(engine)
    text = (resolve_context(context, starts_in_think).region(response) or "")[:MAX_PROCESS_CHARS]
    try:
        states = eng.read_steps(puzzle, committed_attempt(eng, text) if text else "")
    except (ParseError, StateError, ValueError, TypeError, RecursionError):
        states = []
    prev = eng.initial(puzzle)
    number = 0
    first_dead: int | None = None
    for at, state in enumerate(states):
        if number >= max_steps:
            return ProcessVerdict(None, first_dead, number, truncated=True)
        if isinstance(state, BrokenStep):
            return ProcessVerdict(number + 1, first_dead, _shown(number + 1, prev, states[at + 1:], max_steps),
                                  tuple(state.reasons))
        kind, reasons = _verify_step(eng, puzzle, prev, state)
        if kind == "none":
            continue
        number += 1
        if kind == "invalid":
            return ProcessVerdict(number, first_dead, _shown(number, state, states[at + 1:], max_steps), reasons)
        prev = state
        if first_dead is None:
            try:
                if not oracle_solvable(eng, puzzle, state):
                    first_dead = number
            except Undecided:
                return ProcessVerdict(None, None, number, undecided=True)
            except (StateError, ValueError, TypeError, ArithmeticError, RecursionError) as err:
                return ProcessVerdict(number, None, number, (f"the state cannot be judged: {err}",))
    return ProcessVerdict(None, first_dead, number)


def summarize_process(verdicts: Sequence[ProcessVerdict]) -> dict[str, float]:
    """Aggregate process metrics over answers (a public contract, :data:`PROCESS_METRICS`).

    ``process_rate_readable``: share of answers that show a process; ``process_rate_invalid_step`` /
    ``process_rate_dead_end`` / ``process_rate_undecided``: among those, the share with an invalid step,
    with a dead end entered before any invalid step, and where the oracle gave up;
    ``process_steps_read``: mean steps read over all answers.
    """
    return compute(END_TO_END, verdicts, PROCESS)


def as_record(verdict: ProcessVerdict) -> tuple:
    """A compact, JSON-ready form of ``verdict`` carrying what :func:`summarize_process` reads
    (lm-eval keeps one per logged sample and aggregates them with :func:`summarize_records`)."""
    return (verdict.first_invalid_step, verdict.first_dead_end_step, verdict.steps_read, verdict.undecided)


def summarize_records(records: Sequence[Sequence[Any]]) -> dict[str, float]:
    """:func:`summarize_process` over :func:`as_record` tuples."""
    return summarize_process([ProcessVerdict(r[0], r[1], int(r[2]), undecided=bool(r[3])) for r in records])


__all__ = ["MIN_PROCESS_STEPS", "committed_attempt", "PROCESS_HIGHER_IS_BETTER", "PROCESS_METRICS", "as_record", "summarize_records", "ProcessVerdict",
           "process_score", "summarize_process"]
