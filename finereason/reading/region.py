"""The final region of a response: what is graded, cut once per response.

Text up to the last ``</think>`` is reasoning and is never graded. ``<think>`` without a later
``</think>`` (or, with ``starts_in_think=True``, no ``</think>`` at all) is unfinished reasoning: there
is no final answer. :func:`blank_tags` gives the region as readers read it: normalised once for every
answer kind (:mod:`~finereason.reading.normalise`), end tags (``[ANSWER END]``, ``</answer>``, ...)
blanked, since they are formatting, never content.
"""
from __future__ import annotations

import re

from ..common.verdict import ParseError
from .normalise import normalise

THINK_OPEN = "<think>"
THINK_CLOSE = "</think>"
UNFINISHED = "reasoning is unfinished (no '</think>' after the reasoning), so there is no final answer"

_TAGS = re.compile(
    r"\[\s{0,2}/?\s{0,2}(?:answer|final answer|end of answer|answer end|end answer|end)\s{0,2}\]"
    r"|</?\s{0,2}(?:answer|final_answer|final answer|final|solution|output)\s{0,2}>",
    re.IGNORECASE,
)
# how the bracket tags of _TAGS begin: every word there starts with a, e or f (the same case folding)
_BRACKET_TAG_START = re.compile(r"\[\s{0,2}/?\s{0,2}[aef]", re.IGNORECASE)
_BRACKET_TAG_OPEN = re.compile(r"\[[\s/aef]", re.IGNORECASE)  # the character after the "[" of such a start


_TAG_WORDS = ("answer", "end", "final", "solution", "output")


class Unfinished(ParseError):
    """The response never left its reasoning (``<think>`` without ``</think>``)."""


def final_region(text: str, *, starts_in_think: bool = False) -> str | None:
    """The text after the last ``</think>``, or ``None`` when reasoning is unfinished.

    Unfinished: ``<think>`` with no ``</think>`` after it, or ``starts_in_think`` (the prompt
    already opened ``<think>``) and no ``</think>`` at all. Without think tags the whole text is
    the final region. Tags are matched case-insensitively.
    """
    if not isinstance(text, str):
        return None
    if "<" not in text:  # fast path: no tags at all
        return None if starts_in_think else text
    low = text.lower()
    close = low.rfind(THINK_CLOSE)
    if close < 0:
        return None if starts_in_think or THINK_OPEN in low else text
    if low.find(THINK_OPEN, close) >= 0:  # reasoning re-opened after the last close
        return None
    return text[close + len(THINK_CLOSE):]


def answer_region(text: str, *, starts_in_think: bool = False) -> str:
    """:func:`final_region`, raising :class:`Unfinished` instead of returning ``None``."""
    if not isinstance(text, str):
        raise ParseError("response is not a string")
    region = final_region(text, starts_in_think=starts_in_think)
    if region is None:
        raise Unfinished(UNFINISHED)
    return region


def blank_tags(region: str) -> str:
    """``region`` as the readers read it: normalised once (:func:`~finereason.reading.normalise.normalise`:
    NFKC, look-alikes, zero-width characters, math punctuation), with end tags (``[ANSWER END]``,
    ``<answer>``, ``</answer>``, ...) replaced by spaces of the same length and Windows line ends by
    `` \\n``. Spans read in the result map back to ``region`` with
    :func:`~finereason.reading.normalise.original_span` (the tags and line ends keep every offset)."""
    region = normalise(region)
    if "\r" in region:
        region = region.replace("\r\n", " \n")  # Windows line ends
    if "<" not in region and ("[" not in region or _BRACKET_TAG_OPEN.search(region) is None
                              or _BRACKET_TAG_START.search(region) is None):
        return region  # no tag can start (a list's "[" opens "[[" or "[1", never "[a", "[e", "[f", "[/")
    low = region.lower()
    if not ("answer" in low or "end" in low or "final" in low or "solution" in low or "output" in low):  # _TAG_WORDS
        return region
    return _TAGS.sub(lambda m: " " * len(m.group()), region)
