"""The plan syntax: steps of a plan in model text, in every notation models write.

A *step* is written in any of these notations (case-insensitive, markdown emphasis ignored):

- PDDL: ``(unstack d c)``, ``(unstack yellow orange)`` (PlanBench's colour names for the objects);
- function notation: ``unstack(red, blue)``, ``put_down(red)``, ``pick_up(a)``, ``feast(b from a)``,
  ``feast(d) from c``;
- a sentence: ``unstack the yellow block from on top of the orange block``, ``Unstack blue from
  orange``, ``Put down yellow on the table``, ``Put C down``; Mystery Blocksworld: ``feast object d from
  object c``, or the subject first: ``Object d feasts from object c``. What follows the step's own words
  is a remark, never an argument: a parenthesis, a dash, a colon, a comma or a sentence end, and words
  like ``so``/``which``/``to free``/``provides`` (``Unstack the blue block from the red block (now
  holding the blue block)`` has two arguments).

Steps stand one per line, numbered (``1.``, ``Step 1:``), bulleted or bold, or several on one line:
parenthesised, or sentences joined by ``then``, commas or semicolons (``unstack the red block from
the blue block, then put down the red block``). :func:`line_steps` reads one line;
:mod:`finereason.planning.plan_answers` finds the plans of a response and which one it commits to.

There is one plan reader: :func:`finereason.planning.plan_answers.committed_plan` (the end-to-end verdict,
``plan-check`` and feedback all read plans with it); this module is its step syntax.

Reading is bounded (steps per plan, characters per step) and linear in the text; nothing is evaluated.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

from ..common.deprecated import renamed_names
from ..reading.meaning import negated_answer
from .pddl import Domain

MAX_STEPS = 1_000
MAX_STEP_TEXT = 80

#: PlanBench's object names in Blocksworld prompts and plans (``a`` is "the red block").
COLOURS: dict[str, str] = {
    "red": "a", "blue": "b", "orange": "c", "yellow": "d", "white": "e", "magenta": "f",
    "black": "g", "cyan": "h", "green": "i", "violet": "j", "silver": "k", "gold": "l",
}
LETTERS = tuple("abcdefghijklmnopqrstuvwxyz")

WORD = re.compile(r"[a-z0-9]+")
ITEM_PREFIX = re.compile(
    r"\s*(?:(?:step|action|move)\s{0,3}#?\s{0,2}(\d{1,4})\s{0,3}[:.)\-]?"
    r"|\(?(\d{1,4})\s{0,3}[.):\-|]|(\d{1,4})\s+(?=[a-z(])|[a-h][.)](?=\s)|[-+\u2022>•·▪◦|]|#{1,6}|\\item)\s*")
_CONNECTIVES = frozenset({"then", "next", "first", "firstly", "finally", "and", "now", "lastly", "afterwards", "i",
                          "we", "will", "second", "third", "after", "that", "so", "also", "last", "perform", "execute"})
_LEADING = re.compile(r"(?:(?:" + "|".join(sorted(_CONNECTIVES)) + r")(?![a-z0-9])[\s,.:;]*)*")
_SPLIT_VERB = re.compile(r"^(pick|put)\s+((?:the\s+|object\s+)?[a-z0-9]+(?:\s+block)?)\s+(up|down)\b")
_SPLIT_AFTER = re.compile(r"(?:[,;:.→>|•]|\bthen|\band|\bnext|\bfinally|\bfirst|\blastly|\bafterwards|\bnow"
                          r"|\bafter that)[ \t]*$")
# where a sentence step's own words end and a remark begins
_REMARK = re.compile(
    r"\s-\s|—|–|\(|\[|:|;|,|\.(?:\s|$)|!|\?|=|->|→|⇒|✓|✔|✅|\||\bbecause\b|\bsince\b|\bso\b|\bwhich\b|\bwhile\b|\bnow\b|\bleaving\b"
    r"|\bmaking\b|\bto\s+(?:free|clear|make|get|allow|access|reach|expose|achieve|uncover|prepare|start|build|"
    r"form|create|complete|satisfy|meet|ensure|keep|have|be|move)\b|\bin order\b|\bas\b|\bfor\b|\bthis\b|\bthat\b"
    r"|\bthen\b|\buntil\b|\bafter\b|\bbefore\b|\bthus\b|\bhence\b|\bwhere\b|\bif\b|\bbut\b|\bnext to\b"
    r"|\bbeside\b|\bnear\b|\bwhere\b|\bthereby\b|\bresulting\b|\bgoal\b|\bnote\b"
    r"|\b(?:is|was|does|doesn't|doesn’t|won't|fails)\b|" + r"\b(?:you|we)\b|\b(?:" + "|".join((
        "sets", "set up", "re-establishes", "establishes", "changes", "enables", "provides", "allows", "gives", "creates",
        "adds", "removes", "restores", "makes", "generates", "produces", "results", "achieves", "ensures", "satisfies",
        "frees", "clears", "gains", "regains", "induces", "introduces", "turns")) + r")\b")
# a remark that makes the line a sentence about the step ("**Attack c** provides pain", "After X, you regain ..."):
# outside a numbered list such a line is explanation, not a step
_CLAUSE = re.compile(r"[\s,]*(?:" + "|".join(("sets", "set up", "re-establishes", "establishes", "changes", "enables",
                                                     "provides", "allows", "gives", "creates", "generates", "produces",
                                                     "ensures", "induces", "introduces")) + r")\b")
_AFTER_CLAUSE = re.compile(r"[\s,]*(?:you|we)\b")  # "After X, you regain ...": a sentence led by "after"
# "Object a feasts from object c", "Object c attacks": the subject first, the verb conjugated
_SUBJECT = re.compile(r"(?:the\s{1,3})?(?:object|block)\s{1,3}([a-z0-9]{1,20})\s{1,3}([a-z][a-z_-]{1,30})(?![a-z0-9_-])")
_CALL_FILLER = frozenset({"from", "on", "onto", "to", "of", "the", "object", "block", "top", "and", "with"})
_CALL_MORE = re.compile(r"[ \t]{0,3}(?:from|on|onto|to)[ \t]{1,3}(?:(?:the|object|block)[ \t]{1,3}){0,2}([a-z0-9]{1,20})\b")
_ASIDE = frozenset({":", "(", "[", "-", "—", "–", "=", "->", "→", "⇒", "|"})


@dataclass(frozen=True)
class PlanAction:
    """One action of a plan as read: the action name, its object arguments and the text it came from
    (a move's verdict is :class:`finereason.core.engine.Step`)."""

    name: str
    args: tuple[str, ...]
    text: str

    def __str__(self) -> str:
        text = " ".join((self.name, *self.args[:8]))
        return "(" + (text if len(text) <= MAX_STEP_TEXT and len(self.args) <= 8 else text[:MAX_STEP_TEXT] + " ...") + ")"


@dataclass(frozen=True)
class Syntax:
    """A domain's step syntax: its verbs (spelling without hyphens/spaces -> name), arities, objects."""

    verbs: dict[str, str]
    arity: dict[str, int]
    objects: frozenset[str]
    verb_re: re.Pattern[str]
    call_re: re.Pattern[str]
    hint_re: re.Pattern[str]


@lru_cache(maxsize=64)
def _syntax(names: tuple[tuple[str, int], ...], objects: frozenset[str]) -> Syntax:
    verbs = {n.replace("-", "").replace("_", ""): n for n, _ in names}
    spelled = sorted((r"[ \t_-]?".join(map(re.escape, re.split(r"[-_]", n))) for n, _ in names), key=len, reverse=True)
    alternation = "|".join(spelled)
    verb_re = re.compile(r"(?<![a-z0-9_-])(?:" + alternation + r")(?![a-z0-9_])(?!-[a-z])")
    # (verb args) and verb(args): the parenthesised notations
    call_re = re.compile(r"\(\s{0,3}(" + alternation + r")(?![a-z0-9_-])([^()\n]{0,200})\)"
                         r"|(?<![a-z0-9_-])(" + alternation + r")[ \t]{0,2}\(([^()\n]{0,200})\)")
    hint_re = re.compile(alternation + r"|put|pick|answer|plan|solution|action|step|sequence")
    return Syntax(verbs, dict(names), objects, verb_re, call_re, hint_re)


def syntax_of(domain: Domain, objects: Iterable[str]) -> Syntax:
    """The step syntax of ``domain`` over ``objects`` (cached)."""
    names = tuple(sorted((a.name.lower(), len(a.params)) for a in domain.actions))
    return _syntax(names, frozenset(o.lower() for o in objects))


def clean(line: str) -> str:
    """``line`` in lower case without markdown emphasis and math delimiters (``\\( a \\)``)."""
    line = line.lower().replace("*", " ").replace("`", " ").replace("\\_", "_")
    return line.replace("\\(", "  ").replace("\\)", "  ") if "\\" in line else line


def _object(word: str, objects: frozenset[str]) -> str | None:
    if word in objects:
        return word
    letter = COLOURS.get(word)
    return letter if letter is not None and letter in objects else None


def _name(syntax: Syntax, verb: str) -> str:
    return syntax.verbs[re.sub(r"[ \t_-]", "", verb)]


def _sentence_args(words: list[str], objects: frozenset[str]) -> tuple[str, ...]:
    """Object mentions among the words after a verb: colours win over letters, so the article "a" in
    "pick up a red block" (or "pick up a block") is not read as object ``a``."""
    colours = [COLOURS[w] for w in words if w in COLOURS and COLOURS[w] in objects]
    if colours:
        return tuple(colours)
    return tuple(w for i, w in enumerate(words)
                 if w in objects and not (w == "a" and words[i + 1:i + 2] in (["block"], ["blocks"], ["red"])))


def _call_args(inside: str, syntax: Syntax) -> tuple[str, ...]:
    """The arguments of ``(verb ...)`` / ``verb(...)``: every word but fillers (``feast(b from a)``); a word
    that names no object is kept (the validator names it)."""
    return tuple(_object(w, syntax.objects) or w for w in WORD.findall(inside.replace(",", " ")) if w not in _CALL_FILLER)


def clip(step: PlanAction) -> PlanAction:
    """``step`` with its name, arguments and text cut to :data:`MAX_STEP_TEXT` characters (itself when they fit)."""
    if len(step.name) <= MAX_STEP_TEXT and len(step.text) <= MAX_STEP_TEXT and all(len(a) <= MAX_STEP_TEXT for a in step.args):
        return step
    return PlanAction(step.name[:MAX_STEP_TEXT], tuple(a[:MAX_STEP_TEXT] for a in step.args), step.text[:MAX_STEP_TEXT])


@dataclass(frozen=True)
class LineRead:
    """What one line says: its ``steps``; ``tail``, how many characters at the end of the line follow
    the steps' own words (a remark: "(stack d c) Wait, that's wrong." has a tail of 20); ``hedged``:
    two parenthesised steps offered as alternatives or under a condition ("(stack d c) or (unstack d
    c)"; sentence steps joined by "or" are read as written: the first one, its alternative a remark)."""

    steps: list[PlanAction]
    tail: int = 0
    hedged: bool = False
    prose: bool = False  # the first step's remark is a clause about it ("... provides pain", "..., you regain")


# between two steps of one line: they are offered as alternatives, not done one after the other
_ALTERNATIVE_GAP = re.compile(r"\b(?:or|either|otherwise|else|alternatively|if|unless|instead)\b")


def line_steps(text: str, syntax: Syntax) -> list[PlanAction]:
    """The steps of one (cleaned, prefix-stripped) line (:func:`read_line`)."""
    return read_line(text, syntax).steps


def read_line(text: str, syntax: Syntax) -> LineRead:
    """The steps of one (cleaned, prefix-stripped) line: parenthesised/function steps when the line
    starts with one, else sentence steps starting at the line start or after a separator."""
    body = text.lstrip(" \t\"'“”‘’[")
    lead = _LEADING.match(body).end()
    after = body.startswith("after")
    body = body[lead:]
    if body.startswith(("put ", "pick ")):
        body = _SPLIT_VERB.sub(r"\1 \3 \2", body, count=1)  # "put C down on the table"
    elif body.startswith(("object", "block", "the ")):
        subject = _SUBJECT.match(body)
        word = "" if subject is None else re.sub(r"[_-]", "", subject.group(2))
        verb = next((syntax.verbs[w] for w in (word[:-1], word[:-2]) if word.endswith("s") and w in syntax.verbs), None)
        if verb is not None:  # "object a feasts from object c" -> "feast a from object c"
            body = f"{verb} {subject.group(1)}{body[subject.end():]}"
    call = syntax.call_re.match(body)
    if call is not None:
        steps, hedged, last_end = [], False, 0
        for m in syntax.call_re.finditer(body):
            if steps and not hedged and _ALTERNATIVE_GAP.search(body, last_end, m.start()):
                hedged = True
            verb, inside = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
            name, args = _name(syntax, verb), _call_args(inside, syntax)
            last_end = m.end()
            more = _CALL_MORE.match(body, last_end) if len(args) < syntax.arity.get(name, 0) else None
            if more is not None:  # "feast(d) from c"
                args, last_end = (*args, _object(more.group(1), syntax.objects) or more.group(1)), more.end()
            steps.append(PlanAction(name, args, body[m.start():last_end].strip()))
        return LineRead(steps, len(body) - last_end, hedged)
    first = syntax.verb_re.match(body)
    if first is None:
        return LineRead([])
    starts = [first]
    for m in syntax.verb_re.finditer(body, first.end()):
        if _SPLIT_AFTER.search(body, max(0, m.start() - 16), m.start()):
            starts.append(m)
            if len(starts) > MAX_STEPS:
                break  # already too many for a plan
    steps = []
    tail = 0
    capped = len(starts) > MAX_STEPS  # the line goes on with more steps: no remark after them
    for k, m in enumerate(starts):
        stop = starts[k + 1].start() if k + 1 < len(starts) else len(body)
        head = body[m.end():stop]
        remark = _REMARK.search(head)
        if remark is not None:
            head = head[:remark.start()]
        if k == 0:
            remark_of_first = None if remark is None else m.end() + remark.start()
        args = _sentence_args(WORD.findall(head), syntax.objects)
        if k and not args:
            continue  # "... and stack it": no step of its own
        steps.append(PlanAction(_name(syntax, m.group()), args, body[m.start():stop].strip(" ,;.")))
        tail = 0 if capped else len(body) - (m.end() + len(head))
        if remark is not None and remark.group().strip() in _ASIDE:
            break  # "Unstack red from yellow: pick up the red block ...": the rest of the line explains the step
    prose = bool(steps) and remark_of_first is not None and (
        _CLAUSE.match(body, remark_of_first) is not None or after and _AFTER_CLAUSE.match(body, remark_of_first) is not None)
    return LineRead(steps, tail, prose=prose)

_PROSE_REACH = 48  # characters of prose before a line's steps looked at
_PROSE_LINE = 1_000  # the steps start within this many characters of the line


def negated_steps(text: str, lo: int, syntax: Syntax) -> int | None:
    """Where the steps start in a cleaned line ``text`` that negates an answer statement before them ("the
    plan is not (unstack d b)", "la respuesta no es ...": :func:`~finereason.reading.meaning.negated_answer`),
    looking from ``lo``; else ``None``."""
    verb = syntax.verb_re.search(text, lo, lo + _PROSE_LINE)
    if verb is None:
        return None
    at = verb.start() - 1 if verb.start() > lo and text[verb.start() - 1] == "(" else verb.start()
    head = text[max(0, at - _PROSE_REACH):at]
    if at == 0 or not negated_answer(head, len(head)):
        return None
    return at if read_line(text[at:], syntax).steps else None


__getattr__ = renamed_names(__name__, {"Step": "PlanAction"}, globals())
