"""The one ``\\boxed{}`` reader, as the training code imports it: the contents of ``\\boxed{...}`` groups
(braces matched, length and nesting bounded), from :mod:`finereason.reading.boxed`. The math reward
reads model answers with it, the math loader reference answers."""
from __future__ import annotations

from finereason.reading.boxed import _box_at, boxed_contents, last_boxed

__all__ = ["_box_at", "boxed_contents", "last_boxed"]
