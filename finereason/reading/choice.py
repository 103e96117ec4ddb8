"""State-checking answers: options ``(A)``/``(B)`` and their keywords, read as answer statements.

The scanner lists every answer statement of the final region (marked, ``Answer: (B)``,
``\\boxed{B}``; or bare, ``The state is unsolvable.``, a lone ``B`` on its line) and the commitment
rule (:mod:`finereason.reading.commit`) picks the answer. What is *not* an answer statement:

- a hypothetical mention (``(B) would only be right if ...``, ``placing 5 would make it
  unsolvable``, ``rather than (B)``): explanation, it neither confirms nor replaces;
- a rejection (``(B) is wrong``, ``not (A)``): explanation, unless it rejects the answer given.

Hedged statements never commit: two options at once (``(A) or (B)``, ``A/B``), a condition
(``(A) if ...``, ``otherwise (B)``), a question, or a hedge word (``my best guess``, ``probably``).
The scanner splits the region once into tokens and looks a bounded number of tokens around each
option, so it runs in linear time; there is no window: the whole final region is read.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from . import meaning, scope
from .boxed import mark_unclosed_boxes
from .commit import Reading, Statement, commit
from .hedges import mark_hedges
from .option_words import (
    _ARTICLE_FOLLOWERS_OK, _CLOSE, _CONDITION_AFTER, _CONDITION_BEFORE, _CONNECTOR_WORDS, _FILLER_MARKS,
    _FILLER_WORDS, _FOREIGN_MARKERS, _GLUE, _HEDGE_AFTER, _HEDGE_BEFORE, _HEDGE_MODALS, _HEDGE_WORDS, _HYPOTHETICAL_AFTER,
    _HYPOTHETICAL_BEFORE, _KEYWORDS, _LINE_MARKUP, _MARKERS, _NEGATIONS, _NEGATION_SKIP, _OPEN, _QUESTION_BEFORE,
    _SENTENCE_END, _STARTERS, _Tokens,
)
from .region import UNFINISHED, blank_tags, final_region
from .withdrawals import find_signals

MAX_STATEMENTS = 128           # answer statements listed per response; more is option spam
TAIL_CHARS = 16_384            # the first tail of the region listed for statements (it grows x4 as needed)
_MAX_CHAIN = 16                # options chained into one answer at most ("(A) (A) (A) ..." is read in pieces)
_MAX_GAP_TOKENS = 12           # filler/connector tokens skipped between a marker and an option
_SENTENCE_TOKENS = 24          # how far a sentence is searched for conditions


@dataclass(frozen=True)
class Choice:
    """What a state-checking answer commits to.

    ``choice`` is ``"A"`` (solvable / colorable), ``"B"`` (unsolvable / uncolorable) or ``None``;
    ``explicit`` tells whether the committed statement carries a marker (``Answer:``, ``\\boxed{}``,
    ...); ``reason`` says why nothing was read when ``choice`` is ``None``; ``live`` counts the
    distinct options left standing (the format reward asks for exactly one).
    """

    choice: str | None
    explicit: bool = False
    reason: str = ""
    live: int = 0




@dataclass
class _Mention:
    cls: str | None   # "A", "B" or None for a rejected option ("not (A)")
    start: int        # first token
    end: int          # one past the last token
    letter: str | None = None  # the option named, rejected or not


class _ChoiceReader:
    def __init__(self, text: str, lo: int = 0) -> None:
        self.t = _Tokens(text, lo)

    # -------------------------------------------------------------- single options
    def _negated(self, i: int) -> bool:
        """Whether the option starting at token ``i`` is negated ("not solvable", "isn't 3-colorable")."""
        return self._negation_at(i) >= 0

    def _negation_at(self, i: int) -> int:
        """The token that negates the option starting at token ``i``, or -1."""
        low = self.t.low
        j = i - 1
        for _ in range(5):
            if j < 0:
                return -1
            tok = low[j]
            if tok in _NEGATIONS:
                return j
            if tok == "t" and j >= 1 and low[j - 1] in ("'", "’") and j >= 2 and low[j - 2].endswith("n"):
                return j - 2
            if tok not in _NEGATION_SKIP:
                return -1
            j -= 1
        return -1

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
            return _Mention(None, found.start, found.end, found.cls)
        return found

    def _rejected_after(self, k: int) -> bool:
        t = self.t
        for step in range(5):
            if k + step >= t.n or t.words[k + step] in _SENTENCE_END or t.newline_before(k + step):
                return False
            word = t.low[k + step]
            if word in ("wrong", "incorrect", "false", "invalid", "eliminated", "excluded", "ruled"):
                return True
            nxt = t.low[k + step + 1] if k + step + 1 < t.n else ""
            if word == "not" and nxt in ("correct", "right", "the", "valid", "fit", "apply", "work", "hold", "true"):
                return True
            if word in ("doesn", "isn", "don") and nxt in ("'", "’") and k + step + 3 < t.n and t.low[k + step + 3] in (
                    "fit", "apply", "work", "hold", "correct", "right", "valid", "true"):
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
                return _Mention(None if self._negated(i) else letter, i, i + 3, letter)
            if (w == "{" or w == "(") and not nested:  # \boxed{\text{(B)}}, ({B}) and similar wrappers
                inner = i + 1
                while inner < t.n and inner - i < 6 and t.words[inner] in ("\\", "text", "textbf", "mathrm", "mathbf", "{", "("):
                    inner += 1
                if inner > i + 1:
                    found = self.option(inner, True, nested=True)
                    if found is not None:
                        return _Mention(found.cls, i, found.end, found.letter)
            return None
        if lw in _KEYWORDS:
            cls = _KEYWORDS[lw]
            negation = self._negation_at(i)
            if negation >= 0:  # "not solvable" is (B): the statement spans its negation
                cls = "B" if cls == "A" else "A"
                return _Mention(cls, negation, i + 1, cls)
            return _Mention(cls, i, i + 1, cls)
        if lw in ("option", "choice") and i + 1 < t.n:
            nxt = i + 1
            if t.words[nxt] in (":", "-"):
                nxt += 1
            inner = (self.option(nxt, True, nested=True)
                     if nxt < t.n and (t.words[nxt] in _OPEN or self._letter(nxt)) else None)
            if inner is not None and inner.cls is not None:
                return _Mention(None if self._negated(i) else inner.cls, i, inner.end, inner.cls)
            return None
        letter = self._letter(i)
        if letter is None:
            return None
        prev = t.words[i - 1] if i > 0 else ""
        if i + 1 < t.n and t.words[i + 1] == ")" and prev not in _OPEN:  # "B)" / "b)"
            return _Mention(None if self._negated(i) else letter, i, i + 2, letter)
        if (bare or self._alone_on_line(i)) and self._bare_letter_ok(i, strict_case=not bare):
            return _Mention(None if self._negated(i) else letter, i, i + 1, letter)
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
            if (t.low[j] in ("yes", "no") and t.low[i] not in _FOREIGN_MARKERS  # "respuesta no es": a negation
                    and not (j + 1 < t.n and (t.low[j + 1] in _KEYWORDS or t.low[j + 1] == "longer"))):
                return _Mention("A" if t.low[j] == "yes" else "B", j, j + 1, "A" if t.low[j] == "yes" else "B")
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
        for _ in range(_MAX_CHAIN):
            if end >= t.n:
                break
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
            if nxt is not None and t.newline_before(nxt.start) and scope.echoed_options(t.text, t.starts[nxt.start],
                                                                                         t.ends[nxt.end - 1]):
                break  # the prompt's option list written back: not part of this answer
            if nxt is not None and self._hypothetical(nxt.start, nxt.end):
                break  # "(A)\n\n(B) would only be right if ...": a new sentence about the other option
            if nxt is None and (hedged or glued and j > end) and j < t.n and t.words[j] in ("A", "B"):
                # "A or B I hope this helps", "A, B I hope ...": after a hedge word or a comma/slash
                # a capital letter is an option
                nxt = _Mention(None if self._negated(j) else t.words[j], j, j + 1, t.words[j])
            if nxt is None or nxt.cls is None:
                break  # a rejected option ("..., not (A)", "(A) is wrong") is a statement of its own
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
            if k >= t.n or t.newline_before(k):
                break
            if t.words[k] == "?":  # an open question, unless a confirmation answers it at once ("(A)? Yes.")
                return not meaning.confirmed(t.text[t.ends[k]:t.ends[k] + 40].lower(), 0)
            if t.words[k] in ".!;":
                break
            k += 1
        j = start - 1
        for step in range(_SENTENCE_TOKENS):  # "If every rule holds, the answer is (A)", "otherwise (B)"
            if j < 0 or t.sentence_break_before(j + 1):
                break
            if t.low[j] in _CONDITION_BEFORE or step < 3 and t.low[j] == "when":
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

    def _cut_after(self, i: int) -> bool:
        """Whether the text ends within a few filler tokens after the marker at ``i`` ("Answer: (",
        "Answer: (B"): an answer cut off by the token limit."""
        t = self.t
        rest = t.n - i - 1
        if rest > 6 or rest and t.words[-1] in ".!?":
            return False
        return all(t.low[k] in _FILLER_WORDS or t.words[k] in _FILLER_MARKS or t.words[k] in _OPEN
                   or t.low[k] in ("a", "b", "option", "choice") for k in range(i + 1, t.n))

    def _hedged(self, start: int, end: int) -> bool:
        """A hedge word in the sentence before the option or right after it ("my best guess is (A)")."""
        t = self.t
        j = start - 1
        for _ in range(6):
            if j < 0 or t.sentence_break_before(j + 1):
                break
            if t.low[j] in _HEDGE_BEFORE or t.low[j] in _HEDGE_MODALS and j + 1 < t.n and t.low[j + 1] == "be":
                return True
            j -= 1
        return self._word_after(end, 4, _HEDGE_AFTER)

    def _word_after(self, end: int, reach: int, words: frozenset[str]) -> bool:
        """Whether one of ``words`` follows token ``end`` within ``reach`` tokens of its sentence and line."""
        t = self.t
        for k in range(end, min(t.n, end + reach)):
            if t.words[k] in _SENTENCE_END or t.newline_before(k):
                return False
            if t.low[k] in words:
                return True
        return False

    def _hypothetical(self, start: int, end: int) -> bool:
        """A bare mention that only describes or supposes an option ("(B) would only be right if",
        "would make it unsolvable", "rather than (B)")."""
        t = self.t
        if self._word_after(end, 2, _HYPOTHETICAL_AFTER):
            return True
        j = start - 1
        for _ in range(6):
            if j < 0 or t.sentence_break_before(j + 1):
                break
            if t.low[j] in _HYPOTHETICAL_BEFORE:
                return True
            j -= 1
        return False

    def statements(self) -> list[Statement]:
        """Every answer statement, in text order (see the module docstring)."""
        t = self.t
        out: list[Statement] = []
        i = 0
        low = t.low
        floor = 0  # where the previous answer ended
        while i < t.n and len(out) <= MAX_STATEMENTS:
            lw = low[i]
            if lw not in _STARTERS:
                i += 1
                continue
            first: _Mention | None = None
            explicit = False
            if lw in _MARKERS and (lw != "boxed" or (i > 0 and t.words[i - 1] == "\\")):
                first = self._after_marker(i)
                explicit = first is not None
            if first is None and lw in _MARKERS and self._cut_after(i):
                out.append(Statement(t.starts[i], len(t.text), key=("cut", i), marked=True, complete=False))
                break
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
            start_tok = min(i, first.start)
            span = (t.starts[start_tok], t.ends[end - 1])
            if not classes:
                if first.letter and end == first.end and not self._hypothetical(first.start, end):
                    out.append(Statement(*span, rejects=first.letter))
            elif not explicit and len(classes) == 1 and self._hypothetical(first.start, end):
                pass  # explanation: "(B) would only be right if ..."
            else:
                hedged, conditional = "", False
                if len(classes) > 1:
                    hedged = "the final answer names both options"
                elif self._conditional(first.start, end):
                    hedged, conditional = "the final answer is stated under a condition or as a question", True
                elif self._hedged(first.start, end):
                    hedged = "the final answer is hedged"
                cls = next(iter(classes)) if len(classes) == 1 else "/".join(sorted(classes))
                out.append(Statement(*span, value=cls, key=cls, marked=explicit, hedged=hedged, conditional=conditional))
            i = floor = max(end, i + 1)
        return out


def choice_reading(text: str, *, starts_in_think: bool = False, every: bool = False) -> Reading:
    """The commitment reading of a state-checking response (:class:`~finereason.reading.commit.Reading`).

    Statements are listed from a tail of the region that grows (x4) until it holds a candidate,
    so a long response costs little when it ends with its answer; whatever follows the candidate is
    always read to the end (withdrawal signals are searched in the whole rest of the region).
    ``every`` (the format check): grow until a second answer left standing shows up or the whole
    region is read, so :attr:`Reading.live` is exact; past :data:`MAX_STATEMENTS` statements the
    response is option spam (``live`` 2).
    """
    region = final_region(text, starts_in_think=starts_in_think)
    if region is None:
        return Reading(None, UNFINISHED)
    region = blank_tags(region)  # normalised: fullwidth （B）, ：, Ａ, look-alikes
    signals = find_signals(region)
    size = TAIL_CHARS
    while True:
        lo = max(0, len(region) - size)
        if lo > 0:
            line = region.find("\n", lo, lo + TAIL_CHARS // 4)
            lo = line + 1 if line >= 0 else lo
        statements = mark_unclosed_boxes(region, mark_hedges(region, _ChoiceReader(region, lo).statements(), sentence=False))
        if every and len(statements) > MAX_STATEMENTS:  # option spam: no single committed answer
            return replace(commit(statements[-MAX_STATEMENTS:], signals, what="answer"), live=2)
        reading = commit(statements, signals, what="answer")
        if lo == 0 or (reading.live >= 2 if every else reading.statement is not None):
            return reading
        size *= 4


def read_choice(text: str, *, starts_in_think: bool = False) -> Choice:
    """The committed (A)/(B) answer of a state-checking response (see the module docstring)."""
    reading = choice_reading(text, starts_in_think=starts_in_think)
    return Choice(reading.value, reading.marked, reading.reason, reading.live)
