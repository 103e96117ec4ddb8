"""One Unicode normalisation of the final region, for every answer kind.

Readers read the final region through :func:`normalise` (called once, by
:func:`~finereason.reading.region.blank_tags`); the logged text is never changed. Four steps:

1. **Characters** (context-free, one table): format characters (category ``Cf``: zero-width space,
   joiners, word joiner, byte-order mark, soft hyphen, direction marks) and variation selectors are
   removed; a decimal digit of any script becomes its ASCII digit (``٢٤``, ``𝟐𝟒`` -> ``24``); every
   other character is replaced by its NFKC form (fullwidth ``（Ｂ）``/``＝``/``２４``, mathematical
   ``𝐀``, ligatures, compatibility spaces), except superscripts and subscripts, which keep their
   meaning (``5²`` is not ``52``); operator look-alikes become ASCII operators (``−``/``–`` ``-``,
   ``∗`` ``*``, ``∕``/``⁄`` ``/``, ``∶`` ``:``).
2. **Look-alike letters** (Unicode's confusables table, :mod:`~finereason.reading.confusables_data`):
   a Cyrillic, Greek or other letter that looks like an ASCII letter or digit is folded to it in a
   word that mixes it with ASCII letters or digits (``рick`` with a Cyrillic ``р``), or in a word made
   of look-alikes alone unless it is one word of a phrase in another alphabet, next to a word of it
   with only spaces between (``В итоге`` and ``а может`` stay Russian; ``Ответ: (В)`` and
   ``Answer: В`` read ``B``).
3. **Math punctuation**: a full stop, comma or semicolon that ends the contents of ``\\( ... \\)``,
   ``\\[ ... \\]`` (a colon too) or ``$ ... $`` (``\\( (8-2)*4 = 24.\\)``) is formatting and becomes a
   space; a question mark stays a question.

Steps 2 and 3 keep every offset; step 1 changes lengths only where a character is removed or
expands (``…`` -> ``...``). :func:`normalised` keeps the map back: ``Normalised.span`` turns the span
of a statement read in the normalised text into the span of the same characters in the original.
Pure-ASCII text skips steps 1 and 2 (``str.isascii`` runs at C speed). Every step is linear.
"""
from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass

from .confusables_data import LETTERS, OPERATORS

_KEEP = ("<super>", "<sub>")  # NFKC would read 5² as 52
_INVISIBLE = frozenset([0x034F, *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)])  # grapheme joiner, selectors
_OPERATOR = {ord(c): t for t, chars in OPERATORS.items() for c in chars}
_LETTER = {c: t for t, chars in LETTERS.items() for c in chars}
_LETTER_TABLE = str.maketrans(_LETTER)


def _plain(ch: str) -> str | None:
    """A non-ASCII character removed (invisible or a format character) or read as its digit; ``None``
    when neither applies."""
    if ord(ch) in _INVISIBLE or unicodedata.category(ch) == "Cf":
        return ""
    digit = unicodedata.decimal(ch, None)
    return None if digit is None else str(digit)


def _fold_char(ch: str) -> str:
    """Step 1 for one non-ASCII character."""
    plain = _plain(ch)
    if plain is not None:
        return plain
    if unicodedata.decomposition(ch).startswith(_KEEP):
        return ch
    out = unicodedata.normalize("NFKC", ch)
    if out.isascii():
        return out
    return "".join(_fold_simple(c) for c in out)


def _fold_simple(ch: str) -> str:
    """A character of an NFKC form: removed, a digit, an ASCII operator or itself."""
    if ch.isascii():
        return ch
    plain = _plain(ch)
    return plain if plain is not None else _OPERATOR.get(ord(ch), ch)


_SPECIAL = frozenset(map(chr, [*_OPERATOR, *_INVISIBLE]))
_SEEN: set[str] = set()          # non-ASCII characters already classified
_CHANGED: dict[str, str] = {}    # ... and what step 1 makes of those it changes (a few thousand at most)
_MAX_SEEN = 1 << 18


def _classify(chars: list[str]) -> None:
    """Record in ``_CHANGED`` what step 1 makes of each of ``chars`` that it changes. NFKC runs once
    over all of them, kept apart by NUL (a starter: nothing composes across it)."""
    forms = unicodedata.normalize("NFKC", "\x00".join(chars)).split("\x00")
    for ch, form in zip(chars, forms):
        if form == ch and ch.isprintable() and not ch.isdecimal() and ch not in _SPECIAL:
            continue  # the common case: a character step 1 keeps
        value = _fold_char(ch)
        if value != ch:
            _CHANGED[ch] = value


def _changed(text: str) -> list[str]:
    """The distinct characters of ``text`` that step 1 changes."""
    chars = set(text)
    new = chars.difference(_SEEN)
    if new:
        _classify([c for c in new if not c.isascii()])
        if len(_SEEN) < _MAX_SEEN:
            _SEEN.update(new)
    return list(chars.intersection(_CHANGED))  # runs over the (few) changed characters


def _fold_chars(text: str) -> str:
    """Step 1 (module docstring) of non-ASCII text."""
    changed = _changed(text)
    return text.translate({ord(c): _CHANGED[c] for c in changed}) if changed else text


_NON_ASCII = re.compile(r"[^\x00-\x7f]")
_LOOKALIKES = frozenset(_LETTER)
_L = "[" + re.escape("".join(sorted(_LETTER))) + "]"
_FOREIGN = r"(?:(?=[^\W\d_])[^\x00-\x7f" + re.escape("".join(sorted(_LETTER))) + "])"  # a letter of another alphabet
# step 2, in one scan: look-alikes touching an ASCII letter or digit ("рick", "2З"), always folded; a word of
# look-alikes alone (group 1), folded unless a word next to it (at most one space between) holds a letter of
# another alphabet ("В итоге", "Не уверен": "уверен" starts with a look-alike but is Russian)
_FOLD = re.compile(r"(?=" + _L + r")(?:(?<!" + _L + ")" + _L + r"{1,64}(?=[A-Za-z0-9])|(?<=[A-Za-z0-9])" + _L + r"+"
                   r"|(?<![^\W_])(" + _L + r"{1,64})(?![^\W_]))")
_FOREIGN_RX = re.compile(_FOREIGN)
_NEIGHBOUR = 64  # characters of a neighbouring word looked at
_JOINERS = frozenset(" \t.-'’·")  # what may stand between a word and its neighbour


def _foreign_neighbour(text: str, start: int, end: int) -> bool:
    """Whether the word right before ``start`` or right after ``end`` (one space, tab or punctuation mark
    between at most: "П.С.") holds a letter of another alphabet."""
    after = end + 1 if text[end:end + 1] in _JOINERS else end
    if after < len(text):
        stop = after
        while stop < len(text) and stop - after < _NEIGHBOUR and (text[stop].isalpha() and text[stop] != "_"):
            stop += 1
        if _FOREIGN_RX.search(text, after, stop):
            return True
    before = start - 1 if start and text[start - 1] in _JOINERS else start
    lo = before
    while lo > 0 and before - lo < _NEIGHBOUR and text[lo - 1].isalpha():
        lo -= 1
    return lo < before and _FOREIGN_RX.search(text, lo, before) is not None


def _fold_match(m: re.Match) -> str:
    """One match of step 2 folded, looking at its neighbours every time (what :func:`_fold_words` does
    with each neighbourhood looked at once)."""
    if m.group(1) is not None and _foreign_neighbour(m.string, m.start(), m.end()):
        return m.group()
    return m.group().translate(_LETTER_TABLE)


# (a question mark stays a question; "Answer:$x$" keeps its colon: a "$" may open as well as close)
_MATH_MARK = re.compile(r"[.,;:]{1,3}[ \t]{0,3}(?=\\\)|\\\])|(?<=\S)[.,;]{1,3}(?=\$)")


def _fold_words(text: str) -> str:
    """Step 2: look-alike letters folded where the word is not written in their own alphabet."""
    if _LOOKALIKES.isdisjoint(text):
        return text
    known: dict[tuple[str, str], bool] = {}  # prose repeats its words: each neighbourhood is looked at once

    def fold(m: re.Match) -> str:
        if m.group(1) is not None:
            start, end = m.start(), m.end()
            # what _foreign_neighbour reads: a joiner and at most _NEIGHBOUR letters on each side
            around = (text[max(0, start - _NEIGHBOUR - 1):start], text[end:end + _NEIGHBOUR + 1])
            foreign = known.get(around)
            if foreign is None:
                foreign = known[around] = _foreign_neighbour(text, start, end)
            if foreign:
                return m.group()
        return m.group().translate(_LETTER_TABLE)
    return _FOLD.sub(fold, text)


def _blank_math_marks(text: str) -> str:
    """Step 3: a sentence mark ending math contents becomes a space (offsets kept)."""
    if "$" not in text and ("\\" not in text or "\\)" not in text and "\\]" not in text):  # one-character looks first
        return text
    return _MATH_MARK.sub(lambda m: " " * len(m.group()), text)


def normalise(text: str) -> str:
    """``text`` as the readers read it (module docstring); pure-ASCII text only gets step 3."""
    if not text.isascii():
        text = _fold_chars(text)
        if not text.isascii():
            text = _fold_words(text)
    return _blank_math_marks(text)


@dataclass(frozen=True)
class Normalised:
    """A normalised text and the way back to the original: ``text`` (what :func:`normalise`
    returns), ``original``; ``_at``/``_from``/``_size``: for each character that step 1 removed or
    expanded, its offset in ``text``, its offset in ``original`` and the length it became."""

    text: str
    original: str
    _at: tuple[int, ...] = ()
    _from: tuple[int, ...] = ()
    _size: tuple[int, ...] = ()

    def _back(self, pos: int, *, end: bool) -> int:
        k = bisect_right(self._at, pos if not end else pos - 1) - 1
        if k < 0:
            return pos
        at, source, size = self._at[k], self._from[k], self._size[k]
        inside = pos - at if not end else pos - 1 - at
        if inside < size:  # within an expansion: the whole source character
            return source + 1 if end else source
        return source + 1 + pos - (at + size)

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The span of ``original`` whose characters became ``text[start:end]``."""
        if not 0 <= start <= end <= len(self.text):
            raise ValueError(f"span {start}..{end} is outside the normalised text (length {len(self.text)})")
        if start == end:
            return (self._back(start, end=False),) * 2
        return self._back(start, end=False), self._back(end, end=True)


def normalised(text: str) -> Normalised:
    """:func:`normalise` with the map back to ``text`` (:meth:`Normalised.span`)."""
    out = normalise(text)
    if len(out) == len(text) and text.isascii():
        return Normalised(out, text)
    at: list[int] = []
    source: list[int] = []
    size: list[int] = []
    resized = {c: len(_CHANGED[c]) for c in _changed(text)}
    resized = {c: n for c, n in resized.items() if n != 1}  # removed or expanded
    shift = 0
    if resized:
        for match in re.finditer("[" + re.escape("".join(resized)) + "]", text):
            i = match.start()
            n = resized[match.group()]
            at.append(i + shift)
            source.append(i)
            size.append(n)
            shift += n - 1
    return Normalised(out, text, tuple(at), tuple(source), tuple(size))


def original_span(text: str, start: int, end: int) -> tuple[int, int]:
    """The span of ``text`` (a final region as cut, before normalisation) that a reader's span
    ``start``/``end`` (read in the normalised region) comes from."""
    return normalised(text).span(start, end)


__all__ = ["Normalised", "normalise", "normalised", "original_span"]
