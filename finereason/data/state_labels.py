"""The truth of a state and the checks of stored labels: the library behind ``finereason label``,
``check-official``, ``verify-data`` and the state truth every score uses.

The rule, stated once: **the truth of a state is the oracle's**, unless the caller hands a stored
label it has verified (:func:`state_truth`). A label stored in a dataset row or an official record
(``label``, ``outputs.current_status``) is never trusted on its own; :func:`check_label` compares it
with the oracle (``verify-data``, ``check-official``).

A label is ``True`` (solvable), ``False`` (unsolvable) or ``None`` when the oracle ran out of its work
budget (undecided: never a guessed label). Labels are spelled with
:func:`~finereason.common.verdict.solvable_label` and read with :func:`~finereason.common.verdict.label_solvable`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Sequence

from ..common.input_errors import InputError
from ..common.jsonl import iter_json_lines
from ..common.progress import Progress, no_progress
from ..common.verdict import ParseError, StateError, Undecided, solvable_label
from ..core.engine import Engine
from ..core.oracle import oracle_solvable


def oracle_label(engine: Engine, puzzle: Any, state: Any) -> bool | None:
    """The oracle's verdict on ``state``, ``None`` when it ran out of its work budget (undecided)."""
    return check_label(engine, puzzle, state, None).truth


def state_truth(engine: Engine, puzzle: Any, state: Any, stored: bool | None = None, *,
                verified: bool = False) -> bool:
    """Whether ``state`` is solvable: ``stored`` only when the caller ``verified`` it against the oracle
    (earlier in the run, or a verified build), else the memoised oracle, which raises
    :class:`~finereason.common.verdict.Undecided` when its work budget runs out."""
    if verified and stored is not None:
        return stored
    return oracle_solvable(engine, puzzle, state)


@dataclass(frozen=True)
class LabelCheck:
    """A stored label compared with the oracle: ``truth`` is the oracle's (``None``: undecided, with
    ``undecided`` saying why), ``stored`` the label given (``None``: none stored)."""

    truth: bool | None
    stored: bool | None
    undecided: str | None = None

    @property
    def agrees(self) -> bool:
        """The oracle decided and any stored label equals its verdict (undecided never agrees)."""
        return self.truth is not None and (self.stored is None or self.stored == self.truth)

    def problem(self, what: str) -> str | None:
        """One sentence when a stored label contradicts the oracle (``None`` otherwise)."""
        if self.truth is None or self.stored is None or self.stored == self.truth:
            return None
        return f"{what} {solvable_label(self.stored)!r}, but the oracle says {solvable_label(self.truth)}"


def check_label(engine: Engine, puzzle: Any, state: Any, stored: bool | None) -> LabelCheck:
    """Compare a stored label of ``state`` (``None``: none) with the memoised oracle; an unsolvable child
    is checked as ``stored=False``."""
    try:
        return LabelCheck(oracle_solvable(engine, puzzle, state), stored)
    except Undecided as err:
        return LabelCheck(None, stored, str(err) or "the oracle ran out of its work budget")


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
        check = check_label(engine, puzzle, state, None)
        yield {"solvable": check.truth} if check.truth is not None else {"solvable": None, "undecided": check.undecided}


def label_counts(labels: Iterable[dict[str, Any]]) -> dict[str, int]:
    """``solvable``, ``total`` and ``undecided`` counts of :func:`label_states` records."""
    labels = list(labels)
    return {"solvable": sum(r["solvable"] is True for r in labels), "total": len(labels),
            "undecided": sum(r["solvable"] is None for r in labels)}


__all__ = ["LabelCheck", "check_label", "label_counts", "label_states", "oracle_label", "read_states", "state_truth"]
