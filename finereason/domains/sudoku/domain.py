"""The Sudoku domain: the engine plus what prompts, builders, reports and trainers need to know."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ...core.difficulty import DifficultyConfig, knob
from ...core.puzzle_sources import SourcePuzzle, rng_for, split_stream
from ...core.steps import NOT_A_LIST
from .engine import Grid, SudokuEngine, SudokuPuzzle

# One written fill: "r1c3 = 5", "R1C3: 5", "(1, 3) -> 5", "row 1, column 3 is 5", "place 5 at r1c3",
# "put 5 in (1,3)". Rows and columns count from 1; a digit followed by more candidates ("5, 7",
# "5 or 7") is a list of options, not a fill.
_CELL = r"(?:r\s*(?P<{p}r>[1-9])\s*c\s*(?P<{p}c>[1-9])|\(\s*(?P<{p}pr>[1-9])\s*,\s*(?P<{p}pc>[1-9])\s*\)" \
        r"|row\s*(?P<{p}wr>[1-9])\s*,?\s*(?:and\s*)?col(?:umn)?\s*(?P<{p}wc>[1-9]))"
_FILL = re.compile(
    r"(?<![A-Za-z0-9])(?:" + _CELL.format(p="a") + r")\s*(?:=|:|->|→|←|is\b|gets\b|becomes\b|takes\b)\s*(?P<ad>[0-9])"
    + NOT_A_LIST + r"|(?<![A-Za-z])(?:place|put|write|fill(?:\s+in)?|enter)\s+(?:a\s+)?(?P<bd>[1-9])\s+(?:at|in|into)\s+"
    r"(?:cell\s+)?(?:" + _CELL.format(p="b") + ")",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class SudokuConfig(DifficultyConfig):
    """Sudoku knobs: the empty cells (blanks) of a generated grid, drawn per puzzle from the range
    (default 30..64). Digging stops where no cell can be emptied keeping one solution (~58 and up)."""

    min_empty_cells: int | None = knob(0, 64, doc="fewest empty cells")
    max_empty_cells: int | None = knob(0, 64, doc="most empty cells")


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

    def read_steps(self, puzzle: SudokuPuzzle, text: str) -> list[Any]:
        """Written fills ("r1c3 = 5", "(1, 3) -> 5", "place 5 at row 1, column 3") and whole grids, in
        the order written (rows and columns 1-9)."""
        from ...core.steps import written_steps

        def fill(m: re.Match) -> Any:
            g = m.groupdict()
            if g["ad"] is not None:
                row, col, digit = g["ar"] or g["apr"] or g["awr"], g["ac"] or g["apc"] or g["awc"], g["ad"]
            else:
                row, col, digit = g["br"] or g["bpr"] or g["bwr"], g["bc"] or g["bpc"] or g["bwc"], g["bd"]
            return _filler((int(row) - 1) * 9 + int(col) - 1, int(digit))

        return written_steps(self, puzzle, text, _FILL, fill)

    def mutate_solution(self, puzzle: SudokuPuzzle, solution: Grid, rng: Any, kind: str) -> Grid | None:
        """``broken``: one filled cell gets another digit; ``ablated``: one filled cell is left empty;
        ``random``: every non-given cell gets a random digit."""
        free = [i for i, g in enumerate(puzzle.givens) if not g]
        if not free:
            return None
        i = rng.choice(free)
        if kind == "broken":
            return solution[:i] + (rng.choice([d for d in range(1, 10) if d != solution[i]]),) + solution[i + 1:]
        if kind == "ablated":
            return solution[:i] + (0,) + solution[i + 1:]
        if kind == "random":
            return tuple(g or rng.randint(1, 9) for g in puzzle.givens)
        return None

    def difficulty(self, puzzle: SudokuPuzzle) -> dict[str, Any]:
        return {"empty_cells": sum(1 for v in puzzle.givens if not v)}

    def depth(self, puzzle: SudokuPuzzle, state: Grid) -> int:
        return sum(1 for g, v in zip(puzzle.givens, state) if v and not g)

    def source(self, split: str, seed: int, index: int, options: dict[str, Any]) -> SourcePuzzle:
        from .source import generate

        return generate(split_stream(seed, split), index, search_steps=0)  # targets past ~58 stop where greedy digging does

    difficulty_config = SudokuConfig
    reasoning_gym_name = "sudoku"

    def from_reasoning_gym(self, entry: dict) -> tuple[SudokuPuzzle, Grid]:
        from .engine import parse_grid

        meta = entry["metadata"]
        return SudokuPuzzle(parse_grid(meta["puzzle"])), parse_grid(meta["solution"])

    def reasoning_gym_answer(self, puzzle: SudokuPuzzle, state: Grid) -> str:
        return "\n".join(" ".join(map(str, row)) for row in self.to_official(puzzle, state))

    def configured_source(self, split: str, seed: int, index: int, config: SudokuConfig) -> SourcePuzzle:
        if config.is_default():
            return self.source(split, seed, index, {})
        from .source import MIN_TARGET, generate

        rng = rng_for(seed, self.name, split, index, "difficulty")
        low = MIN_TARGET if config.min_empty_cells is None else config.min_empty_cells
        high = max(low, 64 if config.max_empty_cells is None else config.max_empty_cells)
        return generate(split_stream(seed, split), index, empty_cells=rng.randint(low, high), search_steps=0)


def _filler(cell: int, digit: int) -> Any:
    """The written fill of ``cell`` with ``digit`` (0 clears it) as a move on the grid before it."""
    def apply(grid: Grid) -> Grid:
        return grid[:cell] + (digit,) + grid[cell + 1:]
    return apply
