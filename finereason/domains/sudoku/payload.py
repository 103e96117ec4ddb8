"""Reading a Sudoku answer list at C speed: the common shape, nine rows of nine single digits."""
from __future__ import annotations

from ...core.literals import MAX_PAYLOAD_CHARS

_SPACE = b" \t\n\r"  # the whitespace the literal reader's JSON fast path accepts between tokens
_SHAPE = bytes.maketrans(b"123456789", b"000000000")  # every digit becomes 0
_NINE_ROWS = ("[" + ",".join(["[" + ",".join("0" * 9) + "]"] * 9) + "]").encode()
_VALUES = bytes.maketrans(b"0123456789", bytes(range(10)))  # a digit becomes its value


def digit_grid(payload: str) -> tuple[int, ...] | None:
    """The 81-tuple of a 9x9 list of single ASCII digits (``[[5, 3, 0, ...], ...]``), or ``None``.

    Exactly what ``parse_grid(parse_literal(payload))`` returns for such a list (every cell is an
    int in 0..9); any other text (too long, a trailing comma, quotes, longer numbers, another shape)
    is ``None``, for the general readers to decide.
    """
    if len(payload) > MAX_PAYLOAD_CHARS or not payload.isascii():
        return None
    raw = payload.encode("ascii")
    if raw.translate(_SHAPE, _SPACE) != _NINE_ROWS:
        return None
    return tuple(raw.translate(_VALUES, _SPACE + b"[],"))
