"""The single source of verdicts: state checking, state transition and end-to-end.

Metrics (lm-eval), dataset builders, GRPO rewards and feedback loops all call these functions.
They never raise on model text: unreadable answers become ``parse_error`` verdicts; an oracle that
runs out of its work budget (:class:`~finereason.common.verdict.Undecided`) gives an ``undecided`` verdict
(no credit, never a guessed category). Model text is
read by :mod:`finereason.reading` (the one answer reader): only the final region after the reasoning
counts, and unfinished reasoning is a ``parse_error``. Callers whose prompt already opened ``<think>``
(R1-distill, QwQ, Qwen3 thinking templates) pass ``context=ReadContext(starts_in_think=True)`` (the run's
:class:`~finereason.reading.context.ReadContext`; the keyword ``starts_in_think=True`` is an alias).
"""
from __future__ import annotations

from typing import Any

from ..common.verdict import Category, ParseError, StateError, Undecided, Verdict, solvable_label
from ..common.vocabulary import END_TO_END, STATE_CHECKING, STATE_TRANSITION
from ..core.engine import Engine, StateItem, StepKind, get_engine
from ..core.literals import parse_literal
from ..core.oracle import oracle_solvable
from ..data.state_labels import state_truth
from ..reading import UNFINISHED, choice_reading, read_choice
from ..reading.context import ReadContext, resolve_context
from ..reading.lists import task_list_reading
from ..reading.truth_values import truth_value_reading

MODES = ("strict", "paper")
_CORRECT = Verdict(True, Category.CORRECT.value)  # verdicts are immutable: the constant ones are shared
_DEAD_END = Verdict(False, Category.UNSOLVABLE_CHILD.value, ("the new state can no longer be completed to a solution",))
# the category strings and step kinds of the state-transition path, looked up once (an enum member's value is a
# property, asked for on every response otherwise)
_PARSE_ERROR, _INVALID_MOVE, _MULTIPLE_MOVES, _BACKTRACKING_FAILURE, _SIBLING = (
    Category.PARSE_ERROR.value, Category.INVALID_MOVE.value, Category.MULTIPLE_MOVES.value,
    Category.BACKTRACKING_FAILURE.value, Category.SIBLING.value)
_FORWARD, _BACKWARD, _MULTIPLE = StepKind.FORWARD, StepKind.BACKWARD, StepKind.MULTIPLE
# ------------------------------------------------------------------ state checking
def _unfinished() -> Verdict:
    return Verdict(False, Category.PARSE_ERROR.value, (UNFINISHED,))


def verify_state_checking(
    engine: Engine | str, item: StateItem, response: str, *, solvable: bool | None = None,
    context: ReadContext | None = None, starts_in_think: bool | None = None,
) -> Verdict:
    """Verify a state-checking answer ("(A)" solvable / "(B)" unsolvable).

    ``solvable``: the state's truth when the caller already has it from the oracle (or a label it has
    verified); otherwise the oracle is asked (:func:`finereason.data.state_labels.state_truth`).
    """
    eng = get_engine(engine)
    try:
        reading = read_choice(response, starts_in_think=resolve_context(context, starts_in_think).starts_in_think)
    except (ParseError, RecursionError) as err:
        return Verdict(False, Category.PARSE_ERROR.value, (str(err),))
    choice = reading.choice
    if choice is None:
        return Verdict(False, Category.PARSE_ERROR.value, (reading.reason or "no final answer (A)/(B) found",))
    try:
        truth = state_truth(eng, item.puzzle, item.current, solvable, verified=True)
    except Undecided as err:  # the oracle's budget ran out: no credit, never a guessed verdict
        return Verdict(False, Category.UNDECIDED.value, (str(err),), solvable_label(choice == "A"))
    predicted = solvable_label(choice == "A")
    actual = solvable_label(truth)
    if predicted == actual:
        return Verdict(True, Category.CORRECT.value, (), predicted)
    return Verdict(False, Category.INCORRECT.value, (f"the state is {actual.lower()}, not {predicted.lower()}",), predicted)


# ------------------------------------------------------------------ state transition
def verify_state_transition(
    engine: Engine | str,
    item: StateItem,
    response: str,
    mode: str = "strict",
    *,
    solvable: bool | None = None,
    context: ReadContext | None = None,
    starts_in_think: bool | None = None,
) -> Verdict:
    """Verify a state-transition answer ("Next state: ...") as exactly one category.

    ``strict`` (default): a forward move from a solvable state is correct only if the oracle says
    the child is solvable. ``paper``: the official release's scoring, where only the given
    unsolvable child counts as ``unsolvable_child``.
    """
    return verify_state_transition_modes(engine, item, response, (mode,), solvable=solvable, context=context,
                                         starts_in_think=starts_in_think)[mode]


def verify_state_transition_modes(
    engine: Engine | str,
    item: StateItem,
    response: str,
    modes: tuple[str, ...] = MODES,
    *,
    solvable: bool | None = None,
    context: ReadContext | None = None,
    starts_in_think: bool | None = None,
) -> dict[str, Verdict]:
    """The verdict of one answer in several modes, reading and classifying the move only once."""
    for mode in modes:
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}; use one of {', '.join(MODES)}")
    eng = get_engine(engine)
    puzzle = item.puzzle
    malformed: str | None = None
    proposed: Any = None
    region = resolve_context(context, starts_in_think).region(response)
    if region is None:
        return dict.fromkeys(modes, _unfinished())
    try:
        proposed = eng.parse_state_text(puzzle, region)
    except StateError as err:
        malformed = str(err)
    except (ParseError, RecursionError, ValueError, TypeError) as err:
        verdict = Verdict(False, _PARSE_ERROR, (str(err) or "unreadable answer",))
        return {mode: verdict for mode in modes}
    try:
        current_solvable = state_truth(eng, puzzle, item.current, solvable, verified=True)
    except Undecided as err:
        return dict.fromkeys(modes, Verdict(False, Category.UNDECIDED.value, (str(err),)))
    try:
        if current_solvable:
            return _forward_verdicts(eng, item, proposed, malformed, modes)
        verdict = _backtrack_verdict(eng, item, proposed, malformed)
    except (StateError, ValueError, TypeError, ArithmeticError, RecursionError) as err:
        # an engine could not verify this proposal: never crash an evaluation or a training step
        failure = Category.INVALID_MOVE if current_solvable else Category.BACKTRACKING_FAILURE
        verdict = Verdict(False, failure.value, (f"the proposed state cannot be judged: {err}",))
    return {mode: verdict for mode in modes}


def _forward_verdicts(eng: Engine, item: StateItem, proposed: Any, malformed: str | None, modes: tuple[str, ...]) -> dict[str, Verdict]:
    """Verdicts from a solvable state: only a valid forward move's dead-end check depends on the mode."""
    if malformed is not None:
        return dict.fromkeys(modes, Verdict(False, _INVALID_MOVE, (malformed,)))
    step = eng.step(item.puzzle, item.current, proposed)
    if step.kind is _MULTIPLE:
        return dict.fromkeys(modes, Verdict(False, _MULTIPLE_MOVES, step.reasons))
    if step.kind is _BACKWARD:
        why = ("the current state is solvable, so the move must go forward, not undo a step",)
        return dict.fromkeys(modes, Verdict(False, _INVALID_MOVE, why + step.reasons))
    if step.kind is not _FORWARD:
        return dict.fromkeys(modes, Verdict(False, _INVALID_MOVE, step.reasons or ("no valid move was made",)))
    out = {}
    for mode in modes:
        if mode == "paper":
            dead_end = item.unsolvable_child is not None and eng.same(proposed, item.unsolvable_child)
        else:
            try:
                dead_end = not oracle_solvable(eng, item.puzzle, proposed)
            except Undecided as err:
                out[mode] = Verdict(False, Category.UNDECIDED.value, (str(err),))
                continue
        out[mode] = _DEAD_END if dead_end else _CORRECT
    return out


def _backtrack_verdict(eng: Engine, item: StateItem, proposed: Any, malformed: str | None) -> Verdict:
    fail = _BACKTRACKING_FAILURE
    if malformed is not None:
        return Verdict(False, fail, (malformed,))
    parent = item.parent
    if parent is None:
        return Verdict(False, fail, ("the initial state is unsolvable, so no move can be correct",))
    if eng.same(proposed, parent):
        return _CORRECT
    if eng.same(proposed, item.current):
        return Verdict(False, fail, ("the state is unsolvable and must backtrack to its parent, but it was left unchanged",))
    if eng.step(item.puzzle, parent, proposed).kind is _FORWARD:
        return Verdict(False, _SIBLING, ("moved to another child of the parent instead of backtracking to the parent",))
    if eng.step(item.puzzle, item.current, proposed).kind is _FORWARD:
        return Verdict(False, fail, ("moved forward from an unsolvable state instead of backtracking",))
    return Verdict(False, fail, ("the proposed state is not the parent of the unsolvable state",))


# ------------------------------------------------------------------ end to end
def verify_end_to_end(engine: Engine | str, puzzle: Any, response: str, *, context: ReadContext | None = None,
                      starts_in_think: bool | None = None) -> Verdict:
    """Verify a full solution against the puzzle's rules (any valid solution counts)."""
    eng = get_engine(engine)
    region = resolve_context(context, starts_in_think).region(response)
    if region is None:
        return _unfinished()
    try:
        state = eng.parse_solution_text(puzzle, region)
    except StateError as err:
        return Verdict(False, Category.INVALID_SOLUTION.value, (str(err),))
    except (ParseError, RecursionError, ValueError, TypeError) as err:
        return Verdict(False, Category.PARSE_ERROR.value, (str(err) or "unreadable answer",))
    try:
        reasons = eng.check_solution(puzzle, state)
    except (StateError, ValueError, TypeError, ArithmeticError, RecursionError) as err:
        return Verdict(False, Category.INVALID_SOLUTION.value, (f"the proposed solution cannot be judged: {err}",))
    if reasons:
        return Verdict(False, Category.INVALID_SOLUTION.value, tuple(reasons))
    return _CORRECT


# ------------------------------------------------------------------ FOLIO
def verify_folio(response: str, truth_value: str, *, context: ReadContext | None = None) -> Verdict:
    """Verify a FOLIO answer: its committed truth value (``True``/``False``/``Uncertain``, read by
    :func:`~finereason.reading.truth_values.truth_value_reading`) against the record's (FOLIO's ``label``).
    A hedge, no answer or unfinished reasoning is a ``parse_error``."""
    if resolve_context(context).unfinished(response):
        return _unfinished()
    reading = truth_value_reading(response)
    answer = reading.value
    if answer is None:
        return Verdict(False, Category.PARSE_ERROR.value, (reading.reason or "no committed True, False or Uncertain",))
    if answer == truth_value:
        return Verdict(True, Category.CORRECT.value, (), answer)
    return Verdict(False, Category.INCORRECT.value, (f"the conclusion is {truth_value}, not {answer}",), answer)


__all__ = ["MODES", "UNFINISHED", "oracle_solvable", "verify_end_to_end", "verify_folio", "verify_state_checking",
           "verify_state_transition", "verify_state_transition_modes"]


# ------------------------------------------------------------------ format check (rewards)
def format_ok(task: str, text: str, *, context: ReadContext | None = None, starts_in_think: bool | None = None,
              domain: str | None = None, puzzle: str | None = None) -> bool:
    """Whether ``text`` finishes its reasoning and commits to exactly one final answer, marked as the
    task's prompt asks (``Answer:``, ``Next state:``, ``Solution:``, ``\\boxed{}``), in a form the
    verifier reads without a parse error.

    Exactly one: the committed answer is the only one left standing (:attr:`Reading.live`), so a
    response that states several different answers ("Answer: (A)\nAnswer: (B)\n...") fails even
    though its last one is read. state_checking: a marked ``(A)``/``(B)`` (``Answer:``, ``\\boxed{}``);
    state_transition: a
    ``Next state:`` list; end_to_end: the named ``domain``'s answer syntax (a plain list literal
    when no domain is named; ``puzzle=``: the keyword's deprecated name).
    """
    if puzzle is not None:
        import warnings

        warnings.warn("format_ok(puzzle=...) is deprecated; use format_ok(domain=...)", DeprecationWarning, stacklevel=2)
        domain = domain or puzzle
    region = resolve_context(context, starts_in_think).region(text)
    if region is None:
        return False
    if task == STATE_CHECKING:
        reading = choice_reading(region, every=True)
        return reading.single and reading.marked
    if task not in (STATE_TRANSITION, END_TO_END):
        raise ValueError(f"unknown task {task!r}")
    try:
        if domain is None:  # a plain list literal
            reading = task_list_reading(region, task == STATE_TRANSITION)
            return reading.single and reading.marked and parse_literal(reading.value) is not None
        engine = get_engine(domain)
        reading = engine.read_answer(region, task)
        return reading.single and reading.marked and engine.answer_readable(region, task)
    except (ParseError, RecursionError):
        return False
