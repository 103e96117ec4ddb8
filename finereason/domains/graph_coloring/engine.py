"""Graph coloring as a FineReason domain: the engine (moves, steps, official formats, oracle). The puzzle
value lives in :mod:`.puzzle`, the exact search in :mod:`.solver`.

- *move*: coloring one uncolored vertex with a color none of its colored neighbours has; undoing a
  move uncolors one colored vertex. FineReason's official trees always color the lowest-index
  uncolored vertex (:meth:`GraphColoringEngine.children_lowest_uncolored`); :meth:`children` allows
  any uncolored vertex, since a model may color vertices in any order.
- *conflict*: an edge whose two ends share a color (a broken rule).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterator, Sequence

from ...common.verdict import ParseError, StateError
from ...common.vocabulary import END_TO_END, MRV, PAPER, STATE_TRANSITION
from ...core.engine import Engine, StateItem, Step, StepKind, official_label
from ...core.literals import MAX_PAYLOAD_CHARS, parse_literal
from ...reading.region import answer_region
from .puzzle import GraphColoringPuzzle, State, _is_int
from .solver import _conflicts, _extend

ORACLE_WORK = 100_000      # work one oracle call may do before it answers undecided: each search node
                           # costs 1 + vertices // 16 (a few seconds at most, the same on every machine)


class GraphColoringEngine(Engine[GraphColoringPuzzle, State]):
    """Graph coloring as a FineReason domain: states are partial colorings, moves color one vertex."""

    name = "graph_coloring"
    official_name = "graphcoloring"

    # ------------------------------------------------------------------ official formats
    def puzzle_from_official(self, record: dict) -> GraphColoringPuzzle:
        """The puzzle of an official record: ``inputs.graph`` (adjacency) and ``inputs.chromatic_number``."""
        inputs = record.get("inputs", record) if isinstance(record, dict) else None
        if not isinstance(inputs, dict) or "graph" not in inputs or "chromatic_number" not in inputs:
            raise ParseError("a graph coloring record needs inputs.graph and inputs.chromatic_number")
        return GraphColoringPuzzle(inputs["graph"], inputs["chromatic_number"])

    def item_from_official(self, record: dict) -> StateItem[GraphColoringPuzzle, State]:
        """A state item from one official ``graphcoloring_states`` line."""
        puzzle = self.puzzle_from_official(record)
        inputs = record.get("inputs", record)
        if "current" not in inputs:
            raise ParseError("a graph coloring state record needs inputs.current")
        solvable = official_label(record)
        return self.record_item(puzzle, self.parse_state(puzzle, inputs["current"]), inputs, solvable)

    def to_official(self, puzzle: GraphColoringPuzzle, state: State) -> list[int]:
        """The official format: a list of ``n`` colors, ``0`` for uncolored."""
        return list(state)

    def parse_state(self, puzzle: GraphColoringPuzzle, value: Any) -> State:
        """A coloring from a list of ``n`` integers in ``0..k``. Raises :class:`StateError`."""
        if isinstance(value, (str, bytes, dict)) or not isinstance(value, Sequence):
            raise StateError(f"a coloring must be a list of {puzzle.n} integers, got {type(value).__name__}")
        problem = _shape_error(puzzle, value)
        if problem:
            raise StateError(problem)
        return tuple(map(int, value))

    def parse_state_text(self, puzzle: GraphColoringPuzzle, text: str, task: str = STATE_TRANSITION) -> State:
        """As every engine's; a list of single digits is read at C speed (:func:`digit_list`)."""
        digits = digit_list(payload := self.answer(answer_region(text), task))
        if digits is not None and len(digits) == puzzle.n and max(digits) <= puzzle.k:
            return digits  # what parse_state returns for it
        return self.parse_state(puzzle, parse_literal(payload) if digits is None else digits)

    def parse_solution_text(self, puzzle: GraphColoringPuzzle, text: str) -> State:
        """As every engine's, with :meth:`parse_state_text`'s fast read of the list."""
        return self.parse_state_text(puzzle, text, END_TO_END)

    # ------------------------------------------------------------------ rules and moves
    def violations(self, puzzle: GraphColoringPuzzle, state: State) -> list[str]:
        """One reason per edge whose ends share a color: ``vertices 4 and 9 share color 2``."""
        return [f"vertices {u} and {v} share color {state[u]}" for u, v in _conflicts(puzzle.masks, state)]

    def is_solvable(self, puzzle: GraphColoringPuzzle, state: State) -> bool:
        """Exact: can the partial coloring be completed with colors ``1..k``?

        Raises :class:`StateError` when ``state`` is not a coloring of ``puzzle`` (see :meth:`parse_state`)
        and :class:`Undecided` when the search exceeds :data:`ORACLE_WORK`.
        """
        return _extend(puzzle.masks, puzzle.k, _checked(puzzle, state), witness=False, budget=ORACLE_WORK) is not None

    def complete(self, puzzle: GraphColoringPuzzle, state: State) -> State | None:
        """A complete proper coloring that keeps every colored vertex of ``state``, or ``None``."""
        found = _extend(puzzle.masks, puzzle.k, _checked(puzzle, state))
        return None if found is None else tuple(found)

    def solve(self, puzzle: GraphColoringPuzzle, state: State | None = None) -> State | None:
        """A proper coloring of every vertex with colors ``1..k`` extending ``state``, or ``None``."""
        return self.complete(puzzle, (0,) * puzzle.n if state is None else state)

    def from_input(self, obj: Any) -> tuple[GraphColoringPuzzle, State]:
        """``{"graph": adjacency lists, "k": int, "coloring": [...]}`` or an official record."""
        if isinstance(obj, dict) and "inputs" in obj:
            return super().from_input(obj)
        if not isinstance(obj, dict) or not {"graph", "k"} <= set(obj):
            raise StateError('expected {"graph": adjacency lists, "k": colors, "coloring": [...]}')
        k = obj["k"]
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise StateError(f"k must be a positive integer, got {k!r}")
        puzzle = GraphColoringPuzzle(obj["graph"], k)
        coloring = obj.get("coloring")
        return puzzle, self.parse_state(puzzle, [0] * puzzle.n if coloring is None else coloring)

    def children(self, puzzle: GraphColoringPuzzle, state: State) -> Iterator[State]:
        """Every state with one more vertex colored without a conflict (vertex, then color, ascending)."""
        for v, c in enumerate(state):
            if not c:
                yield from self._colorings_of(puzzle, state, v)

    def children_lowest_uncolored(self, puzzle: GraphColoringPuzzle, state: State) -> Iterator[State]:
        """The children that color the lowest-index uncolored vertex: the official trees' moves."""
        for v, c in enumerate(state):
            if not c:
                yield from self._colorings_of(puzzle, state, v)
                return

    def initial(self, puzzle: GraphColoringPuzzle) -> State:
        return (0,) * puzzle.n

    def branch(self, puzzle: GraphColoringPuzzle, state: State, order: str = PAPER) -> Iterator[State]:
        """``paper``: colorings of the lowest uncolored vertex; ``mrv``: of the uncolored vertex
        seeing the most distinct colors (DSATUR; ties: more uncolored neighbours, then lowest index)."""
        if order == PAPER:
            return self.children_lowest_uncolored(puzzle, state)
        if order != MRV:
            return super().branch(puzzle, state, order)
        uncolored = [v for v, c in enumerate(state) if not c]
        if not uncolored:
            return iter(())

        def pressure(v: int) -> tuple[int, int, int]:
            seen = {state[u] for u in puzzle.adjacency[v] if state[u]}
            free = sum(1 for u in puzzle.adjacency[v] if not state[u])
            return (-len(seen), -free, v)

        return self._colorings_of(puzzle, state, min(uncolored, key=pressure))

    def item_to_official(self, item: StateItem, record: dict) -> dict:
        def coloring(state: State | None) -> list[int] | None:
            return None if state is None else list(state)

        return {
            "inputs": {
                "graph": [list(a) for a in item.puzzle.adjacency],
                "chromatic_number": item.puzzle.k,
                "grandparent": coloring(item.grandparent),
                "parent": coloring(item.parent),
                "current": coloring(item.current),
                "unsolvable_child": coloring(item.unsolvable_child),
            },
            "outputs": {"current_status": self.status(item.solvable)},
        }

    def _colorings_of(self, puzzle: GraphColoringPuzzle, state: State, v: int) -> Iterator[State]:
        taken = {state[u] for u in puzzle.adjacency[v]}
        for color in range(1, puzzle.k + 1):
            if color not in taken:
                yield state[:v] + (color,) + state[v + 1:]

    def undo_moves(self, puzzle: GraphColoringPuzzle, state: State) -> Iterator[State]:
        """Every state with one colored vertex uncolored (vertex ascending)."""
        for v, c in enumerate(state):
            if c:
                yield state[:v] + (0,) + state[v + 1:]

    def step(self, puzzle: GraphColoringPuzzle, current: State, proposed: State) -> Step:
        """Classify ``proposed`` as no change, one forward or backward move, several moves or invalid."""
        problem = _shape_error(puzzle, proposed)
        if problem:
            return Step(StepKind.INVALID, (problem,))
        changed = [v for v, (a, b) in enumerate(zip(current, proposed)) if a != b]
        if not changed:
            return Step(StepKind.NONE)
        if len(changed) > 1:
            listed = ", ".join(map(str, changed))
            return Step(StepKind.MULTIPLE, (f"{len(changed)} vertices changed: {listed}",))
        v = changed[0]
        before, after = current[v], proposed[v]
        if before and after:
            why = f"vertex {v} changes color {before} to {after}; a move colors one uncolored vertex"
            return Step(StepKind.INVALID, (why,))
        if before:
            return Step(StepKind.BACKWARD, (f"vertex {v} is uncolored again (it had color {before})",))
        clashes = [u for u in puzzle.adjacency[v] if current[u] == after]
        if clashes:
            return Step(StepKind.INVALID, tuple(
                f"vertices {min(u, v)} and {max(u, v)} share color {after}" for u in clashes))
        return Step(StepKind.FORWARD)

    def check_solution(self, puzzle: GraphColoringPuzzle, state: State) -> list[str]:
        """Why ``state`` is not a proper coloring of every vertex with colors ``1..k`` (empty if it is)."""
        problem = _shape_error(puzzle, state)
        if problem:
            return [problem]
        reasons = []
        blank = [v for v, c in enumerate(state) if not c] if 0 in state else []  # a full coloring: no look per vertex
        if len(blank) == 1:
            reasons.append(f"vertex {blank[0]} is uncolored")
        elif blank:
            reasons.append(f"vertices {', '.join(map(str, blank))} are uncolored")
        return reasons + self.violations(puzzle, state)


_SPACE = b" \t\n\r"  # the whitespace the literal reader's JSON fast path accepts between tokens
_SHAPE = bytes.maketrans(b"123456789", b"000000000")  # every digit becomes 0
_VALUES = bytes.maketrans(b"0123456789", bytes(range(10)))  # a digit becomes its value


@lru_cache(maxsize=64)
def _digits_shape(n: int) -> bytes:
    return b"[" + b",".join([b"0"] * n) + b"]"


def digit_list(payload: str) -> tuple[int, ...] | None:
    """The values of a non-empty list of single ASCII digits (``[1, 2, 0, ...]``), or ``None``.

    Exactly what ``parse_literal(payload)`` reads from such a list (as a tuple); any other text (too
    long, a trailing comma, quotes, longer numbers, nesting) is ``None``, for the general reader."""
    if len(payload) > MAX_PAYLOAD_CHARS or not payload.isascii():
        return None
    raw = payload.encode("ascii").translate(None, _SPACE)
    if len(raw) < 3 or raw.translate(_SHAPE) != _digits_shape(len(raw) // 2):
        return None
    return tuple(raw[1::2].translate(_VALUES))


def _checked(puzzle: GraphColoringPuzzle, state: Sequence[int]) -> Sequence[int]:
    """``state`` if it is a coloring of ``puzzle`` (fast path for plain ints), else :class:`StateError`."""
    if len(state) == puzzle.n and set(map(type, state)) <= {int} and (
            not state or (min(state) >= 0 and max(state) <= puzzle.k)):
        return state
    problem = _shape_error(puzzle, state)
    if problem:
        raise StateError(problem)
    return tuple(map(int, state))  # int subclasses


def _shape_error(puzzle: GraphColoringPuzzle, value: Sequence[Any]) -> str | None:
    """Why ``value`` is not a coloring of ``puzzle`` (length, integer type, color range), or ``None``."""
    if len(value) != puzzle.n:
        return f"coloring has {len(value)} entries, expected {puzzle.n} vertices"
    if set(map(type, value)) <= {int} and (not value or 0 <= min(value) and max(value) <= puzzle.k):
        return None  # plain ints in range (the common case, at C speed): the loop below finds nothing
    for v, c in enumerate(value):
        if not _is_int(c):
            return f"vertex {v} has color {c!r}, which is not an integer"
        if not 0 <= c <= puzzle.k:
            return f"vertex {v} has color {c}, but only colors 1..{puzzle.k} exist (0 = uncolored)"
    return None


__all__ = ["ORACLE_WORK", "GraphColoringEngine", "digit_list"]
