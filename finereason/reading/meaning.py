"""What the text around a candidate answer means, read through the vocabulary of every language.

The commitment rule (:mod:`finereason.reading.commit`) asks these questions about the candidate (the
last answer statement); each is stated once here, for every answer kind:

- :func:`negated`: a negated answer statement (``The answer is not [..]``, ``答案不是 ...``,
  ``(B)ではない``) never commits what it negates: it is a rejection of it; :func:`negated_answer` tells
  a kind's scanner that prose before a payload opens such a statement (``The plan is not (unstack ...``);
- :func:`asked`: an open question about the answer (``... right?``, ``or is it?``, ``= ?``) never
  commits; a question answered at once by a confirmation (``Is that right? Yes.``) confirms;
- :func:`tried`: a try offered for evaluation (``Let's try X:``) cut off before its result never
  commits;
- :func:`split`: a probability split over answers (``70% A, 30% B``) is a hedge, and a stated confidence
  below the threshold in the answer's line (``(A) (60%)``) is doubt;
- :func:`working`: a statement introduced as working or a restatement (``Explanation:``, ``for
  clarity``, ``in other words``) after a committed answer is explanation, not a new answer;
- :func:`reference`: ``Final answer: the one from attempt 1`` / ``see above`` refer to an earlier answer;
- :func:`unread_answer`: an answer-like line after the candidate that no rule classifies (ambiguous).

Every look is bounded (a few hundred characters around the candidate), so the rule stays linear.
"""
from __future__ import annotations

import re
from functools import lru_cache

from . import vocabulary
from . import scope
from .scope import line_start
from .withdrawals import CONFIDENCE_THRESHOLD

_REACH = 400          # characters after a candidate looked at for questions, references and answer lines
_BEFORE = 80          # characters before a statement looked at in its sentence
_SKIP = " \t*_`$.,:;!)]}>\"'“”’"
_PERCENT = re.compile(r"(\d{1,3}(?:[.,]\d{1,3})?)[ \t]{0,2}%")
_SENTENCE_END = "\n.!?。！？"
_PAYLOAD_START = re.compile(r"[\[({0-9\n]")  # where a statement's payload may begin, after its marker


def _words(category: str):
    return vocabulary.words(category)


def _has(low: str, category: str, lo: int, hi: int) -> tuple[int, str] | None:
    """The first entry of ``category`` found in ``low[lo:hi]`` (offset, word), or ``None``."""
    hit = vocabulary.first(low, category, lo, hi)
    return None if hit is None else (hit[0], hit[1].word)


def sentence_lo(low: str, start: int) -> int:
    """Where the sentence holding ``start`` begins (at most :data:`_BEFORE` characters back). A
    statement opening its line after a line ending in a colon (``Answer:\n(unstack a b)``) belongs to
    that line's sentence."""
    best = _sentence_lo(low, start)
    if best > 0 and not low[best:start].strip(_SKIP) and low[:best - 1].rstrip(" \t*_`").endswith((":", "：")):
        best = _sentence_lo(low, best - 1)
    return best


def _sentence_lo(low: str, start: int) -> int:
    if start <= 0:  # a statement opening the text
        return 0
    lo = max(0, start - _BEFORE)
    best = lo
    for mark in _SENTENCE_END:
        at = low.rfind(mark, lo, start)
        if at >= 0 and (mark == "\n" or at + 1 >= len(low) or low[at + 1] in " \t\n"):
            best = max(best, at + 1)
    return best


def _ends_with_word(text: str, word: str, bounded: bool) -> bool:
    if not text.endswith(word):
        return False
    k = len(text) - len(word)
    return not bounded or k == 0 or not (text[k - 1].isalnum() and word[0].isalnum())


@lru_cache(maxsize=None)
def _negations() -> tuple[tuple[str, ...], dict[str, bool], tuple[str, ...]]:
    """Every negation word (to test ``endswith`` at once), whether each is a whole word, and the words
    of the languages that negate afterwards (longer than one character)."""
    before = {e.word: e.bounded for e in _words("negation")}
    after = tuple(e.word for lang in vocabulary.languages() if lang.negation_follows
                  for e in lang.entries["negation"] if len(e.word) > 1)
    return tuple(before), before, after


@lru_cache(maxsize=None)
def _marker_words() -> tuple[str, ...]:
    return tuple(sorted({e.word for e in _words("answer_markers")}))


@lru_cache(maxsize=None)
def _marker_set() -> frozenset[str]:
    return frozenset(_marker_words())


def negated(low: str, start: int, end: int) -> bool:
    """Whether the statement at ``[start, end)`` is negated: a negation ends the text between its
    sentence start and its payload (``is not [...]``, ``isn't``, ``不是``), or, in a language that
    negates afterwards, follows it (``ではない``)."""
    words, bounded, after = _negations()
    tail = low[end:end + 12].lstrip(_SKIP)
    if after and tail.startswith(after):
        return True
    lo = sentence_lo(low, start)
    head = low[lo:start]
    span = low[start:min(end, start + 48)]
    if span.startswith(_marker_words()):
        payload = _PAYLOAD_START.search(span)  # the marker part of the statement ("answer is not ")
        if payload is not None:
            head += span[:payload.start()]
    head = head.rstrip(_SKIP + "-=")
    if not head.endswith(words):
        return False
    return any(_ends_with_word(head, w, bounded[w]) for w in words if head.endswith(w))


def negated_answer(low: str, at: int) -> bool:
    """Whether the prose before offset ``at`` in its sentence is a negated answer statement opening the
    payload at ``at``: an answer marker word of any language (``plan``, ``respuesta``, ``答案``) then a
    negation ending right before it (``The plan is not (unstack ...``, ``Ответ не ...``). A negation alone
    (``We must not (stack d c)``) is not one."""
    lo = sentence_lo(low, at)
    head = low[lo:at].rstrip(_SKIP + "-=")
    words, bounded, _ = _negations()
    if not head.endswith(words) or not any(_ends_with_word(head, w, bounded[w]) for w in words if head.endswith(w)):
        return False
    for m in _marker_words():
        k = head.find(m)
        while k >= 0:
            if k == 0 or not (head[k - 1].isalnum() and m[0].isalnum()):  # "plan", not "explanation"
                return True
            k = head.find(m, k + 1)
    return False


def hedged(low: str, start: int) -> bool:
    """Whether a hedge word of any language (``probably``, ``quizás``, ``可能``) stands before the
    statement at ``start`` in its sentence."""
    return _has(low, "hedge", sentence_lo(low, start), start) is not None


def conditioned(low: str, start: int) -> bool:
    """Whether a condition word of any language (``if``, ``si``, ``wenn``, ``如果``) stands before the
    statement at ``start`` in its sentence."""
    return _has(low, "condition", sentence_lo(low, start), start) is not None


def _next_sentence_end(low: str, at: int, hi: int) -> int:
    best = hi
    for mark in "?？":
        k = low.find(mark, at, best)
        if k >= 0:
            best = k
    return best


def confirmed(low: str, at: int) -> bool:
    """Whether a confirmation (``Yes.``, ``是的``) opens the text right after offset ``at``."""
    rest = low[at:at + 40].lstrip(_SKIP + "\n")
    for entry in _words("confirmation"):
        if rest.startswith(entry.word) and vocabulary.found(entry, rest, 0):
            return True
    return False


def asked(low: str, end: int, hi: int) -> bool:
    """Whether the candidate ending at ``end`` is asked as an open question before ``hi`` (the next
    statement or the end of its scope): a ``?`` right after it, or a question form about it, not
    answered at once by a confirmation."""
    hi = min(hi, end + _REACH)
    rest = low[end:min(hi, end + 12)].lstrip(" \t*_`$=")
    if rest.startswith(("?", "？")):
        return not confirmed(low, low.find(rest[0], end) + 1)
    found = _has(low, "question", end, hi)
    if found is None:
        return False
    mark = _next_sentence_end(low, found[0], min(hi + 1, len(low)))
    return not confirmed(low, mark + 1 if mark < len(low) else found[0] + len(found[1]))


def tried(low: str, start: int, end: int) -> bool:
    """Whether the statement at ``[start, end)`` is a try offered for evaluation (``Let's try X:``) with
    nothing after it: cut off before its result."""
    if low[end:].strip(_SKIP + "\n?？=…-") and len(low) - end > 0:
        return False
    return _has(low, "trial", _sentence_lo(low, start), start) is not None  # in its own line: "Let's try X:"


def split(low: str, start: int, end: int) -> str:
    """Why the candidate's line states a probability over answers (``70% A, 30% B``: a hedge) or a low
    confidence (``(A) (60%)``: doubt); empty when it states neither."""
    ls = low.rfind("\n", 0, start) + 1
    le = low.find("\n", end)
    le = min(len(low) if le < 0 else le, end + 120)
    if low.find("%", ls, le) < 0:
        return ""
    numbers = [float(m.group(1).replace(",", ".")) for m in _PERCENT.finditer(low, max(ls, start - 2_000), le)]
    if len(numbers) >= 2 and all(n < 100 for n in numbers):
        return "the final answer splits its probability over answers"
    after = [float(m.group(1).replace(",", ".")) for m in _PERCENT.finditer(low, end, le)]
    if after and after[0] / 100 < CONFIDENCE_THRESHOLD:
        return "the final answer is given with a low stated confidence"
    return ""


def working(low: str, start: int) -> bool:
    """Whether the statement at ``start`` is introduced as working or a restatement (``Explanation:``,
    ``for clarity``, ``in other words``) in its sentence or the line before it."""
    lo = sentence_lo(low, start)
    if low[lo:start].strip(_SKIP + "\n") == "" and lo > 0:  # a heading line right before ("For clarity:\n")
        lo = max(low.rfind("\n", 0, max(0, lo - 1)) + 1, lo - _BEFORE)
    return _has(low, "restatement", lo, start) is not None


_ATTEMPT = re.compile(r"[ \t#*]{0,3}(\d{1,3})")


def marker_lines(low: str, lo: int, hi: int, limit: int = 32):
    """``(start, colon, end)`` of each line in ``[lo, hi)`` that opens with an answer marker and a colon
    (``Final answer: ...``, ``**Answer:** ...``), ``end`` being its line end: found colon by colon."""
    markers = _marker_set()
    wide = not low.isascii()
    at = lo
    for _ in range(limit):
        colon = low.find(":", at, hi)
        if wide:
            other = low.find("：", at, hi if colon < 0 else colon)
            colon = other if other >= 0 else colon
        if colon < 0:
            return
        at = colon + 1
        ls = low.rfind("\n", lo, colon) + 1 or lo
        label = low[ls:colon].strip(" \t*_#>-`")
        if label in markers:
            le = low.find("\n", colon)
            yield low.find(label, ls, colon), colon, le if 0 <= le < hi else hi


def reference(low: str, end: int, hi: int) -> tuple[int, str, int | None] | None:
    """A reference to an earlier answer in a marker line after offset ``end`` (before ``hi``):
    ``Final answer: see above``, ``Answer: the one from attempt 1``. ``(offset, words, number)``,
    ``number`` being the attempt it names or ``None``."""
    for _, colon, le in marker_lines(low, end, min(hi, end + _REACH)):
        found = _has(low, "reference", colon + 1, le)
        if found is not None:
            at, word = found
            m = _ATTEMPT.match(low, at + len(word))
            return at, word, int(m.group(1)) if m else None
    return None


def attempt_span(low: str, word: str, number: int, before: int) -> tuple[int, int] | None:
    """``(start, end)`` of attempt ``number``'s section before offset ``before``: from its heading
    (``Attempt 1``, with the reference's own noun) to the next heading of the same noun."""
    noun = word.split()[-1]
    pattern = re.compile(re.escape(noun) + r"[ \t#*]{0,3}" + str(number) + r"\b")
    at, hits = low.rfind(noun, 0, before), 0
    head = None
    while at >= 0 and hits < 64:
        if pattern.match(low, at) and line_start(low, at):
            head = at
            break
        at, hits = low.rfind(noun, 0, at), hits + 1
    if head is None:
        return None
    nxt = re.compile(re.escape(noun) + r"[ \t#*]{0,3}\d")
    k = low.find(noun, head + 1, before)
    while 0 <= k:
        if nxt.match(low, k) and line_start(low, k):
            return head, k
        k = low.find(noun, k + 1, before)
    return head, before


_NUMBER_ONLY = re.compile(r"[-+]?\d{1,12}(?:[.,]\d{1,12})?[.!]?")


def _answer_like(body: str) -> bool:
    """Whether the rest of a marker line could state an answer: not empty, not a bare number (a
    result restated, ``Answer: 24``)."""
    return bool(body) and _NUMBER_ONLY.fullmatch(body) is None


def unread_answer(low: str, end: int, hi: int, candidate: str) -> int:
    """Offset of an answer-like line after the candidate (before ``hi``) that no statement holds: a
    line opening with an answer marker and a colon whose rest is neither empty, a bare number, nor part
    of the candidate's own text; ``-1`` when there is none."""
    flat = "".join(candidate.split()).strip(_SKIP)
    for start, colon, le in marker_lines(low, end, min(hi, len(low))):
        body = "".join(low[colon + 1:le].split()).strip(_SKIP)
        if _answer_like(body) and body not in flat and flat not in body:
            return start
    return -1


def plainly_committed(low: str, start: int, stop: int) -> bool:
    """Whether a lone answer statement at ``[start, stop)`` of ASCII text ``low`` needs none of the
    checks above: nothing before it in its sentence that hedges, conditions or negates it, no turn of
    another speaker before it, and after it no question, stated confidence or answer line (a fast path's
    pre-check, for a text with no withdrawal word after the statement; ``False`` sends the text to the
    full rule)."""
    if not low.isascii():
        return False
    if _TAIL_WORD.search(low, stop) is not None:
        # the caller found no withdrawal word after the statement: a scope opener or a turn there would
        # only cut off text that changes nothing, a reference or an answer line needs a colon, a split a
        # "%", a stated confidence a digit; what is left to look for is a question
        if _TAIL_MARK.search(low, stop) is not None:
            return False
        if _DIGIT.search(low, stop) is not None and vocabulary.first(low, "confidence", stop, len(low)) is not None:
            return False
        if _plain_question().search(low, stop) is not None and vocabulary.first(
                low, "question", stop, len(low)) is not None:
            return False
    line = low.rfind("\n", 0, start) + 1
    if (line < start and _TAIL_WORD.search(low, line, start) is not None) or (
            line and low[max(0, line - 40):line].rstrip(" \t\n*_`").endswith(":")):
        lo = sentence_lo(low, start)
        if vocabulary.any_of(low, _BEFORE_CATEGORIES, lo, start) or negated(low, start, stop):
            return False
    marks = _turn_marks()
    if marks is not None and marks.search(low, 0, start) is None:  # every turn holds one of them
        return True
    return scope.turn_at(low[:start]) >= start


@lru_cache(maxsize=None)
def _plain_questions() -> tuple[str, ...]:
    """The question entries that ASCII text without a "?" can hold (every other one holds a "?" or a
    character that is not ASCII, and entries are found as substrings)."""
    return tuple(sorted({e.word for e in _words("question") if e.word.isascii() and "?" not in e.word}))


@lru_cache(maxsize=None)
def _plain_question() -> re.Pattern[str]:
    """Any entry of :func:`_plain_questions` (one search for all of them)."""
    return re.compile("|".join(re.escape(w) for w in _plain_questions()) or "(?!)")


_TAIL_WORD = re.compile(r"[^ \t\n`*_.!]")  # anything but blanks and markup
_TAIL_MARK = re.compile(r"[?%:]")
_DIGIT = re.compile(r"[0-9]")


@lru_cache(maxsize=None)
def _turn_marks() -> re.Pattern[str] | None:
    marks = vocabulary.anchors("turn")
    return None if marks is None else re.compile("[" + re.escape("".join(sorted(marks))) + "]")


_BEFORE_CATEGORIES = ("hedge", "condition", "trial")
