"""The Blocksworld and Mystery Blocksworld domains: the engine plus what prompts, builders, reports
and trainers need to know. Both share the engine; they differ only in the PDDL vocabulary."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...core.difficulty import DifficultyConfig, knob
from ...core.puzzle_sources import SourcePuzzle, rng_for, split_stream
from .engine import BlocksworldEngine
from .puzzle import BlocksPuzzle, BlocksState, fact_text, pddl_domain

_INTRO = {
    "blocksworld": "I am playing with a set of blocks where I need to arrange the blocks into stacks. "
                   "The blocks are named by letters; the facts below describe where they are and what my hand holds.",
    "mystery": "I am playing with a set of objects, named by letters. The facts below describe their situation.",
}


@dataclass(frozen=True)
class BlocksworldConfig(DifficultyConfig):
    """Blocksworld knobs: the blocks of a generated instance, drawn per puzzle from the range (default
    3..5), and the step budget's slack over the optimal plan length (default 2)."""

    min_blocks: int | None = knob(2, 8, doc="fewest blocks")
    max_blocks: int | None = knob(2, 8, doc="most blocks")
    slack: int | None = knob(0, 6, doc="actions allowed beyond the optimal plan")


class BlocksworldDomain(BlocksworldEngine):
    title = "Blocksworld"
    position = 50
    move_text = "apply exactly one action (adding one to the number of actions taken)"
    identity_fields = ("initial", "goal")
    train_samples = 0
    in_default_set = False  # not one of FineReason's four puzzles: built when named (``--domains blocksworld``)
    checking_question = ("can the goal still be reached from the current state by further actions, within the "
                         "step budget left?")
    official_release = False  # PlanBench, not the FineReason release: no official_* configs or tasks

    def rules(self, puzzle: BlocksPuzzle) -> str:
        domain = pddl_domain(self.vocabulary)
        actions = []
        for schema in domain.actions:
            names = dict(zip(schema.params, ("x", "y", "z")))

            def facts(atoms: tuple) -> str:
                return ", ".join(fact_text((a[0], *(names[p] for p in a[1:]))) for a in atoms) or "nothing"

            head = fact_text((schema.name, *(names[p] for p in schema.params)))
            actions.append(f"- {head}: needs {facts(schema.pre)}; makes {facts(schema.add)} true "
                           f"and {facts(schema.delete)} false.")
        goal = ", ".join(fact_text(a) for a in puzzle.goal)
        return (
            f"{_INTRO[self.vocabulary]}\n"
            f"Objects: {', '.join(puzzle.objects)}.\n"
            "Actions (x and y stand for two different objects); an action can be applied only when every fact it "
            "needs is true:\n" + "\n".join(actions) + "\n"
            f"Goal: {goal} must all be true.\n"
            f"Step budget: {puzzle.budget} actions in all. A state is a Python list of two items: the list of the "
            "facts that are true (in alphabetical order) and the number of actions taken so far. A state can be "
            "completed to a valid solution when the goal can be reached from it within the remaining budget (the "
            "step budget minus the actions taken); a state where the goal holds is complete."
        )

    def end_to_end_request(self, puzzle: BlocksPuzzle, initial: BlocksState) -> tuple[str, str]:
        example = fact_text((pddl_domain(self.vocabulary).actions[-1].name, *puzzle.objects[:2]))
        return (f"Initial state:\n{self.render(puzzle, initial)}\n\n",
                "Give a plan: a sequence of actions that reaches the goal from the initial state (any length). "
                f"End your response with \"Answer: \" followed by the plan, one action per line, written like {example}.")

    def depth(self, puzzle: BlocksPuzzle, state: BlocksState) -> int:
        return state.steps

    def identity_value(self, field: str, value: Any) -> Any:
        if field in self.identity_fields and isinstance(value, list):
            return sorted(" ".join(str(v).lower().replace("(", " ").replace(")", " ").split()) for v in value)
        return value

    def source(self, split: str, seed: int, index: int, options: dict[str, Any]) -> SourcePuzzle:
        from .source import generate

        return generate(self.vocabulary, split_stream(seed, split), index)

    difficulty_config = BlocksworldConfig

    def configured_source(self, split: str, seed: int, index: int, config: BlocksworldConfig) -> SourcePuzzle:
        if config.is_default():
            return self.source(split, seed, index, {})
        from .source import SLACK, generate

        blocks = config.pick("blocks", rng_for(seed, self.name, split, index, "difficulty"))
        return generate(self.vocabulary, split_stream(seed, split), index, blocks=blocks,
                        slack=SLACK if config.slack is None else config.slack)


class MysteryBlocksworldDomain(BlocksworldDomain):
    """Blocksworld with PlanBench's obfuscated names (``mystery-4ops``): attack, succumb, overcome, feast."""

    name = "mystery_blocksworld"
    official_name = "mystery_blocksworld"
    vocabulary = "mystery"
    title = "Mystery Blocksworld"
    position = 60
