"""The Game-of-24 domain: the engine plus what prompts, builders, reports and trainers need."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ...core.puzzle_sources import SourcePuzzle, rng_for
from .engine import Game24Engine
from .puzzle import Game24Puzzle, State

TEST_SHARE = 0.25  # share of the 1,362 solvable multisets reserved for test configs


class Game24Domain(Game24Engine):
    title = "Game of 24"
    position = 30
    move_text = "combine exactly two expressions with one operation"
    difficulty_fields = ("human_rank",)
    identity_fields = ("initial_state",)
    train_samples = 4
    split_note = "Game-of-24 multisets are split between test and train before sampling"
    source_options = {"tot_csv": "Tree-of-Thoughts 24.csv for Game-of-24 human ranks"}

    def __init__(self) -> None:
        self._partitions: dict[tuple, list[SourcePuzzle]] = {}

    def rules(self, puzzle: Game24Puzzle) -> str:
        return (
            f"Game of 24: combine the numbers {', '.join(map(str, puzzle.numbers))} with +, -, * and / (each number "
            "used exactly once) to reach exactly 24. A state is a Python list of the expressions still to be "
            "combined; a move takes two of them, a and b, and replaces them by one expression \"(a op b)\" placed "
            "first in the list."
        )

    def end_to_end_request(self, puzzle: Game24Puzzle, initial: State) -> tuple[str, str]:
        return "", "End your response with \"Answer: \" followed by one expression that uses every number once and equals 24."

    def answer_text(self, puzzle: Game24Puzzle, state: State) -> str:
        return self.to_official(puzzle, state)[0]

    def read_steps(self, puzzle: Game24Puzzle, text: str) -> list[Any]:
        """Step lines ("4 * 6 = 24") and lists of the numbers left ("[24, 8, 8]"), in the order written
        (see :mod:`.steps`)."""
        from ...core.steps import MAX_STEPS, apply_in_order, bracketed_lists, literal_states
        from .steps import step_events

        events = step_events(text, lambda s: self.children(puzzle, s), bracketed_lists(text), 4 * MAX_STEPS)
        numeric = {at for at, _ in events}
        events += [(at, st) for at, st in literal_states(self, puzzle, text) if at not in numeric]
        return apply_in_order(self.initial(puzzle), events)

    def mutate_solution(self, puzzle: Game24Puzzle, solution: State, rng: Any, kind: str) -> State | None:
        """``broken``: one operation of the expression is changed; ``ablated``: one number is left out
        (an operation is replaced by one of its operands); ``random``: the numbers in a random order with
        random operations."""
        from .steps import mutate_expression

        return mutate_expression(puzzle.numbers, solution, rng, kind)

    def depth(self, puzzle: Game24Puzzle, state: State) -> int:
        return len(puzzle.numbers) - len(state)

    def identity_value(self, field: str, value: Any) -> Any:
        if field == "initial_state" and isinstance(value, list):
            return sorted(str(v).strip() for v in value)  # the same multiset in any order
        return value

    def source(self, split: str, seed: int, index: int, options: dict[str, Any]) -> SourcePuzzle:
        part = self.partition(seed, split, options.get("tot_csv"))
        return part[index % len(part)]

    def partition(self, seed: int, split: str, tot_csv: str | None) -> list[SourcePuzzle]:
        """The seed-shuffled solvable multisets, split into test and train parts."""
        key = (seed, split, tot_csv)
        if key not in self._partitions:
            from .source import puzzles, read_tot_ranks

            everything = list(puzzles(read_tot_ranks(tot_csv) if tot_csv else None))
            rng_for(seed, "game24-partition").shuffle(everything)
            cut = round(len(everything) * TEST_SHARE)
            self._partitions[key] = everything[:cut] if split == "test" else everything[cut:]
        return self._partitions[key]

    reasoning_gym_name = "puzzle24"

    def from_reasoning_gym(self, entry: dict) -> tuple[Game24Puzzle, State]:
        puzzle = self.puzzle_from_official({"inputs": {"initial_state": [str(n) for n in entry["metadata"]["numbers"]]}})
        return puzzle, self.solve(puzzle)

    def reasoning_gym_answer(self, puzzle: Game24Puzzle, state: State) -> str:
        return self.answer_text(puzzle, state)

    def check_source_options(self, options: dict[str, Any]) -> None:
        """Read the Tree-of-Thoughts ranks once, so a bad file fails before anything is built."""
        if options.get("tot_csv") is None:
            return
        from .source import read_tot_ranks

        path = Path(options["tot_csv"])
        if not path.is_file():
            raise ValueError(f"--tot-csv {path} is not a file")
        try:
            ranks = read_tot_ranks(path)
        except UnicodeDecodeError:
            raise ValueError(f"--tot-csv {path}: not a UTF-8 text file") from None
        except (ValueError, OSError) as err:
            raise ValueError(f"--tot-csv {path}: {str(err).splitlines()[0] if str(err) else type(err).__name__}") from None
        except Exception as err:  # csv.Error and friends
            raise ValueError(f"--tot-csv {path}: unreadable CSV ({type(err).__name__}: {err})") from None
        if not ranks:
            raise ValueError(f"--tot-csv {path}: no ranked puzzles")
