"""Verdict types: the one vocabulary shared by verifiers, metrics, rewards and feedback loops.

Glossary:
- *category*: the outcome class of a state-transition answer (see ``TRANSITION_CATEGORIES``).
- *reasons*: ordered human-readable sentences naming each violated rule, first error first.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Category(str, Enum):
    """State-transition verdict categories (exactly one per answer)."""

    CORRECT = "correct"
    MULTIPLE_MOVES = "multiple_moves"
    INVALID_MOVE = "invalid_move"
    UNSOLVABLE_CHILD = "unsolvable_child"
    BACKTRACKING_FAILURE = "backtracking_failure"
    SIBLING = "sibling"
    PARSE_ERROR = "parse_error"

    def __str__(self) -> str:  # json.dumps / f-strings print the bare value
        return self.value


TRANSITION_CATEGORIES: tuple[str, ...] = tuple(c.value for c in Category)
STATE_CHECKING_CATEGORIES: tuple[str, ...] = ("correct", "incorrect", "parse_error")
END_TO_END_CATEGORIES: tuple[str, ...] = ("correct", "invalid_solution", "parse_error")

SOLVABLE = "Solvable"
UNSOLVABLE = "Unsolvable"


@dataclass(frozen=True)
class Verdict:
    """The judgement of one model answer.

    ``correct`` is the headline bit, ``category`` one of the task's categories and ``reasons``
    an ordered list of violated rules (empty for a correct answer). ``prediction`` holds what was
    extracted from the text (a label for state checking, ``None`` when nothing parsed).
    """

    correct: bool
    category: str
    reasons: tuple[str, ...] = field(default=())
    prediction: str | None = None

    @property
    def parse_error(self) -> bool:
        return self.category == Category.PARSE_ERROR.value

    def first_reason(self) -> str | None:
        """The first violated rule, for feedback at the 'first error' level."""
        return self.reasons[0] if self.reasons else None

    def to_dict(self) -> dict:
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


UNDECIDED = "undecided"


class Undecided(Exception):
    """An exact oracle used up its work budget (counted in search nodes, so the outcome is
    deterministic) without deciding: the truth is unknown and is never guessed. Verifiers turn it
    into a verdict of category ``undecided`` (no credit); ``label`` writes ``"solvable": null``.
    Not a ``ValueError``, so no handler of malformed input mistakes it for a wrong answer."""
