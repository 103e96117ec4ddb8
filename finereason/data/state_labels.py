"""Oracle labels for states: the library behind ``finereason label`` (and the labels that
``check-official`` and ``score --official`` compare and score against).

A label is ``True`` (solvable), ``False`` (unsolvable) or ``None`` when the oracle ran out of its work
budget (undecided: never a guessed label).
"""
from __future__ import annotations

from typing import Any, Iterable, Iterator, Sequence

from ..common.input_errors import InputError
from ..common.jsonl import iter_json_lines
from ..common.progress import Progress, no_progress
from ..common.verdict import ParseError, StateError, Undecided
from ..core.engine import Engine
from ..core.oracle import is_solvable


def oracle_label(engine: Engine, puzzle: Any, state: Any) -> bool | None:
    """The oracle's verdict on ``state``, ``None`` when it ran out of its work budget (undecided)."""
    try:
        return is_solvable(engine, puzzle, state)
    except Undecided:
        return None


def read_states(path: str) -> list[tuple[int, Any]]:
    """``(line number, value)`` of each state line of a JSON Lines file (``-``: standard input);
    raises :class:`~finereason.common.input_errors.InputError` for an unreadable or empty file."""
    lines = list(iter_json_lines(path, "state", InputError))
    if not lines:
        raise InputError(f"{path}: no states")
    return lines


def label_states(engine: Engine, states: Sequence[tuple[int, Any]], *, source: str = "input",
                 progress: Progress = no_progress) -> Iterator[dict[str, Any]]:
    """One ``{"solvable": bool}`` record per ``(line number, value)`` state, in order, or
    ``{"solvable": None, "undecided": why}`` when the oracle's work budget runs out.

    A value that is not a state of ``engine`` (:meth:`~finereason.core.engine.Engine.from_input`) raises
    :class:`~finereason.common.input_errors.InputError` naming ``source`` and the line.
    """
    for lineno, obj in progress(states, len(states), f"labelling {engine.name}"):
        try:
            puzzle, state = engine.from_input(obj)
        except (StateError, ParseError, ValueError, TypeError, KeyError, AttributeError, RecursionError) as err:
            raise InputError(f"{source}:{lineno}: not a {engine.name} state: {err}") from None
        try:
            yield {"solvable": is_solvable(engine, puzzle, state)}
        except Undecided as err:
            yield {"solvable": None, "undecided": str(err)}


def label_counts(labels: Iterable[dict[str, Any]]) -> dict[str, int]:
    """``solvable``, ``total`` and ``undecided`` counts of :func:`label_states` records."""
    labels = list(labels)
    return {"solvable": sum(r["solvable"] is True for r in labels), "total": len(labels),
            "undecided": sum(r["solvable"] is None for r in labels)}


__all__ = ["label_counts", "label_states", "oracle_label", "read_states"]
