"""Reading a Sudoku answer list at C speed: the common shape, nine rows of nine single digits."""
from __future__ import annotations

import re

_WS = r"[ \t\n\r]*"  # the whitespace the literal reader's JSON fast path accepts
_ROW = r"\[" + _WS + r"[0-9]" + (_WS + "," + _WS + r"[0-9]") * 8 + _WS + r"\]"
_NINE_ROWS = re.compile(r"\[" + _WS + _ROW + (_WS + "," + _WS + _ROW) * 8 + _WS + r"\]")
# digits become the bytes 0..9, everything else the pattern allows (brackets, commas, whitespace) goes
_DIGIT_BYTES = {ord(str(d)): d for d in range(10)} | dict.fromkeys(map(ord, "[], \t\n\r"))


def digit_grid(payload: str) -> tuple[int, ...] | None:
    """The 81-tuple of a 9x9 list of single ASCII digits (``[[5, 3, 0, ...], ...]``), or ``None``.

    Exactly what ``parse_grid(parse_literal(payload))`` returns for such a list (every cell is an
    int in 0..9); any other text (a trailing comma, quotes, longer numbers, another shape) is
    ``None``, for the general readers to decide.
    """
    if _NINE_ROWS.fullmatch(payload) is None:
        return None
    return tuple(payload.translate(_DIGIT_BYTES).encode("ascii"))
