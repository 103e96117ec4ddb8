"""What every format adapter yields: one :class:`Rescored` record per recorded response."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Hashable

from ...common.input_errors import InputError
from ...reading import Reading
from ...verification.explain import explain_reading, withdrawing_signal


@dataclass(frozen=True)
class Rescored:
    """One recorded response, verified again.

    ``ids``: where it comes from (file, instance, round...); ``model``/``condition``: the summary's
    group; ``run``: the verifier table's group (default: the condition); ``recorded``: the recorder's
    verdict (``None`` when it has none); ``sound``: ours (``None`` when it cannot be decided, with the
    ``reason``); ``answered``: whether our reader found a committed answer; ``span``: the committed
    answer's ``{"start", "end", "text"}`` in the response; ``signal``: the withdrawing words, if any;
    ``verifier_key``: records with equal keys count once in the verifier table (``None``: each counts);
    ``response``: the text (kept only for the disagreement page); ``recorded_reason``: the recorder's own
    reason, when it gives one (written only then)."""

    ids: dict[str, Any]
    model: str
    condition: str
    recorded: bool | None
    sound: bool | None
    reason: str
    answered: bool
    span: dict[str, Any] | None = None
    signal: str | None = None
    run: str | None = None
    verifier_key: Hashable = None
    response: str = field(default="", repr=False)
    recorded_reason: str | None = None

    def line(self) -> dict[str, Any]:
        """The ``verdicts.jsonl`` line."""
        line = {"ids": self.ids, "model": self.model, "condition": self.condition, "recorded": self.recorded,
                "sound": self.sound, "reason": self.reason, "answered": self.answered, "span": self.span,
                "signal": self.signal}
        if self.recorded_reason is not None:
            line["recorded_reason"] = self.recorded_reason
        return line


def reading_fields(text: str, region: str | None, reading: Reading) -> dict[str, Any]:
    """``answered``, ``span`` and ``signal`` of a reading (through :func:`~finereason.verification.explain.explain_reading`)."""
    if region is None:
        return {"answered": False, "span": None, "signal": None}
    explained = explain_reading(text, region, reading)
    return {"answered": reading.value is not None, "span": explained["committed"], "signal": withdrawing_signal(reading)}


def recorded_bool(value: Any) -> bool | None:
    """A recorded verdict as a bool: JSON booleans, 0/1 and the words true/false, correct/incorrect,
    yes/no, valid/invalid; ``None`` for anything else (no recorded verdict)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        word = value.strip().lower()[:16]
        if word in ("true", "correct", "yes", "valid", "1"):
            return True
        if word in ("false", "incorrect", "no", "invalid", "0"):
            return False
    return None




def load_json(path: str, what: str) -> Any:
    """A recorded JSON file; one-line :class:`InputError` naming ``path`` when it cannot be read or parsed
    (``what``: the kind of file expected, for the message)."""
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except OSError as err:
        raise InputError(f"cannot read {path}: {err.strerror or err}") from None
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as err:
        raise InputError(f"{path}: not {what} (not JSON: {str(err)[:80]})") from None


def verify_text(engine: Any, inputs: dict[str, Any], text: Any) -> tuple[bool, str, dict[str, Any]]:
    """``(sound, reason, reading fields)`` of an end-to-end response to the puzzle of the official
    ``inputs`` record: the verdict of :func:`~finereason.verification.scoring.score_row` (the one verifier),
    the span and signal from the same reader's :class:`~finereason.reading.Reading`."""
    from ...common.vocabulary import END_TO_END
    from ...reading import final_region
    from ...verification.scoring import score_row

    text = text if isinstance(text, str) else ""
    row = {"domain": engine.name, "task": END_TO_END, "inputs": json.dumps(inputs, sort_keys=True), "outputs": "{}"}
    verdict = score_row(row, text).verdict
    reason = "" if verdict.correct else "; ".join(verdict.reasons) or verdict.category
    region = final_region(text)
    reading = engine.read_answer(region, END_TO_END) if region is not None else Reading(None)
    return verdict.correct, reason, reading_fields(text, region, reading)


__all__ = ["Rescored", "load_json", "reading_fields", "recorded_bool", "verify_text"]
