"""Sudoku answers at C speed: reading the common list shape (nine rows of nine single digits), and
finding the units of a grid that may repeat a digit."""
from __future__ import annotations

from operator import getitem
from typing import Sequence

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


_ROWS = [[r * 9 + c for c in range(9)] for r in range(9)]
#: rows, columns, then boxes row-major: the engine's unit order
UNITS = tuple(map(tuple, _ROWS + [list(col) for col in zip(*_ROWS)]
                  + [[(b // 3 * 3 + r) * 9 + b % 3 * 3 + c for r in range(3) for c in range(3)] for b in range(9)]))
# a cell holding d adds 16**d to a 40-bit count field of each of its three units; a count is at most 9,
# so nothing carries, and the sum is _SOLVED exactly when every unit holds each of 1..9 once
_CELL_COUNTS = tuple(tuple(sum(16 ** d << 40 * u for u, unit in enumerate(UNITS) if i in unit) for d in range(10))
                     for i in range(81))
_SOLVED = sum(sum(16 ** d for d in range(1, 10)) << 40 * u for u in range(27))
_FIELD = (1 << 40) - 1
# digit d of cell i as one byte per unit kind: u * 9 + d for its row, column and box u (added to the grid's
# bytes read as one int: no byte carries); a grid of 1..9 is solved iff all 243 codes occur
_ONE_TO_NINE = bytes(range(1, 10))
_CODES = bytes(range(1, 244))
_OFFSETS = tuple(int.from_bytes(bytes(next(u for u in range(k * 9, k * 9 + 9) if i in UNITS[u]) * 9 for i in range(81)),
                                "big") for k in range(3))


def units_to_check(grid: Sequence[int]) -> Sequence[int]:
    """The units (indexes into :data:`UNITS`, in order) of a grid that may repeat a digit: for an
    81-cell grid those not holding each of 1..9 once (their count fields differ from a solved grid's:
    one C-speed sum, then one step per such unit; for a grid of digits 1..9, the (unit, digit) codes
    its bytes lack, at C speed); every unit for another length."""
    if len(grid) != 81:
        return range(27)
    try:
        raw = bytes(grid)
    except (TypeError, ValueError):
        raw = b"\x00"
    if not raw.translate(None, _ONE_TO_NINE):  # every cell holds 1..9: which (unit, digit) codes are missing
        cells = int.from_bytes(raw, "big")
        missing = _CODES.translate(None, b"".join([(cells + offset).to_bytes(81, "big") for offset in _OFFSETS]))
        return sorted({(code - 1) // 9 for code in missing})  # a unit lacks a digit iff it repeats one
    diff = sum(map(getitem, _CELL_COUNTS, grid)) ^ _SOLVED
    units = []
    while diff:
        u = ((diff & -diff).bit_length() - 1) // 40
        units.append(u)
        diff &= ~(_FIELD << 40 * u)
    return units
