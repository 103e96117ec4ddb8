"""Real puzzle states and answers for the reading property tests (test_reading_properties.py).

A :class:`Slot` is one (domain, task, item) of a registered engine, built from the domain's own
seeded source and the project's state sampler: the same kind of items a build makes. Each slot holds
a few answer payloads (right and wrong ones: an option, a next-state list, a solution list, a Game-of-24
expression, a plan) and judges a response with the verifiers, the single source of verdicts.
"""
from __future__ import annotations

import json
import random
from functools import lru_cache
from typing import Any

from finereason.core.engine import engine_names, get_engine
from finereason.data.sampling import sample_solvable, sample_unsolvable, solution_path
from finereason.integrations.training.rewards import format_reward, puzzle_reward
from finereason.common.verdict import SOLVABLE, UNSOLVABLE, Verdict
from finereason.verification.verifiers import format_ok, verify_end_to_end, verify_state_checking, verify_state_transition
from finereason.common.vocabulary import END_TO_END, STATE_CHECKING, STATE_TRANSITION

TASKS = (STATE_CHECKING, STATE_TRANSITION, END_TO_END)
MAX_ANSWERS = 4  # answer payloads kept per slot


class Slot:
    """One (domain, task, item): its answers (``answers``) and how a response to it is judged;
    ``solo`` maps each answer to the verdict category of the marked answer alone.

    A plain class, not a dataclass, so that Hypothesis prints a failing case by its short name."""

    def __init__(self, domain: str, task: str, name: str, engine: Any, puzzle: Any, item: Any = None,
                 record: dict | None = None) -> None:
        self.domain, self.task, self.name = domain, task, name
        self.engine, self.puzzle, self.item = engine, puzzle, item
        self.record = record or {}  # the puzzle's official questions record (from its source)
        self.answers: tuple[str, ...] = ()
        self.solo: dict[str, str] = {}

    @property
    def kind(self) -> str:
        """``option`` (state checking), ``list`` (a next state, or a solution written as a list),
        ``plan`` (a solution of one step per line) or ``expression`` (any other one-line solution):
        read off the answers, so a plugin domain gets its kind without being named here."""
        if self.task == STATE_CHECKING:
            return "option"
        if self.task == STATE_TRANSITION or self.answers[0].startswith("["):
            return "list"
        return "plan" if "\n" in self.answers[0] else "expression"

    @property
    def marker(self) -> str:
        """The answer marker the task's prompt asks for."""
        if self.task == STATE_TRANSITION:
            return "Next state: "
        return "Answer:\n" if self.kind == "plan" else "Answer: "

    @property
    def noun(self) -> str:
        return {"option": "answer", "list": "next state" if self.task == STATE_TRANSITION else "solution",
                "expression": "expression", "plan": "plan"}[self.kind]

    def marked(self, payload: str) -> str:
        return self.marker + payload

    def verdict(self, response: str, *, starts_in_think: bool = False) -> Verdict:
        if self.task == STATE_CHECKING:
            return verify_state_checking(self.engine, self.item, response, solvable=self.item.solvable,
                                         starts_in_think=starts_in_think)
        if self.task == STATE_TRANSITION:
            return verify_state_transition(self.engine, self.item, response, "strict", solvable=self.item.solvable,
                                           starts_in_think=starts_in_think)
        return verify_end_to_end(self.engine, self.puzzle, response, starts_in_think=starts_in_think)

    def format_ok(self, response: str, *, starts_in_think: bool = False) -> bool:
        return format_ok(self.task, response, starts_in_think=starts_in_think,
                         domain=None if self.task == STATE_CHECKING else self.domain)

    def format_reward(self, response: str) -> float:
        """The GRPO ``format`` reward of ``response`` on a row of this slot."""
        return format_reward([response], task=[self.task], puzzle=[self.domain])[0]

    def row(self) -> dict:
        """The dataset row of this slot (official ``inputs``/``outputs`` as JSON text), as GRPO sees it."""
        official = self.record if self.item is None else self.engine.item_to_official(self.item, self.record)
        label = None if self.item is None else (SOLVABLE if self.item.solvable else UNSOLVABLE)
        return {"puzzle": self.domain, "task": self.task, "label": label,
                "inputs": json.dumps(official["inputs"]), "outputs": json.dumps(official.get("outputs", {}))}

    def puzzle_reward(self, response: str) -> float:
        """The GRPO ``puzzle`` reward of ``response`` on this slot's row."""
        return puzzle_reward([response], **{k: [v] for k, v in self.row().items()})[0]

    def correct_answers(self) -> list[str]:
        return [a for a in self.answers if self.solo[a] == "correct"]

    def wrong_answers(self) -> list[str]:
        return [a for a in self.answers if self.solo[a] != "correct"]

    def __repr__(self) -> str:  # what Hypothesis prints in a falsifying example
        return f"Slot({self.name})"


def _dedupe(values: list[str]) -> list[str]:
    out: list[str] = []
    for v in values:
        if v not in out:
            out.append(v)
    return out


def _items(engine: Any, puzzle: Any, seed: int) -> tuple[Any, Any]:
    rng = random.Random(seed)
    path = solution_path(engine, puzzle, engine.initial(puzzle), rng)
    solvable = sample_solvable(engine, puzzle, path, rng, need_dead_end=True)
    unsolvable = sample_unsolvable(engine, puzzle, path, rng)
    assert solvable is not None and unsolvable is not None, engine.name
    return solvable.item, unsolvable.item


def _transition_answers(engine: Any, item: Any) -> list[str]:
    p = item.puzzle
    states: list[Any] = []
    if item.solvable:
        kids = list(engine.children(p, item.current))
        states += [k for k in kids if engine.is_solvable(p, k) and not engine.same(k, item.unsolvable_child)][:2]
        states += [item.unsolvable_child, item.current]
        two = next((g for k in kids[:1] for g in engine.children(p, k)), None)
        if two is not None:
            states.append(two)
    else:
        states += [item.parent, item.current]
        states += [s for s in engine.children(p, item.parent) if not engine.same(s, item.current)][:1]
    return _dedupe([engine.render(p, s) for s in states if s is not None])


def _solution_answers(engine: Any, puzzle: Any, seed: int) -> list[str]:
    solution = engine.solve(puzzle)
    out = [engine.answer_text(puzzle, solution)]
    rng = random.Random(seed)
    for kind in ("broken", "ablated", "random"):
        wrong = engine.mutate_solution(puzzle, solution, rng, kind)
        if wrong is not None:
            out.append(engine.answer_text(puzzle, wrong))
    return _dedupe(out)


def _finish(slot: Slot, answers: list[str]) -> Slot:
    """``slot`` with its answers and the verdict of each alone (the kind needs the answers first)."""
    slot.answers = tuple(answers[:MAX_ANSWERS])
    slot.solo = {a: slot.verdict(slot.marked(a)).category for a in slot.answers}
    return slot


@lru_cache(maxsize=None)
def slots() -> tuple[Slot, ...]:
    """Every slot: per registered domain, state checking and state transition on a solvable and an
    unsolvable sampled item, end to end on two seeded puzzles."""
    out: list[Slot] = []
    for domain in engine_names():
        engine = get_engine(domain)
        sources = [engine.source("test", 11, index, {}) for index in range(2)]
        for index, source in enumerate(sources):
            puzzle, record = source.puzzle, source.record
            tag = f"{domain}/{index}"
            solvable, unsolvable = _items(engine, puzzle, seed=index)
            if index == 0:
                for item, what in ((solvable, "solvable"), (unsolvable, "unsolvable")):
                    out.append(_finish(Slot(domain, STATE_CHECKING, f"{tag}/sc/{what}", engine, puzzle, item, record),
                                       ["(A)", "(B)"]))
                    out.append(_finish(Slot(domain, STATE_TRANSITION, f"{tag}/st/{what}", engine, puzzle, item, record),
                                       _transition_answers(engine, item)))
            out.append(_finish(Slot(domain, END_TO_END, f"{tag}/e2e", engine, puzzle, record=record),
                               _solution_answers(engine, puzzle, seed=index)))
    return tuple(out)
