"""The reader's vocabulary: one data file per language (``<code>.json`` beside this module).

Every file lists the same categories (:data:`CATEGORIES`); the commitment rule reads them all, so a
response that switches language mid-answer is read the same way. Adding a language is adding a file.

An entry is a keyword (matched in lower-cased text) or an object ``{"word": ..., "before": ...,
"after": ..., "not_before": ..., "not_after": ...}`` whose optional patterns (regular expressions with
bounded repeats, ``{NAME}`` expanding the file's ``patterns``) must end right before the keyword, match
right after it, or must not. In a spaced language (``"spaced": true``) a keyword is a whole word; in
Chinese, Japanese and Korean (``"spaced": false``) it may stand anywhere. ``"negation_follows": true``
says that the language negates after what it negates (``(B)ではない``).

The files are read once per process (:func:`vocabulary`).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable

#: Every category a language file lists (the coverage test checks each file has every one).
CATEGORIES = (
    "answer_markers",    # words that introduce an answer ("Answer", "答案")
    "retraction",        # withdraws what came before ("wait", "scratch that")
    "doubt",             # doubts it ("not sure", "low confidence")
    "inability_decide",  # "I can't determine"
    "inability_solve",   # "I could not find a plan" (solutions only)
    "hedge",             # "probably", "my best guess"
    "alternative",       # "alternatively", "or maybe": offers another answer
    "condition",         # "if", "unless"
    "question",          # a question about the answer ("right?", "or is it?", "= ?")
    "trial",             # a try offered for evaluation ("let's try")
    "confirmation",      # answers a question at once ("Yes.")
    "confidence",        # a stated confidence, read with its number ("confidence: 60%")
    "negation",          # "not", "不是"
    "scope",             # text addressed to another puzzle ("P.S.", "bonus", "for the harder version")
    "instruction",       # prompt instructions echoed back ("answer with (A) or (B)")
    "turn",              # a simulated turn of another speaker ("User:", "Human:")
    "reference",         # an earlier answer referred to ("see above", "the one from attempt 1")
    "restatement",       # working or restatement after an answer ("for clarity", "in other words")
)
HERE = Path(__file__).resolve().parent
_CONTEXT = 60  # characters a context pattern looks at around a keyword
_WIDE = {"?": "？", ":": "：", ",": "，"}  # a keyword with these is also matched in its fullwidth form

Check = Callable[[str, int, int], bool]


@dataclass(frozen=True)
class Entry:
    """One vocabulary entry: ``word`` (lower case), its context ``check`` (``None``: none), whether it
    is a whole word (``bounded``: spaced languages), its ``category`` and ``language``."""

    word: str
    check: Check | None
    bounded: bool
    category: str
    language: str


def _expand(pattern: str, names: dict[str, str]) -> str:
    for _ in range(4):  # macros may use macros
        pattern = re.sub(r"\{([A-Z_]+)\}", lambda m: names.get(m.group(1), m.group(0)), pattern)
    return pattern


def _before(pattern: str) -> Check:
    rx = re.compile(r"(?:" + pattern + r")[ \t,]{0,3}$")
    return lambda low, at, end: rx.search(low, max(0, at - _CONTEXT), at) is not None


def _after(pattern: str) -> Check:
    rx = re.compile(r"[ \t]{0,3}(?:" + pattern + r")")
    return lambda low, at, end: rx.match(low, end, end + _CONTEXT) is not None


def _check(spec: dict, names: dict[str, str]) -> Check | None:
    checks: list[tuple[Check, bool]] = []
    for key, make, want in (("before", _before, True), ("after", _after, True),
                            ("not_before", _before, False), ("not_after", _after, False)):
        if key in spec:
            checks.append((make(_expand(spec[key], names)), want))
    if not checks:
        return None
    if len(checks) == 1:
        (one, want), = checks
        return one if want else (lambda low, at, end: not one(low, at, end))
    return lambda low, at, end: all(c(low, at, end) == want for c, want in checks)


@dataclass(frozen=True)
class Language:
    """One language file, read: its entries by category."""

    code: str
    spaced: bool
    negation_follows: bool
    entries: dict[str, tuple[Entry, ...]]


def read_language(path: Path) -> Language:
    """Read one language file (``ValueError`` naming the file when a category is missing or empty)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    code, spaced = data["language"], bool(data.get("spaced", True))
    names = data.get("patterns", {})
    entries: dict[str, tuple[Entry, ...]] = {}
    for category in CATEGORIES:
        raw = data.get(category)
        if not raw:
            raise ValueError(f"{path.name}: category {category!r} is missing or empty")
        out: list[Entry] = []
        for item in raw:
            spec = item if isinstance(item, dict) else {"word": item}
            check = _check(spec, names)
            word = spec["word"].lower()
            forms = {word}
            for narrow, wide in _WIDE.items():  # both widths: choice answers are read after NFKC
                if narrow in word:
                    forms.add(word.replace(narrow, wide))
                if wide in word:
                    forms.add(word.replace(wide, narrow))
            out.extend(Entry(form, check, spaced, category, code) for form in sorted(forms))
        entries[category] = tuple(out)
    return Language(code, spaced, bool(data.get("negation_follows", False)), entries)


@lru_cache(maxsize=None)
def languages() -> tuple[Language, ...]:
    """Every language file beside this module, read once (English first, then by code)."""
    paths = sorted(HERE.glob("*.json"), key=lambda p: (p.stem != "en", p.stem))
    return tuple(read_language(p) for p in paths)


@lru_cache(maxsize=None)
def words(category: str) -> tuple[Entry, ...]:
    """Every entry of ``category`` in every language (English first)."""
    if category not in CATEGORIES:
        raise KeyError(category)
    return tuple(e for lang in languages() for e in lang.entries[category])


@lru_cache(maxsize=None)
def plain(category: str) -> tuple[str, ...]:
    """The keywords of ``category`` in every language, longest first (context checks ignored)."""
    return tuple(sorted({e.word for e in words(category)}, key=lambda w: (-len(w), w)))


def whole_word(low: str, at: int, end: int) -> bool:
    """Whether ``low[at:end]`` stands as a word: no letter or digit joined on a side that is one."""
    if at > 0 and low[at].isalnum() and low[at - 1].isalnum():
        return False
    return not (end < len(low) and low[end - 1].isalnum() and low[end].isalnum())


def found(entry: Entry, low: str, at: int) -> bool:
    """Whether ``entry`` occurs at ``low[at:]`` (its word there, whole when bounded, its context checked)."""
    end = at + len(entry.word)
    if entry.bounded and not whole_word(low, at, end):
        return False
    return entry.check is None or entry.check(low, at, end)


_SHORT = 4_096  # below this many characters a window is searched with one pattern of all the category's words


@lru_cache(maxsize=None)
def _alternation(category: str) -> tuple[re.Pattern[str], dict[str, tuple[Entry, ...]]]:
    by_word: dict[str, list[Entry]] = {}
    for entry in words(category):
        by_word.setdefault(entry.word, []).append(entry)
    rx = re.compile("|".join(re.escape(w) for w in sorted(by_word, key=lambda w: (-len(w), w))))
    return rx, {w: tuple(es) for w, es in by_word.items()}


def first(low: str, category: str, lo: int, hi: int,
          where: Callable[[str, int], bool] | None = None) -> tuple[int, Entry] | None:
    """The first entry of ``category`` found in ``low[lo:hi]`` (whole word, context checked, and
    ``where(low, offset)`` when given) as ``(offset, entry)``; ``None`` when there is none.

    A short window is searched with one pattern of every word of the category; a long one with
    ``str.find`` per word (C speed), stopping at the best offset found so far."""
    hi = min(hi, len(low))
    if hi - lo < _SHORT:
        rx, by_word = _alternation(category)
        pos = lo
        while True:
            m = rx.search(low, pos, hi)
            if m is None:
                return None
            at = m.start()
            for entry in by_word[m.group()]:
                if found(entry, low, at) and (where is None or where(low, at)):
                    return at, entry
            for entry in words(category):  # a shorter word inside the failed one, at the same offset
                if (entry.word != m.group() and low.startswith(entry.word, at) and at + len(entry.word) <= hi
                        and found(entry, low, at) and (where is None or where(low, at))):
                    return at, entry
            pos = at + 1
    best: tuple[int, Entry] | None = None
    for entry in words(category):
        word = entry.word
        stop = hi if best is None else best[0]
        at, hits = low.find(word, lo, min(hi, stop + len(word))), 0
        while 0 <= at < stop and hits < 256:
            if found(entry, low, at) and (where is None or where(low, at)):
                best = (at, entry)
                break
            at, hits = low.find(word, at + 1, min(hi, stop + len(word))), hits + 1
    return best
