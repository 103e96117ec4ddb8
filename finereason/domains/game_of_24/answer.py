"""Game-of-24 answer syntax: arithmetic expressions in model text, read as answer statements.

The domain's plug-in to the answer reader (:mod:`finereason.reading`): :func:`expression_statements`
lists every expression answer statement of a final region in text order, and the commitment rule
(:func:`finereason.reading.commit.commit`) picks the answer. A statement is

- *marked*: an expression after ``Answer:``, ``Final answer:``, ``### Final Answer``, ``Solution:``,
  ``Corrected:``, ``Correct answer:``, ``Final expression:``, ``the answer is``, inside
  ``\\boxed{}``, or on the first line after a line that announces it ("So the final answer is:");
  a bracketed list there is a list answer; an explicit non-expression answer (``Answer: no
  solution``) is a statement that reads as no answer; a marker with nothing after it at the end
  of the text is an answer cut off;
- *bare*: an equation (``(10 - 4) * (13 - 9) = 24``, ``24 = ...``, a chain ``... = 6 * 4 = 24``,
  continued on lines that start with ``=``), or a line that is one whole expression of at least
  two operations.

Not statements: a one-operation step between two numbers (``16 + 8 = 24``, ``3 / 6 = 0.5``) is
working, unless marked or nothing else is stated; the target alone (``Answer: 24``) restates the
target; text without an expression.

A statement's expression is its first side that is not a bare number, and the statement must read
whole: an unknown word or sign right after it (``mod 5``, ``^2``, ``!``) makes it unreadable (it
still replaces an earlier answer and reads as no answer). A chain whose other sides differ from an
expression equal to the target (``(8 - 2) * 4 = 6 * 5 = 24``) is an unsound claim, never credited.
Two expressions offered at once (``X or Y``, ``X; Y``, "or"/"alternatively" between two
statements) are a hedge; a remark right after a statement that calls it wrong (``= 30
(incorrect)``, ``This does not equal 24.`` on the next line) rejects it, and so does an expression
named in prose and called wrong (``(1 + 2) * 8 is wrong.``). A sentence with a hedge word that names
an expression other than the answer standing before it ("I think it is X, but it might be Y.") offers
its expressions as hedged statements (a restatement of the answer alone is no statement). Formatting is never
content: end tags, closing punctuation, markdown emphasis, LaTeX wrappers, ``x`` between operands.

Linear: lines and runs of arithmetic characters are found by regexes applied once per position;
each run is read by :mod:`.expression_text`, within :mod:`finereason.domains.game_of_24.arith`'s bounds.
"""
from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, replace
from typing import Any

from ...common.verdict import ParseError
from ...reading import meaning, vocabulary
from ...reading.boxed import mark_unclosed_boxes
from ...reading.commit import Reading, Statement, commit
from ...reading.hedges import SentenceHedges, mark_conditions, mark_hedges
from ...reading.lists import list_end
from ...reading.region import blank_tags
from ...reading.withdrawals import find_signals
from .arith import Num, canonical
from .expression_text import (MAX_LINE_TAIL, MAX_RUN, NUMBER, REJECT_CORE, RUN, STEP_EQUATION, TAIL_HEDGE, Read, clean_math,
                              expression_items, read_run, strip_run, tail_kind)

MAX_STATEMENTS = 256           # statements kept per region (the last ones; earlier ones only count for ``live``)
LINE_BUDGET = 4_096            # lines scanned for statements, the last ones (withdrawal signals: the whole region)
_FIRST_WINDOW = 16_384         # characters scanned first, from the end; then 4x more until enough statements
_MARKER = re.compile(
    r"\\boxed\{"
    r"|#{1,6}[ \t]{0,3}(?:\*\*)?[ \t]{0,3}(?:final[ \t]{1,3})?(?:answer|solution)\b[ \t*_:：]{0,8}"
    r"|\b(?:final[ \t]{1,3}(?:answer|expression|equation|solution|result|representation|response|calculation|output|formula)"
    r"|answer|solution|correction|corrected(?:[ \t]{1,3}(?:answer|expression|solution|equation))?"
    r"|correct[ \t]{1,3}(?:answer|expression|solution|equation))[ \t*_]{0,4}(?:[:：=]|is\b|would[ \t]{1,3}be\b)[ \t*_:]{0,8}"
    r"|\bthe[ \t]{1,3}(?:final[ \t]{1,3}|correct[ \t]{1,3}|valid[ \t]{1,3})?(?:answer|expression|solution|equation)[ \t]{1,3}"
    r"(?:is|would[ \t]{1,3}be|will[ \t]{1,3}be|can[ \t]{1,3}be[ \t]{1,3}written[ \t]{1,3}as)\b[ \t*_:]{0,8}",
    re.IGNORECASE,
)
_DIGIT = re.compile(r"[0-9]")
_BLANK_TO_EOL = re.compile(r"[ \t\r]*")
_FENCE_LINE = re.compile(r"[ \t]*(?:`{3,}|~{3,})[\w+.-]*[ \t\r]*")  # a markdown code fence: formatting
_MARKER_WORDS = ("answer", "solution", "final", "correct", "boxed", "expression", "equation")
_ASCII_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}
_MARKER_HINT = re.compile(r"answer|solution|final|correct|boxed|expression|equation", re.IGNORECASE)
_EXPLICIT = re.compile(r"(?:final[ \t]{1,3})?answer[ \t*_]{0,4}[:：]", re.IGNORECASE)  # "Answer: <not arithmetic>" counts
_MARK_INTRO = re.compile(r"(?:[ \t*_:：=>`$#—]|\b(?:is|would|be|final|my|the|expression)\b)*", re.IGNORECASE)
_LINE_LEAD = re.compile(r"[ \t>]*(?:(?:[-*•+]|\d{1,2}[.)])[ \t]+(?=\S))?")  # indentation, a bullet or a list number
# a remark right after an expression in prose that calls it wrong ("(1 + 2) * 8 is wrong.")
_REJECTED_AFTER = re.compile(r"[ \t]{0,3}[,;:–—-]?[ \t]{0,3}(?:" + REJECT_CORE + r"|\(\s{0,3}(?:incorrect|wrong|invalid)\b)",
                             re.IGNORECASE)
_GAP_HEDGE = re.compile(r"[\s.,;:*_]{0,20}(?:or|alternatively|and/or|otherwise)\b", re.IGNORECASE)
_OFFERED_GAP = re.compile(r"[\s.,;:*_]{0,20}(?:or|alternatively|and/or|otherwise)\b[\s.,;:*_]{0,20}", re.IGNORECASE)
# a remark on the statement's own line that calls it wrong ("= 30 (incorrect)", "= 16, which does not yield 24")
_REJECTED = re.compile(
    r"\(\s{0,3}(?:this is |that's |which is |is )?(?:incorrect|wrong|not correct|invalid|not valid)\b"
    r"|^[ \t]{0,3}[,;:–—-]?[ \t]{0,3}(?:incorrect|wrong|invalid)\b|≠|\b(?:" + REJECT_CORE + ")",
    re.IGNORECASE,
)
# the next line calling it wrong ("However, this does not yield 24.")
_NEXT_REJECTED = re.compile(
    r"[\W_]{0,6}(?:(?:however|but|unfortunately|sadly|still|again|oops|hmm)[\s,]{1,3})?"
    r"(?:this|that|it|which|the (?:above|result|calculation|expression|answer))(?:'s|’s)?\b[^.\n]{0,50}?\b(?:"
    + REJECT_CORE + r"|incorrect\b|wrong\b)",
    re.IGNORECASE,
)
# a line that answers "no expression reaches the target" (searched in lower case; each branch starts with a
# letter and checks the word boundary right after it, so the search skips ahead on the first letters at C speed)
_NO_SOLUTION = re.compile(
    r"n(?<![a-z0-9_]n)o[ \t]{1,3}(?:[a-z]+[ \t]{1,3}){0,2}?(?:solution|combination|expression|way|answer|arrangement|formula"
    r"|construct)s?\b"
    r"|(?:c(?<![a-z0-9_]c)(?:annot|an't|an’t|an not|ouldn't|ould not)|u(?<![a-z0-9_]u)nable to)\b[^.\n]{0,90}?"
    r"\b(?:24|target|solution|combination|expression)\b"
    r"|n(?<![a-z0-9_]n)(?:ot|'t|’t)[ \t]{1,3}(?:possible|feasible|obtainable|achievable|solvable)\b|i(?<![a-z0-9_]i)mpossible\b"
)
_MAX_LINE_SCAN = 32_768        # characters of one line scanned for statements (its end)


# ------------------------------------------------------------------ the scanner
@dataclass
class _Open:
    """The statement being built on the latest line (for ``=`` continuation lines)."""

    index: int
    start: int
    text: str
    marked: bool
    line: int      # the end of its line


def expression_statements(region: str, target: int = 24) -> list[Statement]:
    """The expression answer statements of ``region`` (end tags already blanked), in text order.

    Read from the end: the last ``_FIRST_WINDOW`` characters first, then four times more, until
    ``MAX_STATEMENTS`` statements are found or the start is reached; never more than the last
    ``LINE_BUDGET`` lines (hostile text). Earlier statements cannot change the commitment (the
    candidate is the last one, and only what follows it withdraws it).
    """
    n = len(region)
    low = region.lower() if region.isascii() else region.translate(_ASCII_LOWER)  # the same offsets
    size = _FIRST_WINDOW
    scanned = -1
    while True:
        lo = 0 if size >= n else region.rfind("\n", 0, n - size) + 1
        last = lo == 0
        if region.count("\n", lo, n) > LINE_BUDGET:
            lo, last = _last_lines(region, LINE_BUDGET), True
        if lo == scanned:  # a long line: the larger window starts where the last one did (read already)
            if last:
                break
            size *= 4
            continue
        scanned = lo
        found, stated_lines = _scan(region, low, lo, target)
        if last or len(found) >= MAX_STATEMENTS:
            break
        size *= 4
    found = _no_solution(region, low, lo, found, stated_lines)
    return _gap_hedges(region, _rejections(region, found))


def _last_lines(region: str, count: int) -> int:
    """The start of the last ``count`` lines of ``region``."""
    at = len(region)
    for _ in range(count):
        at = region.rfind("\n", 0, at)
        if at < 0:
            return 0
    return at + 1


def _scan(region: str, low: str, lo: int, target: int) -> tuple[list[Statement], set[int]]:
    """The statements of ``region[lo:]`` (``lo`` at a line start; ``low``: ``region`` in lower case),
    in text order, and the starts of the lines that state one."""
    out: list[Statement] = []
    steps: list[tuple[int, int, str]] = []
    pending: int | None = None      # start of a marker whose answer is on the next non-empty line
    pending_explicit = False
    last_text_end = len(region.rstrip())
    open_: _Open | None = None
    stated_lines: set[int] = set()
    previous_end = lo - 1
    # another language's marker ("Respuesta:", "答案："), read as "Answer:"; found once, in linear time
    foreign = vocabulary.marker_matches(region, vocabulary.marker_pattern(), lo=lo) if vocabulary.has_markers(low) else []
    foreign_at = [m.start() for m in foreign]
    for line_start, line_end in _relevant_lines(region, low, lo, bool(foreign)):
        if pending is not None and not _formatting_only(region[previous_end + 1:line_start]):
            if pending_explicit:  # "Final answer:" followed by prose: an answer that is not arithmetic
                out.append(Statement(pending, line_start, key=("unreadable", pending), marked=True,
                                     hedged="the answer is not an arithmetic expression"))
            pending = None
        adjacent = previous_end + 1 == line_start
        previous_end = line_end
        lead = _LINE_LEAD.match(region, line_start, line_end)
        content = lead.end() if lead else line_start
        if content >= line_end or not region[content:line_end].strip():
            continue
        marks: dict[int, int] = {}
        explicit: list[tuple[int, int]] = []
        if pending is not None:
            intro = _MARK_INTRO.match(region, content, line_end)
            at = intro.end() if intro else content
            marks[at] = pending
            if pending_explicit:
                explicit.append((pending, at))
            pending = None
        scan_from = max(content, line_end - _MAX_LINE_SCAN)  # a huge line: its end only
        found = list(_MARKER.finditer(region, scan_from, line_end)) if _MARKER_HINT.search(region, scan_from, line_end) else []
        if foreign:
            k = bisect_left(foreign_at, scan_from)
            found = sorted(found + foreign[k:bisect_left(foreign_at, line_end, k)], key=lambda m: m.start())
        for m in found:
            intro = _MARK_INTRO.match(region, m.end(), line_end)
            at = intro.end() if intro else m.end()
            if m.group().startswith("\\boxed"):
                at = m.start()
            if at >= line_end or _BLANK_TO_EOL.match(region, at, line_end).end() == line_end:
                pending, pending_explicit = m.start(), m.re is not _MARKER or bool(_EXPLICIT.match(region, m.start(), m.end()))
                continue
            marks[at] = m.start()
            if m.re is not _MARKER or _EXPLICIT.match(region, m.start(), m.end()):
                explicit.append((m.start(), at))
        used: set[int] = set()
        consumed: set[int] = set()   # markers that introduced a statement
        before = len(out)
        mentions = _Mentions(region, scan_from, line_end)
        explicit.sort(key=lambda pair: pair[1])
        passed = 0                   # explicit markers whose answer starts before the current run
        for m in RUN.finditer(region, scan_from, line_end):
            run = m.group()
            if not any("0" <= ch <= "9" for ch in run):
                continue
            begin = m.start()
            skip = min(len(run) - len(run.lstrip(" \t*`$_")), 12)
            found = next((p for p in range(m.start(), m.start() + skip + 1) if p in marks), None)
            marker = marks[found] if found is not None else None
            if found is not None:
                used.add(found)
            while passed < len(explicit) and explicit[passed][1] <= begin:
                passed += 1
            late = False
            if marker is None and passed and explicit[passed - 1][0] not in consumed and _after_prose(region, begin):
                marker, late = explicit[passed - 1][0], True  # "Answer: Final confirmed to be (12 * 2) = 24"
            if ("=" not in run and marker is None and begin != content
                    and not region[max(content, begin - 12):begin].rstrip(" \t*_`$").endswith((":", "："))):
                mentions.add(m, out, target)  # arithmetic inside prose: only a rejection or a hedge
                continue
            raw = run
            # continuation: "= 6 * 3 + 11" on the line after the statement it continues
            cont = (marker is None and open_ is not None and adjacent and open_.line == line_start - 1 and begin == content
                    and region[begin] == "=" and len(open_.text) + len(run) <= MAX_RUN)
            if cont:
                raw = open_.text + " " + run
            last_is_number = NUMBER.fullmatch(clean_math(raw.rsplit("=", 1)[-1]).strip(" .")) is not None
            kind = tail_kind(region, m.end(), line_end, last_is_number)
            text = strip_run(raw, kind)
            stop = m.end() - (len(raw) - len(text)) if len(raw) - len(text) <= len(run) else m.start()
            whole_line = kind == "end" and (begin == content or region[max(content, begin - 12):begin].rstrip(" \t*_`$").endswith((":", "：")))
            if "=" not in text and marker is None and not whole_line:
                mentions.add(m, out, target)
                continue
            if marker is None and not cont and STEP_EQUATION.fullmatch(clean_math(text)):
                steps.append((begin, stop, text))  # working: read only if nothing else is stated
                continue
            read = read_run(text, marked=marker is not None, at_end=stop >= last_text_end and kind == "end",
                             target=target)
            if read is None or read.target_only or (late and isinstance(read.node, Num)):
                continue  # the target alone, or a number in the prose after "Answer:"
            offered = marker is None and out and _OFFERED_GAP.fullmatch(region, out[-1].end, begin) is not None
            if read.step and not cont and not offered:
                steps.append((begin, stop, text))
                continue
            if marker is not None:
                consumed.add(marker)
            if "=" not in text and marker is None and read.node is not None and read.ops < 2 and not offered:
                continue  # a lone "3 * 8" on its line is working (unless offered: "X\nor\n3 * 8")
            hedged = read.hedged
            glued = begin > 0 and (region[begin - 1].isalnum() or region[begin - 1] in "√∛^²³%_")
            if not glued and run.startswith("=") and not cont:  # "x = 2 * 6 + 4 + 8": an assignment
                left = region[max(lo, begin - 4):begin].rstrip(" \t*_`$")
                glued = left[-1:].isalnum()
            if glued and not hedged:  # "sqrt(...)", "√(...)", "2^(...)"
                hedged = f"the answer is not one arithmetic statement: {region[max(lo, begin - 8):begin]!r} precedes it"
            if kind == "junk" and not hedged:
                hedged = f"the answer is not one arithmetic statement: {region[m.end():m.end() + 12].strip()!r} follows it"
            elif kind == "hedge" and not hedged:
                hedged = "the answer offers more than one expression"
            start = marker if marker is not None else (open_.start if cont else begin)
            statement = Statement(start, stop, value=read.node, key=_key(read, start), marked=marker is not None,
                                  hedged=hedged, complete=read.complete)
            if cont and open_ is not None and open_.index == len(out) - 1:
                out[-1] = statement
            else:
                out.append(statement)
            open_ = _Open(len(out) - 1, start, text, marker is not None, line_end) if kind == "end" else None
            stated_lines.add(line_start)
        if mentions.found or mentions.rejections:
            out[before:] = sorted(out[before:] + mentions.statements(), key=lambda s: s.start)
        explicit_at = {at for _, at in explicit}
        for at, marker in marks.items():
            if at in used or marker in consumed or (at in explicit_at and len(out) > before):
                continue  # read as a run, or the line states an expression after all
            statement = _unread_mark(region, marker, at, line_end, explicit_at)
            if statement is not None:
                out.append(statement)
        if len(out) > before:
            stated_lines.add(line_start)
        if len(out) > MAX_STATEMENTS:
            del out[:len(out) - MAX_STATEMENTS]
    if pending is not None and region[previous_end + 1:].strip():
        if pending_explicit:
            out.append(Statement(pending, len(region), key=("unreadable", pending), marked=True,
                                 hedged="the answer is not an arithmetic expression"))
    elif pending is not None:  # "Final answer:" and then nothing: cut off
        out.append(Statement(pending, len(region), key=("cut", pending), marked=True, complete=False))
    if not out and steps:
        begin, stop, text = steps[-1]
        read = read_run(text, marked=False, at_end=False, target=target)
        if read is not None and not read.target_only:
            out = [Statement(begin, stop, value=read.node, key=_key(read, begin), hedged=read.hedged)]
    return out, stated_lines


class _Mentions:
    """Expressions named inside the prose of one line (not statements by themselves). One that the
    line calls wrong ("(1 + 2) * 8 is wrong.") is a rejection of it; in a sentence with a hedge word,
    the expressions are hedged statements when one of them differs from the answer standing before
    ("I think it is X, but it might be Y.": two answers offered, none committed), and nothing when
    they only restate it ("This could also be written as 8 * (1 + 2).")."""

    def __init__(self, region: str, lo: int, hi: int) -> None:
        self.region, self.lo, self.hi = region, lo, hi
        self.found: list[tuple[int, int, int, Any, Any, Any]] = []  # (sentence, begin, stop, node, key, standing)
        self.rejections: list[Statement] = []
        self._hedges: SentenceHedges | None = None

    def add(self, m: re.Match, out: list[Statement], target: int) -> None:
        """Note the prose run ``m`` (``out``: the statements so far)."""
        region, run = self.region, m.group()
        if not any(op in run for op in "+-*/×÷−–·⋅∗x\\"):
            return
        rejected = _REJECTED_AFTER.match(region, m.end(), self.hi)
        kind = "prose" if rejected else tail_kind(region, m.end(), self.hi, False)
        text = strip_run(run, kind)
        read = read_run(text, marked=False, at_end=False, target=target) if text else None
        if read is None or read.node is None or isinstance(read.node, Num) or read.hedged:
            return
        begin, stop = m.start(), m.start() + len(text)
        if rejected or meaning.negated(region, begin, stop):  # "X is wrong", "the answer is not X"
            self.rejections.append(Statement(begin, rejected.end() if rejected else stop, rejects=_key(read, begin)))
            return
        if self._hedges is None:
            self._hedges = SentenceHedges(region, self.lo, self.hi)
        if self._hedges.hedged(begin):
            standing = out[-1].key if out and not out[-1].hedged else None
            self.found.append((self._hedges.sentence(begin), begin, stop, read.node, _key(read, begin), standing))

    def statements(self) -> list[Statement]:
        """The rejections and hedged statements of the line, in text order."""
        offered: dict[int, bool] = {}
        for sentence, _, _, _, key, standing in self.found:
            offered[sentence] = offered.get(sentence, False) or key != standing
        hedged = [Statement(begin, stop, value=node, key=key, hedged="the answer is offered with a hedge")
                  for sentence, begin, stop, node, key, _ in self.found if offered[sentence]]
        return sorted(self.rejections + hedged, key=lambda s: s.start)


def _formatting_only(gap: str) -> bool:
    """Whether the lines between a marker and the next line that may state something are blank or
    markdown code fences ("Answer:\\n```\\n(1 + 2) * 8\\n```")."""
    return not gap.strip() or all(_FENCE_LINE.fullmatch(line) or not line.strip() for line in gap.split("\n"))


def _relevant_lines(region: str, low: str, lo: int, foreign: bool = False) -> list[tuple[int, int]]:
    """``(start, end)`` of the lines of ``region[lo:]`` holding a digit or an answer marker word,
    in order (found with C-speed searches: a line without them holds no statement)."""
    n = len(region)
    starts: dict[int, int] = {}
    searches = [lambda pos: _DIGIT.search(region, pos)] + [
        (lambda pos, word=word: _Found(low.find(word, pos), len(word)))
        for word in _MARKER_WORDS + (vocabulary.markers() if foreign else ())]
    for search in searches:
        pos = lo
        while pos < n:
            hit = search(pos)
            if hit is None or hit.start() < 0:
                break
            start = max(lo, region.rfind("\n", lo, hit.start()) + 1)
            end = region.find("\n", hit.start())
            end = n if end < 0 else end
            starts[start] = end
            pos = end + 1
    return sorted(starts.items())


@dataclass(frozen=True)
class _Found:
    at: int
    size: int

    def start(self) -> int:
        return self.at


def _no_solution(region: str, low: str, lo: int, statements: list[Statement], stated_lines: set[int]) -> list[Statement]:
    """``statements`` with the lines that answer "no expression reaches the target" added (lines
    without an expression statement), in text order."""
    added: list[Statement] = []
    line, seen = lo, lo          # the line start of the last match; text before ``seen`` already searched
    for m in _NO_SOLUTION.finditer(low, lo):
        newline = region.rfind("\n", seen, m.start())
        if newline >= 0:
            line = newline + 1
        seen = m.end()
        if line not in stated_lines:
            added.append(Statement(m.start(), m.end(), key=("no solution",),
                                   hedged=f"the answer is that nothing reaches the target ({region[m.start():m.end()][:40]!r})"))
    if not added:
        return statements
    return sorted(statements + added, key=lambda s: s.start)


def _rejections(region: str, statements: list[Statement]) -> list[Statement]:
    """Mark a statement followed by a remark that calls it wrong: on its own line, or on the next
    non-empty line when that line starts by referring to it ("However, this does not yield 24.")."""
    out = list(statements)
    for k, s in enumerate(out):
        if s.hedged or s.value is None:
            continue
        limit = out[k + 1].start if k + 1 < len(out) else len(region)
        line_end = region.find("\n", s.end, min(limit, s.end + MAX_LINE_TAIL))
        same = region[s.end:line_end if line_end >= 0 else min(limit, s.end + MAX_LINE_TAIL)]
        rejected = _REJECTED.search(same) is not None
        if not rejected and line_end >= 0:
            nxt = line_end + 1
            while nxt < limit and region[nxt] in " \t\r\n" and nxt - line_end < 200:
                nxt += 1
            rejected = _NEXT_REJECTED.match(region[nxt:min(limit, nxt + MAX_LINE_TAIL)]) is not None
        if rejected:
            out[k] = _hedge(s, "the answer is called wrong right after it")
    return out


def _after_prose(region: str, begin: int) -> bool:
    """Whether the run at ``begin`` follows a word and a space (not glued to ``sqrt``, ``√``, ``^``)."""
    return begin > 0 and region[begin - 1] in " \t" and (begin < 2 or region[begin - 2] not in "√∛^")


def _key(read: Read, start: int) -> Any:
    if read.node is None:
        return ("unreadable", start)
    return canonical(read.node)


def _unread_mark(region: str, marker: int, at: int, line_end: int, explicit_at: set[int]) -> Statement | None:
    """The statement of a marker whose answer is not a run of arithmetic: a list, an explicit
    non-expression answer, or nothing (prose that only mentions the answer)."""
    if region[at] == "[" or region.startswith("\\[", at) and region.find("[", at + 2, at + 12) >= 0:
        begin = region.find("[", at + 1) if region[at] == "\\" else at
        try:
            end = list_end(region, begin)
        except ParseError as err:
            return Statement(marker, line_end, key=("unreadable", marker), marked=True, hedged=str(err))
        if end < 0:
            return Statement(marker, len(region), key=("cut", marker), marked=True, complete=False)
        payload = region[begin:end]
        hedged = "the answer offers more than one list" if TAIL_HEDGE.match(region, end, line_end) else ""
        return Statement(marker, end, value=payload, key=("list", "".join(payload.split())), marked=True,
                         hedged=hedged)
    if at in explicit_at:
        text = region[at:min(line_end, at + 60)].strip()
        return Statement(marker, line_end, key=("unreadable", marker), marked=True,
                         hedged=f"the answer is not an arithmetic expression: {text[:40]!r}")
    return None


def _gap_hedges(region: str, statements: list[Statement]) -> list[Statement]:
    """Mark two statements joined by "or"/"alternatively" (across lines) as hedged."""
    out = list(statements)
    for k in range(1, len(out)):
        prev, cur = out[k - 1], out[k]
        gap = region[prev.end:cur.start]
        if len(gap) <= 80 and prev.key != cur.key and not prev.hedged and _GAP_HEDGE.match(gap):
            reason = "the answer offers more than one expression"
            out[k - 1] = _hedge(prev, reason)
            out[k] = _hedge(cur, reason)
    return out


def _hedge(statement: Statement, reason: str) -> Statement:
    if statement.hedged:
        return statement
    return replace(statement, hedged=reason)


def expression_reading(region: str, target: int = 24) -> Reading:
    """The committed end-to-end answer of a final region: an expression node or a list payload."""
    region = blank_tags(region)
    statements = mark_unclosed_boxes(region, mark_hedges(region, mark_conditions(region, expression_statements(region, target))))
    return commit(statements, find_signals(region, solving=True), what="expression")


def arithmetic_answer(region: str, target: int = 24) -> Any:
    """The committed answer of ``region`` (:func:`expression_reading`); raises :class:`ParseError`
    with the reason when nothing commits."""
    reading = expression_reading(region, target)
    if reading.value is None:
        raise ParseError(reading.reason)
    return reading.value


__all__ = ["arithmetic_answer", "clean_math", "expression_items", "expression_reading", "expression_statements"]
