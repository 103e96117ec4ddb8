"""Verdict types: the one vocabulary shared by verifiers, metrics, rewards and feedback loops.

Glossary:
- *category*: the outcome class of an answer, one :class:`Category` member per verdict; each task
  uses some of them (state transition: ``TRANSITION_CATEGORIES``; state checking: correct, incorrect,
  parse_error, undecided; end to end: correct, invalid_solution, parse_error).
- *reasons*: ordered human-readable sentences naming each violated rule, first error first.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Category(str, Enum):
    """Verdict categories (exactly one per answer). ``Verdict.category`` holds the member's
    ``value`` (a plain string), which is what JSON output and metric names show."""

    CORRECT = "correct"
    MULTIPLE_MOVES = "multiple_moves"
    INVALID_MOVE = "invalid_move"
    UNSOLVABLE_CHILD = "unsolvable_child"
    BACKTRACKING_FAILURE = "backtracking_failure"
    SIBLING = "sibling"
    PARSE_ERROR = "parse_error"
    INCORRECT = "incorrect"  # state checking: the wrong label
    INVALID_SOLUTION = "invalid_solution"  # end to end: the answer does not solve the puzzle
    UNDECIDED = "undecided"  # the exact oracle ran out of its work budget (no credit, see Undecided)

    def __str__(self) -> str:  # json.dumps / f-strings print the bare value
        return self.value


# The state-transition categories in report order; ``rate_<category>`` metrics derive from it.
TRANSITION_CATEGORIES: tuple[str, ...] = tuple(c.value for c in (
    Category.CORRECT, Category.MULTIPLE_MOVES, Category.INVALID_MOVE, Category.UNSOLVABLE_CHILD,
    Category.BACKTRACKING_FAILURE, Category.SIBLING, Category.PARSE_ERROR))

SOLVABLE = "Solvable"
UNSOLVABLE = "Unsolvable"
_UNKNOWN_LABELS = (None, "", "None")


def solvable_label(solvable: bool | None) -> str | None:
    """The label of a solvability bit: :data:`SOLVABLE`, :data:`UNSOLVABLE`, or ``None`` when it is
    unknown (never a guessed label). The one bool -> label spelling; :func:`label_solvable` inverts it."""
    if solvable is None:
        return None
    return SOLVABLE if solvable else UNSOLVABLE


def label_solvable(label: object) -> bool | None:
    """The solvability bit of a stored label or ``current_status`` (``"Solvable"`` / ``"Unsolvable"``,
    any case): ``None`` when there is none (``None``, ``""``, ``"None"``). Any other value raises
    :class:`ValueError`: a label that is neither is never read as unsolvable."""
    if label in _UNKNOWN_LABELS:
        return None
    word = str(label).strip().lower()
    if word == SOLVABLE.lower():
        return True
    if word == UNSOLVABLE.lower():
        return False
    raise ValueError(f"label {str(label)[:40]!r} is neither {SOLVABLE} nor {UNSOLVABLE}")


@dataclass(frozen=True)
class Verdict:
    """The verdict on one model answer.

    ``correct`` is the headline bit, ``category`` one of the task's categories and ``reasons``
    an ordered list of violated rules (empty for a correct answer). ``prediction`` holds what was
    extracted from the text (a label for state checking, ``None`` when nothing parsed).
    """

    correct: bool
    category: str
    reasons: tuple[str, ...] = field(default=())
    prediction: str | None = None

    def __init__(self, correct: bool, category: str, reasons: tuple[str, ...] = (), prediction: str | None = None) -> None:
        # every response pays the generated frozen __init__ (one setattr per field): set them at once
        self.__dict__.update(correct=correct, category=category, reasons=reasons, prediction=prediction)

    @property
    def parse_error(self) -> bool:
        return self.category == Category.PARSE_ERROR.value

    def to_dict(self) -> dict:
        """A JSON-friendly form (the feedback loop's logs)."""
        return {
            "correct": self.correct,
            "category": self.category,
            "reasons": list(self.reasons),
            "prediction": self.prediction,
        }


class ParseError(ValueError):
    """Model text (or a record) could not be read as the expected structure."""


class StateError(ValueError):
    """A value parsed but is not a well-formed state of this puzzle (shape, range, type)."""


UNDECIDED = Category.UNDECIDED.value  # kept for imports of the plain string


class Undecided(Exception):
    """An exact oracle used up its work budget (counted in search nodes, so the outcome is
    deterministic) without deciding: the truth is unknown and is never guessed. Verifiers turn it
    into a verdict of category :attr:`Category.UNDECIDED` (no credit); ``label`` writes ``"solvable": null``.
    Not a ``ValueError``, so no handler of malformed input mistakes it for a wrong answer."""
