"""The Sudoku domain: the engine plus what prompts, builders, reports and trainers need to know."""
from __future__ import annotations

from typing import Any

from ...sources import SourcePuzzle
from .engine import Grid, SudokuEngine, SudokuPuzzle


class SudokuDomain(SudokuEngine):
    title = "Sudoku"
    position = 10
    move_text = "fill exactly one empty cell with a digit"
    difficulty_fields = ("empty_cells",)
    plot_fields = ("empty_cells",)
    identity_fields = ("initial",)
    train_samples = 16

    def rules(self, puzzle: SudokuPuzzle) -> str:
        return (
            "Sudoku is played on a 9x9 grid, written as a Python list of 9 rows in which 0 marks an empty cell. "
            "Fill the empty cells with digits 1-9 so that every row, every column and every 3x3 box contains each "
            "digit exactly once. Digits already in the grid cannot be changed."
        )

    def difficulty(self, puzzle: SudokuPuzzle) -> dict[str, Any]:
        return {"empty_cells": sum(1 for v in puzzle.givens if not v)}

    def depth(self, puzzle: SudokuPuzzle, state: Grid) -> int:
        return sum(1 for g, v in zip(puzzle.givens, state) if v and not g)

    def source(self, split: str, seed: int, index: int, options: dict[str, Any]) -> SourcePuzzle:
        from .source import generate

        stream = seed * 4 + (1 if split == "test" else 2)
        return generate(stream, index, search_steps=0)  # targets past ~58 stop where greedy digging does
