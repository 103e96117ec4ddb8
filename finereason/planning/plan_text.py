"""Read a plan from model text: PDDL-style steps and PlanBench's natural-language steps.

Accepted, one step per line or several parenthesised steps on a line, numbered or bulleted:

- ``(unstack d c)``, ``(unstack yellow orange)`` (PlanBench's colour names for the objects),
- ``unstack the yellow block from on top of the orange block``, ``pick up the red block``,
- Mystery Blocksworld: ``(feast d c)``, ``feast object d from object c``.

A ``[PLAN] ... [PLAN END]`` block, when present, limits the reading to its inside. Lines that do
not start with an action of the domain are prose and are skipped; a line that is only a
parenthesised step is a step even with an unknown action (the validator rejects it). Reading is
bounded (characters, steps) and linear in the text; nothing is evaluated.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .pddl import Domain, Problem

MAX_PLAN_CHARS = 200_000
MAX_STEPS = 1_000
MAX_STEP_TEXT = 80

#: PlanBench's object names in Blocksworld prompts and plans (``a`` is "the red block").
COLOURS: dict[str, str] = {
    "red": "a", "blue": "b", "orange": "c", "yellow": "d", "white": "e", "magenta": "f",
    "black": "g", "cyan": "h", "green": "i", "violet": "j", "silver": "k", "gold": "l",
}

_PAREN = re.compile(r"\(([^()]*)\)")
_WORD = re.compile(r"[a-z0-9_]+(?:-[a-z0-9_]+)*")
_PREFIX = re.compile(r"^\s*(?:step\s*\d+\s*[:.)\-]?|\(?\d+\s*[.):\-]|[-*+\u2022>])\s*")
_CONNECTIVES = ("then", "next", "first", "finally", "and", "now", "lastly", "afterwards", "i", "we", "will")


class PlanTextError(ValueError):
    """Plan text that cannot be read (too long, too many steps)."""


@dataclass(frozen=True)
class Step:
    """One step as read: the action name, its object arguments and the text it came from."""

    name: str
    args: tuple[str, ...]
    text: str

    def __str__(self) -> str:
        text = " ".join((self.name, *self.args[:8]))
        return "(" + (text if len(text) <= MAX_STEP_TEXT and len(self.args) <= 8 else text[:MAX_STEP_TEXT] + " ...") + ")"


def _verbs(domain: Domain) -> dict[str, str]:
    """Spelling without hyphens or spaces -> action name (``pickup`` -> ``pick-up``)."""
    return {a.name.replace("-", "").replace("_", ""): a.name for a in domain.actions}


def _plan_block(text: str) -> str:
    low = text.lower()
    end = low.find("[plan end]")
    if end >= 0:
        start = low.rfind("[plan]", 0, end)
        return text[start + len("[plan]") if start >= 0 else 0:end]
    start = low.rfind("[plan]")
    return text[start + len("[plan]"):] if start >= 0 else text


def _object(word: str, objects: set[str]) -> str | None:
    if word in objects:
        return word
    letter = COLOURS.get(word)
    return letter if letter is not None and letter in objects else None


def _step(words: list[str], verbs: dict[str, str], objects: set[str], text: str, strict: bool) -> Step | None:
    """A step from the words of one candidate, ``None`` when it does not start with an action.

    ``strict`` (a bare parenthesised step): the words after the verb are the arguments as written;
    otherwise filler words are dropped and only object mentions are kept (colours win over letters,
    so the article "a" in "pick up a red block" is not read as object ``a``, nor in "pick up a block")."""
    name = None
    rest: list[str] = []
    if words:
        first = words[0].replace("-", "").replace("_", "")
        if first in verbs:
            name, rest = verbs[first], words[1:]
        elif len(words) > 1 and first + words[1].replace("-", "") in verbs:
            name, rest = verbs[first + words[1].replace("-", "")], words[2:]
    if name is None:
        if strict and words:
            return Step(words[0], tuple(COLOURS.get(w, w) for w in words[1:]), text)
        return None
    if strict:
        args = [_object(w, objects) or w for w in rest]
    else:
        colours = [w for w in rest if w in COLOURS and COLOURS[w] in objects]
        args = [COLOURS[w] for w in colours] if colours else [
            w for i, w in enumerate(rest) if w in objects and not (w == "a" and rest[i + 1:i + 2] in (["block"], ["blocks"]))]
    return Step(name, tuple(args), text)


def read_plan(text: str, domain: Domain, problem: Problem) -> list[Step]:
    """The steps of a plan in model text (possibly none); :class:`PlanTextError` when over the limits."""
    if not isinstance(text, str):
        raise PlanTextError(f"must be a string, not {type(text).__name__}")
    if len(text) > MAX_PLAN_CHARS:
        raise PlanTextError(f"too long ({len(text)} characters, limit {MAX_PLAN_CHARS})")
    verbs = _verbs(domain)
    objects = set(problem.objects)
    steps: list[Step] = []
    for raw in _plan_block(text).lower().replace("*", "").replace("`", "").splitlines():
        line = raw
        for _ in range(3):  # "- Step 1: ...", "1. (a) ..."
            line = _PREFIX.sub("", line, count=1)
        line = line.strip()
        if not line:
            continue
        groups = _PAREN.findall(line)
        found: list[Step] = []
        if groups:
            whole = len(groups) == 1 and line.startswith("(") and line.rstrip(" .,;").endswith(")")
            for group in groups:
                step = _step(group.replace(",", " ").split(), verbs, objects, "(" + group.strip() + ")", whole)
                if step is not None:
                    found.append(step)
        if not found:
            words = _WORD.findall(line)
            skip = 0
            while skip < len(words) and words[skip] in _CONNECTIVES and words[skip].replace("-", "") not in verbs:
                skip += 1
            step = _step(words[skip:], verbs, objects, line, strict=False)
            if step is not None:
                found.append(step)
        for step in found:
            if len(steps) >= MAX_STEPS:
                raise PlanTextError(f"more than {MAX_STEPS} steps")
            steps.append(Step(step.name[:MAX_STEP_TEXT], tuple(a[:MAX_STEP_TEXT] for a in step.args),
                              step.text[:MAX_STEP_TEXT]))
    return steps
