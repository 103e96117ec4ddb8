"""The reader's vocabulary: one data file per language (``<code>.json`` beside this module).

Every file lists the same categories (:data:`CATEGORIES`); the commitment rule reads them all, so a
response that switches language mid-answer is read the same way. Adding a language is adding a file.

An entry is a keyword (matched in lower-cased text) or an object ``{"word": ..., "before": ...,
"after": ..., "not_before": ..., "not_after": ..., "kind": ..., "tables": ..., "search": ...}`` whose
optional patterns (regular expressions with bounded repeats, ``{NAME}`` expanding the file's ``patterns``) must end right before the keyword, match
right after it, or must not. In a spaced language (``"spaced": true``) a keyword is a whole word; in
Chinese, Japanese and Korean (``"spaced": false``) it may stand anywhere. ``"negation_follows": true``
says that the language negates after what it negates (``(B)ではない``). An answer marker's ``"kind"``
says what it introduces: ``"answer"`` (the default: ``Respuesta``, ``答案``), ``"next_state"``
(``Next state``, ``Siguiente estado``, ``下一个状态``) or ``"verdict"`` (``Verdict``, ``Veredicto``,
``判定``); the answer kinds' scanners take their marker words from here (:func:`markers`). A hedge
entry's ``"tables"`` names the tables of the hedge reader (:mod:`finereason.reading.hedges`) it belongs
to: ``words`` (a hedge in the answer's sentence), ``modals`` (a hedge when followed by "be"), ``after``
(right after the answer), ``adverbs`` (after "or"); ``"search": false`` keeps an entry out of the
category's keyword search (``might`` is a hedge only as the table reads it, in "might be").

The files are read once per process (:func:`vocabulary`).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable

from ..normalise import normalise

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
HEDGE_TABLES = ("words", "modals", "after", "adverbs")  # the tables of the hedge reader (reading.hedges)
MARKER_KINDS = ("answer", "next_state", "verdict")  # what an answer marker introduces
HERE = Path(__file__).resolve().parent
_CONTEXT = 60  # characters a context pattern looks at around a keyword
_WIDE = {"?": "？", ":": "：", ",": "，"}  # a keyword with these is also matched in its fullwidth form

Check = Callable[[str, int, int], bool]


@dataclass(frozen=True)
class Entry:
    """One vocabulary entry: ``word`` (lower case), its context ``check`` (``None``: none), whether it
    is a whole word (``bounded``: spaced languages), its ``category`` and ``language``; ``kind``: what
    an answer marker introduces (one of :data:`MARKER_KINDS`)."""

    word: str
    check: Check | None
    bounded: bool
    category: str
    language: str
    kind: str = "answer"


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
    tables: dict[str, tuple[str, ...]] = field(default_factory=dict)  # the hedge reader's tables (file order)


def read_language(path: Path) -> Language:
    """Read one language file (``ValueError`` naming the file when a category is missing or empty)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    code, spaced = data["language"], bool(data.get("spaced", True))
    names = data.get("patterns", {})
    entries: dict[str, tuple[Entry, ...]] = {}
    tables: dict[str, list[str]] = {}
    for category in CATEGORIES:
        raw = data.get(category)
        if not raw:
            raise ValueError(f"{path.name}: category {category!r} is missing or empty")
        out: list[Entry] = []
        for item in raw:
            spec = item if isinstance(item, dict) else {"word": item}
            for table in spec.get("tables", ()):
                if table not in HEDGE_TABLES or category != "hedge":
                    raise ValueError(f"{path.name}: {spec['word']!r} names an unknown hedge table {table!r}")
                tables.setdefault(table, []).append(spec["word"].lower())
            if spec.get("search", True) is False:
                continue  # a word of the hedge reader's tables only
            check = _check(spec, names)
            word = spec["word"].lower()
            forms = {word}
            for narrow, wide in _WIDE.items():  # both widths: choice answers are read after NFKC
                if narrow in word:
                    forms.add(word.replace(narrow, wide))
                if wide in word:
                    forms.add(word.replace(wide, narrow))
            forms |= {normalise(f).lower() for f in forms}  # as the normalised region spells it
            kind = spec.get("kind", "answer")
            if kind not in MARKER_KINDS:
                raise ValueError(f"{path.name}: {spec['word']!r} has unknown kind {kind!r} (known: {', '.join(MARKER_KINDS)})")
            out.extend(Entry(form, check, spaced, category, code, kind) for form in sorted(forms))
        entries[category] = tuple(out)
    return Language(code, spaced, bool(data.get("negation_follows", False)), entries,
                    {name: tuple(words) for name, words in tables.items()})


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


@lru_cache(maxsize=None)
def markers(kind: str = "answer", *, english: bool = False) -> tuple[str, ...]:
    """The answer marker words of ``kind`` (:data:`MARKER_KINDS`) in lower case, longest first: those of
    every language but English (whose markers each scanner spells in its own syntax, e.g. ``\boxed{``),
    or of every language with ``english``. A word that is also an English marker (``solution``) is left
    out of the non-English ones, so that adding a language never changes how English text is read."""
    if kind not in MARKER_KINDS:
        raise KeyError(kind)
    english_words = {e.word for lang in languages() if lang.code == "en" for e in lang.entries["answer_markers"]}
    out = {e.word for lang in languages() if english or lang.code != "en"
           for e in lang.entries["answer_markers"] if e.kind == kind and (english or e.word not in english_words)}
    return tuple(sorted(out, key=lambda w: (-len(w), w)))


def hedge_table(name: str, language: str = "en") -> tuple[str, ...]:
    """The words of hedge table ``name`` (:data:`HEDGE_TABLES`) of ``language``, in file order."""
    if name not in HEDGE_TABLES:
        raise KeyError(name)
    return next((lang.tables.get(name, ()) for lang in languages() if lang.code == language), ())


def has_markers(low: str, kind: str = "answer") -> bool:
    """Whether lower-cased ``low`` holds a non-English answer marker word of ``kind`` (:func:`markers`)
    anywhere (C-speed substring checks; ASCII text is not searched for non-ASCII words)."""
    plain = low.isascii()
    low = low if plain else low.lower()  # capitals of every script ("Ответ")
    return any(word in low for word in markers(kind) if not plain or word.isascii())


@lru_cache(maxsize=None)
def marker_pattern(kind: str = "answer") -> "re.Pattern[str]":
    """A non-English answer marker of ``kind`` that introduces an answer, for a kind's scanner (case-insensitive):
    the word (a whole word in spaced languages) followed by a colon, markdown emphasis allowed before it
    (``Respuesta:``, ``**Ответ:**``, ``答案：``), or a word that ends in its colon or copula as it
    stands (``답:``, ``答案是``)."""
    bounded = {e.word: e.bounded for e in words("answer_markers")}
    parts = []
    for word in markers(kind):
        text = re.escape(word)
        if bounded.get(word, True):
            text = r"(?<![^\W\d_])" + text + r"(?![^\W\d_])"
        if not word.endswith((":", "：", "是", "は", "은", "는")):
            text += r"[ \t*_]{0,4}[:：]"
        parts.append(text)
    return re.compile("(?:" + "|".join(parts) + r")[ \t*_]{0,4}", re.IGNORECASE)


def alternation(words: Iterable[str]) -> str:
    """A pattern matching, at a position, the first of ``words`` (in their order) that occurs there, as
    ``"|".join(map(re.escape, words))`` does, with the alternatives grouped by first character: the
    matcher tries one group, not every word (for long lists, such as every language's entries). For
    case-sensitive patterns (under ``re.IGNORECASE`` words opening with ``P`` and ``p`` would be tried
    group by group, not in their order)."""
    groups: dict[str, list[str]] = {}
    for word in words:
        groups.setdefault(word[0], []).append(word)
    return "|".join(re.escape(first) + "(?:" + "|".join(re.escape(w[1:]) for w in group) + ")"
                    for first, group in sorted(groups.items()))


_MAX_MARKER_HITS = 4_096  # occurrences of one marker word looked at per text


def marker_matches(text: str, pattern: "re.Pattern[str]", kind: str = "answer", lo: int = 0,
                   hi: int | None = None) -> list["re.Match[str]"]:
    """The matches of ``pattern`` (one that opens with :func:`marker_pattern` of ``kind``) in ``text[lo:hi]``,
    in text order, tried only where a marker word occurs: each word is located with ``str.find`` (C speed,
    at most :data:`_MAX_MARKER_HITS` times), so the cost is linear whatever the alternation's size."""
    hi = len(text) if hi is None else hi
    low = text.lower()
    if len(low) != len(text):  # a character whose lower case is longer: lower ASCII only, offsets kept
        low = text.translate({c: c + 32 for c in range(65, 91)})
    plain = low.isascii()
    found: dict[int, "re.Match[str]"] = {}
    for word in markers(kind):
        if plain and not word.isascii():
            continue
        at, hits = low.find(word, lo, hi), 0
        while at >= 0 and hits < _MAX_MARKER_HITS:
            if at not in found:
                m = pattern.match(text, at, hi)
                if m is not None:
                    found[at] = m
            at, hits = low.find(word, at + 1, hi), hits + 1
    return [found[at] for at in sorted(found)]


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


_SHORT = 4_096  # below this many characters a window is first split into word tokens (a cheap pre-check)
_TOKEN = re.compile(r"\w+")
_LETTER = re.compile(r"[^\W\d_]")
# the same two on ASCII text, where they mean exactly these (a character set is tested at C speed, while a
# Unicode class asks the character database about every character)
_ASCII_TOKEN = re.compile(r"[A-Za-z0-9_]+")
_ASCII_LETTER = re.compile(r"[A-Za-z]")


@lru_cache(maxsize=None)
def _index(category: str) -> tuple[dict[str, tuple[Entry, ...]], tuple[Entry, ...], tuple[Entry, ...]]:
    """The entries of ``category`` by their first word token (spaced languages), and the others: those
    of unspaced languages or opening with punctuation (``<|user|>``), ASCII ones apart."""
    by_token: dict[str, list[Entry]] = {}
    odd: list[Entry] = []
    for entry in words(category):
        m = _TOKEN.match(entry.word)
        if entry.bounded and m is not None:
            by_token.setdefault(m.group(), []).append(entry)
        else:
            odd.append(entry)
    return ({t: tuple(es) for t, es in by_token.items()}, tuple(e for e in odd if e.word.isascii()), tuple(odd))


@lru_cache(maxsize=None)
def _lettered(category: str) -> bool:
    return all(any(c.isalpha() for c in e.word) for e in words(category))


def tokens(low: str, lo: int, hi: int) -> frozenset[str]:
    """The word tokens of ``low[lo:hi]`` (for :func:`first`'s pre-check)."""
    return frozenset((_ASCII_TOKEN if low.isascii() else _TOKEN).findall(low, lo, hi))


def first(low: str, category: str, lo: int, hi: int,
          where: Callable[[str, int], bool] | None = None, known: frozenset[str] | None = None
          ) -> tuple[int, Entry] | None:
    """The first entry of ``category`` found in ``low[lo:hi]`` (whole word, context checked, and
    ``where(low, offset)`` when given) as ``(offset, entry)``; ``None`` when there is none.

    Each entry is located with ``str.find`` (C speed), stopping at the best offset found so far; in a
    short window only the entries whose first word occurs in it (``known``: its :func:`tokens`, when the
    caller has them) and those without one are looked for."""
    hi = min(hi, len(low))
    if lo >= hi or (hi - lo < _SHORT and _lettered(category)
                    and (_ASCII_LETTER if low.isascii() else _LETTER).search(low, lo, hi) is None):
        return None  # every entry of the category holds a letter, the window none
    entries: tuple[Entry, ...] | list[Entry] = words(category)
    if hi - lo < _SHORT:
        by_token, odd_ascii, odd = _index(category)
        known = tokens(low, lo, hi) if known is None else known
        entries = [e for t in known.intersection(by_token) for e in by_token[t]]
        entries += odd_ascii if low.isascii() else odd
    best: tuple[int, Entry] | None = None
    for entry in entries:
        word = entry.word
        stop = hi if best is None else best[0]
        at, hits = low.find(word, lo, min(hi, stop + len(word))), 0
        while 0 <= at < stop and hits < 256:
            if found(entry, low, at) and (where is None or where(low, at)):
                best = (at, entry)
                break
            at, hits = low.find(word, at + 1, min(hi, stop + len(word))), hits + 1
    return best


@lru_cache(maxsize=None)
def anchors(category: str) -> frozenset[str] | None:
    """Punctuation such that every entry of ``category`` holds one of them (``User:``, ``### user``,
    ``<|user|>``): text without any holds no entry. ``None`` when some entry has no punctuation."""
    out: set[str] = set()
    for entry in words(category):
        marks = [c for c in entry.word if not c.isalnum() and not c.isspace()]
        if not marks:
            return None
        out.add(marks[0])
    return frozenset(out)


@lru_cache(maxsize=None)
def _joint(categories: tuple[str, ...]) -> tuple[dict[str, tuple[Entry, ...]], tuple[Entry, ...], tuple[Entry, ...]]:
    by_token: dict[str, list[Entry]] = {}
    odd_ascii: list[Entry] = []
    odd: list[Entry] = []
    for category in categories:
        tokens_of, a, o = _index(category)
        for t, es in tokens_of.items():
            by_token.setdefault(t, []).extend(es)
        odd_ascii += a
        odd += o
    return {t: tuple(es) for t, es in by_token.items()}, tuple(odd_ascii), tuple(odd)


def any_of(low: str, categories: tuple[str, ...], lo: int, hi: int) -> bool:
    """Whether an entry of any of ``categories`` occurs in ``low[lo:hi]`` (the window's tokens found once)."""
    hi = min(hi, len(low))
    if hi - lo >= _SHORT:
        return any(first(low, c, lo, hi) is not None for c in categories)
    by_token, odd_ascii, odd = _joint(categories)
    for entry in [e for t in tokens(low, lo, hi).intersection(by_token) for e in by_token[t]] + list(
            odd_ascii if low.isascii() else odd):
        at = low.find(entry.word, lo, hi)
        while at >= 0:
            if found(entry, low, at):
                return True
            at = low.find(entry.word, at + 1, hi)
    return False


@lru_cache(maxsize=None)
def openers(categories: tuple[str, ...]) -> dict[str, tuple[Entry, ...]]:
    """The entries of ``categories`` by their first character (for entries that open a line)."""
    out: dict[str, list[Entry]] = {}
    for category in categories:
        for entry in words(category):
            out.setdefault(entry.word[0], []).append(entry)
    return {c: tuple(es) for c, es in out.items()}
