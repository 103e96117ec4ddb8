"""State lists in model text: the list syntax (bounded bracket matching) and the list scanner.

A list answer statement is a marker (``Next state:``, ``Answer:``, ``Solution:``, ``Corrected:``)
directly followed by a list; a bare list (no marker) is an answer statement when the region has no
marked list at all (an end-to-end answer without a marker) or when it follows a withdrawal ("wait,
that's wrong, it should be [...]"). The commitment rule (:mod:`finereason.reading.commit`) then
picks the answer: a final list cut off by the token limit is no answer, "[...] or [...]" never
commits, a retraction after the list voids it.

Every scan is bounded: markers are found backwards with ``str.rfind`` (at most ``MAX_MARKS``), list
ends with ``str.find``/``str.count`` or one pass over the brackets and quotes, within
``SCAN_BUDGET`` characters per answer; patterns applied at a position have bounded repeats.
"""
from __future__ import annotations

import re
from typing import Callable

from ..common.verdict import ParseError
from . import meaning, scope, vocabulary
from .boxed import mark_unclosed_boxes
from .commit import Reading, Statement, commit
from .marker_gates import Marks, mark_table as _mark_table
from .hedges import (HEDGE_ADVERBS, conditional, hedged, hedged_after, introduced_by_hedge, mark_hedges, offered_after_another,
                     sentence_before)
from .region import blank_tags
from .withdrawals import _SHORT_RANGE, Signals, signal_words

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
    "either",
)
_INTRO = re.compile(
    r"(?:[\s*_:：=>→`$#.,-]|\\\[|\\\(|\\left|\\displaystyle|\\boxed\{|\\begin\{[a-z]{1,12}\}|"
    r"\((?=[^()\[\]\n]{0,200}\))[^()\[\]\n]{0,200}\)|"
    r"\b(?:" + "|".join(_INTRO_WORDS) + r")\b)*",
    re.IGNORECASE,
)
_HEDGE = re.compile(
    r"[\s*_`$.,;/|]{0,40}(?:\(?(?:or|and/or|and|alternatively|otherwise)\b[\s*_`$:,]{0,20}"
    r"(?:(?:" + "|".join(HEDGE_ADVERBS) + r")\b[\s*_`$:,]{0,20})?)?(?:\\\[\s{0,10})?\[",
    re.IGNORECASE,
)
_REJECTED = re.compile(r"[\s*_`$]{0,6}(?:is|was)[ \t]{1,3}(?:wrong|incorrect|invalid|not (?:right|correct|valid))\b",
                       re.IGNORECASE)
_TRUNCATED = -1
_TEXT = re.compile(r"[^ \t\n`*_.!]")  # anything but blanks and markup (every hedge word holds some: a test checks)
_PRINTABLE = bytes(range(0x20, 0x7F))  # printable ASCII: the space and every visible character
_ASCII_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}
# the English markers in this syntax, then every other language's from the vocabulary (``Siguiente estado``,
# ``下一个状态``; ``Respuesta``, ``Ответ``, ``答案``): a marked list in any language is read as marked
NEXT_STATE_MARKS: Marks = (("next", re.compile(r"next[ \t_-]{0,3}state")),) + tuple(
    (word, None) for word in vocabulary.markers("next_state"))
SOLUTION_MARKS: Marks = (("answer", None), ("solution", None)) + tuple((word, None) for word in vocabulary.markers())
EXPRESSION_MARKS: Marks = (("answer", None), ("solution", None), ("\\boxed{", None))
Shortcut = Callable[[str, Marks, bool, str], "Reading | None"]  # see list_reading


def _lowered(text: str) -> str:
    """``text`` in lower case with the same offsets (ASCII-only lowering when unicode changes lengths)."""
    low = text.lower()
    return low if len(low) == len(text) else text.translate(_ASCII_LOWER)


def last_marks(text: str, marks: Marks, limit: int = MAX_MARKS, *, low: str | None = None) -> list[tuple[int, int]]:
    """``(start, end)`` of the last ``limit`` markers in ``text``, in text order (case-insensitive).

    Searched backwards with ``str.rfind`` (C speed, from the end, where answers are); a marker word
    is confirmed by its pattern, and at most ``4 * limit`` occurrences of each word are examined.
    ``low``: ``text`` lowered already (as :func:`_lowered` does), when the caller has it.
    """
    low = _lowered(text) if low is None else low
    found: list[tuple[int, int]] = []
    for gate, group in _mark_table(marks)[3] if low.isascii() else (("", marks),):  # ASCII text holds no other marker
        if gate not in low:  # no word of the group (each holds its gate): one C-speed look for all of them
            continue
        for word, pattern in group:
            at = low.rfind(word)
            if at < 0:  # the common case: one C-speed look per absent word
                continue
            kept = 0
            for _ in range(4 * limit):
                if at < 0 or kept >= limit:
                    break
                if pattern is None:
                    found.append((at, at + len(word)))
                    kept += 1
                else:
                    m = pattern.match(low, at)
                    if m is not None:
                        found.append((at, m.end()))
                        kept += 1
                at = low.rfind(word, 0, at)
    found.sort()
    return found[-limit:]


_PLAIN_RUN = r"[^\[\]'\"\\]*+"  # no bracket, quote or backslash (possessive: what follows a run is none of them)
_TWO_LEVELS = re.compile(r"\[" + _PLAIN_RUN + r"(?:\[" + _PLAIN_RUN + r"\]" + _PLAIN_RUN + r")*+\]")  # unrolled: linear time


def list_end(text: str, begin: int, limit: int = MAX_LIST_CHARS) -> int:
    """The offset just past the list opening at ``text[begin] == "["``, or ``-1`` when the text ends
    before it closes (cut off). Quotes are respected (a quote ends at a line break); raises
    :class:`ParseError` past ``limit`` characters or ``MAX_LIST_DEPTH`` levels."""
    end_limit = min(len(text), begin + limit)
    two_levels = _TWO_LEVELS.match(text, begin, end_limit)  # a flat list or a list of flat lists: one C call
    if two_levels is not None:
        return two_levels.end()
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
    ``_TRUNCATED`` when the text ends inside such a list within bounds (nesting and ``end_limit``, as the
    full scanner reads it); ``None`` when the list holds a quote or a backslash, or nests too deep, or
    reaches ``end_limit`` before the text ends (the full scanner decides)."""
    opens, at = 0, begin
    while True:
        close = text.find("]", at, end_limit)
        if close < 0:  # a cut-off list: depth only grows from here, and without quotes nothing else counts
            if end_limit < len(text) or opens + text.count("[", at, end_limit) > MAX_LIST_DEPTH:
                return None
            for quote in "'\"\\":
                if text.find(quote, begin, end_limit) >= 0:
                    return None
            return _TRUNCATED
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


_ASCII_DIGIT = re.compile(r"[0-9]")


def _has_content(payload: str) -> bool:
    """Whether a bracketed span could be a state (digits or quoted text), not prose like "[valid]"."""
    if _ASCII_DIGIT.search(payload) is not None:  # the common case, at C speed
        return True
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
    if region.find("[", stop, stop + 80) < 0:  # _HEDGE ends at a "[" within its 80 characters
        return False
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


def _key(payload: str) -> str:
    """``payload`` without whitespace (byte-table deletions at C speed for printable ASCII, the common case)."""
    if payload.isascii():
        key = payload.encode("ascii").translate(None, b" ")
        if not key.translate(None, _PRINTABLE):  # no other whitespace (ASCII whitespace is unprintable)
            return key.decode("ascii")
    return "".join(payload.split())


def list_statements(region: str, marks: Marks, signals: Signals, *, bare: bool = False) -> list[Statement]:
    """The list answer statements of ``region`` in text order (see the module docstring), marked when
    the one hedge table hedges them or a ``\\boxed{`` around them never closes."""
    # a complete list's own sentence was looked at by _list_statement (hedged there, or no hedge before it)
    return mark_unclosed_boxes(region, mark_hedges(region, _list_statements(region, marks, signals, bare=bare),
                                                   sentence=lambda s: not s.complete))


def _list_statements(region: str, marks: Marks, signals: Signals, *, bare: bool = False) -> list[Statement]:
    """The list answer statements of ``region`` in text order (see the module docstring).

    ``marks``: the answer markers of the task; ``bare``: a region without any marked list may answer
    with its last bare list (end-to-end answers).
    """
    found: list[Statement] = []
    seen: set[int] = set()
    budget = SCAN_BUDGET
    for start, end in last_marks(region, _mark_table(marks)[2], low=signals.low):
        if budget <= 0 or len(found) >= MAX_ATTEMPTS * 4:
            break
        begin = list_start(region, end)
        if begin >= len(region) or region[begin] != "[" or begin in seen:
            continue
        seen.add(begin)
        try:
            stop = list_end(region, begin, min(MAX_LIST_CHARS, budget))
        except ParseError as err:
            found.append(Statement(start, begin + 1, key=("unreadable", begin), marked=True, hedged=str(err)))
            budget -= MAX_LIST_CHARS
            continue
        if stop == _TRUNCATED:
            found.append(Statement(start, len(region), key=("cut", begin), marked=True, complete=False))
            break
        budget -= stop - begin
        statement = _list_statement(region, start, begin, stop, marked=True)
        if statement is not None:
            found.append(statement)
    if found:
        found.extend(_rejections(region, found[-1].end))
    floor = 0
    if found:
        after = found[-1].end
        signal = signals.first(after)
        floor = -1 if signal is None else signal[0]
    if floor >= 0 and (bare or found):
        try:
            span = _last_list_span(region[floor:])
        except ParseError:
            span = None
        if span is not None:
            statement = _list_statement(region, floor + span[0], floor + span[0], floor + span[1], marked=False)
            if statement is not None:
                found.append(statement)
    return found


def list_reading(region: str, marks: Marks, *, bare: bool = False, what: str = "state",
                 shortcut: Shortcut | None = None) -> Reading:
    """The committed list answer of a final region (:func:`list_statements` + the commitment rule).
    ``shortcut(region, marks, bare, what)``, asked when the plain look declines: the rule's reading of
    another common shape (held equal to the rule by its tests), or ``None``."""
    original, region = region, blank_tags(region)
    low = _lowered(region)
    if marks is NEXT_STATE_MARKS or marks is SOLUTION_MARKS:
        fast = _one_plain_answer(region, low, marks)
        if fast is not None:
            return fast
    if shortcut is not None:
        fast = shortcut(original, marks, bare, what)
        if fast is not None:
            return fast
    signals = Signals(low, bare)  # find_signals(region, solving=bare), with the lowered text at hand
    return commit(list_statements(region, marks, signals, bare=bare), signals, what=what)


def _one_marker(low: str, marks: Marks) -> tuple[int, int] | None:
    """``(start, end)`` of the only marker of ``marks`` in ``low`` when there is exactly one (each word
    found once, confirmed by its pattern) and no correction marker; else ``None``."""
    if "correct" in low:
        return None
    found = None
    groups = _mark_table(marks)[3] if low.isascii() else (("", marks),)  # ASCII text holds no other marker
    for gate, group in groups:
        if gate not in low:  # no word of the group (each holds its gate): one C-speed look for all of them
            continue
        for word, pattern in group:
            at = low.rfind(word)
            if at < 0:
                continue
            if found is not None or low.find(word, 0, at) >= 0:
                return None
            m = None if pattern is None else pattern.match(low, at)
            if pattern is not None and m is None:
                return None
            found = (at, at + len(word) if m is None else m.end())
    return found


def list_start(text: str, end: int) -> int:
    """Where the list after a marker ending at ``end`` would begin (past ``: `` or ``_INTRO``'s words)."""
    if text.startswith(": [", end):  # the common case, as _INTRO reads it
        return end + 2
    intro = _INTRO.match(text, end, min(len(text), end + _INTRO_CHARS))
    return intro.end() if intro else end


def lone_list(text: str, marker: tuple[int, int] | None) -> tuple[int, int, int] | None:
    """``(marker start, begin, stop)`` of the one complete list right after ``marker`` (``(start, end)``)
    with no ``[`` after it; else ``None`` (no marker or list, unreadable, cut off, or another list follows)."""
    if marker is None:
        return None
    at, end = marker
    begin = list_start(text, end)
    if begin >= len(text) or text[begin] != "[":
        return None
    try:
        stop = list_end(text, begin)
    except ParseError:
        return None
    if stop == _TRUNCATED or text.find("[", stop) >= 0:
        return None
    return at, begin, stop


def _one_plain_answer(region: str, low: str, marks: Marks = NEXT_STATE_MARKS) -> Reading | None:
    """The reading of the common answer "Next state: [[...]]" (``NEXT_STATE_MARKS``) or "Answer: [[...]]"
    (``SOLUTION_MARKS``), or ``None`` when the full scan must decide. Exactly what :func:`list_statements`
    and :func:`commit` build when the region holds one marker (one marker word, no "correct") followed by
    a complete list with rows, no ``[`` after it, no withdrawal keyword after it (for solutions too: every
    phrase's first word is looked for), and nothing that hedges, conditions or rejects it: one marked
    statement, the only live answer (with no withdrawal after it, a solution's bare-list look never runs).
    Each check is the full path's own (same functions); any other shape returns ``None``."""
    span = lone_list(region, _one_marker(low, marks))
    if span is None:
        return None  # no marker, no complete list, or another list after it: the full scan
    at, begin, stop = span
    # only blanks and markup after the list (the common end of an answer): no word there, so none of the
    # looks after it below (withdrawal words, "is wrong", a hedge word after it) can find anything
    blank_tail = _TEXT.search(low, stop) is None
    if (not blank_tail or len(low) - stop >= _SHORT_RANGE) and signal_words(low, stop, len(low)) != frozenset():
        return None  # a long tail, or a possible withdrawal after the answer (Signals.first's own pre-check)
    payload = region[begin:stop]  # a flat list stays one row: no "[" follows it for _row_sequence
    if not _has_content(payload) or "\\" in region and "\\boxed" in region:  # a box the text ends inside: mark_unclosed_boxes
        return None
    ls = low.rfind("\n", 0, at) + 1
    if low[ls:at].strip(" \t*_#>`-") and ("%" in low[ls:at] or scope.echoed_options(low, at, stop)
                               or scope.echoed_instruction(low, at)):
        return None  # a split over answers before it, or prompt text (the rule's meaning.split and scope looks)
    if not blank_tail and _REJECTED.match(region, stop, min(len(region), stop + 60)) or offered_after_another(region, begin):
        return None
    before = sentence_before(region, at)
    if (before and hedged(region, at, before)) or conditional(region, at, stop, before):
        return None
    if (not blank_tail and hedged_after(region, stop)) or introduced_by_hedge(region, at):  # mark_hedges' other looks
        return None
    if not meaning.plainly_committed(low, at, stop):  # the full rule reads what the text means around it
        return None
    statement = Statement(at, stop, payload, _key(payload), True)  # value, key, marked
    return Reading(payload, "", statement, 1, (statement,))


def _rejections(region: str, after: int) -> list[Statement]:
    """Bare lists after offset ``after`` (the last marked answer) that matter without a withdrawal
    before them: one the text calls wrong ("[1, 2] is wrong") is a rejection, one offered as a
    possibility ("it could be [...]", "either [...] or [...]") a hedged statement."""
    out: list[Statement] = []
    pos, budget = after, SCAN_BUDGET
    for _ in range(MAX_ATTEMPTS):
        begin = region.find("[", pos)
        if begin < 0 or budget <= 0:
            break
        try:
            stop = list_end(region, begin, min(MAX_LIST_CHARS, budget))
        except ParseError:
            break
        if stop == _TRUNCATED:
            break
        budget -= stop - begin
        pos = stop
        key = _key(region[begin:stop])
        if _REJECTED.match(region, stop, min(len(region), stop + 60)) or meaning.negated(region, begin, stop):
            out.append(Statement(begin, stop, key=("rejects", key), rejects=key))
        elif _has_content(region[begin:stop]) and (hedged(region, begin) or offered_after_another(region, begin)):
            out.append(Statement(begin, stop, value=region[begin:stop], key=key,
                                 hedged="the final answer is offered as a possibility"))
    return out


def _list_statement(region: str, start: int, begin: int, stop: int, *, marked: bool) -> Statement | None:
    payload = region[begin:stop]
    if not _has_content(payload):
        return None
    if payload.find("[", 1) < 0:  # rows printed one per line without the outer brackets
        rows, stop = _row_sequence(region, begin, stop)
        if len(rows) > 1:
            payload = "[" + ", ".join(rows) + "]"
    key = _key(payload)
    if _REJECTED.match(region, stop, min(len(region), stop + 60)):  # "[...] is wrong"
        return Statement(start, stop, key=("rejects", key), rejects=key)
    hedged_as, condition = "", False
    if _offers_another(region, stop, payload) or offered_after_another(region, begin):
        hedged_as = "the final answer offers more than one state"
    elif (before := sentence_before(region, start)) and hedged(region, start, before):
        hedged_as = "the final answer is hedged"
    elif conditional(region, start, stop, before):
        hedged_as, condition = "the final answer is stated under a condition", True
    return Statement(start, stop, value=payload, key=key, marked=marked, hedged=hedged_as, conditional=condition)


def _last_list_span(region: str) -> tuple[int, int] | None:
    """``(begin, stop)`` of the last complete top-level list in ``region`` with content, or ``None``.

    Found backwards from the last ``[``: the first complete list with content, widened to any
    earlier ``[`` whose list encloses it. At most ``4 * MAX_ATTEMPTS`` openings and ``SCAN_BUDGET``
    characters are examined, so degenerate text ("[[[[...") costs a bounded amount.
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
    return found


def task_list_reading(region: str, transition: bool, shortcut: Shortcut | None = None) -> Reading:
    """The list answer of a task: the ``Next state:`` list (``transition``), else the solution list
    (marked, or a bare last list); ``shortcut`` as in :func:`list_reading`."""
    if transition:
        return list_reading(region, NEXT_STATE_MARKS, shortcut=shortcut)
    return list_reading(region, SOLUTION_MARKS, bare=True, what="solution", shortcut=shortcut)


def _value(reading: Reading) -> str:
    if reading.value is None:
        raise ParseError(reading.reason)
    return reading.value


def next_state_payload(region: str) -> str:
    """The committed state-transition list ("Next state: [...]"); :class:`ParseError` with the reason."""
    return _value(task_list_reading(region, True))


def solution_payload(region: str) -> str:
    """The committed end-to-end list (after "Answer:"/"Solution:", else a bare list); :class:`ParseError`."""
    return _value(task_list_reading(region, False))
