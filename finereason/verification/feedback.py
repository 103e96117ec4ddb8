"""Back-prompt feedback, built from an end-to-end verdict's reasons: the one feedback module, for every
domain (plans included) and for ``finereason loop``.

Levels (Stechly et al. 2024): ``none`` (the model is only asked to try again), ``binary`` ("incorrect"),
``first_error`` (``reasons[0]``, or the first wrong step of an answer that shows its steps),
``all_errors`` (every reason) and ``self`` (the model verifies and critiques its own answer: LLM+LLM,
asked with the one verify request, :func:`finereason.core.prompts.verify_prompt`, whose reply is read by
:func:`read_self_verdict`). Feedback never carries the answer or any valid solution: the verifier's
reasons name violated rules only, and :func:`sound_feedback` checks that its text cannot be read as a
valid solution; a reason that quotes a step which would read as one ("step 2 (pick-up a): ...") names the
step by its number only, and if the text could still be read as a solution the binary message is sent.
"""
from __future__ import annotations

import re
from typing import Any

from ..common.verdict import Verdict
from ..core.engine import Engine
from ..core.literals import strip_thinking
from ..core.prompts import VERIFY_REQUEST as _VERIFY_REQUEST
from ..core.prompts import verify_prompt as _one_verify_prompt
from ..reading.verdicts import verdict_reading
from .process import ProcessVerdict
from .verifiers import verify_end_to_end

LEVELS: tuple[str, ...] = ("none", "binary", "first_error", "all_errors", "self")
SOUND_LEVELS: tuple[str, ...] = LEVELS[:4]
MAX_CRITIQUE_CHARS = 4000

INCORRECT = "Your answer is incorrect."
_RETRY = "Please solve the puzzle again. {ask}"
_ASK = 'End your response with "Answer: " followed by your new complete solution.'
_QUOTED_STEP = re.compile(r"^([Ss]tep \d{1,6}) \([^()\n]{0,200}\)")  # "step 2 (pick-up a): ..." -> "step 2: ..."


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
    unquoted = [_QUOTED_STEP.sub(r"\1", r) for r in chosen]
    for attempt in (chosen, unquoted) if unquoted != chosen else (chosen,):
        errors = "\n".join(f"- {r}" for r in attempt)
        text = f"{INCORRECT} {'The first error' if level == 'first_error' else 'The errors'}:\n{errors}\n{retry}"
        if not _leaks(engine, puzzle, text, attempt):
            return text
    return f"{INCORRECT} {retry}"


# ------------------------------------------------------------------ self-critique (LLM+LLM)
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


__all__ = ["LEVELS", "SOUND_LEVELS", "read_self_verdict", "self_feedback", "sound_feedback"]


def _verify_prompt(row: Any, answer: str) -> str:
    """The deprecated ``verify_prompt``: the one verify request, for the puzzle's data row."""
    if not isinstance(row, dict):
        raise TypeError("verify_prompt takes the puzzle's data row and the answer: "
                        "finereason.core.prompts.verify_prompt(row, candidate)")
    return _one_verify_prompt(row, answer)


def __getattr__(name: str) -> Any:
    """Deprecated names: they still work (``verify_prompt`` with the row, as the one verify request
    takes it), with a warning naming the new one."""
    if name in ("verify_prompt", "VERIFY_INSTRUCTIONS"):
        import warnings

        new = "verify_prompt(row, candidate)" if name == "verify_prompt" else "VERIFY_REQUEST"
        warnings.warn(f"finereason.verification.feedback.{name} is deprecated; use finereason.core.prompts.{new}",
                      DeprecationWarning, stacklevel=2)
        return _verify_prompt if name == "verify_prompt" else _VERIFY_REQUEST
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
