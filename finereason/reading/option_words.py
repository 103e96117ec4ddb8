"""The words of option answers and the one token split of a response, for the option reader
(:mod:`finereason.reading.choice`): which words mark, hedge, negate or condition an option, which may
stand between a marker and its option, and :class:`_Tokens`, the response split once into word,
number and symbol tokens (only the stretches that may hold an answer: :func:`_worth_reading`).
"""
from __future__ import annotations

import re
from bisect import bisect_right

from . import vocabulary
from .hedges import HEDGE_ADVERBS, HEDGE_AFTER, HEDGE_MODALS, HEDGE_WORDS

# the one hedge table (:mod:`finereason.reading.hedges`), as token sets
_HEDGE_BEFORE = frozenset(HEDGE_WORDS)
_HEDGE_MODALS = frozenset(HEDGE_MODALS)  # hedges when followed by "be" ("the answer might be (A)")
_HEDGE_AFTER = frozenset(HEDGE_AFTER)
_HYPOTHETICAL_AFTER = frozenset({"would", "could", "might", "may", "means", "mean", "meaning", "implies", "requires",
                                 "require", "corresponds", "stands", "refers", "represents", "denotes", "says"})
_HYPOTHETICAL_BEFORE = frozenset({"would", "unlike", "than", "instead", "rather", "avoid", "avoids",
                                  "prevent", "prevents"})

_TOKEN = re.compile(r"[A-Za-z]+|[0-9]+|\S")


def _foreign_markers() -> tuple[frozenset[str], frozenset[str], "re.Pattern[str]"]:
    """The answer markers of every language but English (:func:`finereason.reading.vocabulary.markers`)
    as single tokens (``respuesta``, ``ответ``, ``答案``; a trailing colon dropped, ``답:`` is ``답``), and
    the other words of their several-word forms (``finale`` of ``réponse finale``: fillers), and
    the token pattern of non-ASCII text, which reads each of them as one token (whole words in spaced
    languages; anywhere in Chinese, Japanese and Korean)."""
    spaced = {e.word: e.bounded for e in vocabulary.words("answer_markers")}
    bounded: set[str] = set()
    unbounded: set[str] = set()
    for word in vocabulary.markers():
        token = word.rstrip(":：").strip()
        if token and " " not in token:
            (bounded if spaced.get(word, True) else unbounded).add(token)
    alternatives = []
    if bounded:
        alternatives.append(r"(?<![^\W\d_])(?:" + "|".join(map(re.escape, sorted(bounded, key=lambda w: (-len(w), w))))
                            + r")(?![^\W\d_])")
    alternatives += map(re.escape, sorted(unbounded, key=lambda w: (-len(w), w)))
    parts = {p for word in vocabulary.markers() for p in word.split() if " " in word} - bounded - unbounded
    return frozenset(bounded | unbounded), frozenset(parts), re.compile("(?i:" + "|".join(alternatives) + r")|[A-Za-z]+|[0-9]+|\S")


_FOREIGN_MARKERS, _FOREIGN_PARTS, _WIDE_TOKEN = _foreign_markers()
_OPEN = frozenset("([{【「〔")
_CLOSE = {"(": ")", "[": "]", "{": "}", "【": "】", "「": "」", "〔": "〕"}
_KEYWORDS = {
    "solvable": "A", "solveable": "A", "colorable": "A", "colourable": "A",
    "unsolvable": "B", "unsolveable": "B", "insolvable": "B", "uncolorable": "B", "uncolourable": "B",
    "noncolorable": "B", "nonsolvable": "B",
}
_MARKERS = frozenset({"answer", "answers", "boxed", "correction", "corrected", "verdict", "conclusion", "choose", "chose",
                      "pick", "picked", "select", "selected"}) | _FOREIGN_MARKERS
_NEGATIONS = frozenset({"not", "non", "never", "cannot", "no", "nor", "neither"})
_NEGATION_SKIP = frozenset({"-", "be", "is", "currently", "still", "actually", "really", "longer", "yet", "even",
                            "truly", "definitely", "certainly", "3", "4", "k", "2", "5", "6", "7", "8", "9"})
# tokens allowed between a marker and its option ("Answer: the state is (B)", "\boxed{\text{(B)}}")
_FILLER_WORDS = frozenset({
    "is", "would", "be", "will", "should", "must", "the", "my", "our", "final", "therefore", "thus", "hence",
    "so", "here", "it", "this", "that", "state", "current", "puzzle", "graph", "grid", "text", "textbf",
    "mathrm", "mathbf", "boxed", "i", "think", "believe", "choose", "chose", "pick", "select",
    "correct", "answer", "not", "option", "choice", "given", "as", "follows", "we", "have", "get", "a", "an",
    "clearly", "definitely", "remains", "stays", "status", "label", "accordingly", "in", "conclusion",
    "either", "neither",
    "是", "为", "は", "은", "는", "es", "est", "ist", "é", "è", "—",  # other languages' "is" and particles ("答案是 B")
}) | _FOREIGN_PARTS
_FILLER_MARKS = frozenset(":：*_`$=-–—>{}\\#\"'“”‘’.,!|")
# tokens allowed between two options of one answer ("(A) or (B)", "Solvable / Unsolvable")
_CONNECTOR_WORDS = frozenset({
    "or", "and", "either", "likely", "the", "is", "it", "state",
    "final", "option", "options", "choice", "both", "vs", "versus", "i", "think", "say", "would", "be", "so",
    "then", "also", "but", "could", "might", "can", "neither", "nor", "than", "text", "textbf", "mathrm",
    "boxed", "not", "answer", "um", "uh", "really", "which", "one", "between",
}) | frozenset(HEDGE_ADVERBS)  # "(A) or maybe (B)"
_GLUE = frozenset("\\$*_{}()[]`,;:/|")
_HEDGE_WORDS = frozenset({"or", "/", "and", "vs", "versus", "|", "either", "nor"})
_ARTICLE_FOLLOWERS_OK = frozenset({"because", "since", "as", "is", "was", "or", "and", "for", "due", "given", "option",
                                   "choice", "answer", "vs", "versus", "nor", "either"})
_CONDITION_AFTER = frozenset({"if", "unless", "otherwise", "when", "provided", "assuming", "only"})
_CONDITION_BEFORE = frozenset({"if", "unless", "suppose", "supposing", "assuming", "provided", "otherwise", "else"})
_QUESTION_BEFORE = frozenset({"whether", "if", "check", "checking", "determine", "determining", "decide", "deciding"})
_SENTENCE_END = frozenset(".!?;")
_CLAUSE_GOES_ON = frozenset({",", "then", "otherwise", "else", "and", "or", "but"})  # a line break after these
# does not end the sentence ("If ..., then\nAnswer: (B)\nOtherwise,\nAnswer: (A)")
_STARTERS = _MARKERS | frozenset(_KEYWORDS) | _OPEN | {"option", "choice", "a", "b"}
_LINE_MARKUP = frozenset("*_#>`.:-)$")


_BLOCK = 4_096
_HINTS = ("answer", "boxed", "correct", "verdict", "conclusion", "cho", "pick", "select", "option", "choice", "solv",
          "colo", "(a", "(b", "[a", "[b", "{a", "{b", "a)", "b)", "（", "【", "「", "〔")


def _worth_reading(text: str, lo: int) -> list[tuple[int, int]]:
    """The stretches of ``text[lo:]`` that may hold an answer statement, with one block of context on
    each side: blocks of :data:`_BLOCK` characters with a marker, keyword, option-like bracket or a
    capital A/B (plain substring checks, C speed), so degenerate text costs no tokenizing."""
    n = len(text)
    if n - lo <= 2 * _BLOCK:
        return [(lo, n)]
    spans: list[tuple[int, int]] = []
    for a in range(lo, n, _BLOCK):
        block = text[a:a + _BLOCK + 8]
        low = block.lower()
        if "A" in block or "B" in block or "Ａ" in block or "Ｂ" in block or any(h in low for h in _HINTS):
            start, stop = max(lo, a - _BLOCK), min(n, a + 2 * _BLOCK)
            if spans and start <= spans[-1][1]:
                spans[-1] = (spans[-1][0], stop)
            else:
                spans.append((start, stop))
    return spans or [(n, n)]


class _Tokens:
    """A response split once into word, number and single-symbol tokens (linear time)."""

    __slots__ = ("text", "words", "low", "starts", "ends", "n", "breaks", "sentence")

    def __init__(self, text: str, lo: int = 0) -> None:
        self.text = text
        spans = _worth_reading(text, lo)
        token = _TOKEN if text.isascii() else _WIDE_TOKEN  # ASCII text holds no other language's marker
        matches = [m for a, b in spans for m in token.finditer(text, a, b)]
        self.words: list[str] = [m.group() for m in matches]
        self.starts: list[int] = [m.start() for m in matches]
        self.ends: list[int] = [m.end() for m in matches]
        self.low = [w.lower() for w in self.words]
        self.n = len(self.words)
        self.breaks = [False] * (self.n + 1)  # a line break right before token i
        self.breaks[0] = True
        at = text.find("\n", lo)
        while at >= 0:
            k = bisect_right(self.starts, at)
            self.breaks[k] = True
            at = text.find("\n", self.starts[k] if k < self.n else len(text))
        for a, _ in spans[1:]:  # a skipped stretch of text separates sentences
            self.breaks[bisect_right(self.starts, a - 1)] = True
        words, breaks = self.words, self.breaks
        self.sentence = [i == 0 or words[i - 1] in _SENTENCE_END
                         or breaks[i] and words[i - 1].lower() not in _CLAUSE_GOES_ON for i in range(self.n)] + [True]

    def newline_before(self, i: int) -> bool:
        """Whether a line break separates token ``i`` from the token before it (or it is first)."""
        return i <= 0 or self.breaks[i]

    def newline_after(self, i: int) -> bool:
        return i >= self.n - 1 or self.newline_before(i + 1)

    def sentence_break_before(self, i: int) -> bool:
        return i <= 0 or self.sentence[i]
