"""The one ``\\boxed{}`` reader of the training code: the contents of ``\\boxed{...}`` groups (braces
matched, length and nesting bounded). The math reward reads model answers with it, the math loader
reference answers. Plain Python; no other finereason import."""
from __future__ import annotations

import re

_BOXED = re.compile(r"\\boxed[ \t]{0,4}\{")


def _box_at(text: str, begin: int, max_chars: int, max_depth: int | None) -> str | None:
    """The content of the box whose ``{`` ends just before ``begin``; ``None`` when it is unclosed
    within ``max_chars`` characters or nested deeper than ``max_depth``."""
    depth, i, stop = 1, begin, min(len(text), begin + max_chars + 1)
    deepest = 1
    while i < stop and depth:
        ch = text[i]
        if ch == "{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch == "}":
            depth -= 1
        i += 1
    ok = depth == 0 and (max_depth is None or deepest <= max_depth)
    return text[begin:i - 1] if ok else None


def boxed_contents(text: str, *, max_chars: int, max_depth: int | None = None,
                   max_boxes: int | None = None) -> list[str | None] | None:
    """The contents of every ``\\boxed{}`` in ``text``, in order (``None`` for a box that is unclosed,
    longer than ``max_chars`` or nested deeper than ``max_depth``); ``None`` when there are more than
    ``max_boxes`` boxes."""
    starts: list[int] = []
    for m in _BOXED.finditer(text):
        starts.append(m.end())
        if max_boxes is not None and len(starts) > max_boxes:
            return None
    return [_box_at(text, begin, max_chars, max_depth) for begin in starts]


def last_boxed(text: str, *, max_chars: int) -> str | None:
    """The stripped content of the last ``\\boxed{`` group in ``text`` (written exactly so, as reference
    solutions write it), or ``None`` (no box, or the last one unclosed within ``max_chars`` characters)."""
    at = text.rfind("\\boxed{")
    if at < 0:
        return None
    content = _box_at(text, at + len("\\boxed{"), max_chars, None)
    return None if content is None else content.strip()
