"""The plans of a response and the one it commits to: plan answer statements under the commitment rule.

:func:`plan_statements` lists the *plan answer statements* of a final region for the commitment rule
(:mod:`finereason.reading.commit`), in the step syntax of :mod:`finereason.planning.plan_text`:

- each maximal run of step lines is one plan. Blank lines do not end it, nor, in a numbered list
  whose numbers go on, explanation lines between the items (or indented restatements of a step inside
  an item's explanation), nor, in a bulleted list, sub-bullets indented deeper than its steps (their
  preconditions and effects); a list that starts again at 1, an answer marker or prose ends it, and so
  does a line whose prose announces new steps ("Wait, actually it's (unstack d b)": a bare plan); a
  bullet that talks about a step ("- **Attack c** provides pain", "- After X, you regain ...") is prose;
- a plan ends where its last step's own words end: a remark after it on that line comes after the
  plan (a retraction there withdraws it; "... (stack d c) is wrong." rules it out);
- a plan is ``marked`` when introduced by a marker (``Answer:``, ``Plan:``, ``**Plan:**``,
  ``**Actions in the plan:**``, ``[PLAN]``, ``Final plan``, ``### Final Answer``);
- its ``key`` is the normalised step tuple ``(name, args)``: the same plan in another notation, or
  restated with objects left out ("Unstack red block, Put down red block"), is one plan, never two
  plans joined;
- ``complete=False`` when the text ends inside it (a last step short of objects, a cut-off step such
  as ``(put-``, or the next item's bare number); ``hedged`` when it is offered as an alternative to
  the plan before it ("Alternatively", "another plan", "Option 2", a line "or"), or two of its steps
  on one line are ("(stack d c) or (unstack d c)"); ``conditional`` when its sentence, its marker line
  included, puts it under a condition ("If it fails: Answer:").

:func:`plan_reading` applies the rule with the reader's withdrawal signals plus plan-specific ones
("this plan does not work", "step 3 is invalid", the goal declared out of reach: "it is not possible to
achieve the goal", "we cannot proceed further"). :func:`committed_plan` reads a whole response (its final
region): the one plan reader of every path (the end-to-end verdict, ``plan-check``, feedback). PlanBench's one-shot continuation (``[PLAN END]``
then a new ``[STATEMENT]``) is a new, hallucinated problem: the answer region ends there. Capital
letters that the text defines as colour initials ("the yellow block (Y)") are spelled out.

Linear in the text: one C-speed pass finds the lines worth reading (an action word or a marker word);
prose between them is taken at once.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Iterable

from ..reading import UNFINISHED, Reading, Signals, Statement, blank_tags, commit, final_region, find_signals
from ..reading.hedges import HEDGE_MODALS, HEDGE_WORDS, conditional, introduced_by_hedge, may_be_conditional, sentence_before
from .pddl import Domain
from .plan_text import (COLOURS, ITEM_PREFIX, LETTERS, MAX_STEP_TEXT, MAX_STEPS, WORD, PlanAction, Syntax, clean, clip,
                        line_steps, negated_steps, read_line, syntax_of)

_MARK_PREFIX = re.compile(
    r"\s*(?:(?:so|thus|therefore|hence|in summary|in conclusion|to summarize|overall)[ \t]{0,3},?[ \t]{0,3})?(?:\[plan\]|(?:(?:the|my|our|a)\s{1,3})?(?:final\s{1,3}|complete\s{1,3}|corrected\s{1,3}|revised\s{1,3})?"
    r"(?:answer|plan|solution)(?:\s{1,3}is)?\s{0,3}[:：]|(?:the|my)\s{1,3}(?:final\s{1,3})?plan\s{1,3}is\s{1,3}to\b"
    r"|(?:the|my)\s{1,3}(?:final\s{1,3})?(?:answer|plan|solution)\s{1,3}is\b)\s*")
_MARK_LINE = re.compile(
    r"\s*(?:\[plan\]|(?:final\s{1,3})?(?:answer|plan|solution)"
    r"|[^\n]{0,100}\b(?:answer|plan|solution|actions|steps|sequence)\b[^\n]{0,60}[:：])\s*$")
_INLINE_MARK = re.compile(r"\b(?:answer|plan|solution|correct(?:ed|ion)|revised|instead|fixed|final)\b[^\n:：]{0,30}[:：][ \t]*")
_NUMBERED_LINE = re.compile(  # a line that ITEM_PREFIX reads as a numbered item
    r"^[ \t*_>#|-]*(?:(?:step|action|move)[ \t]{0,3}#?[ \t]{0,2}\d|\(?\d{1,4}[ \t]{0,3}[.):\-|]|\d{1,4}[ \t]+[a-z(])", re.MULTILINE)
_END_TAG = re.compile(r"\s*\[\s{0,2}(?:plan end|end plan|end of plan|/plan)\s{0,2}\]\s*$")
_STATEMENT = re.compile(r"\[statement\]", re.IGNORECASE)
_PLAN_END = re.compile(r"\[\s{0,2}(?:plan end|end plan|end of plan|/plan)\s{0,2}\]", re.IGNORECASE)
# plan-specific withdrawals (the general list is finereason.reading.withdrawals)
_PLAN_SIGNALS = re.compile(  # led by a literal word, so the regex engine skips ahead at C speed
    r"plan\s{1,3}(?:is\s{1,3}(?:not\s{1,3}(?:valid|correct|right)|invalid|wrong|incorrect|flawed)"
    r"|(?:does\s{1,3}not|doesn't|doesn’t|won't|will\s{1,3}not)\s{1,3}work|fails?|would\s{1,3}fail)\b", re.IGNORECASE)
_G = r"[\s*_]{1,6}"  # a gap between words: spaces and markdown emphasis ("**not possible** to achieve")
_UNREACHABLE = re.compile(  # the goal declared out of reach (inability), after a plan: it withdraws the plan
    r"(?:\bnot|n't|n’t)" + _G + r"(?:possible|feasible|achievable)(?:" + _G + r"to" + _G +
    r"(?:achieve|reach|devise|find|accomplish|fulfil|fulfill|satisfy|complete|create|make)\b|" + _G + r"with(?:in)?" + _G + "the"
    + _G + r"given\b|(?<=feasible)\b)|\bimpossible" + _G + r"to" + _G + r"(?:achieve|reach|devise|find|accomplish)\b"
    r"|\b(?:cannot|can't|can’t|unable" + _G + r"to)" + _G + r"(?:achieve|reach|accomplish|proceed)\b"
    r"|\bno" + _G + r"(?:(?:valid|viable|possible|feasible)" + _G + r")?plan" + _G + r"(?:is" + _G + r"possible|can|exists|that)\b",
    re.IGNORECASE)
_UNREACHABLE_WORDS = ("possible", "feasible", "achievable", "cannot", "can't", "can’t", "unable", "no plan", "no valid", "no viable",
                      "no feasible", "no *", "no _")
_PLAN_SUBJECT = re.compile(r"\b(?:this|that|the|my|our)\s{1,3}(?:above\s{1,3}|previous\s{1,3}|first\s{1,3}|last\s{1,3})?$",
                           re.IGNORECASE)
_STEP_SIGNALS = re.compile(
    r"step\s{1,3}\d{1,4}\s{1,3}(?:is|was)\s{1,3}(?:invalid|wrong|incorrect|not\s{1,3}(?:valid|possible|allowed))\b",
    re.IGNORECASE)
_ALTERNATIVE = re.compile(
    r"\balternative(?:ly|\s{1,3}(?:plan|solution|approach|sequence))\b|\banother\s{1,3}(?:valid\s{1,3}|possible\s{1,3}|correct\s{1,3})?"
    r"(?:plan|solution|way|option|approach)\b|\bor\s{1,3}(?:you|we|i)\s{1,3}could\b|\boption\s{1,3}[2-9b]\b|\bplan\s{1,3}[2b]\b",
    re.IGNORECASE)
HEDGED = "the final answer offers more than one plan"
_OR_GAP = re.compile(r"[\s*_]*(?:or|either|or else|otherwise)[\s*_,.:]*", re.IGNORECASE)  # "<plan>\nor\n<plan>"
# a remark right after a plan's last step that calls it wrong ("(stack d c) is wrong.")
_REJECTION = re.compile(
    r"[ \t*_`,;:.!-]{0,4}(?:(?:is|was|seems|looks)[ \t]{1,3}(?:also[ \t]{1,3}|still[ \t]{1,3}|clearly[ \t]{1,3})?"
    r"(?:wrong|incorrect|invalid|illegal|not[ \t]{1,3}(?:valid|correct|right|legal|possible|allowed))"
    r"|(?:does[ \t]{1,3}not|doesn't|doesn’t|won't|will[ \t]{1,3}not)[ \t]{1,3}work|fails?)\b", re.IGNORECASE)
# a plan offered as a guess (in its introduction or its own lines): it never commits
# (the one hedge table of reading.hedges, and "might work", "not sure")
_GUESS = re.compile(r"\b(?:" + "|".join(HEDGE_WORDS) + r"|(?:" + "|".join(HEDGE_MODALS) + r")\s{1,3}(?:be|work)|not\s{1,3}sure)\b",
                    re.IGNORECASE)
GUESSED = "the plan is offered as a guess"
# the block in hand left implicit: "stack it on ...", "put down it", "stack on the blue block"
_IT = re.compile(r"[a-z]+(?:[ _-]?(?:up|down))?\s{1,3}(?:it\b|on\b|onto\b|atop\b)", re.IGNORECASE)


@dataclass
class _Line:
    start: int
    end: int
    indent: int
    number: int | None
    marked: bool
    steps: list[PlanAction]
    marker: bool  # a line that introduces a plan ("Plan:", "[PLAN]", "### Final Answer")
    weak: bool = False  # led by an action but naming no object ("pick up theorange block", "Pick up is not possible")
    tail: int = 0  # characters at the line's end after its steps' own words (a remark)
    lead: int = 0  # characters at the line's start before its steps (an item number, a marker, prose)
    hedged: bool = False  # two steps offered as alternatives ("(stack d c) or (unstack d c)")
    fresh: bool = False  # steps after prose that announces them ("Wait, actually it's (unstack ...)"): a new plan
    negated: bool = False  # steps after a negated answer statement ("The plan is not (unstack ..."): a rejection


def _read_line(region: str, start: int, end: int, syntax: Syntax) -> _Line:
    raw = region[start:end]
    text = clean(raw)
    indent = len(text) - len(text.lstrip(" \t"))
    number = None
    rest = text
    for _ in range(3):
        m = ITEM_PREFIX.match(rest)
        if m is None or not m.group().strip():
            break
        found = next((g for g in m.groups() if g), None)
        if found is not None and number is None:
            number = int(found)
        rest = rest[m.end():]
    marked = False
    m = _MARK_PREFIX.match(rest)
    if m is not None and m.end() < len(rest.rstrip()):
        marked, rest = True, rest[m.end():]
        inner = ITEM_PREFIX.match(rest)
        if inner is not None:
            found = next((g for g in inner.groups() if g), None)
            number = int(found) if found is not None and number is None else number
            rest = rest[inner.end():]
    read = read_line(rest, syntax)
    fresh = negated = False
    if not read.steps:  # "Wait, that's wrong, corrected: (unstack b a) ...": the steps after a marker inside the line
        inline = None
        for inline in _INLINE_MARK.finditer(rest):
            pass
        if inline is not None and line_steps(rest[inline.end():], syntax):
            marked, rest = True, rest[inline.end():]
            read = read_line(rest, syntax)
        else:
            at = _announced_steps(rest, syntax)
            if at is not None:  # "Wait, actually it's (unstack d b)": a bare answer after prose
                fresh, rest = True, rest[at:]
                read = read_line(rest, syntax)
            else:
                at = negated_steps(text, len(text) - len(rest), syntax)
                if at is not None:  # "The plan is not (unstack d b) ...": the plan it negates, ruled out
                    fresh = negated = True
                    rest = text[at:]
                    read = read_line(rest, syntax)
    steps = read.steps
    if read.prose and number is None and not marked:
        steps = []  # "- **Attack c** provides pain c", "- After **Succumb b**, you regain harmony": explanation
    stripped = rest.strip()
    if steps and not marked and stripped.endswith(":") and not syntax.call_re.match(stripped):
        steps = []  # "Stack the blocks as follows:" introduces, it is not a step
    marker = not steps and bool(_MARK_LINE.match(text.lstrip(" \t#>-").rstrip()))
    weak = bool(steps) and all(not s.args for s in steps) and syntax.call_re.match(stripped) is None
    return _Line(start, end, indent, number, marked, steps, marker, weak, tail=read.tail if steps else 0,
                 lead=len(text) - len(rest), hedged=read.hedged, fresh=fresh and bool(steps), negated=negated and bool(steps))


# prose that announces the answer right before its steps ("it's", "the plan should be", "the correct plan is")
_ANNOUNCE = re.compile(
    r"\b(?:it|that|the\s{1,3}(?:(?:correct|right|final|new|fixed|revised|valid|proper)\s{1,3})?(?:plan|answer|solution"
    r"|sequence))(?:'s|’s|\s{1,3}(?:is|should\s{1,3}be|would\s{1,3}be|must\s{1,3}be|will\s{1,3}be))[\s:]{0,3}$")
_ANNOUNCE_REACH = 48  # characters of prose before the steps looked at
_ANNOUNCE_LINE = 1_000  # the steps start within this many characters of the line


def _announced_steps(rest: str, syntax: Syntax) -> int | None:
    """Where the steps start in a line of prose that announces them ("Wait, actually it's (unstack d
    b)", "No wait, the plan should be unstack ..."), or ``None``."""
    verb = syntax.verb_re.search(rest, 0, _ANNOUNCE_LINE)
    if verb is None:
        return None
    at = verb.start() - 1 if verb.start() and rest[verb.start() - 1] == "(" else verb.start()
    if at == 0 or not _ANNOUNCE.search(rest, max(0, at - _ANNOUNCE_REACH), at):
        return None
    return at if read_line(rest[at:], syntax).steps else None


def answer_end(region: str) -> int:
    """Where the answer region ends: at a ``[STATEMENT]`` after a ``[PLAN END]`` (PlanBench's one-shot
    continuation, a hallucinated new problem), else the end of ``region``."""
    end = _PLAN_END.search(region)
    if end is None:
        return len(region)
    nxt = _STATEMENT.search(region, end.end())
    return nxt.start() if nxt is not None else len(region)


def _signal_in(signals: Signals, lo: int, hi: int) -> bool:
    return signals.first_in(lo, hi) is not None


def plan_statements(region: str, syntax: Syntax, signals: Signals) -> list[Statement]:
    """The plan answer statements of ``region`` (already cut and tag-blanked), in text order."""
    found: list[Statement] = []
    run: list[_Line] = []
    details = 0  # explanation lines inside the current numbered run
    pending = False
    intro = 0  # start of the current run's introduction (its marker line, or its first line)
    marker_at = 0  # start of the last marker line
    last_end = 0

    def close() -> None:
        nonlocal run, details, last_end
        if run:
            statement = _statement(region, run, syntax, found, last_end, intro if conditions else -1)
            if found and _abbreviates(statement.key, found[-1].key):
                statement = replace(statement, key=found[-1].key, value=found[-1].value)
            found.append(statement)
            rejection = _REJECTION.match(region, statement.end, run[-1].end) if statement.end < run[-1].end else None
            if rejection is not None:  # "(stack d c) is wrong."
                found.append(Statement(statement.end, rejection.end(), rejects=statement.key))
            last_end = run[-1].end
        run, details = [], 0

    low = _lowered(region)
    conditions = may_be_conditional(low)
    hints = [m.start() for m in syntax.hint_re.finditer(low)]  # one C-speed pass: lines worth reading
    seen: dict[str, _Line] = {}  # a line read once is not read again (repeated lines)
    h = 0
    pos = 0
    n = len(region)
    while pos <= n:
        nl = region.find("\n", pos)
        end = n if nl < 0 else nl
        while h < len(hints) and hints[h] < pos:
            h += 1
        if h < len(hints) and hints[h] < end:
            if _END_TAG.match(low, pos, end):
                close()
                pending = False
            else:
                raw = region[pos:end]
                parsed = seen.get(raw)
                if parsed is None:
                    parsed = _read_line(region, pos, end, syntax)
                    if len(seen) < 4096:
                        seen[raw] = parsed
                line = _Line(pos, end, parsed.indent, parsed.number, parsed.marked, list(parsed.steps), parsed.marker,
                             parsed.weak, parsed.tail, parsed.lead, parsed.hedged, parsed.fresh, parsed.negated)
                if line.weak and not (run and (line.number is None) == (run[0].number is None)):
                    line.steps = []  # naming no object, it is a step only inside a plan ("3. Pick up" cut off)
                if line.steps:
                    numbered = run and run[0].number is not None
                    if run and line.number is None and line.indent > run[0].indent and (numbered or details):
                        pass  # a restated step inside an item's explanation (its sub-bullets)
                    elif run and (line.marked or line.fresh or numbered != (line.number is not None)
                                  or numbered and line.number != run[-1].number + 1):
                        close()
                        run = [line]
                    else:
                        run.append(line)
                    if len(run) == 1:
                        run[0].marked = run[0].marked or pending
                        intro = marker_at if pending else pos
                        pending = False
                elif line.marker:
                    close()
                    pending, marker_at = True, pos
                elif _explains(run, line.number, signals, pos, end) or _sub_item(run, line.indent, signals, pos, end):
                    details += 1
                else:
                    close()
                    pending = False
        else:
            # prose up to the next line worth reading, taken at once: explanation inside an open numbered
            # list (no numbered line, no withdrawal in it), else the end of any plan
            stop = n if h >= len(hints) else low.rfind("\n", 0, hints[h]) + 1
            if not region[pos:stop].isspace() and pos < stop:
                if (run and run[0].number is not None and _NUMBERED_LINE.search(low, pos, stop) is None
                        and signals.first_in(pos, stop) is None
                        or run and run[0].number is None and _deeper(region, pos, stop, run[0].indent)
                        and signals.first_in(pos, stop) is None):
                    details += 1
                else:
                    close()
                    pending = False
            if stop >= n:
                break
            pos = stop
            continue
        if nl < 0:
            break
        pos = nl + 1
    close()
    if found and found[-1].complete and _cut_after(region, found[-1].end, syntax):
        found[-1] = replace(found[-1], complete=False)
    elif _marker_then_cut(region, found[-1].end if found else 0, syntax):
        found.append(Statement(len(region.rstrip()), len(region), key=("cut",), marked=True, complete=False))
    return found


def _marker_then_cut(region: str, after: int, syntax: Syntax) -> bool:
    """Whether the text after offset ``after`` ends with an answer marker followed by nothing or by
    the start of a step only ("Answer:\n(", "**Plan:**\n1. Pick"): a new plan cut off by the token limit."""
    lines = [(m.start(), m.end()) for m in re.finditer(r"[^\n]*\S[^\n]*", region[after:])][-2:]
    if not lines:
        return False
    last = (after + lines[-1][0], after + lines[-1][1])
    if _read_line(region, *last, syntax).marker:
        return True  # "Answer:" and nothing after it
    if len(lines) < 2 or not _cut_after(region, last[0], syntax):
        return False
    return bool(_read_line(region, after + lines[0][0], after + lines[0][1], syntax).marker)


def _cut_after(region: str, end: int, syntax: Syntax) -> bool:
    """Whether the text after a plan is only the start of one more step, cut off by the end of the text
    ("(put-", "3. Pick"): the plan it would continue is unfinished."""
    tail = region[end:].strip()
    if tail and re.fullmatch(r"(?:step\s{0,3})?\d{1,4}[.):]?", clean(tail[tail.rfind("\n") + 1:]).strip(" \t#-")):
        return True  # the next item's number, and nothing after it
    if not tail or "\n" in tail or len(tail) > MAX_STEP_TEXT or tail[-1] in ".!?)]:*`\"'":
        return False
    text = clean(tail)
    m = ITEM_PREFIX.match(text)
    text = text[m.end():] if m else text
    word = WORD.match(text.lstrip(" (\t"))
    if word is None:
        return text.strip() in ("", "(")
    stem = word.group()
    return any(v.startswith(stem) for v in syntax.verbs) or any(
        c.startswith(stem) for c in ("pick", "put"))


def _abbreviates(short: object, full: object) -> bool:
    """Whether plan key ``short`` restates plan key ``full`` with some objects left out ("Unstack red
    block, Put down red block" after "Unstack the red block from the orange block, ...")."""
    if not isinstance(short, tuple) or not isinstance(full, tuple) or len(short) != len(full) or short == full:
        return False
    for (name, args), (full_name, full_args) in zip(short, full):
        if not isinstance(args, tuple) or name != full_name or args != full_args[:len(args)]:
            return False
    return True


def _explains(run: list[_Line], number: int | None, signals: Signals, pos: int, end: int) -> bool:
    """Whether a prose line is an explanation between the items of an open numbered list (which may
    go on): it is not numbered itself and withdraws nothing."""
    return bool(run) and run[0].number is not None and number is None and not _signal_in(signals, pos, end)


def _sub_item(run: list[_Line], indent: int, signals: Signals, pos: int, end: int) -> bool:
    """Whether a line without steps is a sub-bullet of an open bulleted plan's last step (its preconditions
    or effects: indented deeper than the plan's lines) that withdraws nothing."""
    return bool(run) and run[0].number is None and indent > run[0].indent and not _signal_in(signals, pos, end)


_SHALLOW: dict[int, re.Pattern[str]] = {}


def _deeper(region: str, pos: int, stop: int, indent: int) -> bool:
    """Whether every non-blank line in ``region[pos:stop]`` (``pos`` a line start) is indented deeper than ``indent``."""
    indent = min(indent, 32)
    shallow = _SHALLOW.get(indent)
    if shallow is None:
        shallow = _SHALLOW[indent] = re.compile(r"^[ \t]{0,%d}[^ \t\n]" % indent, re.MULTILINE)
    return shallow.search(region, pos, stop) is None


def _lowered(text: str) -> str:
    """``text`` in lower case with the same offsets."""
    low = text.lower()
    return low if len(low) == len(text) else text.translate({c: c + 32 for c in range(65, 91)})


def _statement(region: str, run: list[_Line], syntax: Syntax, before: list[Statement], last_end: int,
               intro: int) -> Statement:
    """The statement of a run of step lines; ``intro``: where its introduction starts (its marker line),
    -1 when the text holds no condition word at all."""
    start, line_end = run[0].start, run[-1].end
    if run[0].negated:  # the statement starts at its steps, so that the rule reads the negation before it
        start += run[0].lead
    end = line_end - run[-1].tail  # a remark after the last step follows the plan ("(stack d c) Wait, ...")
    if sum(len(line.steps) for line in run) > MAX_STEPS:
        return Statement(start, end, key=("too long", start), marked=run[0].marked,
                         hedged=f"the plan has more than {MAX_STEPS} steps")
    steps = _resolve_it(tuple(clip(s) for line in run for s in line.steps), syntax)
    key = tuple((s.name, s.args) for s in steps)
    last = steps[-1]
    at_end = region.find("\n", line_end) < 0 or not region[line_end:line_end + 200].strip() and not region[line_end:].strip()
    complete = not (at_end and len(last.args) < syntax.arity.get(last.name, 0)
                    and not region[max(0, line_end - 8):line_end].rstrip(" *_`").endswith((".", "!")))
    hedged = ""
    if any(line.hedged for line in run):
        hedged = HEDGED
    elif before and before[-1].key != key and (_ALTERNATIVE.search(region, last_end, start)
                                               or _OR_GAP.fullmatch(region, last_end, start)):
        hedged = HEDGED
    elif _GUESS.search(region, max(last_end, region.rfind("\n", 0, max(0, region.rfind("\n", 0, start))) + 1), line_end):
        hedged = GUESSED
    steps_at = run[0].start + run[0].lead
    if complete and intro >= 0 and conditional(region, steps_at, end, sentence_before(region, intro) + region[intro:steps_at]):
        return Statement(start, end, value=steps, key=key, marked=run[0].marked, conditional=True,
                         hedged=hedged or "the final answer is stated under a condition")
    return Statement(start, end, value=steps, key=key, marked=run[0].marked, hedged=hedged, complete=complete)


def _resolve_it(steps: tuple[PlanAction, ...], syntax: Syntax) -> tuple[PlanAction, ...]:
    """Steps that name their block "it" ("Then put it down", "stack it on the blue block") take the
    block of the step before (the one in hand)."""
    out: list[PlanAction] = []
    for step in steps:
        if (out and out[-1].args and len(step.args) < syntax.arity.get(step.name, 0)
                and _IT.match(step.text) is not None):
            step = PlanAction(step.name, (out[-1].args[0], *step.args), step.text)
        out.append(step)
    return tuple(out)


def plan_signals(region: str) -> Signals:
    """The withdrawal signals of a plan's final region: the reader's list (``solving=True``) and the
    plan-specific ones ("this plan does not work", "step 3 is invalid", "it is not possible to achieve the
    goal", "we cannot proceed further", "no plan can achieve the goal")."""
    extra = [(m.start(), m.group()) for m in _STEP_SIGNALS.finditer(region)]
    low = region.lower()
    if any(word in low for word in _UNREACHABLE_WORDS):  # C-speed scans first: most text has none of them
        extra += [(m.start(), m.group()) for m in _UNREACHABLE.finditer(region)]
    for m in _PLAN_SIGNALS.finditer(region):
        subject = _PLAN_SUBJECT.search(region, max(0, m.start() - 24), m.start())
        if subject is not None:
            extra.append((subject.start(), region[subject.start():m.end()]))
    return find_signals(region, solving=True, extra=extra)


# space characters other than the space (no-break, em, narrow no-break, ideographic ...) read as a space, offsets kept
_SPACE = re.compile("[\u1680\u2000-\u200a\u202f\u205f\u3000]")
_LEGEND = re.compile(r"[Bb]lock\s{0,3}\(\s{0,2}([A-Z])\s{0,2}\)")  # literal-led: "... block (Y)"
_LEGEND_COLOUR = re.compile(r"\b([A-Za-z]+)\s{1,3}$")
_CAPITAL = re.compile(r"(?<![A-Za-z0-9_'’-])([A-Z])(?![A-Za-z0-9_'’-])")


def _spell_initials(region: str) -> str:
    """``region`` with the capital letters that it defines as colour initials ("the yellow block (Y)")
    spelled out ("Unstack Y from R" -> "Unstack yellow from red"); unchanged without such a legend."""
    if "(" not in region:
        return region
    legend: dict[str, str] = {}
    for m in _LEGEND.finditer(region):
        before = _LEGEND_COLOUR.search(region, max(0, m.start() - 24), m.start())
        colour, letter = (before.group(1).lower() if before else ""), m.group(1)
        if colour not in COLOURS:
            continue
        if legend.setdefault(letter, colour) != colour:
            return region  # one letter for two colours: no legend
    if not legend:
        return region
    return _CAPITAL.sub(lambda m: legend.get(m.group(1), m.group(1)), region)


def plan_reading(region: str, domain: Domain, objects: Iterable[str] = LETTERS) -> Reading:
    """The committed plan of a final region: its plan statements (:func:`plan_statements`) under the
    commitment rule. ``value``: a tuple of :class:`PlanAction` (``None`` with the ``reason`` when none commits)."""
    if not isinstance(region, str):
        return Reading(None, "response is not a string")
    syntax = syntax_of(domain, objects)
    region = blank_tags(region[:answer_end(region)])
    if not region.isascii() and _SPACE.search(region):
        region = _SPACE.sub(" ", region)
    region = _spell_initials(region)
    signals = plan_signals(region)
    statements = [replace(s, hedged=GUESSED) if s.rejects is None and not s.hedged and introduced_by_hedge(region, s.start)
                  else s for s in plan_statements(region, syntax, signals)]  # "My best guess:" and a blank line
    return commit(statements, signals, what="plan")


def plan_objects(objects: Iterable[str] = ()) -> frozenset[str]:
    """The object names a plan is read over: the letters a..z and the problem's ``objects`` (so that a
    reader that knows no problem reads the same plan)."""
    return frozenset(LETTERS) | frozenset(o.lower() for o in objects)


def committed_plan(text: object, domain: Domain, objects: Iterable[str] = (), *, starts_in_think: bool = False) -> Reading:
    """The plan a whole response commits to: its final region (:func:`~finereason.reading.final_region`)
    read by :func:`plan_reading` over :func:`plan_objects`. The one plan reader of every path (the end-to-end
    verdict, ``plan-check``, feedback)."""
    if not isinstance(text, str):
        return Reading(None, f"must be a string, not {type(text).__name__}")
    region = final_region(text, starts_in_think=starts_in_think)
    if region is None:
        return Reading(None, UNFINISHED)
    return plan_reading(region, domain, plan_objects(objects))


__all__ = ["HEDGED", "answer_end", "committed_plan", "plan_objects", "plan_reading", "plan_signals", "plan_statements"]
