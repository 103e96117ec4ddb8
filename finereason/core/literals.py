"""Bounded readers for hostile model text: the literal reader, and entry points into the answer reader.

Answers are located by :mod:`finereason.reading` (the one answer reader); list payloads are read
here by a small tokenizer that accepts only nested lists of ASCII integers, plain decimals and quoted
strings, with limits on size, depth and element count. Everything runs in time linear in the input
and never evaluates code.
"""
from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

from ..common.verdict import ParseError
from ..reading.region import final_region

MAX_PAYLOAD_CHARS = 50_000
MAX_DEPTH = 8
MAX_ELEMENTS = 50_000
MAX_INT_DIGITS = 12
MAX_STRING_CHARS = 2_000


def strip_thinking(text: str) -> str:
    """The final region of ``text`` (after the last ``</think>``); empty when reasoning is unfinished.

    See :func:`finereason.reading.final_region`, which tells the two apart (``None``).
    """
    if not isinstance(text, str):
        raise ParseError("response is not a string")
    region = final_region(text)
    return "" if region is None else region


_TOKEN = re.compile(
    r"""\s*(?:(?P<open>\[)|(?P<close>\])|(?P<comma>,)|(?P<float>[+-]?[0-9]{1,15}\.[0-9]{1,15})(?![0-9A-Za-z_.])|(?P<int>[+-]?[0-9]+)(?![0-9A-Za-z_.])|"""
    r"""(?P<str>'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"))""",
)


_NOT_INT_LIST = str.maketrans("", "", "0123456789[], \t\n\r-")    # leaves what an int list may not hold
_SHAPE = str.maketrans("123456789", "000000000", ", \t\n\r-")       # digits become 0, separators go
_LONG_INT = "0" * (MAX_INT_DIGITS + 1)
_DEPTH_STEP = {"[": 1, "]": -1}


def _int_lists(text: str) -> Any:
    """Fast path for nested lists of integers (most states): the C JSON reader, or ``None``.

    Only text made of digits, brackets, commas, minus signs and whitespace gets here, and JSON reads
    such text exactly as Python would (anything JSON rejects, e.g. a trailing comma, takes the slow path).
    """
    if text.translate(_NOT_INT_LIST):
        return None
    shape = text.translate(_SHAPE)
    if _LONG_INT in shape:
        return None
    brackets = shape.replace("0", "")
    if (len(brackets) > 2 * MAX_DEPTH and brackets.replace("[]", "").replace("[]", "")  # empty: two levels at most
            and max(accumulate(map(_DEPTH_STEP.__getitem__, brackets))) > MAX_DEPTH):
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def parse_literal(text: str) -> Any:
    """Parse a nested list of ASCII integers, plain decimals and quoted strings (a subset of Python literals).

    Accepts trailing commas. Rejects everything else (names, calls, floats, operators, unicode
    digits) with :class:`ParseError`. Bounded by ``MAX_*`` limits.
    """
    if len(text) > MAX_PAYLOAD_CHARS:
        raise ParseError("payload too long")
    fast = _int_lists(text)
    if isinstance(fast, list):
        return fast
    pos = 0
    n = len(text)
    stack: list[list[Any]] = []
    result: Any = None
    count = 0
    expect_value = True
    while True:
        m = _TOKEN.match(text, pos)
        if m is None:
            if text[pos:].strip() == "" and not stack and result is not None:
                return result
            raise ParseError(f"unexpected text at offset {pos}: {text[pos:pos + 20]!r}")
        pos = m.end()
        kind = m.lastgroup
        if kind == "open":
            if not expect_value or (result is not None and not stack):
                raise ParseError("unexpected '['")
            if len(stack) >= MAX_DEPTH:
                raise ParseError("list nested too deeply")
            stack.append([])
            expect_value = True
            continue
        if kind == "comma":
            if expect_value or not stack:
                raise ParseError("unexpected ','")
            expect_value = True
            continue
        if kind == "close":
            if not stack:
                raise ParseError("unexpected ']'")
            done = stack.pop()
            value: Any = done
        else:
            if not expect_value or not stack:
                raise ParseError("unexpected value")
            raw = m.group(kind)
            if kind == "int":
                if len(raw.lstrip("+-")) > MAX_INT_DIGITS:
                    raise ParseError("integer too long")
                value = int(raw)
            elif kind == "float":
                value = float(raw)  # plain decimals only (grid tables hold prices like 24.99)
            else:
                if len(raw) > MAX_STRING_CHARS:
                    raise ParseError("string too long")
                value = _unquote(raw)
        count += 1
        if count > MAX_ELEMENTS:
            raise ParseError("too many elements")
        if stack:
            stack[-1].append(value)
            expect_value = False
        else:
            result = value
            expect_value = False
            if pos >= n or text[pos:].strip() == "":
                return result


_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}


def _unquote(raw: str) -> str:
    """The text of a quoted string, with Python's escapes (no ``\\N{...}``) decoded."""
    body = raw[1:-1]
    if "\\" not in body:
        return body
    out = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch != "\\" or i + 1 >= len(body):
            out.append(ch)
            i += 1
            continue
        nxt = body[i + 1]
        if nxt in _HEX_ESCAPES:
            width = _HEX_ESCAPES[nxt]
            digits = body[i + 2:i + 2 + width]
            if len(digits) != width or any(c not in "0123456789abcdefABCDEF" for c in digits):
                raise ParseError(f"bad \\{nxt} escape in a string")
            code = int(digits, 16)
            if code > 0x10FFFF:
                raise ParseError("escape beyond unicode range")
            out.append(chr(code))
            i += 2 + width
        else:
            out.append(_SIMPLE_ESCAPES.get(nxt, nxt))
            i += 2
    return "".join(out)
