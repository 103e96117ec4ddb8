"""The demo domain's description: prompt text, difficulty and identity fields and a seeded source."""
from __future__ import annotations

from typing import Any

from finereason.core.puzzle_sources import SourcePuzzle, rng_for, stable_key

from .engine import CELLS, N, Grid, LatinEngine, LatinPuzzle, completions

MIN_EMPTY, MAX_EMPTY = 6, 12   # empty cells of a generated puzzle


class LatinDomain(LatinEngine):
    title = "Latin square (demo)"
    position = 900
    move_text = "fill exactly one empty cell with a digit"
    difficulty_fields = ("empty_cells",)
    plot_fields = ("empty_cells",)
    identity_fields = ("initial",)
    train_samples = 2

    def rules(self, puzzle: LatinPuzzle) -> str:
        return (
            "A 4x4 Latin square is written as a Python list of 4 rows in which 0 marks an empty cell. Fill the "
            "empty cells with digits 1-4 so that every row and every column contains each digit exactly once. "
            "Digits already in the grid cannot be changed."
        )

    def difficulty(self, puzzle: LatinPuzzle) -> dict[str, Any]:
        return {"empty_cells": puzzle.givens.count(0)}

    def depth(self, puzzle: LatinPuzzle, state: Grid) -> int:
        return sum(1 for g, v in zip(puzzle.givens, state) if v and not g)

    def source(self, split: str, seed: int, index: int, options: dict[str, Any]) -> SourcePuzzle:
        """A random full square (a shuffled cyclic square) with 6..12 cells emptied."""
        rng = rng_for(seed, self.name, split, index)
        rows, cols, digits = list(range(N)), list(range(N)), list(range(1, N + 1))
        for part in (rows, cols, digits):
            rng.shuffle(part)
        full = tuple(digits[(rows[i // N] + cols[i % N]) % N] for i in CELLS)
        empty = set(rng.sample(list(CELLS), rng.randint(MIN_EMPTY, MAX_EMPTY)))
        givens = tuple(0 if i in empty else d for i, d in enumerate(full))
        puzzle = LatinPuzzle(givens)
        solution = next(completions(givens))
        record = {"inputs": {"initial": self.to_official(puzzle, givens)},
                  "outputs": {"final": self.to_official(puzzle, solution)}}
        return SourcePuzzle(puzzle, stable_key(self.name, givens), {"empty_cells": len(empty)}, record)
