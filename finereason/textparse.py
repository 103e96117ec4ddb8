"""Bounded readers for hostile model text.

Everything here runs in time linear in the input and never evaluates code: answers are located with
plain string search, and list payloads are read by a small tokenizer that accepts only nested lists
of ASCII integers and quoted strings, with limits on size, depth and element count.
"""
from __future__ import annotations

import re
from typing import Any

from .verdict import ParseError

MAX_PAYLOAD_CHARS = 50_000
MAX_MARKERS_TRIED = 2_000  # occurrences of a keyword examined, last first
LOOSE_WINDOW_CHARS = 65_536  # loose (untagged) answers are looked for near the end only
MAX_DEPTH = 8
MAX_ELEMENTS = 50_000
MAX_INT_DIGITS = 12
MAX_STRING_CHARS = 2_000

_THINK_CLOSE = "</think>"
_THINK_OPEN = "<think>"


def strip_thinking(text: str) -> str:
    """Return the part of ``text`` after the last ``</think>``.

    An opened but never closed ``<think>`` block means the model never left its reasoning:
    nothing after it counts as an answer, so the result is empty.
    """
    if not isinstance(text, str):
        raise ParseError("response is not a string")
    low = text.lower()
    close = low.rfind(_THINK_CLOSE)
    if close >= 0:
        return text[close + len(_THINK_CLOSE):]
    if low.find(_THINK_OPEN) >= 0:
        return ""
    return text


# ---------------------------------------------------------------- state checking choices
_MARKUP = r"[\s*_`$\\{}:\[\]]*"
_TAGGED = re.compile(
    r"answer(?:\s+is)?\s*[:：]?" + _MARKUP + r"(?:\\text\{|\\textbf\{|\\mathrm\{)?\s*"
    r"(?:\(\s*([AB])\s*\)|([AB])(?![A-Za-z])|(un)?(solvable|colorable|colourable)\b)",
    re.IGNORECASE,
)
_LOOSE = re.compile(
    r"\\boxed\{\s*(?:\\text\{)?\s*\(?\s*([AB])\s*\)?|\(\s*([AB])\s*\)|"
    r"\b(not\s+|un)?(solvable|colorable|colourable)\b",
    re.IGNORECASE,
)


def last_match(body: str, low: str, keyword: str, pattern: re.Pattern[str]) -> re.Match[str] | None:
    """The last match of ``pattern`` that starts at an occurrence of ``keyword``.

    ``low`` is ``body.lower()``. Occurrences are found with ``str.rfind`` from the end, so the
    cost is bounded by ``MAX_MARKERS_TRIED`` anchored matches however long the text is.
    """
    pos = len(low)
    for _ in range(MAX_MARKERS_TRIED):
        pos = low.rfind(keyword, 0, pos)
        if pos < 0:
            return None
        match = pattern.match(body, pos)
        if match is not None:
            return match
    return None


def _choice_of(match: re.Match[str]) -> str:
    letter = match.group(1) or match.group(2)
    if letter:
        return letter.upper()
    negated = bool(match.group(3))
    return "B" if negated else "A"


def extract_choice(text: str) -> str | None:
    """The final (A)/(B) choice in ``text``, or ``None``.

    (A) means solvable/colorable and (B) unsolvable/uncolorable. Answers tagged with
    "Answer:" win over loose mentions; among those, the last one wins. Thinking is ignored, and
    loose mentions count only in the last ``LOOSE_WINDOW_CHARS`` characters.
    """
    body = strip_thinking(text)
    low = body.lower()
    tagged = last_match(body, low, "answer", _TAGGED)
    if tagged is not None:
        return _choice_of(tagged)
    start = max(0, len(body) - LOOSE_WINDOW_CHARS)
    last = None
    for last in _LOOSE.finditer(body, start):
        pass
    return _choice_of(last) if last is not None else None


# ---------------------------------------------------------------- "Next state:" payloads
_NEXT_STATE = re.compile(r"next\s+state", re.IGNORECASE)


def extract_marked_payload(text: str, keyword: str = "next", marker: re.Pattern[str] = _NEXT_STATE) -> str:
    """The bracketed payload after the last ``marker`` (starting with ``keyword``) in the answer.

    Returns the text from the first ``[`` after the marker to its matching ``]``. Raises
    :class:`ParseError` when there is no marker, no list, unbalanced brackets or a payload
    beyond the limits.
    """
    body = strip_thinking(text)
    last = last_match(body, body.lower(), keyword, marker)
    if last is None:
        raise ParseError("no 'Next state:' found in the answer")
    return bracketed(body, last.end())


_SOLUTION_MARKS = (("answer", re.compile(r"answer", re.IGNORECASE)), ("solution", re.compile(r"solution", re.IGNORECASE)))


def extract_solution_payload(text: str) -> str:
    """The bracketed list after the last "answer"/"solution" (or the first list when neither appears)."""
    body = strip_thinking(text)
    low = body.lower()
    ends = [m.end() for kw, pat in _SOLUTION_MARKS if (m := last_match(body, low, kw, pat)) is not None]
    return bracketed(body, max(ends) if ends else 0)


def bracketed(text: str, start: int = 0) -> str:
    """The first balanced ``[...]`` span at or after ``start`` (quotes respected)."""
    begin = text.find("[", start)
    if begin < 0:
        raise ParseError("no list found after the marker")
    depth = 0
    quote = ""
    i = begin
    end_limit = min(len(text), begin + MAX_PAYLOAD_CHARS)
    while i < end_limit:
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "[":
            depth += 1
            if depth > MAX_DEPTH:
                raise ParseError(f"list nested deeper than {MAX_DEPTH} levels")
        elif ch == "]":
            depth -= 1
            if depth == 0:
                return text[begin:i + 1]
        i += 1
    raise ParseError("unbalanced brackets or payload too long")


_TOKEN = re.compile(
    r"""\s*(?:(?P<open>\[)|(?P<close>\])|(?P<comma>,)|(?P<float>[+-]?[0-9]{1,15}\.[0-9]{1,15})(?![0-9A-Za-z_.])|(?P<int>[+-]?[0-9]+)(?![0-9A-Za-z_.])|"""
    r"""(?P<str>'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"))""",
)


def parse_literal(text: str) -> Any:
    """Parse a nested list of ASCII integers, plain decimals and quoted strings (a subset of Python literals).

    Accepts trailing commas. Rejects everything else (names, calls, floats, operators, unicode
    digits) with :class:`ParseError`. Bounded by ``MAX_*`` limits.
    """
    if len(text) > MAX_PAYLOAD_CHARS:
        raise ParseError("payload too long")
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


def read_payload(text: str) -> Any:
    """Locate the last "Next state:" list in ``text`` and parse it."""
    return parse_literal(extract_marked_payload(text))
