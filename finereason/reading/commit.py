"""The one commitment rule: the answer is the final commitment.

Every answer kind (an option, a state list, a solution list, an expression, a plan) is read the same
way. A kind's scanner lists the *answer statements* of the final region in text order
(:class:`Statement`: marked or bare, each with a normalised ``key``); :func:`commit` then applies the
rule, stated once:

1. The last answer statement is the candidate (a statement that only *rejects* an option, "(B) is
   wrong", is explanation unless it rejects the candidate itself).
2. It commits only if nothing after it withdraws it: a retraction, doubt or inability
   (:mod:`finereason.reading.withdrawals`) anywhere after it voids it (no credit), and so does a later
   rejection of the same answer.
3. A later different answer replaces it and must itself commit: a candidate cut off by the end of the
   text (``complete=False``) is no answer, with no fallback to the answer it was replacing; one
   offered as an alternative ("Alternatively: ...", "or maybe ...") does not commit either.
4. A restatement of the same answer confirms it (it is simply the last statement, with the same key).
5. A hedged candidate (two answers at once, "my best guess") never commits. A conditional statement
   ("if ..., the answer would be (A)") never commits either; after a committed answer it is
   explanation ("The answer is (B). If the 5 were not there, it would be (A)." reads B).

:attr:`Reading.live` counts the distinct answers left standing (not withdrawn by a later signal or
rejection): the format reward asks for exactly one.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Hashable, Sequence

from . import meaning, scope
from .withdrawals import ALTERNATIVES, Signals

NO_ANSWER = "no final answer found"


@dataclass(frozen=True)
class Statement:
    """One answer statement in a final region.

    ``start``/``end``: its span (the marker included); ``value``: what it answers (the kind's
    payload); ``key``: a normalised form, equal for two statements of the same answer; ``marked``:
    introduced by an answer marker (``Answer:``, ``\\boxed{}``, ``Next state:``, ``Plan:``, ...);
    ``hedged``: why it does not commit (empty when it does); ``complete``: ``False`` when the text
    ends inside it; ``rejects``: the key this statement rules out ("(B) is wrong"), for rejections
    (whose ``value`` is ``None``); ``conditional``: stated under a condition ("if ..., the answer
    would be (A)"), which never commits and, after a committed answer, is explanation.
    """

    start: int
    end: int
    value: Any = None
    key: Hashable = None
    marked: bool = False
    hedged: str = ""
    complete: bool = True
    rejects: Hashable = None
    conditional: bool = False

    def __init__(self, start: int, end: int, value: Any = None, key: Hashable = None, marked: bool = False,
                 hedged: str = "", complete: bool = True, rejects: Hashable = None, conditional: bool = False) -> None:
        # the dataclass's own frozen __init__ sets the fields one by one (object.__setattr__), which every
        # statement of every response pays: set them at once (fields, equality, hash and replace() unchanged)
        d = self.__dict__  # item stores: no keyword dict built and unpacked per statement
        d["start"] = start
        d["end"] = end
        d["value"] = value
        d["key"] = key
        d["marked"] = marked
        d["hedged"] = hedged
        d["complete"] = complete
        d["rejects"] = rejects
        d["conditional"] = conditional


@dataclass(frozen=True)
class Reading:
    """The committed answer of a response: ``value`` (``None`` when nothing commits) and ``reason``
    (why not); ``statement`` is the committed statement; ``live`` the number of distinct answers left
    standing; ``statements`` everything the scanner found."""

    value: Any
    reason: str = ""
    statement: Statement | None = None
    live: int = 0
    statements: tuple[Statement, ...] = field(default=(), repr=False)

    def __init__(self, value: Any, reason: str = "", statement: Statement | None = None, live: int = 0,
                 statements: tuple[Statement, ...] = ()) -> None:
        d = self.__dict__  # as Statement's
        d["value"] = value
        d["reason"] = reason
        d["statement"] = statement
        d["live"] = live
        d["statements"] = statements

    @property
    def marked(self) -> bool:
        """Whether the committed answer carries an answer marker."""
        return self.statement is not None and self.statement.marked

    @property
    def single(self) -> bool:
        """Exactly one committed answer: it commits and no other answer is left standing."""
        return self.value is not None and self.live == 1


def _quote(text: str) -> str:
    return repr(text[:40])


AMBIGUOUS = "ambiguous"  # how the reason of an unclassified answer-like statement after the candidate begins


def is_ambiguous(reading: Reading) -> bool:
    """Whether ``reading`` gave no credit because an answer-like statement after its candidate is not
    classified by any rule (counted apart so that such cases can be reviewed)."""
    return reading.value is None and reading.reason.startswith(AMBIGUOUS + ":")


def _explanation(s: Statement, low: str, earlier: Sequence[Statement], signals: Signals) -> bool:
    """Whether ``s`` is working or a restatement ("Explanation:", "for clarity") after an earlier answer
    that no signal withdraws before it: explanation, not a new answer. A *marked* different answer in
    the working ("Let me double-check: ... so the answer is \\boxed{5}") is a new answer, not working."""
    if not meaning.working(low, s.start):
        return False
    for e in reversed(earlier):
        if e.rejects is None and not e.conditional and e.end <= s.start:
            if s.marked and s.key != e.key:
                return False
            return signals.first_in(e.end, s.start) is None
    return False


def _candidate(stated: tuple[Statement, ...], low: str, signals: Signals
               ) -> tuple[Statement | None, Statement | None, dict[Hashable, int], tuple[Statement, ...]]:
    """The candidate (last answer statement), the last conditional after it, the keys rejected after
    it, and the statements with negated ones read as rejections and prompt echoes dropped."""
    rejected: dict[Hashable, int] = {}
    candidate: Statement | None = None
    condition: Statement | None = None
    kept = list(stated)
    for k in range(len(stated) - 1, -1, -1):
        s = stated[k]
        if s.rejects is None and s.value is not None and meaning.negated(low, s.start, s.end):
            s = kept[k] = Statement(s.start, s.end, key=("rejects", s.key), rejects=s.key)
        if s.rejects is not None:
            rejected.setdefault(s.rejects, s.start)
            continue
        if s.value is not None and (scope.echoed_options(low, s.start, s.end) or scope.echoed_instruction(low, s.start)):
            kept[k] = Statement(s.start, s.end, key=("echo", s.start), conditional=True, hedged="prompt text")
            continue
        if not s.conditional and s.value is not None and meaning.conditioned(low, s.start):
            s = kept[k] = Statement(s.start, s.end, s.value, s.key, s.marked, "the final answer is stated under a condition",
                                    s.complete, conditional=True)
        if s.conditional:
            condition = condition or s
            continue
        if k and s.value is not None and _explanation(s, low, stated[:k], signals):
            continue
        candidate = s
        break
    return candidate, condition, rejected, tuple(kept)


def commit(statements: Sequence[Statement], signals: Signals, *, what: str = "answer") -> Reading:
    """Apply the commitment rule (module docstring) to ``statements`` (in text order)."""
    stated = tuple(statements)
    low = signals.low
    stop = len(low)
    if stated:
        stop = scope.answer_end(low, stated[0].start)
        if stop < len(low):  # a simulated turn, or text about another puzzle: outside the answer
            stated = tuple(s for s in stated if s.start < stop)
    candidate, condition, rejected, stated = _candidate(stated, low, signals)
    if candidate is None and condition is not None and condition.key != ("echo", condition.start):
        return Reading(None, condition.hedged, condition, 0, stated)
    live = _live(stated, signals, stop)
    if candidate is None:
        reason = f"the final {what} only rules an option out" if rejected else f"no final {what} found"
        return Reading(None, reason, None, live, stated)
    unreadable = candidate.value is None  # a marked statement that holds no answer ("Answer: see above")
    ref = meaning.reference(low, low.rfind("\n", 0, candidate.start) + 1 if unreadable else candidate.end, stop)
    if ref is not None and ref[2] is not None:  # "the one from attempt 1"
        return _resolve(stated, signals, ref, live, what)
    if ref is not None and unreadable and ref[0] < candidate.end:  # "Final answer: see above": the one before
        earlier = tuple(s for s in stated if s.end <= candidate.start)
        before, _, rejected, _ = _candidate(earlier, low, signals)
        if before is None:
            return Reading(None, f"the final {what} refers to an earlier answer that cannot be found", None, live, stated)
        return _judge(before, earlier, signals, rejected, live, candidate.start, what, unreferenced=False)
    return _judge(candidate, stated, signals, rejected, live, stop, what, ref is None)


def _judge(candidate: Statement, stated: tuple[Statement, ...], signals: Signals, rejected: dict[Hashable, int],
           live: int, stop: int, what: str, unreferenced: bool = True) -> Reading:
    """Whether ``candidate`` commits (the rule's steps 2 to 5 and the meaning checks)."""
    low = signals.low
    signal = signals.first_in(candidate.end, stop)
    if signal is not None:
        return Reading(None, f"the {what} is withdrawn after it is given ({_quote(signal)})", candidate, live, stated)
    if candidate.key in rejected:
        return Reading(None, f"the {what} is ruled out after it is given", candidate, live, stated)
    if not candidate.complete:
        return Reading(None, f"the final {what} is cut off before it ends", candidate, live, stated)
    if candidate.hedged:
        return Reading(None, candidate.hedged, candidate, live, stated)
    if meaning.hedged(low, candidate.start):
        return Reading(None, "the final answer is hedged", candidate, live, stated)
    before = max((s.end for s in stated if s.end <= candidate.start), default=None)
    if before is not None and _offers_alternative(signals, before, candidate.start):
        return Reading(None, f"the final {what} is offered as an alternative", candidate, live, stated)
    if meaning.asked(low, candidate.end, stop):
        return Reading(None, f"the final {what} is asked as an open question", candidate, live, stated)
    if meaning.tried(low[:stop], candidate.start, candidate.end):
        return Reading(None, f"the final {what} is a try cut off before its result", candidate, live, stated)
    why = meaning.split(low, candidate.start, candidate.end)
    if why:
        return Reading(None, why, candidate, live, stated)
    if unreferenced:
        unread = meaning.unread_answer(low, candidate.end, stop, low[candidate.start:candidate.end])
        if unread >= 0:
            return Reading(None, f"{AMBIGUOUS}: an answer-like line after the {what} is not read "
                                 f"({_quote(low[unread:])})", candidate, live, stated)
    return Reading(candidate.value, "", candidate, live, stated)


def _resolve(stated: tuple[Statement, ...], signals: Signals, ref: tuple[int, str, int | None], live: int,
             what: str) -> Reading:
    """The reading of a reference to an attempt ("Final answer: the one from attempt 1"): the last answer
    of that attempt's section, judged within it; no credit when the attempt is not found or holds none."""
    at, word, number = ref
    span = meaning.attempt_span(signals.low, word, number or 0, at)
    if span is not None:
        inside = tuple(s for s in stated if span[0] <= s.start and s.end <= span[1])
        candidate, _, rejected, inside = _candidate(inside, signals.low, signals)
        if candidate is not None:
            return _judge(candidate, inside, signals, rejected, live, span[1], what, unreferenced=False)
    return Reading(None, f"the final {what} refers to an earlier answer that cannot be found", None, live, stated)


def _offers_alternative(signals: Signals, lo: int, hi: int) -> bool:
    """Whether a signal offering an alternative ("Alternatively:", "or maybe") lies in ``[lo, hi)``."""
    for _ in range(64):
        found = signals.first(lo, hi)
        if found is None:
            return False
        if found[1] in ALTERNATIVES:
            return True
        lo = found[0] + 1
    return True


def _live(stated: tuple[Statement, ...], signals: Signals, stop: int | None = None) -> int:
    """Distinct keys of the statements that no later signal, rejection or cut-off withdraws."""
    keys: set[Hashable] = set()
    rejected: set[Hashable] = set()
    following: int | None = None  # start of the next statement
    for s in reversed(stated):
        if s.rejects is not None:
            rejected.add(s.rejects)
            continue
        if s.conditional:
            continue
        hi = stop if following is None else following + 1  # a "Correction:" opening the next one counts
        withdrawn = (signals.first_in(s.end, hi) is not None or s.key in rejected
                     or not s.complete or bool(s.hedged))
        if not withdrawn:
            keys.add(s.key)
        following = s.start
    return len(keys)
