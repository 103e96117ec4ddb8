"""What the multi-round workflows (the self-correction loop, :mod:`.loop`, and the FOLIO actor-critic
loop, :mod:`.arc`) share: their output file names, the response cap and accuracy by round."""
from __future__ import annotations

from typing import Callable, Sequence, TypeVar

from ..verification.metrics import json_value, ratio

MAX_RESPONSE_CHARS = 200_000
"""A response longer than this is cut before it is read or stored (a runaway generation)."""
TRANSCRIPTS = "transcripts.jsonl"
SUMMARY = "summary.json"

D = TypeVar("D")


def accuracy_at_rounds(dialogs: Sequence[D], rounds: int, correct_at: Callable[[D, int], bool]) -> dict[int, float | None]:
    """``{r: accuracy of a run capped at r rounds}`` for ``r`` in ``1..rounds``: the share of dialogs whose
    answer after at most ``r`` rounds is correct (``correct_at(dialog, r)``); ``None`` (undefined) for no dialog."""
    return {r: json_value(ratio(sum(bool(correct_at(d, r)) for d in dialogs), len(dialogs))) for r in range(1, rounds + 1)}


__all__ = ["MAX_RESPONSE_CHARS", "SUMMARY", "TRANSCRIPTS", "accuracy_at_rounds"]
