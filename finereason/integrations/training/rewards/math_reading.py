"""Reading a completion's math answer: the committed final ``\\boxed{}`` answer (:func:`math_answer`),
read by the math answer kind of the reader (:func:`finereason.reading.boxed.boxed_reading`: capped,
counted, depth-limited boxes under the one commitment rule, the one hedge table), with explosive
constructs refused, and plain numbers and fractions as exact values."""
from __future__ import annotations

import re
from fractions import Fraction

from finereason.reading.boxed import box_hedged, box_key, boxed_reading

# Bounds of the math reward (issue: math verification of any completion within a fixed time budget).
MAX_BOXED_CHARS = 256      # a longer boxed answer earns nothing (and is never parsed)
MAX_BOXES = 32             # more boxed answers than this in the final region is spam: uncommitted
MAX_BRACE_DEPTH = 8        # deeper nesting in a boxed answer is refused

_HEAVY = re.compile(r"\\(?:sum|prod|int|iint|oint|lim|binom|dbinom|tbinom|choose)(?![A-Za-z])|\*\*")
_NUMBER = re.compile(r"([+-]?)(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?|\.\d+)")
_FRACTION = re.compile(r"([+-]?)\\[dt]?frac(?:\{([+-]?\d{1,30})\}\{([+-]?\d{1,30})\}|(\d)(\d))|([+-]?)(\d{1,30})/(\d{1,30})")


def _normal(content: str) -> str:
    return box_key(content)


def _exponents_explode(content: str) -> bool:
    """Whether ``content`` asks for a huge number (``10^{10^{10}}``, ``{9^9}^9``, ``(10^{99})!``,
    ``9^{99999}``): such numbers are computed in C, where no timeout can stop them."""
    for i, ch in enumerate(content):
        if ch == "!" and i and (content[i - 1] in ")}]" or content[max(0, i - 4):i].isdigit()):
            return True  # factorial of a group or of a number with 4+ digits
        if ch != "^":
            continue
        exponent = _group_after(content, i + 1)
        if "^" in exponent or "!" in exponent or any(len(run) > 3 for run in re.findall(r"\d+", exponent)):
            return True
        if i and content[i - 1] in ")}]" and "^" in _group_before(content, i - 1):
            return True  # a power of a power
    return False


def _group_after(text: str, i: int) -> str:
    """The exponent starting at ``text[i]``: a braced group, else one character."""
    while i < len(text) and text[i] == " ":
        i += 1
    if i >= len(text):
        return ""
    if text[i] != "{":
        return text[i]
    depth, j = 0, i
    while j < len(text):
        depth += {"{": 1, "}": -1}.get(text[j], 0)
        j += 1
        if depth == 0:
            break
    return text[i:j]


def _group_before(text: str, close: int) -> str:
    """The bracketed group ending at ``text[close]`` (``)``, ``}`` or ``]``), with what opens it."""
    pairs = {")": "(", "}": "{", "]": "["}
    depth, j = 0, close
    while j >= 0:
        if text[j] == text[close]:
            depth += 1
        elif text[j] == pairs[text[close]]:
            depth -= 1
            if depth == 0:
                return text[max(0, j - 1):close + 1]
        j -= 1
    return text[:close + 1]


def math_answer(text: str, *, starts_in_think: bool = False, gold: str | None = None, single: bool = False) -> str | None:
    """The committed final math answer of ``text``: the content of its final committed ``\\boxed{}``
    after the reasoning, or ``None`` when there is none to grade.

    The commitment rule of :mod:`finereason.reading` (:func:`~finereason.reading.boxed.boxed_reading`):
    a later different box replaces an earlier one (``\\boxed{3} ... Wait, that's wrong ... \\boxed{5}``
    reads 5). ``None`` when: reasoning is unfinished; no box; a withdrawal after the last box ("wait,
    that's wrong", "I'm not sure"); two different boxes offered at once (``\\boxed{3} or \\boxed{5}``)
    or more than :data:`MAX_BOXES` of them; a hedge around the box (``My best guess: \\boxed{5}``); an
    empty, unclosed, over-long or over-nested last box; a hedge inside the box (``3 \\text{ or } 5``,
    ``?``) unless the reference answer has one too; sums, products, integrals, limits, binomials or
    exponent towers the reference answer does not use. ``single`` (the format reward): ``None`` also when
    another answer is left standing (``\\boxed{3} ... \\boxed{5}`` with no withdrawal between).
    """
    gold = gold if isinstance(gold, str) else ""
    reading = boxed_reading(text, starts_in_think=starts_in_think, max_chars=MAX_BOXED_CHARS,
                            max_depth=MAX_BRACE_DEPTH, max_boxes=MAX_BOXES, inner_hedge_ok=box_hedged(gold))
    if reading.value is None or (single and not reading.single):
        return None
    guess = reading.value
    if (_HEAVY.search(guess) and not _HEAVY.search(gold)) or _exponents_explode(guess):
        return None
    return guess


def exact_number(content: str) -> Fraction | None:
    """``content`` as an exact number when it is a plain integer, decimal or fraction, else ``None``."""
    text = _normal(content)
    m = _NUMBER.fullmatch(text)
    if m:
        value = Fraction(m.group(2).replace(",", ""))
        return -value if m.group(1) == "-" else value
    m = _FRACTION.fullmatch(text)
    if not m:
        return None
    sign = m.group(1) or m.group(6) or ""
    num, den = (m.group(2), m.group(3)) if m.group(2) else (m.group(4), m.group(5)) if m.group(4) else (m.group(7), m.group(8))
    if int(den) == 0:
        return None
    value = Fraction(int(num), int(den))
    return -value if sign == "-" else value


def is_integer_text(content: str) -> bool:
    return "." not in _normal(content)
