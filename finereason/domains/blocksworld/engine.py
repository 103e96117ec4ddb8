"""Blocksworld and Mystery Blocksworld as a FineReason domain: the engine (moves, steps, answers, official I/O).
The puzzle and state values live in :mod:`.puzzle`, the oracle's search in :mod:`.solver`.

Design (the choices a planning domain needs to fit the engine interface):

- *puzzle* (:class:`BlocksPuzzle`): a STRIPS instance of the 4-operator domain (PlanBench's
  ``blocksworld-4ops``, or its obfuscated twin ``mystery-4ops``): the vocabulary, the objects, the
  initial facts, the goal facts, and a *step budget* (the optimal plan length plus a slack,
  :data:`~finereason.domains.blocksworld.source.SLACK`). Blocksworld is reversible, so without a budget
  every state of a solvable instance would be solvable; the budget makes state checking a real question.
- *state* (:class:`BlocksState`): the set of true facts and the number of actions taken so far,
  written as the Python list ``[["(clear a)", "(handempty)", "(on a b)", ...], 2]`` (facts sorted).
- *minimal move*: one action; it adds one to the step count. A state that reaches the goal is
  complete (no further moves), and a state that used the whole budget has none either.
  ``undo_moves`` are the states one action back (the step count one lower).
- *solvable*: the goal can still be reached within the remaining budget (``budget - steps``),
  decided by a breadth-first search over the instance's state space; more than
  :data:`~.solver.MAX_NODES` states raises :class:`~finereason.common.verdict.Undecided`.
- *end-to-end answer*: a plan in text (``(unstack d c)``, colour names, PlanBench's sentences,
  numbered lists; read by :mod:`finereason.planning.plan_answers`): the final commitment of the response
  (the last plan, marked or bare, that nothing after it withdraws; a restatement confirms it). It is
  checked by the VAL-style validator (:mod:`finereason.planning.validate`), whose reasons name each
  unmet precondition of the first failing step, or each unmet goal fact. Any valid plan counts,
  whatever its length (as in PlanBench); the budget only defines the states' labels.
- *official format* (our design, in the spirit of the FineReason release): questions records
  ``{"inputs": {"domain", "objects", "initial", "goal", "step_budget"}, "outputs": {"plan",
  "optimal_length"}}``; states records add ``grandparent``, ``parent``, ``current`` and
  ``unsolvable_child`` (states in the list format above) to ``inputs`` and ``current_status`` to
  ``outputs``.
"""
from __future__ import annotations

from typing import Any, Iterator

from ...common.verdict import ParseError, StateError, Undecided
from ...common.vocabulary import END_TO_END
from ...core.engine import BrokenStep, Engine, StateItem, Step, StepKind, official_label
from ...planning.pddl import Atom, Problem
from ...planning.plan_answers import plan_objects, plan_reading
from ...planning.plan_text import PlanAction
from ...planning.strips import GroundAction, apply
from ...planning.validate import describe_unmet, execute, validate
from ...reading import Reading
from .puzzle import BlocksPuzzle, BlocksState, Plan, fact_text, parse_facts, pddl_domain, vocabulary_of
from .solver import _compiled, _reachable, distance, optimal_plan, shortest_plan_to, solve_state


def puzzle_inputs(puzzle: BlocksPuzzle) -> dict:
    """The puzzle's fields of an official record's ``inputs``."""
    return {"domain": pddl_domain(puzzle.vocabulary).name, "objects": list(puzzle.objects),
            "initial": sorted(map(fact_text, puzzle.init)), "goal": [fact_text(a) for a in puzzle.goal],
            "step_budget": puzzle.budget}


def puzzle_outputs(puzzle: BlocksPuzzle) -> dict:
    """An official questions record's ``outputs``: a shortest plan and its length (``None`` without one)."""
    plan = optimal_plan(puzzle)
    return {"plan": None if plan is None else [str(a) for a in plan],
            "optimal_length": None if plan is None else len(plan)}


# ---------------------------------------------------------------- the engine
class BlocksworldEngine(Engine[BlocksPuzzle, BlocksState]):
    """Blocksworld states are (facts, steps); a minimal move is one action of the PDDL domain."""

    name = "blocksworld"
    official_name = "blocksworld"
    vocabulary = "blocksworld"

    # -------------------------------------------------------------- official formats
    def puzzle_from_official(self, record: dict) -> BlocksPuzzle:
        inputs = record.get("inputs") if isinstance(record, dict) else None
        if not isinstance(inputs, dict):
            raise StateError("record has no inputs")
        domain = inputs.get("domain", pddl_domain(self.vocabulary).name)
        if vocabulary_of(domain) != self.vocabulary:
            raise StateError(f"record is for planning domain {domain!r}, not {pddl_domain(self.vocabulary).name!r}")
        objects = inputs.get("objects")
        if not isinstance(objects, list) or not all(isinstance(o, str) for o in objects):
            raise StateError("inputs.objects must be a list of object names")
        budget = inputs.get("step_budget")
        if type(budget) is not int:
            raise StateError("inputs.step_budget must be an integer")
        shell = BlocksPuzzle(self.vocabulary, tuple(objects), frozenset(), (), budget)
        init = parse_facts(inputs.get("initial"), shell, "inputs.initial")
        goal = parse_facts(inputs.get("goal"), shell, "inputs.goal")
        return BlocksPuzzle(self.vocabulary, tuple(objects), init, tuple(sorted(goal)), budget)

    def item_from_official(self, record: dict) -> StateItem[BlocksPuzzle, BlocksState]:
        puzzle = self.puzzle_from_official(record)
        inputs = record["inputs"]
        if inputs.get("current") is None:
            raise StateError("record has no inputs.current state")
        current = self.parse_state(puzzle, inputs["current"])
        return self.record_item(puzzle, current, inputs, official_label(record))

    def item_to_official(self, item: StateItem[BlocksPuzzle, BlocksState], record: dict) -> dict:
        def value(state: BlocksState | None) -> list | None:
            return None if state is None else self.to_official(item.puzzle, state)

        known = record.get("outputs") or {}
        outputs = dict(known) if "plan" in known else puzzle_outputs(item.puzzle)
        outputs["current_status"] = self.status(item.solvable)
        return {"inputs": {**puzzle_inputs(item.puzzle), "grandparent": value(item.grandparent),
                           "parent": value(item.parent), "current": value(item.current),
                           "unsolvable_child": value(item.unsolvable_child)},
                "outputs": outputs}

    def to_official(self, puzzle: BlocksPuzzle, state: BlocksState) -> list:
        return [sorted(map(fact_text, state.atoms)), state.steps]

    def parse_state(self, puzzle: BlocksPuzzle, value: Any) -> BlocksState:
        """A state from ``[[facts...], steps]``. Raises :class:`StateError`."""
        if isinstance(value, (str, bytes, dict)) or not isinstance(value, (list, tuple)) or len(value) != 2:
            raise StateError("a state must be a list of two items: the list of true facts and the number of actions taken")
        facts, steps = value
        if type(steps) is not int:
            raise StateError(f"the number of actions taken must be an integer, got {steps!r}")
        if not 0 <= steps <= puzzle.budget:
            raise StateError(f"the number of actions taken is {steps}, outside 0..{puzzle.budget} (the step budget)")
        return BlocksState(parse_facts(facts, puzzle), steps)

    def from_input(self, obj: Any) -> tuple[BlocksPuzzle, BlocksState]:
        """An official states record, or a questions record (its initial state)."""
        if isinstance(obj, dict) and isinstance(obj.get("inputs"), dict) and "current" not in obj["inputs"]:
            puzzle = self.puzzle_from_official(obj)
            return puzzle, self.initial(puzzle)
        return super().from_input(obj)

    # -------------------------------------------------------------- answers: plans in text
    def parse_solution_text(self, puzzle: BlocksPuzzle, text: str) -> Plan:  # type: ignore[override]
        """The committed plan of a final region (:meth:`read_answer`); :class:`ParseError` with the
        reason when none commits."""
        return Plan(self._read_answer_plan(text, puzzle.problem))

    def read_answer(self, region: str, task: str) -> Reading:  # type: ignore[override]
        """End to end: the committed plan (a tuple of steps, :func:`~finereason.planning.plan_answers.plan_reading`:
        the last plan in the final region, marked or bare, unless something after it withdraws it);
        other tasks: the list reader."""
        if task != END_TO_END:
            return super().read_answer(region, task)
        return plan_reading(region, pddl_domain(self.vocabulary))

    def answer_readable(self, region: str, task: str) -> bool:
        if task != END_TO_END:
            return super().answer_readable(region, task)
        self.answer(region, task)
        return True

    def _read_answer_plan(self, text: str, problem: Problem) -> tuple[PlanAction, ...]:
        """The committed plan's steps, read over the puzzle's objects and the letters a..z (so that
        :meth:`read_answer`, which knows no puzzle, reads the same plan)."""
        if not isinstance(text, str):
            raise ParseError("response is not a string")
        reading = plan_reading(text, pddl_domain(self.vocabulary), plan_objects(problem.objects))
        if reading.value is None:
            raise ParseError(reading.reason)
        return reading.value

    def answer_text(self, puzzle: BlocksPuzzle, state: BlocksState | Plan) -> str:  # type: ignore[override]
        """A plan, one action per line: ``state``'s own steps for a :class:`Plan`, else a shortest
        plan from the initial facts to ``state``'s facts."""
        if isinstance(state, Plan):
            return "\n".join(str(s) for s in state.steps)
        plan = shortest_plan_to(puzzle, state.atoms)
        return "\n".join(map(str, plan or []))

    def read_steps(self, puzzle: BlocksPuzzle, text: str) -> list[Any]:
        """The states after each action of the committed plan (:meth:`read_answer`); an action that cannot
        be applied is a :class:`BrokenStep` naming its unmet preconditions (the actions after it are applied
        to the state before it, so that every written step is listed; process scoring verifies none of them).
        Actions past the step budget are not read (the dead end they follow is already reported)."""
        from ...core.steps import MAX_STEPS

        try:
            steps = self._read_answer_plan(text, puzzle.problem)
        except ParseError:
            return []
        out: list[Any] = []
        state = self.initial(puzzle)
        for step in steps:
            if state.steps >= puzzle.budget or len(out) > MAX_STEPS:
                break
            after, why = execute(puzzle.task, state.atoms, step)
            if after is None:  # listed, and the actions after it too (counted, not verified)
                out.append(BrokenStep(tuple(f"{step}: {reason}" for reason in why)))
                continue
            state = BlocksState(after, state.steps + 1)
            out.append(state)
        return out

    def mutate_solution(self, puzzle: BlocksPuzzle, solution: BlocksState, rng: Any, kind: str) -> Plan | None:  # type: ignore[override]
        """A wrong plan made from a shortest plan to ``solution``: ``broken`` (one action's object
        changed so that a precondition fails), ``ablated`` (one action left out) or ``random``
        (random actions, as many as the plan has). ``None`` when no wrong plan of that kind is found."""
        base = shortest_plan_to(puzzle, solution.atoms) or []
        task = puzzle.task
        as_steps = [PlanAction(a.name, a.args, str(a)) for a in base]
        candidates: list[list[PlanAction]] = []
        if kind == "ablated":
            candidates = [as_steps[:i] + as_steps[i + 1:] for i in range(len(as_steps))]
        elif kind == "broken":
            for i, step in enumerate(as_steps):
                for j in range(len(step.args)):
                    for obj in puzzle.objects:
                        args = step.args[:j] + (obj,) + step.args[j + 1:]
                        if obj != step.args[j] and len(set(args)) == len(args):
                            candidates.append(as_steps[:i] + [PlanAction(step.name, args, "")] + as_steps[i + 1:])
        elif kind == "random":
            ground = [a for _, _, _, a in _compiled(puzzle).actions]
            candidates = [[PlanAction(a.name, a.args, str(a)) for a in (rng.choice(ground) for _ in as_steps or [0])]
                          for _ in range(8)]
        rng.shuffle(candidates)
        for plan in candidates:
            verdict = validate(task, plan)
            if not verdict.valid and (kind != "broken" or verdict.failed_step is not None):
                return Plan(tuple(plan))
        return None

    # -------------------------------------------------------------- rules and moves
    def initial(self, puzzle: BlocksPuzzle) -> BlocksState:
        return BlocksState(puzzle.init, 0)

    def done(self, puzzle: BlocksPuzzle, state: BlocksState) -> bool:
        """Whether ``state`` reaches the goal."""
        return set(puzzle.goal) <= state.atoms

    def violations(self, puzzle: BlocksPuzzle, state: BlocksState) -> list[str]:
        """Rules broken by the state itself: a step count past the budget."""
        if state.steps > puzzle.budget:
            return [f"{state.steps} actions taken, more than the step budget of {puzzle.budget}"]
        return []

    def is_solvable(self, puzzle: BlocksPuzzle, state: BlocksState) -> bool:
        """Whether the goal can be reached within the remaining budget (``budget - steps`` actions)."""
        left = puzzle.budget - state.steps
        if left < 0:
            return False
        d = distance(puzzle, state.atoms)
        return d is not None and d <= left

    def _applicable(self, puzzle: BlocksPuzzle, atoms: frozenset[Atom]) -> Iterator[GroundAction]:
        comp = _compiled(puzzle)
        for _, _, _, action in comp.actions:
            if action.pre <= atoms:
                yield action

    def children(self, puzzle: BlocksPuzzle, state: BlocksState) -> Iterator[BlocksState]:
        """One state per applicable action (none once the goal holds or the budget is used up)."""
        if state.steps >= puzzle.budget or self.done(puzzle, state):
            return
        for action in self._applicable(puzzle, state.atoms):
            yield BlocksState(apply(state.atoms, action), state.steps + 1)

    def _undo(self, puzzle: BlocksPuzzle, state: BlocksState) -> Iterator[tuple[GroundAction, BlocksState]]:
        if state.steps <= 0:
            return
        for _, _, _, action in _compiled(puzzle).actions:
            if not action.add <= state.atoms:
                continue
            before = (state.atoms - action.add) | action.delete | action.pre
            prior = BlocksState(frozenset(before), state.steps - 1)
            if apply(before, action) == state.atoms and not self.done(puzzle, prior):
                yield action, prior

    def undo_moves(self, puzzle: BlocksPuzzle, state: BlocksState) -> Iterator[BlocksState]:
        """The states one action back (whose children include ``state``)."""
        for _, prior in self._undo(puzzle, state):
            yield prior

    def step(self, puzzle: BlocksPuzzle, current: BlocksState, proposed: BlocksState) -> Step:
        """Classify ``proposed``: one action forward (step count +1), one back (-1), several, or invalid."""
        if proposed.atoms == current.atoms:
            if proposed.steps == current.steps:
                return Step(StepKind.NONE, ("no fact changed",))
            return Step(StepKind.INVALID, (f"the step count changed from {current.steps} to {proposed.steps} "
                                           "but no fact did",))
        forward = next((a for a in self._applicable(puzzle, current.atoms) if apply(current.atoms, a) == proposed.atoms), None)
        backward = next((a for a, prior in self._undo(puzzle, current) if prior.atoms == proposed.atoms), None)
        if backward is not None and proposed.steps == current.steps - 1:
            return Step(StepKind.BACKWARD)
        if forward is not None:
            if self.done(puzzle, current):
                return Step(StepKind.INVALID, ("the goal is already reached; no further action is needed",))
            if current.steps >= puzzle.budget:
                return Step(StepKind.INVALID, (f"the step budget of {puzzle.budget} actions is used up",))
            if proposed.steps == current.steps + 1:
                return Step(StepKind.FORWARD)
        if forward is not None or backward is not None:
            counts = " or ".join(f"{n} after {verb} {a}" for n, verb, a in (
                (current.steps + 1, "applying", forward), (current.steps - 1, "undoing", backward)) if a is not None)
            return Step(StepKind.INVALID, (f"the number of actions taken must become {counts}, not {proposed.steps}",))
        added = sorted(map(fact_text, proposed.atoms - current.atoms))
        removed = sorted(map(fact_text, current.atoms - proposed.atoms))
        change = "; ".join(part for part in (f"added {', '.join(added)}" if added else "",
                                             f"removed {', '.join(removed)}" if removed else "") if part)
        try:
            reachable = _reachable(puzzle, proposed.atoms)
        except Undecided:
            reachable = False
        if reachable:
            return Step(StepKind.MULTIPLE, (f"the facts change as after several actions ({change}); "
                                            "make exactly one",))
        return Step(StepKind.INVALID, (f"no action turns the current facts into the proposed ones ({change})",))

    def solve(self, puzzle: BlocksPuzzle, state: BlocksState | None = None) -> BlocksState | None:
        """A goal state reached from ``state`` by a shortest plan within the budget, or ``None``."""
        return solve_state(puzzle, self.initial(puzzle) if state is None else state)

    def check_solution(self, puzzle: BlocksPuzzle, state: BlocksState | Plan) -> list[str]:  # type: ignore[override]
        """A plan: the validator's reasons (first failing step's unmet preconditions, or unmet goal
        facts). A state: the goal facts it lacks, and a step count past the budget."""
        if isinstance(state, Plan):
            return list(validate(puzzle.task, list(state.steps)).reasons)
        reasons = [f"goal not reached: {describe_unmet(a)}" for a in puzzle.goal if a not in state.atoms]
        return reasons + self.violations(puzzle, state)


__all__ = ["BlocksworldEngine", "puzzle_inputs", "puzzle_outputs"]
