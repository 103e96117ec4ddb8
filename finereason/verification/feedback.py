"""Back-prompt feedback for ``finereason loop``, built from an end-to-end verdict's reasons.

Levels (Stechly et al. 2024): ``none`` (the model is only asked to try again), ``binary`` ("incorrect"),
``first_error`` (``reasons[0]``), ``all_errors`` (every reason) and ``self`` (the model verifies and
critiques its own answer: LLM+LLM). Feedback never carries the answer or any valid solution: the
verifier's reasons name violated rules only, and :func:`sound_feedback` checks that its text cannot be
read as a valid solution (falling back to the binary message if it ever could).
"""
from __future__ import annotations

from typing import Any

from ..common.verdict import Verdict
from ..core.engine import Engine
from ..core.literals import strip_thinking
from ..reading.verdicts import verdict_reading
from .process import ProcessVerdict
from .verifiers import verify_end_to_end

LEVELS: tuple[str, ...] = ("none", "binary", "first_error", "all_errors", "self")
SOUND_LEVELS: tuple[str, ...] = LEVELS[:4]
MAX_CRITIQUE_CHARS = 4000

INCORRECT = "Your answer is incorrect."
_RETRY = "Please solve the puzzle again. {ask}"
_ASK = 'End your response with "Answer: " followed by your new complete solution.'


def _leaks(engine: Engine, puzzle: Any, text: str, reasons: list[str]) -> bool:
    """Whether ``text``, any line of it or any reason would be certified as a solution."""
    candidates = [text, *text.splitlines(), *reasons]
    return any(verify_end_to_end(engine, puzzle, f"Answer: {c}").correct for c in candidates if c.strip())


def sound_feedback(engine: Engine, puzzle: Any, verdict: Verdict, level: str,
                   process: ProcessVerdict | None = None) -> str:
    """The back-prompt after an answer the sound verifier rejected, at ``level`` (not ``self``).

    At ``first_error``, an answer that shows its steps gets the first step that breaks a rule or enters
    a dead end (``process``, from :func:`finereason.verification.process.process_score`) instead of ``reasons[0]``.
    """
    if level not in SOUND_LEVELS:
        raise ValueError(f"unknown feedback level {level!r} (known: {', '.join(SOUND_LEVELS)})")
    retry = _RETRY.format(ask=_ASK)
    if level == "none":
        return retry
    reasons = list(verdict.reasons) or ["the answer is not a valid solution"]
    if level == "binary":
        return f"{INCORRECT} {retry}"
    stepwise = process.first_error() if process is not None and level == "first_error" else None
    chosen = [stepwise] if stepwise else reasons[:1] if level == "first_error" else reasons
    errors = "\n".join(f"- {r}" for r in chosen)
    text = f"{INCORRECT} {'The first error' if level == 'first_error' else 'The errors'}:\n{errors}\n{retry}"
    return f"{INCORRECT} {retry}" if _leaks(engine, puzzle, text, chosen) else text


# ------------------------------------------------------------------ self-critique (LLM+LLM)
VERIFY_INSTRUCTIONS = (
    "Here is a puzzle and a proposed answer. Check the proposed answer against every rule of the puzzle. "
    "If it is wrong, name each error you find. Do not write a corrected solution. "
    'End your response with "Verdict: correct" or "Verdict: incorrect".'
)


def verify_prompt(problem: str, answer: str) -> str:
    """The request asking the model to verify its own answer."""
    return f"{VERIFY_INSTRUCTIONS}\n\nPuzzle:\n{problem}\n\nProposed answer:\n{answer}"


def read_self_verdict(text: str, *, starts_in_think: bool = False) -> bool | None:
    """The model's own verdict: True (accepts), False (rejects), None (no committed verdict: not accepted).

    The self-verdict answer kind of the reader (:mod:`finereason.reading.verdicts`), under the one
    commitment rule: the last ``Verdict:`` after the reasoning is the candidate; a withdrawal after it
    ("Wait, actually step 2 is wrong") voids it, both verdicts at once ("correct or incorrect"), a
    question or a hedge ("probably correct") never commit. An unclear verdict is never read as acceptance.
    """
    return verdict_reading(text, starts_in_think=starts_in_think).value


def self_feedback(critique: str) -> str:
    """The back-prompt carrying the model's own critique (the LLM+LLM system of the paper)."""
    body = strip_thinking(critique if isinstance(critique, str) else "").strip()[:MAX_CRITIQUE_CHARS]
    return f"A verifier found a problem with your answer:\n{body}\n{_RETRY.format(ask=_ASK)}"


__all__ = ["LEVELS", "SOUND_LEVELS", "read_self_verdict", "self_feedback", "sound_feedback", "verify_prompt"]
