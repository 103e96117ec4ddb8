"""Game-of-24 answer syntax: arithmetic expressions and expression lists in model text.

The domain's plug-in to the answer reader (:mod:`finereason.reading`): it finds the expression
answer statements of a final region, and the commitment rule picks the answer.
"""
from __future__ import annotations

import re
from typing import Any

from ...reading.commit import Reading, Statement, commit
from ...reading.lists import EXPRESSION_MARKS, MAX_ATTEMPTS, SOLUTION_MARKS, last_marks, list_end, list_reading
from ...reading.region import blank_tags
from ...reading.withdrawals import find_signals
from ...verdict import ParseError

MAX_EXPRESSION_ITEMS = 64      # items in an expression list
_MARKUP_SPANS = (
    ("\\displaystyle", " "), ("\\quad", " "), ("\\qquad", " "), ("\\(", " "), ("\\)", " "), ("\\[", " "),
    ("\\]", " "), ("$", " "), ("`", " "), ("**", " "), ("__", " "), ("&", " "), ("\\checkmark", " "),
    ("✓", " "), ("✔", " "), ("✅", " "), ("\\text{", "{"), ("\\textbf{", "{"), ("\\mathrm{", "{"),
    ("\\mathbf{", "{"),
)
_TIMES_X = re.compile(r"(?<=[0-9)}])[ ]{0,3}[xX][ ]{0,3}(?=[0-9({\\])")
_MARK_INTRO = re.compile(r"(?:[\s*_:：=>`$#—]|\b(?:is|would|be|final|my|the|expression)\b)*", re.IGNORECASE)
_LEAD_PROSE = re.compile(
    r"[A-Za-z][A-Za-z ,']{0,80}?(?:\b(?:is|be|get|gives|as|use|by)\b|[:,])\s+(?=[0-9(\[{\\-])"
)
_PROSE_TAIL = re.compile(
    r"[.,;:][ \t]{1,8}(?=[A-Za-z])(?!(?:or|and|alternatively|otherwise|maybe|perhaps|possibly|either|plus)\b)|[ \t]{1,8}\((?=[A-Za-z])|[ \t]{1,8}[—–-]{1,2}[ \t]{1,8}(?=[A-Za-z])|"
    r"[ \t]{1,8}(?=(?:because|since|which|where|using|with|thus|hence|therefore|so|as|this|that|it|each|all|uses|works|"
    r"and[ \t]{1,8}(?:it|this|that|each|all|every))\b)",
    re.IGNORECASE,
)
_EXPRESSION_START = frozenset("0123456789([{\\")
_NEXT_LINE_HEDGE = re.compile(r"\s{0,40}(?:or|alternatively|and/or|otherwise)\b", re.IGNORECASE)
_COLON_AFTER = re.compile(r"[*_ ]{0,4}[:：]")
_MAX_LINE_CHARS = 2_000


def _boxed_contents(text: str) -> str:
    """``text`` with every ``\\boxed{X}`` replaced by ``X`` (braces matched, linear)."""
    out: list[str] = []
    pos = 0
    while True:
        at = text.find("\\boxed{", pos)
        if at < 0:
            out.append(text[pos:])
            return "".join(out)
        out.append(text[pos:at])
        depth, i = 1, at + 7
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        out.append(" " + text[at + 7:i - 1 if depth == 0 else i] + " ")
        pos = i


def clean_math(text: str) -> str:
    """Arithmetic text without markdown and LaTeX wrappers (``**``, backticks, ``$``, ``\\boxed{}``, ...);
    a lone ``x``/``X`` between two operands (``6 x 4``, ``(2 + 1)x(7 + 1)``) becomes ``*``."""
    text = _boxed_contents(text)
    for old, new in _MARKUP_SPANS:
        if old in text:
            text = text.replace(old, new)
    if "x" in text or "X" in text:
        text = _TIMES_X.sub("*", text)
    return text


def _statement_node(cleaned: str, target: int) -> Any:
    """The expression of one answer statement (text already through :func:`clean_math`): ``expr``,
    ``expr = 24``, ``24 = expr`` or ``expr = 6 * 4 = 24``.

    The whole statement must read: every side of ``=`` parses and has the expression's value.
    """
    from ...arith import DivisionByZero, evaluate, parse  # noqa: PLC0415

    text = cleaned.strip()
    lead = _LEAD_PROSE.match(text)
    if lead:
        text = text[lead.end():]
    tail = _PROSE_TAIL.search(text)
    if tail:
        text = text[:tail.start()]
    text = text.strip().rstrip(".").strip()
    sides = [side.strip() for side in text.split("=")]
    if len(sides) > 8 or any(not side for side in sides):
        raise ParseError("the answer is not one arithmetic statement")
    nodes = [parse(side) for side in sides]
    main = next((node for node in nodes if not hasattr(node, "value")), nodes[0])
    try:
        value = evaluate(main)
        if value == target and any(evaluate(node) != value for node in nodes):
            # "(10 - 4) * (13 - 9) = 25": the model does not claim to reach the target
            raise ParseError("the sides of '=' in the answer differ")
    except DivisionByZero:
        pass  # the verifier reports the division by zero
    return main  # a wrong value is reported by the verifier ("evaluates to 10, not 24")


def _answer_lines(region: str, end: int) -> str:
    """The answer text after a marker ending at ``end``: the rest of its line, or the next non-empty line.

    Raises :class:`ParseError` when the next line offers an alternative ("or ...").
    """
    intro = _MARK_INTRO.match(region, end, min(len(region), end + 200))
    start = intro.end() if intro else end
    line_end = region.find("\n", start)
    line = region[start:line_end if line_end >= 0 else len(region)]
    if not line.strip() and line_end >= 0:
        start = line_end + 1
        line_end = region.find("\n", start)
        line = region[start:line_end if line_end >= 0 else len(region)]
    if line_end >= 0 and _NEXT_LINE_HEDGE.match(region, line_end, min(len(region), line_end + 80)):
        raise ParseError("the final answer offers more than one expression")
    return line[:_MAX_LINE_CHARS]


def _answer_bearing(cleaned: str) -> bool:
    """Whether an answer's text (already through :func:`clean_math`) starts with an expression."""
    text = cleaned.lstrip()
    lead = _LEAD_PROSE.match(text)
    if lead:
        text = text[lead.end():]
    return bool(text) and (text[0] in _EXPRESSION_START or text[0] in "−–-")


def arithmetic_answer(region: str, target: int = 24) -> Any:
    """The Game-of-24 end-to-end answer in ``region``: an expression node, or a list payload (``str``).

    The last explicit answer (``Answer:``, ``Solution:``, ``\\boxed{}``) that holds an expression wins;
    without one, the last line with an ``=`` (else the last non-empty line). The whole statement must
    parse: a valid-looking prefix (``(10 - 4) * (13 - 9) mod 5``) is rejected.
    """
    for start, end in reversed(last_marks(region, EXPRESSION_MARKS, MAX_ATTEMPTS)):
        if region[start] == "\\":
            segment = _boxed_contents(region[start:start + _MAX_LINE_CHARS])
            close = segment.find("\n")
            segment = segment if close < 0 else segment[:close]
        else:
            segment = _answer_lines(region, end)
        cleaned = clean_math(segment)
        stripped = cleaned.lstrip(" \t*_:")
        if stripped.startswith("["):
            return _marked_list(region[start:])
        if _answer_bearing(cleaned):
            return _statement_node(cleaned, target)
        if stripped.strip() and _COLON_AFTER.match(region, end, min(len(region), end + 8)):
            raise ParseError(f"the answer is not an arithmetic expression: {stripped.strip()[:40]!r}")
    body = region.rstrip()
    at = body.rfind("=")
    anchor = at if at >= 0 else len(body) - 1
    if anchor < 0:
        raise ParseError("no arithmetic expression found in the answer")
    line = body[body.rfind("\n", 0, anchor) + 1:]
    stop = line.find("\n")
    line = line if stop < 0 else line[:stop]
    if not line.strip():
        raise ParseError("no arithmetic expression found in the answer")
    return _statement_node(clean_math(line[-_MAX_LINE_CHARS:]), target)


def expression_items(payload: str) -> list[Any]:
    """The items of a Game-of-24 state list: quoted or bare expressions, plain or LaTeX, as texts."""
    from ...textparse import parse_literal  # noqa: PLC0415

    if "\\" not in payload:  # parse_literal would read "\t" in "\times" as a tab
        try:
            value = parse_literal(payload)
        except ParseError:
            value = None
        if isinstance(value, list):
            while len(value) == 1 and isinstance(value[0], list):
                value = value[0]
            return [clean_math(v).strip(_ITEM_JUNK) if isinstance(v, str) else v for v in value]
    inner = clean_math(payload.replace("\\[", "[").replace("\\]", "]")).strip()
    if inner.startswith("[") and inner.endswith("]"):
        inner = inner[1:-1].strip()
    if inner.startswith("[") and inner.endswith("]") and list_end(inner, 0) == len(inner):
        return expression_items(inner)  # a list wrapped in display-math brackets
    items: list[str] = []
    depth = 0
    start = 0
    for i, ch in enumerate(inner):
        if ch in "({":
            depth += 1
        elif ch in ")}":
            depth -= 1
        elif ch == "," and depth <= 0:
            items.append(inner[start:i])
            start = i + 1
            if len(items) > MAX_EXPRESSION_ITEMS:
                raise ParseError(f"the state lists more than {MAX_EXPRESSION_ITEMS} expressions")
    items.append(inner[start:])
    cleaned = [item.strip(_ITEM_JUNK) for item in items]
    if len(cleaned) > 1 and cleaned[-1] == "":
        cleaned.pop()  # trailing comma
    return [] if cleaned == [""] else cleaned


_ITEM_JUNK = " \t\r\n'\"*_"




def _marked_list(region: str) -> str:
    reading = list_reading(region, SOLUTION_MARKS, what="solution")
    if reading.value is None:
        raise ParseError(reading.reason)
    return reading.value


def expression_reading(region: str, target: int = 24) -> Reading:
    """The committed end-to-end answer of a final region: an expression node or a list payload."""
    region = blank_tags(region)
    signals = find_signals(region, solving=True)
    try:
        value = arithmetic_answer(region, target)
    except ParseError as err:
        return Reading(None, str(err))
    statement = Statement(0, len(region.rstrip()), value=value, key=repr(value), marked=True)
    return commit([statement], signals, what="expression")
