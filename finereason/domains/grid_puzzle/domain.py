"""The logic-grid domain: the engine plus what prompts, builders, reports and trainers need."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...core.difficulty import DifficultyConfig, knob
from ...core.puzzle_sources import SourcePuzzle, rng_for, split_stream
from .engine import GridPuzzleEngine
from .puzzle import GridPuzzle, GridState


@dataclass(frozen=True)
class GridPuzzleConfig(DifficultyConfig):
    """Logic-grid knobs (the grid size): categories (key column included) and entries per category,
    each drawn per puzzle from its range (default 3..5 each)."""

    min_categories: int | None = knob(3, 5, doc="fewest categories, the key included")
    max_categories: int | None = knob(3, 5, doc="most categories, the key included")
    min_entries: int | None = knob(3, 6, doc="fewest entries (rows)")
    max_entries: int | None = knob(3, 6, doc="most entries (rows)")


class GridPuzzleDomain(GridPuzzleEngine):
    title = "Grid Puzzles"
    position = 40
    move_text = "apply exactly one clue that has not been applied yet, filling in the values it names"
    difficulty_fields = ("categories", "entries", "clues")
    identity_fields = ("categories", "clues")

    def rules(self, puzzle: GridPuzzle) -> str:
        clues = "\n".join(f"{c.id}. {c.text}" for c in puzzle.clues)
        return (
            f"Logic grid puzzle. {puzzle.question.strip()}\nCategories:\n{puzzle.categories.strip()}\nClues:\n{clues}\n"
            "A state is the answer table, written as a Python list of rows: the first row names the categories, "
            "each other row starts with a value of the first category, and \"\" marks an empty cell. No value is "
            "used more than once in a category."
        )

    def state_note(self, state: GridState, label: str) -> str:
        return f"\n{label}: {', '.join(state.applied) or 'none'}"

    def mutate_solution(self, puzzle: GridPuzzle, solution: GridState, rng: Any, kind: str) -> GridState | None:
        """``broken``: two rows swap their values in one column; ``ablated``: one cell is left empty;
        ``random``: every column a random arrangement of its values."""
        cells = [list(row) for row in solution.cells]
        if not cells or not cells[0]:
            return None
        j = rng.randrange(len(cells[0]))
        if kind == "broken" and len(cells) > 1:
            a, b = rng.sample(range(len(cells)), 2)
            cells[a][j], cells[b][j] = cells[b][j], cells[a][j]
        elif kind == "ablated":
            cells[rng.randrange(len(cells))][j] = None
        elif kind == "random":
            for col in range(len(cells[0])):
                values = [row[col] for row in cells]
                rng.shuffle(values)
                for row, value in zip(cells, values):
                    row[col] = value
        else:
            return None
        return GridState(tuple(tuple(row) for row in cells))

    def difficulty(self, puzzle: GridPuzzle) -> dict[str, Any]:
        return {"categories": len(puzzle.header), "entries": len(puzzle.keys), "clues": len(puzzle.clues)}

    def depth(self, puzzle: GridPuzzle, state: GridState) -> int:
        return len(state.applied)

    def source(self, split: str, seed: int, index: int, options: dict[str, Any]) -> SourcePuzzle:
        from .source import generate

        return generate(split_stream(seed, split), index)

    difficulty_config = GridPuzzleConfig

    def configured_source(self, split: str, seed: int, index: int, config: GridPuzzleConfig) -> SourcePuzzle:
        from .source import generate

        rng = rng_for(seed, self.name, split, index, "difficulty")
        return generate(split_stream(seed, split), index, categories=config.pick("categories", rng),
                        entries=config.pick("entries", rng))
