"""The Game of 24 puzzle value (:class:`Game24Puzzle`: the numbers and the target) and its state type
(a tuple of expression ASTs, :mod:`.arith` nodes)."""
from __future__ import annotations

from dataclasses import dataclass

from .arith import MAX_DIGITS, Node

State = tuple[Node, ...]

MAX_NUMBERS = 6               # numbers per puzzle: the exact oracle needs up to ~3 s for 6, minutes for 7


@dataclass(frozen=True)
class Game24Puzzle:
    """The numbers to combine (a multiset, in official order) and the target."""

    numbers: tuple[int, ...]
    target: int = 24

    def __post_init__(self) -> None:
        numbers = tuple(self.numbers)
        if not numbers:
            raise ValueError("a Game of 24 puzzle needs at least one number")
        if len(numbers) > MAX_NUMBERS:
            raise ValueError(f"a Game of 24 puzzle has at most {MAX_NUMBERS} numbers, got {len(numbers)}")
        for n in numbers:
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n < 10 ** MAX_DIGITS:
                raise ValueError(f"puzzle numbers must be integers in 0..{10 ** MAX_DIGITS - 1}, got {n!r}")
        if isinstance(self.target, bool) or not isinstance(self.target, int):
            raise ValueError(f"the target must be an integer, got {self.target!r}")
        object.__setattr__(self, "numbers", numbers)


__all__ = ["MAX_NUMBERS", "Game24Puzzle", "State"]
