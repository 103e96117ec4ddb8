"""Game-of-24 arithmetic in model text: one run of arithmetic characters read as an expression.

The pieces :mod:`.answer` builds its answer statements from: :func:`clean_math` takes markdown and
LaTeX wrappers off (``**``, backticks, ``$``, ``\\boxed{}``, ``\\times``, ``x`` between operands);
:func:`tail_kind` says what follows a run on its line (nothing, a remark, another expression offered,
or a sign that belongs to the math); :func:`read_run` reads one run (sides of an ``=`` chain, the
expression among them, a working step, the target alone, a cut-off); :func:`expression_items` reads
the items of a Game-of-24 state list. Every expression is parsed within :mod:`finereason.domains.game_of_24.arith`'s
bounds; nothing is evaluated as code.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ...common.verdict import ParseError
from ...reading.lists import list_end
from .arith import MAX_CHARS, DivisionByZero, Num, count_ops, evaluate, parse

MAX_EXPRESSION_ITEMS = 64      # items in an expression list
MAX_SIDES = 8                  # sides of one '=' chain
MAX_RUN = 8 * MAX_CHARS       # longest run of arithmetic characters read as one statement
_MARKUP_SPANS = (
    ("\\displaystyle", " "), ("\\quad", " "), ("\\qquad", " "), ("\\(", " "), ("\\)", " "), ("\\[", " "),
    ("\\]", " "), ("$", " "), ("`", " "), ("**", " "), ("__", " "), ("&", " "), ("\\checkmark", " "),
    ("✓", " "), ("✔", " "), ("✅", " "), ("\\text{", "{"), ("\\textbf{", "{"), ("\\mathrm{", "{"),
    ("\\mathbf{", "{"),
)
_TIMES_X = re.compile(r"(?<=[0-9)}])[ ]{0,3}[xX][ ]{0,3}(?=[0-9({\\])")
# a run of arithmetic characters: digits, signs, brackets, '=', LaTeX commands, markdown, 'x' between operands
RUN = re.compile(
    r"(?=[0-9(\\$`*=−–-])(?:[0-9(){}+\-*/=. \t×÷−–·⋅∗$`]|\\[A-Za-z]{1,12}|\\[()\[\],;!: ]"
    r"|(?<=[0-9)} \t])[xX](?=[ \t(0-9{\\]))+"
)
STEP = re.compile(r"\(?[ \t]*\d+(?:\.\d+)?[ \t]*(?:[-+*/×÷−–·⋅∗]|\\times|\\div|\\cdot)[ \t]*\d+(?:\.\d+)?[ \t]*\)?")
# an equation whose expression is one operation between two numbers, then numbers: "16 + 8 = 24", "3 / 6 = 0.5"
STEP_EQUATION = re.compile(
    r"[ \t]*\(?[ \t]*\d+(?:\.\d+)?[ \t]*(?:[-+*/×÷−–·⋅∗]|\\times|\\div|\\cdot)[ \t]*\d+(?:\.\d+)?[ \t]*\)?"
    r"(?:[ \t]*=[ \t]*\(?[ \t]*\d+(?:\.\d+)?[ \t]*\)?)+[ \t]*"
)
NUMBER = re.compile(r"\(?[ \t]*\d+(?:\.\d+)?[ \t]*\)?")
TAIL_HEDGE = re.compile(
    r"[ \t]*(?:[;|/][ \t]*|(?:,[ \t]*)?(?:or|and/or|and|alternatively|otherwise|vs\.?|versus)\b[ \t:,]*)"
    r"(?:\*\*|`|\$|\\\(|[ \t])*[0-9(\[\\]",
    re.IGNORECASE,
)
REJECT_CORE = (
    r"(?:is|was|also|again|still|clearly|which is|this is|that is|it's|that's)[ \t]{1,3}"
    r"(?:incorrect|wrong|invalid|not correct|not valid|not right)\b"
    r"|(?:does|do|did)(?:n't|n’t| not)[ \t]{1,3}(?:quite[ \t]{1,3})?(?:equal|yield|give|reach|work|achieve|produce|result"
    r"|lead|get|make|hit|add up|come to|match|solve)\b"
    r"|(?:is|are|was)(?:n't|n’t| not)[ \t]{1,3}(?:equal|24|correct|valid|right|it)\b"
    r"|not[ \t]{1,3}(?:equal|yielding|reaching|achieving|giving|getting|24)\b|still[ \t]{1,3}(?:not|incorrect|wrong|off)\b"
    r"|fail(?:s|ed)?\b|off[ \t]{1,3}(?:target|by)\b"
)
_MATH_WORDS = frozenset({"mod", "modulo", "squared", "cubed", "sqrt", "root", "factorial", "power", "pow", "log", "ln",
                         "exp", "percent", "times", "plus", "minus", "over", "divided", "multiplied", "x", "pi", "e"})
_CLOSING = frozenset(".!?;:,\"'”’")
_ALLOWED_SYMBOLS = frozenset("✓✔✅→⇒⟹")
_ITEM_JUNK = " \t\r\n'\"*_"
MAX_LINE_TAIL = 300           # characters after a statement examined for a remark


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


# ------------------------------------------------------------------ one run of arithmetic
@dataclass(frozen=True)
class Read:
    """What one run of arithmetic says: ``node`` (its expression; ``None`` when unreadable), why it
    does not commit (``hedged``), whether it is cut off, whether it is only a working step, whether
    it is the target alone."""

    node: Any = None
    hedged: str = ""
    complete: bool = True
    step: bool = False
    target_only: bool = False
    ops: int = 0


def tail_kind(region: str, at: int, line_end: int, last_is_number: bool) -> str:
    """What follows a run: ``end`` (nothing, or closing punctuation), ``prose`` (a remark),
    ``hedge`` (another expression offered), or ``junk`` (a sign or word that belongs to the math)."""
    tail = region[at:min(line_end, at + MAX_LINE_TAIL)]
    if tail.startswith(">") and at > 0 and region[at - 1] in "=-":
        return "prose"  # an arrow: "=>", "-->"
    hedge = TAIL_HEDGE.match(tail)
    if hedge:
        following = RUN.match(region, at + hedge.end() - 1, line_end)
        step = (following is not None and tail.lstrip(" \t")[:1] == ";"
                and STEP.fullmatch(clean_math(following.group().split("=")[0]).strip()) is not None)
        return "prose" if step else "hedge"  # "= 12; (12 * 2) = 24" goes on working
    text = tail.lstrip(" \t")
    if not text:
        return "end"
    first = text[0]
    if first in _CLOSING:
        if first == "!" and not (last_is_number and "=" in region[max(0, at - MAX_LINE_TAIL):at]):
            return "junk"  # "(10 - 4)!" is a factorial, "= 24!" an exclamation
        rest = text.lstrip("".join(_CLOSING) + " \t")
        return "end" if not rest else "prose"
    if first in _ALLOWED_SYMBOLS:
        return "prose"
    if first.isascii() and first.isalpha():
        word = re.match(r"[A-Za-z]+", text)
        return "junk" if word is None or word.group().lower() in _MATH_WORDS else "prose"
    return "junk"


def strip_run(run: str, kind: str) -> str:
    """The run without its trailing spaces, closing full stop and, before a remark, a dangling
    ``(``, ``=`` or spaced dash."""
    text = run.rstrip(" \t")
    if kind in ("prose", "hedge"):
        while text and (text[-1] in "(=" or (text[-1] in "-–−" and len(text) > 1 and text[-2] in " \t-=")):
            text = text[:-1].rstrip(" \t")
    while text.endswith("."):
        text = text[:-1].rstrip(" \t")
    return text


def read_run(text: str, *, marked: bool, at_end: bool, target: int) -> Read | None:
    """Read one run of arithmetic (already stripped). ``None``: not a statement (no expression)."""
    if len(text) > MAX_RUN:
        return Read(hedged=f"the answer is longer than {MAX_RUN} characters")
    cleaned = clean_math(text)
    sides = [side.strip() for side in cleaned.split("=", MAX_SIDES)]
    while sides and not sides[0]:
        sides.pop(0)
    while sides and not sides[-1]:
        sides.pop()
    if not sides:
        return None
    if len(sides) > MAX_SIDES or any(not side for side in sides):
        return Read(hedged="the answer is not one arithmetic statement")
    if at_end and sides[-1].count("(") > sides[-1].count(")"):  # "Answer: (1" at the end: cut off
        return Read(hedged="the answer is cut off before it ends", complete=False)
    parsed: list[Any] = []
    for side in sides:
        try:
            parsed.append(parse(side))
        except ParseError as err:
            parsed.append(err)
    main_at = next((k for k, node in enumerate(parsed)
                    if not isinstance(node, Num) and not NUMBER.fullmatch(sides[k])), None)
    if main_at is None:  # numbers only: "24", "Answer: 25", "24 = 24"
        number = parsed[0]
        if marked and isinstance(number, Num) and len(parsed) == 1 and number.value != target:
            return Read(node=number)
        return Read(target_only=True) if marked else None
    main = parsed[main_at]
    step = not marked and STEP.fullmatch(sides[main_at]) is not None
    if isinstance(main, ParseError):
        if not marked and not any(ch in sides[main_at] for ch in "+-*/×÷−–·⋅∗\\"):
            return None
        body = sides[main_at].rstrip()
        cut = at_end and (body[-1:] in "+-*/×÷−–·⋅∗(\\" or body.count("(") > body.count(")"))
        return Read(hedged=f"the answer is not an arithmetic expression: {main}", complete=not cut, step=step)
    try:
        value = evaluate(main)
    except DivisionByZero:
        return Read(node=main, step=step, ops=count_ops(main))  # the verifier reports the division by zero
    if value == target:
        for k, node in enumerate(parsed):
            if k == main_at:
                continue
            try:
                same = not isinstance(node, ParseError) and evaluate(node) == value
            except DivisionByZero:
                same = False
            if not same:
                return Read(node=main, hedged="the sides of '=' in the answer differ: an unsound claim", step=step,
                             ops=count_ops(main))
    return Read(node=main, step=step, ops=count_ops(main))  # a wrong value is reported by the verifier


def expression_items(payload: str) -> list[Any]:
    """The items of a Game-of-24 state list: quoted or bare expressions, plain or LaTeX, as texts."""
    from ...core.literals import parse_literal  # noqa: PLC0415

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
