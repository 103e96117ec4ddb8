"""The logic-grid domain: the engine plus what prompts, builders, reports and trainers need."""
from __future__ import annotations

from typing import Any

from ...sources import SourcePuzzle
from .engine import GridPuzzle, GridPuzzleEngine, GridState


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

    def difficulty(self, puzzle: GridPuzzle) -> dict[str, Any]:
        return {"categories": len(puzzle.header), "entries": len(puzzle.keys), "clues": len(puzzle.clues)}

    def depth(self, puzzle: GridPuzzle, state: GridState) -> int:
        return len(state.applied)

    def source(self, split: str, seed: int, index: int, options: dict[str, Any]) -> SourcePuzzle:
        from .source import generate

        return generate(seed * 4 + (1 if split == "test" else 2), index)
