"""The one answer reader: where a model's final answer is, and what it says.

Every verdict (``finereason.verifiers``), and so every score, metric, lm-eval task and GRPO reward,
reads model text through this module. The rules (documented with examples in the README, "How
answers are read"):

1. Text up to the last ``</think>`` is reasoning and is never graded. ``<think>`` without a later
   ``</think>`` (or, with ``starts_in_think=True``, no ``</think>`` at all) is unfinished reasoning:
   there is no final answer (:func:`final_region` returns ``None``).
2. In the final region the last committed answer wins; explicit markers (``Answer:``, ``\\boxed{}``,
   "final answer", ``Correction:``) outrank bare mentions; a later explicit answer corrects an
   earlier one.
3. An answer naming more than one option (``(A) or (B)``, ``A/B``, ``Solvable / Unsolvable``, keyword
   spam) is uncommitted, and so is one stated under a condition (``(A) if ...``) or as a question.
4. State lists: the last ``Next state:`` (or ``Answer:``) directly followed by a complete list wins;
   prose after it is ignored; a final list cut off by the token limit falls back to the last complete
   one. Arithmetic: the whole expression must parse (:mod:`finereason.arith`).

Every reader here runs in time linear in the length of the text, with no backtracking regular
expression over unbounded input: the state-checking answer is read from the last
``CHOICE_WINDOW_CHARS`` characters, split once into tokens, and every decision looks at a bounded
number of tokens; markers are found backwards with ``str.rfind`` (at most ``MAX_MARKS``); list ends
are found with ``str.find``/``str.count`` or one pass over the brackets and quotes, within
``SCAN_BUDGET`` characters per answer; patterns applied at a position have bounded repeats.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from .verdict import ParseError
from .vocabulary import END_TO_END, STATE_CHECKING, STATE_TRANSITION

THINK_OPEN = "<think>"
THINK_CLOSE = "</think>"
CHOICE_WINDOW_CHARS = 16_384   # the state-checking answer is read in the last 16k characters
_MAX_GAP_TOKENS = 12           # filler/connector tokens skipped between a marker and an option
_SENTENCE_TOKENS = 40          # how far a sentence is searched for conditions


UNFINISHED = "reasoning is unfinished (no '</think>' after the reasoning), so there is no final answer"


class Unfinished(ParseError):
    """The response never left its reasoning (``<think>`` without ``</think>``)."""


# ------------------------------------------------------------------ rule 1: the final region
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


# ------------------------------------------------------------------ state checking: (A) / (B)
@dataclass(frozen=True)
class Choice:
    """What a state-checking answer commits to.

    ``choice`` is ``"A"`` (solvable / colorable), ``"B"`` (unsolvable / uncolorable) or ``None``;
    ``explicit`` tells whether it came from a marker (``Answer:``, ``\\boxed{}``, ...);
    ``reason`` says why nothing was read when ``choice`` is ``None``.
    """

    choice: str | None
    explicit: bool = False
    reason: str = ""


_TOKEN = re.compile(r"[A-Za-z]+|[0-9]+|\S")
_OPEN = frozenset("([{【「〔")
_CLOSE = {"(": ")", "[": "]", "{": "}", "【": "】", "「": "」", "〔": "〕"}
_KEYWORDS = {
    "solvable": "A", "solveable": "A", "colorable": "A", "colourable": "A",
    "unsolvable": "B", "unsolveable": "B", "insolvable": "B", "uncolorable": "B", "uncolourable": "B",
    "noncolorable": "B", "nonsolvable": "B",
}
_MARKERS = frozenset({"answer", "answers", "boxed", "correction", "corrected", "verdict", "conclusion", "choose", "chose",
                      "pick", "picked", "select", "selected"})
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
})
_FILLER_MARKS = frozenset(":：*_`$=-–—>{}\\#\"'“”‘’.,!|")
# tokens allowed between two options of one answer ("(A) or (B)", "Solvable / Unsolvable")
_CONNECTOR_WORDS = frozenset({
    "or", "and", "either", "maybe", "perhaps", "possibly", "probably", "likely", "the", "is", "it", "state",
    "final", "option", "options", "choice", "both", "vs", "versus", "i", "think", "say", "would", "be", "so",
    "then", "also", "but", "could", "might", "can", "neither", "nor", "than", "text", "textbf", "mathrm",
    "boxed", "not", "answer", "well", "hmm", "um", "uh", "wait", "no", "yes", "actually", "really", "which",
    "one", "between",
})
_GLUE = frozenset("\\$*_{}()[]`,;:/|")
_HEDGE_WORDS = frozenset({"or", "/", "and", "vs", "versus", "|", "either", "nor"})
_ARTICLE_FOLLOWERS_OK = frozenset({"because", "since", "as", "is", "was", "or", "and", "for", "due", "given", "option",
                                   "choice", "answer", "vs", "versus", "nor", "either"})
_CONDITION_AFTER = frozenset({"if", "unless", "otherwise", "when", "provided", "assuming", "only"})
_CONDITION_BEFORE = frozenset({"otherwise", "else", "if", "unless", "when"})
_QUESTION_BEFORE = frozenset({"whether", "if", "check", "checking", "determine", "determining", "decide", "deciding"})
_SENTENCE_END = frozenset(".!?;")
_STARTERS = _MARKERS | frozenset(_KEYWORDS) | _OPEN | {"option", "choice", "a", "b"}
_LINE_MARKUP = frozenset("*_#>`.:-)$")


class _Tokens:
    """A response split once into word, number and single-symbol tokens (linear time)."""

    __slots__ = ("text", "words", "low", "starts", "ends", "n")

    def __init__(self, text: str) -> None:
        self.text = text
        self.words: list[str] = []
        self.starts: list[int] = []
        self.ends: list[int] = []
        for m in _TOKEN.finditer(text):
            self.words.append(m.group())
            self.starts.append(m.start())
            self.ends.append(m.end())
        self.low = [w.lower() for w in self.words]
        self.n = len(self.words)

    def newline_before(self, i: int) -> bool:
        """Whether a line break separates token ``i`` from the token before it (or it is first)."""
        if i <= 0:
            return True
        return self.text.find("\n", self.ends[i - 1], self.starts[i]) >= 0

    def newline_after(self, i: int) -> bool:
        return i >= self.n - 1 or self.newline_before(i + 1)

    def sentence_break_before(self, i: int) -> bool:
        return i <= 0 or self.newline_before(i) or self.words[i - 1] in _SENTENCE_END


@dataclass
class _Mention:
    cls: str | None   # "A", "B" or None for a rejected option ("not (A)")
    start: int        # first token
    end: int          # one past the last token


class _ChoiceReader:
    def __init__(self, text: str) -> None:
        self.t = _Tokens(text)

    # -------------------------------------------------------------- single options
    def _negated(self, i: int) -> bool:
        """Whether the option starting at token ``i`` is negated ("not solvable", "isn't 3-colorable")."""
        low = self.t.low
        j = i - 1
        for _ in range(5):
            if j < 0:
                return False
            tok = low[j]
            if tok in _NEGATIONS:
                return True
            if tok == "t" and j >= 1 and low[j - 1] in ("'", "’") and j >= 2 and low[j - 2].endswith("n"):
                return True
            if tok not in _NEGATION_SKIP:
                return False
            j -= 1
        return False

    def _letter(self, i: int) -> str | None:
        w = self.t.words[i] if i < self.t.n else ""
        return w.upper() if w in ("A", "B", "a", "b") else None

    def _bare_letter_ok(self, i: int, strict_case: bool) -> bool:
        """A lone letter ``A``/``B`` read as an option (never an English article)."""
        t = self.t
        w = t.words[i]
        nxt = t.low[i + 1] if i + 1 < t.n else ""
        if t.newline_after(i) or nxt == "":
            return True
        if w in ("a", "b"):
            # lower case only at the end of a line/answer: "answer: b" or "answer: a."
            return (nxt in (".", "*", "`", "$", "}") and t.newline_after(i + 1)) or nxt == ")"
        if strict_case and w not in ("A", "B"):
            return False
        if nxt.isalpha():
            # "B I hope this helps": an article is never followed by the pronoun I
            return t.words[i + 1] == "I" or nxt in _ARTICLE_FOLLOWERS_OK or t.words[i + 1] in ("A", "B") or nxt in _KEYWORDS or nxt in ("not", "un")
        if nxt == "'" or nxt == "’":
            return False  # "A's"
        return not nxt.isdigit()

    def option(self, i: int, bare: bool, nested: bool = False) -> _Mention | None:
        """The option starting at token ``i`` (see :meth:`_option`); one that the text calls wrong
        right after ("(B) would be wrong", "(A) is incorrect") is a rejection (``cls`` ``None``)."""
        found = self._option(i, bare, nested)
        if found is not None and found.cls is not None and self._rejected_after(found.end):
            return _Mention(None, found.start, found.end)
        return found

    def _rejected_after(self, k: int) -> bool:
        t = self.t
        for step in range(5):
            if k + step >= t.n or t.words[k + step] in _SENTENCE_END or step and t.newline_before(k + step):
                return False
            word = t.low[k + step]
            if word in ("wrong", "incorrect", "false"):
                return True
            if word == "not" and k + step + 1 < t.n and t.low[k + step + 1] in ("correct", "right", "the"):
                return True
        return False

    def _option(self, i: int, bare: bool, nested: bool = False) -> _Mention | None:
        """The option starting at token ``i``: ``(B)``, ``[B]``, ``B)``, ``option B``, a keyword,
        or (when ``bare``) a lone letter. ``None`` when there is none."""
        t = self.t
        if i >= t.n:
            return None
        w, lw = t.words[i], t.low[i]
        if w in _OPEN and i + 2 < t.n:
            letter = self._letter(i + 1)
            if letter and t.words[i + 2] == _CLOSE[w]:
                return _Mention(None if self._negated(i) else letter, i, i + 3)
            if (w == "{" or w == "(") and not nested:  # \boxed{\text{(B)}}, ({B}) and similar wrappers
                inner = i + 1
                while inner < t.n and inner - i < 6 and t.words[inner] in ("\\", "text", "textbf", "mathrm", "mathbf", "{", "("):
                    inner += 1
                if inner > i + 1:
                    found = self.option(inner, True, nested=True)
                    if found is not None:
                        return _Mention(found.cls, i, found.end)
            return None
        if lw in _KEYWORDS:
            cls = _KEYWORDS[lw]
            if self._negated(i):
                cls = "B" if cls == "A" else "A"
            return _Mention(cls, i, i + 1)
        if lw in ("option", "choice") and i + 1 < t.n:
            nxt = i + 1
            if t.words[nxt] in (":", "-"):
                nxt += 1
            inner = (self.option(nxt, True, nested=True)
                     if nxt < t.n and (t.words[nxt] in _OPEN or self._letter(nxt)) else None)
            if inner is not None and inner.cls is not None:
                return _Mention(None if self._negated(i) else inner.cls, i, inner.end)
            return None
        letter = self._letter(i)
        if letter is None:
            return None
        prev = t.words[i - 1] if i > 0 else ""
        if i + 1 < t.n and t.words[i + 1] == ")" and prev not in _OPEN:  # "B)" / "b)"
            return _Mention(None if self._negated(i) else letter, i, i + 2)
        if (bare or self._alone_on_line(i)) and self._bare_letter_ok(i, strict_case=not bare):
            return _Mention(None if self._negated(i) else letter, i, i + 1)
        return None

    def _alone_on_line(self, i: int) -> bool:
        """A letter with nothing but markup around it on its line ("A", "**B**", "> A.")."""
        t = self.t
        j = i - 1
        while j >= 0 and not t.newline_before(j + 1):
            if t.words[j] not in _LINE_MARKUP:
                return False
            j -= 1
        k = i + 1
        while k < t.n and not t.newline_before(k):
            if t.words[k] not in _LINE_MARKUP:
                return False
            k += 1
        return True

    # -------------------------------------------------------------- answers and clusters
    def _after_marker(self, i: int) -> _Mention | None:
        """The option a marker at token ``i`` introduces ("Answer: the state is (B)")."""
        t = self.t
        j = i + 1
        for _ in range(_MAX_GAP_TOKENS):
            if j >= t.n:
                return None
            found = self.option(j, True)
            if found is not None:
                return found
            if t.low[j] in _FILLER_WORDS or t.words[j] in _FILLER_MARKS or t.low[j] in _NEGATION_SKIP:
                j += 1
                continue
            if t.low[j] in ("yes", "no") and not (j + 1 < t.n and (t.low[j + 1] in _KEYWORDS or t.low[j + 1] == "longer")):
                return _Mention("A" if t.low[j] == "yes" else "B", j, j + 1)
            return None
        return None

    def _extend(self, first: _Mention, explicit: bool) -> tuple[set[str], int, bool]:
        """The classes named by one answer: ``first`` and every option chained to it by connectors.

        Also tells whether the chain took in an explicit marker ("(A) or \\boxed{B}"): a loose
        mention joins a later marked answer only through a hedge word (or, /, vs, ...).
        """
        t = self.t
        classes = {first.cls} if first.cls else set()
        end = first.end
        while end < t.n:
            j = end
            skipped = 0
            hedged, glued = False, True
            while j < t.n and skipped < _MAX_GAP_TOKENS:
                word = t.low[j]
                if word in _MARKERS and not (hedged or skipped <= 6 and not t.newline_before(j) and glued):
                    break  # a new answer ("Correction: (B)"), unless chained by a hedge word or glued on
                if (word in _CONNECTOR_WORDS or word in _NEGATION_SKIP or word in _MARKERS
                        or (len(word) == 1 and not word.isalnum() and word != "?")):
                    if self.option(j, True) is not None:
                        break
                    hedged = hedged or word in _HEDGE_WORDS
                    glued = glued and word in _GLUE
                    explicit = explicit or (word in _MARKERS and hedged)
                    j += 1
                    skipped += 1
                    continue
                break
            nxt = self.option(j, True) if j < t.n else None
            if nxt is None and (hedged or glued and j > end) and j < t.n and t.words[j] in ("A", "B"):
                # "A or B I hope this helps", "A, B I hope ...": after a hedge word or a comma/slash
                # a capital letter is an option
                nxt = _Mention(None if self._negated(j) else t.words[j], j, j + 1)
            if nxt is None:
                break
            if nxt.cls:
                classes.add(nxt.cls)
            end = nxt.end
        return classes, end, explicit

    def _hedged_letter_before(self, i: int, floor: int) -> str | None:
        """A bare capital letter just before the option at ``i``, with only punctuation, hedge words
        or one line break between ("A or (B)", "A (B)", "A/B", "So: A\n(B)"): both are named."""
        t = self.t
        j = i - 1
        breaks = 0
        for _ in range(8):
            if j < floor:
                return None
            if t.newline_before(j + 1):
                breaks += 1
                if breaks > 1:
                    return None
            word = t.words[j]
            if word in ("A", "B"):
                return word if j == 0 or t.words[j - 1] not in _OPEN else None
            low = t.low[j]
            if not (len(word) == 1 and not word.isalnum() or low in _HEDGE_WORDS or low in _NEGATIONS
                    or low in _NEGATION_SKIP or low in _CONNECTOR_WORDS and low not in _MARKERS):
                return None
            j -= 1
        return None

    def _conditional(self, start: int, end: int) -> bool:
        """Whether the answer at tokens ``[start, end)`` is stated under a condition or as a question."""
        t = self.t
        k = end
        for _ in range(3):  # "(A) if a solution exists", "(A) only if ..."
            if k >= t.n or t.words[k] in _SENTENCE_END or t.newline_before(k):
                break
            if t.low[k] in _CONDITION_AFTER:
                return True
            k += 1
        k = end
        for _ in range(_SENTENCE_TOKENS):  # a question
            if k >= t.n or t.newline_before(k) and k > end:
                break
            if t.words[k] == "?":
                return True
            if t.words[k] in ".!;":
                break
            k += 1
        j = start - 1
        for _ in range(3):  # "otherwise (B)", "if not, (B)"
            if j < 0 or t.sentence_break_before(j + 1):
                break
            if t.low[j] in _CONDITION_BEFORE:
                return True
            j -= 1
        j = start - 1
        saw_would = False
        for _ in range(_SENTENCE_TOKENS):  # "if it were ..., the answer would be (A)"
            if j < 0 or t.sentence_break_before(j + 1):
                break
            if t.low[j] in ("would", "could"):
                saw_would = True
            if t.low[j] in ("if", "unless", "suppose", "supposing") and saw_would:
                return True
            j -= 1
        return False

    def _question_context(self, i: int) -> bool:
        """A bare keyword right after "whether"/"check if" ("check whether it is solvable")."""
        t = self.t
        j = i - 1
        for _ in range(4):
            if j < 0 or t.sentence_break_before(j + 1):
                return False
            if t.low[j] in _QUESTION_BEFORE:
                return True
            j -= 1
        return False

    def read(self) -> Choice:
        t = self.t
        last_explicit: tuple[set[str], int] | None = None
        last_loose: tuple[set[str], int] | None = None
        i = 0
        low = t.low
        floor = 0  # where the previous answer ended
        while i < t.n:
            lw = low[i]
            if lw not in _STARTERS:
                i += 1
                continue
            first: _Mention | None = None
            explicit = False
            if lw in _MARKERS and (lw != "boxed" or (i > 0 and t.words[i - 1] == "\\")):
                first = self._after_marker(i)
                explicit = first is not None
            if first is None:
                first = self.option(i, False)
                if first is not None and t.low[first.start] in _KEYWORDS and self._question_context(first.start):
                    first = None
            if first is None:
                i += 1
                continue
            classes, end, explicit = self._extend(first, explicit)
            before = self._hedged_letter_before(min(i - (lw == "boxed"), first.start), floor)
            if before:
                classes.add(before)
            if not self._conditional(first.start, end):
                if explicit:
                    last_explicit = (classes, i)
                else:
                    last_loose = (classes, i)
            i = floor = max(end, i + 1)
        chosen = last_explicit or last_loose
        if chosen is None:
            return Choice(None, False, "no final answer (A)/(B) found")
        classes, _ = chosen
        if len(classes) != 1:
            why = "the final answer names both options" if classes else "the final answer only rules an option out"
            return Choice(None, last_explicit is not None, why)
        return Choice(next(iter(classes)), last_explicit is not None)


def read_choice(text: str, *, starts_in_think: bool = False) -> Choice:
    """The committed (A)/(B) answer of a state-checking response (see the module rules)."""
    region = final_region(text, starts_in_think=starts_in_think)
    if region is None:
        return Choice(None, False, UNFINISHED)
    region = region[-CHOICE_WINDOW_CHARS:]
    if not region.isascii():
        region = unicodedata.normalize("NFKC", region)  # fullwidth （B）, ：, Ａ
    return _ChoiceReader(region).read()


# ------------------------------------------------------------------ state lists: "Next state: [...]"
MAX_LIST_CHARS = 50_000        # longest list payload read
MAX_LIST_DEPTH = 8             # deepest list nesting
MAX_ATTEMPTS = 16              # marked lists tried, last first
MAX_MARKS = 256                # markers examined, last first (later prose mentions are skipped)
SCAN_BUDGET = 4 * MAX_LIST_CHARS  # characters scanned for lists per answer
_INTRO_CHARS = 300             # text allowed between a marker and its list
_STRUCT = re.compile(r"[\[\]'\"\n\\]")
_INTRO_WORDS = (
    "is", "are", "would", "be", "will", "the", "new", "becomes", "become", "as", "follows", "here", "python", "json",
    "plaintext", "text", "final", "answer", "solution", "solved", "complete", "completed", "full", "filled", "grid",
    "coloring", "colouring", "table", "state", "puzzle", "list", "of", "my", "our", "this", "that", "it", "looks",
    "like", "then", "so", "thus", "therefore", "after", "move", "we", "get", "have", "left", "right", "in", "format",
)
_INTRO = re.compile(
    r"(?:[\s*_:：=>→`$#.,-]|\\\[|\\\(|\\left|\\displaystyle|\\begin\{[a-z]{1,12}\}|"
    r"\((?=[^()\[\]\n]{0,200}\))[^()\[\]\n]{0,200}\)|"
    r"\b(?:" + "|".join(_INTRO_WORDS) + r")\b)*",
    re.IGNORECASE,
)
_HEDGE = re.compile(
    r"[\s*_`$.,;/|]{0,40}(?:(?:or|and/or|and|alternatively|otherwise)\b[\s*_`$:,]{0,20})?(?:\\\[\s{0,10})?\[",
    re.IGNORECASE,
)
_TRUNCATED = -1
_ASCII_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}
Marks = tuple[tuple[str, "re.Pattern[str] | None"], ...]
_NEXT_STATE_MARKS: Marks = (("next", re.compile(r"next[ \t_-]{0,3}state")),)
_SOLUTION_MARKS: Marks = (("answer", None), ("solution", None))
_EXPRESSION_MARKS: Marks = (("answer", None), ("solution", None), ("\\boxed{", None))


def _lowered(text: str) -> str:
    """``text`` in lower case with the same offsets (ASCII-only lowering when unicode changes lengths)."""
    low = text.lower()
    return low if len(low) == len(text) else text.translate(_ASCII_LOWER)


def last_marks(text: str, marks: Marks, limit: int = MAX_MARKS) -> list[tuple[int, int]]:
    """``(start, end)`` of the last ``limit`` markers in ``text``, in text order (case-insensitive).

    Searched backwards with ``str.rfind`` (C speed, from the end, where answers are); a marker word
    is confirmed by its pattern, and at most ``4 * limit`` occurrences of each word are examined.
    """
    low = _lowered(text)
    found: list[tuple[int, int]] = []
    for word, pattern in marks:
        pos, kept = len(low), 0
        for _ in range(4 * limit):
            at = low.rfind(word, 0, pos)
            if at < 0 or kept >= limit:
                break
            pos = at
            if pattern is None:
                found.append((at, at + len(word)))
                kept += 1
            else:
                m = pattern.match(low, at)
                if m is not None:
                    found.append((at, m.end()))
                    kept += 1
    found.sort()
    return found[-limit:]


def list_end(text: str, begin: int, limit: int = MAX_LIST_CHARS) -> int:
    """The offset just past the list opening at ``text[begin] == "["``, or ``-1`` when the text ends
    before it closes (cut off). Quotes are respected (a quote ends at a line break); raises
    :class:`ParseError` past ``limit`` characters or ``MAX_LIST_DEPTH`` levels."""
    end_limit = min(len(text), begin + limit)
    fast = _plain_list_end(text, begin, end_limit)
    if fast is not None:
        return fast
    depth = 0
    quote = ""
    skip_to = -1
    for m in _STRUCT.finditer(text, begin, end_limit):
        at = m.start()
        if at < skip_to:
            continue
        ch = m.group()
        if quote:
            if ch == "\\":
                skip_to = at + 2
            elif ch == quote or ch == "\n":
                quote = ""
        elif ch == "'" or ch == '"':
            quote = ch
        elif ch == "[":
            depth += 1
            if depth > MAX_LIST_DEPTH:
                raise ParseError(f"list nested deeper than {MAX_LIST_DEPTH} levels")
        elif ch == "]":
            depth -= 1
            if depth == 0:
                return at + 1
    if end_limit < len(text):
        raise ParseError(f"list longer than {limit} characters")
    return _TRUNCATED


def _plain_list_end(text: str, begin: int, end_limit: int) -> int | None:
    """:func:`list_end` for a list without quotes or backslashes (most states), with C-speed searches;
    ``None`` when the list holds a quote or a backslash, or does not close (the full scanner decides)."""
    opens, at = 0, begin
    while True:
        close = text.find("]", at, end_limit)
        if close < 0:
            return None
        opens += text.count("[", at, close)
        depth = opens  # before this ']'
        if depth > MAX_LIST_DEPTH:
            return None
        opens -= 1
        at = close + 1
        if opens == 0:
            for quote in "'\"\\":
                if text.find(quote, begin, at) >= 0:
                    return None
            return at


def _has_content(payload: str) -> bool:
    """Whether a bracketed span could be a state (digits or quoted text), not prose like "[valid]"."""
    return any(c.isdigit() for c in payload) or "'" in payload or '"' in payload or not payload[1:-1].strip()


_ROW_GAP = re.compile(r"[ \t]{0,20},?[ \t]{0,20}(?:\r?\n[ \t]{0,20})?(?=\[)")
MAX_ROWS = 64


def _row_sequence(region: str, begin: int, stop: int) -> tuple[list[str], int]:
    """Flat lists that follow each other on consecutive lines (or after commas): ``[1, 2]\n[3, 4]``."""
    rows = [region[begin:stop]]
    while len(rows) < MAX_ROWS:
        gap = _ROW_GAP.match(region, stop, min(len(region), stop + 64))
        if gap is None:
            break
        try:
            end = list_end(region, gap.end())
        except ParseError:
            break
        row = region[gap.end():end] if end != _TRUNCATED else ""
        if not row or "[" in row[1:]:
            break
        rows.append(row)
        stop = end
    return rows, stop


def _offers_another(region: str, stop: int, payload: str) -> bool:
    """Whether a different list follows the answer's list with only "or"/separators between ("[..] or [..]")."""
    hedge = _HEDGE.match(region, stop, min(len(region), stop + 80))
    if hedge is None:
        return False
    try:
        other_end = list_end(region, hedge.end() - 1)
    except ParseError:
        return True
    if other_end == _TRUNCATED:
        return True
    other = region[hedge.end() - 1:other_end]
    return "".join(other.split()) != "".join(payload.split())


def marked_list(region: str, marks: Marks = _NEXT_STATE_MARKS) -> str:
    """The list after the last ``marker`` that is directly followed by a complete list.

    Prose after a list and marker mentions without a list are ignored; a final list cut off by the
    end of the text falls back to the last complete one. Raises :class:`ParseError` when no marked
    list is complete, or when the final answer offers two lists ("[...] or [...]").
    """
    truncated = False
    tried, budget = 0, SCAN_BUDGET
    for _, end in reversed(last_marks(region, marks)):
        intro = _INTRO.match(region, end, min(len(region), end + _INTRO_CHARS))
        begin = intro.end() if intro else end
        if begin >= len(region) or region[begin] != "[":
            continue
        tried += 1
        if tried > MAX_ATTEMPTS or budget <= 0:
            break
        stop = list_end(region, begin, min(MAX_LIST_CHARS, budget))
        budget -= (len(region) if stop == _TRUNCATED else stop) - begin
        if stop == _TRUNCATED:
            truncated = True
            continue
        payload = region[begin:stop]
        if not _has_content(payload):
            continue
        if "[" not in payload[1:]:  # rows printed one per line without the outer brackets
            rows, stop = _row_sequence(region, begin, stop)
            if len(rows) > 1:
                payload = "[" + ", ".join(rows) + "]"
        if _offers_another(region, stop, payload):
            raise ParseError("the final answer offers more than one state")
        return payload
    if truncated:
        raise ParseError("the answer's list is cut off before it closes")
    what = "Next state:" if marks is _NEXT_STATE_MARKS else " or ".join(repr(word) for word, _ in marks)
    raise ParseError(f"no list found after {what}")


def last_list(region: str) -> str:
    """The last complete top-level list in ``region`` (for answers that use no marker).

    Found backwards from the last ``[``: the first complete list with content, widened to any
    earlier ``[`` whose list encloses it. At most ``4 * MAX_ATTEMPTS`` openings and ``SCAN_BUDGET`` characters
    are examined, so degenerate text ("[[[[...") costs a bounded amount.
    """
    found: tuple[int, int] | None = None
    pos, budget = len(region), SCAN_BUDGET
    for _ in range(4 * MAX_ATTEMPTS):
        begin = region.rfind("[", 0, pos)
        if begin < 0 or budget <= 0:
            break
        pos = begin
        try:
            stop = list_end(region, begin, min(MAX_LIST_CHARS, budget))
        except ParseError:
            budget -= MAX_LIST_CHARS
            continue
        budget -= (len(region) if stop == _TRUNCATED else stop) - begin
        if stop == _TRUNCATED:
            found = None  # lists found so far sit inside a list cut off by the end of the text
            continue
        if found is None:
            if _has_content(region[begin:stop]):
                found = (begin, stop)
        elif stop >= found[1]:
            found = (begin, stop)  # an enclosing list (siblings and earlier lists are passed over)
    if found is None:
        raise ParseError("no list found in the answer")
    return region[found[0]:found[1]]


def next_state_payload(region: str) -> str:
    """The state-transition answer: the list of the last complete ``Next state:``."""
    return marked_list(region, _NEXT_STATE_MARKS)


def solution_payload(region: str) -> str:
    """The end-to-end list answer: the last ``Answer:``/``Solution:`` list, else the last list."""
    try:
        return marked_list(region, _SOLUTION_MARKS)
    except ParseError as err:
        if "more than one" in str(err):
            raise
    return last_list(region)


# ------------------------------------------------------------------ arithmetic answers (Game of 24)
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
    from .arith import DivisionByZero, evaluate, parse  # noqa: PLC0415

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
    for start, end in reversed(last_marks(region, _EXPRESSION_MARKS, MAX_ATTEMPTS)):
        if region[start] == "\\":
            segment = _boxed_contents(region[start:start + _MAX_LINE_CHARS])
            close = segment.find("\n")
            segment = segment if close < 0 else segment[:close]
        else:
            segment = _answer_lines(region, end)
        cleaned = clean_math(segment)
        stripped = cleaned.lstrip(" \t*_:")
        if stripped.startswith("["):
            return marked_list(region[start:], _SOLUTION_MARKS)
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
    from .textparse import parse_literal  # noqa: PLC0415

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


# ------------------------------------------------------------------ format check (rewards)
def format_ok(task: str, text: str, *, starts_in_think: bool = False, puzzle: str | None = None) -> bool:
    """Whether ``text`` finishes its reasoning and commits to exactly one final answer in the form
    the task's prompt asks for (what the verifier reads without a parse error).

    state_checking: an explicit ``Answer: (A)``/``(B)`` (or ``\\boxed{}``) naming one option.
    state_transition: a ``Next state:`` followed by a complete, readable state list.
    end_to_end: an ``Answer:`` followed by a readable solution (one whole expression for the Game
    of 24; a list otherwise: the form is the named ``puzzle``'s engine's).
    """
    region = final_region(text, starts_in_think=starts_in_think)
    if region is None:
        return False
    if task == STATE_CHECKING:
        choice = read_choice(region)
        return choice.choice is not None and choice.explicit
    if task == STATE_TRANSITION:
        return _readable(region, puzzle, STATE_TRANSITION)
    if task == END_TO_END:
        return _readable(region, puzzle, END_TO_END)
    raise ValueError(f"unknown task {task!r}")


def _readable(region: str, puzzle: str | None, task: str) -> bool:
    """Whether the transition / end-to-end answer in ``region`` reads as an answer of the puzzle's
    domain (its engine decides the form; a plain list literal when no puzzle is named)."""
    from .engines import get_engine  # noqa: PLC0415 (engines import this reader)
    from .textparse import parse_literal  # noqa: PLC0415

    try:
        if puzzle is not None:
            return get_engine(puzzle).answer_readable(region, task)
        parse_literal(next_state_payload(region) if task == STATE_TRANSITION else solution_payload(region))
        return True
    except (ParseError, RecursionError):
        return False


def choice_or_error(text: str, *, starts_in_think: bool = False) -> str:
    """The committed choice, raising :class:`ParseError` (with the reason) when there is none."""
    choice = read_choice(text, starts_in_think=starts_in_think)
    if choice.choice is None:
        raise ParseError(choice.reason)
    return choice.choice


__all__ = ["CHOICE_WINDOW_CHARS", "Choice", "THINK_CLOSE", "THINK_OPEN", "UNFINISHED", "Unfinished", "answer_region",
           "arithmetic_answer", "choice_or_error", "clean_math", "expression_items", "final_region", "format_ok",
           "last_list", "list_end", "marked_list", "next_state_payload", "read_choice", "solution_payload"]
