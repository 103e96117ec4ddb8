"""An independent oracle: is a plan that the validator accepts written anywhere in a response?

Deliberately separate from the reader (:mod:`finereason.planning.plan_text`): a small, generous
line parser for PlanBench's Blocksworld wording (and Mystery Blocksworld's names: ``feast object b from
object a``), and many candidate plans per response. Every
candidate is validated; the response *contains a valid plan* when any candidate is valid.

Candidates: every maximal run of step lines (blank lines allowed between them), each such run cut
where a numbered list starts again at 1, every ``[PLAN] ... [PLAN END]`` block, every sequence of
numbered step lines 1, 2, 3, ... found in order (explanation lines between items skipped), and every
line's steps joined by "then"/commas/semicolons. It knows nothing of markers or withdrawals: it says
what is *in* the text, not what the response commits to. ``last`` is the last candidate by
position (what a careful grader would look at first).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from finereason.planning.plan_text import PlanAction
from finereason.planning.strips import Task
from finereason.planning.validate import validate

NAMES = {"unstack": "unstack", "stack": "stack", "pickup": "pick-up", "putdown": "put-down"}
ARITY = {"unstack": 2, "stack": 2, "pick-up": 1, "put-down": 1}
COLOUR = {"red": "a", "blue": "b", "orange": "c", "yellow": "d", "white": "e", "magenta": "f", "black": "g",
          "cyan": "h", "green": "i", "violet": "j", "silver": "k", "gold": "l"}
VERB = r"(unstack|stack|pick[ _-]?up|put[ _-]?down)"
#: Mystery Blocksworld's names (PlanBench's mystery-4ops) and their arities
MYSTERY_NAMES = {"feast": "feast", "overcome": "overcome", "attack": "attack", "succumb": "succumb"}
MYSTERY_ARITY = {"feast": 2, "overcome": 2, "attack": 1, "succumb": 1}
_LEAD = re.compile(r"^[\s>*#`_-]*(?:(?:step|action)\s*(\d+)\s*[:.)-]?|(\d+)\s*[.):]|[-•*+]|[a-h]\))?[\s*_`]*", re.I)
_CUT = re.compile(r"\(|\s-\s|—|–|:|;|,|\.\s|\.$|\bso\b|\bwhich\b|\bto (?:free|clear|make|get)\b|\bbecause\b|\bnow\b", re.I)
BAD = PlanAction("unreadable", (), "")


class _Vocabulary:
    """One vocabulary's names and the patterns built from them."""

    def __init__(self, names: dict[str, str], arity: dict[str, int], verb: str) -> None:
        self.names, self.arity = names, arity
        self.verb = verb
        self.pddl = re.compile(r"\(\s*" + verb + r"\s+([a-z ]+?)\s*\)", re.I)
        self.func = re.compile(verb + r"\s*\(([a-z ,]+)\)", re.I)
        self.sent = re.compile(r"^(?:then |next |finally |first |now |and )*" + verb + r"\b(.*)$", re.I)
        self.join = re.compile(r",?\s*(?:and )?then\s+|;\s*|,\s+(?=" + verb + r"\b)", re.I)


BLOCKSWORLD = _Vocabulary(NAMES, ARITY, VERB)
MYSTERY = _Vocabulary(MYSTERY_NAMES, MYSTERY_ARITY, r"(feast|overcome|attack|succumb)")


def vocabulary_of(task: Task) -> _Vocabulary:
    """The oracle's vocabulary for a planning task (by its action names)."""
    return MYSTERY if any(a.name == "feast" for a in task.domain.actions) else BLOCKSWORLD


def _verb(word: str, vocab: _Vocabulary = BLOCKSWORLD) -> str:
    return vocab.names[re.sub(r"[ _-]", "", word.lower())]


def _args(words: str) -> tuple[str, ...]:
    low = words.lower()
    colours = [COLOUR[w] for w in re.findall(r"[a-z]+", low) if w in COLOUR]
    if colours:
        return tuple(colours)
    return tuple(w for w in re.findall(r"\b[a-l]\b", low) if w != "a" or not re.search(r"\ba (?:block|red)", low))


def parse_clause(text: str, loose: bool = False, vocab: _Vocabulary = BLOCKSWORLD) -> PlanAction | None:
    """One step from a clause (``None`` when it is not a step of the right arity, unless ``loose``:
    then the step with the objects its own words name, which the validator rejects)."""
    text = text.strip().strip("*`_ ")
    text = re.sub(r"^(put|pick)\s+(the\s+\w+\s+block|\w+)\s+(down|up)\b", r"\1 \3 \2", text, flags=re.I)
    m = vocab.pddl.match(text) or vocab.func.match(text)
    if m is not None:
        name = _verb(m.group(1), vocab)
        args = tuple(COLOUR.get(w, w) for w in re.findall(r"[a-z]+", m.group(2).lower()))
    else:
        m = vocab.sent.match(text)
        if m is None:
            return None
        name = _verb(m.group(1), vocab)
        rest = m.group(2)
        cut = _CUT.search(rest)
        args = _args(rest[:cut.start()] if cut else rest)
    if len(args) != vocab.arity[name] and not loose:
        return None
    return PlanAction(name, args, text[:60])


def parse_line(line: str, vocab: _Vocabulary = BLOCKSWORLD) -> tuple[int | None, list[PlanAction]]:
    """``(item number or None, steps)`` of one line; steps empty when it is not a step line."""
    m = _LEAD.match(line)
    number = next((int(g) for g in m.groups() if g), None) if m else None
    body = line[m.end():] if m else line
    if vocab.pddl.match(body.strip()):
        steps = [parse_clause(p.group(), vocab=vocab) for p in vocab.pddl.finditer(body)]
        return number, [s for s in steps if s is not None]
    parts = vocab.join.split(body)
    steps = []
    for part in parts:
        if part is None or not part.strip() or re.fullmatch(vocab.verb, part.strip(), re.I):
            continue
        step = parse_clause(part, vocab=vocab)
        if step is None:
            break
        steps.append(step)
    if not steps and (step := parse_clause(body, vocab=vocab)) is not None:
        steps = [step]
    if not steps and (step := parse_clause(body, loose=True, vocab=vocab)) is not None:
        steps = [step]  # led by an action, naming the wrong number of objects: the plan holding it is not valid
    return number, steps


@dataclass
class Found:
    """The oracle's findings in one response."""

    candidates: list[tuple[int, tuple[PlanAction, ...]]]   # (position: line index, plan)
    valid: list[tuple[PlanAction, ...]]
    last: tuple[PlanAction, ...] | None                     # the last candidate by position

    @property
    def contains_valid(self) -> bool:
        return bool(self.valid)


def candidates(text: str, vocab: _Vocabulary = BLOCKSWORLD) -> list[tuple[int, tuple[PlanAction, ...]]]:
    low = text.lower()
    end = low.find("[plan end]")
    if end >= 0 and low.find("[statement]", end) >= 0:  # PlanBench's one-shot continuation: a new problem
        text = text[:low.find("[statement]", end)]
    lines = text.split("\n")
    parsed = [parse_line(line, vocab) for line in lines]
    out: list[tuple[int, tuple[PlanAction, ...]]] = []
    # maximal runs, and the same runs cut where the numbering restarts
    run: list[int] = []
    for i, (number, steps) in enumerate(parsed + [(None, [])]):
        if steps:
            run.append(i)
            continue
        if i < len(lines) and not lines[i].strip():
            continue
        if run:
            out.append((run[-1], tuple(s for k in run for s in parsed[k][1])))
            piece: list[int] = []
            for k in run:
                if parsed[k][0] == 1 and piece:
                    out.append((piece[-1], tuple(s for j in piece for s in parsed[j][1])))
                    piece = []
                piece.append(k)
            if piece and len(piece) != len(run):
                out.append((piece[-1], tuple(s for j in piece for s in parsed[j][1])))
        run = []
    # numbered sequences 1, 2, 3, ... in order, explanation between items skipped
    seq: list[int] = []
    for i, (number, steps) in enumerate(parsed):
        if number is None or not steps:
            continue
        if number == 1:
            if seq:
                out.append((seq[-1], tuple(s for k in seq for s in parsed[k][1])))
            seq = [i]
        elif seq and number == parsed[seq[-1]][0] + 1:
            seq.append(i)
    if seq:
        out.append((seq[-1], tuple(s for k in seq for s in parsed[k][1])))
    # [PLAN] ... [PLAN END] blocks
    low = text.lower()
    for m in re.finditer(r"\[plan\](.*?)\[plan end\]", low, re.S):
        steps = tuple(s for line in m.group(1).split("\n") for s in parse_line(line, vocab)[1])
        if steps:
            out.append((low.count("\n", 0, m.end()), steps))
    # a one-shot continuation: the response itself is the inside of a [PLAN] block
    end = low.find("[plan end]")
    if end > 0:
        steps = tuple(s for line in text[:end].split("\n") for s in parse_line(line, vocab)[1])
        if steps:
            out.append((low.count("\n", 0, end), steps))
    return out


def find(text: str, task: Task) -> Found:
    cands = candidates(text, vocabulary_of(task))
    valid: list[tuple[PlanAction, ...]] = []
    seen: set[tuple] = set()
    for _, plan in cands:
        key = tuple((s.name, s.args) for s in plan)
        if key in seen:
            continue
        seen.add(key)
        if validate(task, list(plan)).valid:
            valid.append(plan)
    last = max(cands, key=lambda c: (c[0], len(c[1])))[1] if cands else None
    return Found(cands, valid, last)


def plan_key(plan) -> tuple | None:
    return None if plan is None else tuple((s.name, tuple(s.args)) for s in plan)
