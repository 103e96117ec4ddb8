"""Game of 24: combine four numbers with + - * / into 24, one operation at a time. This module holds the
engine (moves, steps, answers, official formats); the puzzle value lives in :mod:`.puzzle`, the exact
oracle in :mod:`.solver`.

Glossary:
- *puzzle*: :class:`Game24Puzzle`, the initial multiset of numbers (in official order) and the
  target (24).
- *state*: a tuple of expression ASTs (:mod:`finereason.domains.game_of_24.arith` nodes), the expressions still to be
  combined, e.g. ``((4 + 7) + 1), 2``. The official text of a state is the list of the
  expressions' official texts, ``["((4 + 7) + 1)", "2"]``.
- *value*: the exact :class:`~fractions.Fraction` an expression evaluates to.
- *minimal move* (forward): pick two expressions ``a`` and ``b`` and replace them by
  ``(a op b)``; the new expression goes first and the others keep their order, as in the
  official release. ``-`` and ``/`` are tried in both operand orders; division by zero is not a
  move.
- *undo move* (backward): split one compound expression back into its two operands, which take
  its place (left, then right). A state does not record where the operands stood before, and
  states are compared as multisets, so this placement is a convention only.
- *same node*: two states are the same node when they hold the same multiset of expressions up
  to swapping the operands of ``+`` and ``*`` (at any depth). Order of the list, whitespace and
  redundant parentheses never matter. Associativity is not applied: ``((1 + 2) + 3)`` and
  ``(1 + (2 + 3))`` record different moves.
- *step*: :meth:`Game24Engine.step` compares the current and proposed states as multisets of
  same-node expressions. With ``added`` the expressions only in the proposal and ``removed``
  those only in the current state: *forward* when ``added`` is one operation on exactly the
  ``removed`` two, *backward* when ``removed`` is one operation on exactly the ``added`` two,
  *multiple* when the same holds with more operations (done or undone at once), *none* when
  nothing changed, and *invalid* for anything else: numbers added, lost or reused, a division
  by zero, or expressions regrouped (e.g. ``(4 + 1)`` from ``(4 + 7), 1``).
- *oracle*: :meth:`Game24Engine.is_solvable`, an exhaustive search over the values with exact
  rational arithmetic (reduced integer pairs), memoised on the sorted tuple of values.
  Its cost grows factorially with the number of expressions: meant for 4 numbers; puzzles hold at
  most :data:`~.puzzle.MAX_NUMBERS` (6: an unsolvable one takes about 3 s, 7 would take minutes).
"""
from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction
from typing import Any, Iterable, Iterator

from ...common.verdict import ParseError, StateError
from ...common.vocabulary import END_TO_END, STATE_TRANSITION
from ...core.engine import Engine, StateItem, Step, StepKind, official_label
from ...reading import Reading, answer_region
from .answer import expression_items, expression_reading
from .arith import MAX_DIGITS, BinOp, DivisionByZero, Node, Num, canonical, count_ops, evaluate, leaves, parse, to_text
from .puzzle import Game24Puzzle, State
from .solver import _combinations, can_make

# four numbers in a recorded prompt ("Input: 1 4 6 8", "the numbers 2 3 5 12") or a short field ("1, 4, 6, 8")
_FOUR = r"(\d{1,6})[\s,]{1,4}(\d{1,6})[\s,]{1,4}(\d{1,6})[\s,]{1,4}(\d{1,6})\b"
_PROMPT_NUMBERS = re.compile(r"(?:input:|numbers)\s{0,8}" + _FOUR, re.I)
_FIELD_NUMBERS = re.compile(r"\A[\s\[(]{0,4}" + _FOUR)

MAX_EXPRESSIONS = 64          # a state listing more expressions is malformed
_SEARCH_BUDGET = 100_000      # node visits allowed when matching a proposed state to the current one
_MAX_SEARCH_DEPTH = 400       # recursion depth of that matching (far below Python's limit)


# ------------------------------------------------------------------ rule helpers
def _times(k: int) -> str:
    return {1: "once", 2: "twice"}.get(k, f"{k} times")


def _used(state: Iterable[Node]) -> Counter[int]:
    total: Counter[int] = Counter()
    for node in state:
        total.update(leaves(node))
    return total


def _number_reasons(used: Counter[int], have: Counter[int]) -> list[str]:
    """How the numbers ``used`` differ from the numbers the puzzle ``have``s, smallest first."""
    reasons = []
    for n in sorted(set(used) | set(have)):
        u, h = used[n], have[n]
        if u == h:
            continue
        if h == 0:
            extra = "" if u == 1 else f" {_times(u)}"
            reasons.append(f"uses {n}{extra}, which is not among the numbers")
        elif u == 0:
            reasons.append(f"does not use {n}")
        else:
            reasons.append(f"uses {n} {_times(u)}, but the numbers have it {_times(h)}")
    return reasons


def node_values(state: Iterable[Node]) -> list[Fraction | None]:
    """The exact value of each expression, ``None`` for one that divides by zero."""
    values: list[Fraction | None] = []
    for node in state:
        try:
            values.append(evaluate(node))
        except DivisionByZero:
            values.append(None)
    return values


def _zero_reasons(state: State) -> list[str]:
    return [f"expression {to_text(node)} divides by zero" for node, v in zip(state, node_values(state)) if v is None]


def format_value(v: Fraction) -> str:
    """``24`` or ``8/3``: an exact value as the reasons write it."""
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


class _TooComplex(Exception):
    pass


def _built_from(targets: list[Node], pool: Counter[Node]) -> bool:
    """Whether ``targets`` can be cut into exactly the expressions of ``pool`` (all used).

    Nodes are canonical; a target subtree is either taken whole from the pool or split at its
    operation. The number of operations this takes is fixed by the two multisets (the
    operations of ``targets`` minus those of ``pool``), so only existence is searched.
    """
    budget = [_SEARCH_BUDGET]
    pool = Counter(pool)

    def search(work: list[Node], depth: int) -> bool:
        budget[0] -= 1
        if budget[0] < 0 or depth > _MAX_SEARCH_DEPTH:
            raise _TooComplex
        if not work:
            return not +pool
        node, rest = work[-1], work[:-1]
        if pool[node] > 0:
            pool[node] -= 1
            ok = search(rest, depth + 1)
            pool[node] += 1
            if ok:
                return True
        if isinstance(node, BinOp):
            return search(rest + [node.left, node.right], depth + 1)
        return False

    return search(list(targets), 0)


# ------------------------------------------------------------------ the engine
class Game24Engine(Engine[Game24Puzzle, State]):
    """Game of 24 states, moves, oracle and official formats."""

    name = "game_of_24"
    official_name = "game24"
    recorded_dialogs = ("stechly-game24", "gpt-and-i back-prompting runs on Game of 24 (responses.json* files: "
                        "answers and the model's own verdicts)")

    def inputs_from_recorded(self, value: Any) -> dict | None:
        """An ``inputs`` record, a list of numbers, or text naming four numbers (``1 4 6 8``, a recorded
        prompt's ``Input: 1 4 6 8``)."""
        if isinstance(value, dict):
            return value
        if isinstance(value, list):
            return {"initial_state": value[:16]}
        if not isinstance(value, str):
            return None
        found = _PROMPT_NUMBERS.search(value[:5000]) or _FIELD_NUMBERS.match(value[:200])
        return {"initial_state": [int(g) for g in found.groups()]} if found else None

    # ---------------------------------------------------------------- official formats
    def puzzle_from_official(self, record: dict) -> Game24Puzzle:
        inputs = record.get("inputs", record) if isinstance(record, dict) else None
        raw = inputs.get("initial_state") if isinstance(inputs, dict) else None
        if not isinstance(raw, list) or not raw:
            raise ParseError("record has no inputs.initial_state list")
        numbers = []
        for value in raw:
            if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
                value = int(value.strip())
            if isinstance(value, bool) or not isinstance(value, int):
                raise ParseError(f"initial_state holds {value!r}, not a number")
            numbers.append(value)
        try:
            return Game24Puzzle(tuple(numbers))
        except ValueError as err:
            raise ParseError(str(err)) from None

    def item_from_official(self, record: dict) -> StateItem[Game24Puzzle, State]:
        puzzle = self.puzzle_from_official(record)
        inputs = record["inputs"]
        solvable = official_label(record)
        if inputs.get("current") is None:
            raise ParseError("record has no inputs.current")
        return self.record_item(puzzle, self.parse_state(puzzle, inputs["current"]), inputs, solvable)

    def from_input(self, obj: Any) -> tuple[Game24Puzzle, State]:
        """An official record, ``{"numbers": [...] or "1 2 4 7", "state": [...]}``, or a bare list of
        expression strings such as ``["(4 + 7)", "1", "2"]`` (its numbers are the puzzle)."""
        if isinstance(obj, dict) and "inputs" in obj:
            item = self.item_from_official(obj)
            return item.puzzle, item.current
        if isinstance(obj, dict):
            raw = obj.get("numbers")
            raw = raw.split() if isinstance(raw, str) else raw
            if not isinstance(raw, list):
                raise StateError("expected {'numbers': [...], 'state': [...]}")
            puzzle = self.puzzle_from_official({"initial_state": raw})
            given = obj.get("state")
            return puzzle, self.parse_state(puzzle, list(puzzle.numbers) if given is None else given)
        if not isinstance(obj, list) or not obj:
            raise StateError("expected a list of expression strings, e.g. [\"(4 + 7)\", \"1\", \"2\"]")
        nodes = []
        for position, text in enumerate(obj, start=1):
            try:
                nodes.append(parse(str(text)))
            except ParseError as err:
                raise StateError(f"expression {position} is not valid arithmetic: {err}") from None
        numbers = [n for node in nodes for n in sorted(leaves(node).elements())]
        puzzle = Game24Puzzle(tuple(numbers))
        return puzzle, self.parse_state(puzzle, obj)

    def solve(self, puzzle: Game24Puzzle, state: State | None = None) -> State | None:
        """A one-expression state reaching the target from ``state`` (default: the numbers), or ``None``."""
        state = self.parse_state(puzzle, list(puzzle.numbers)) if state is None else state
        if not self.is_solvable(puzzle, state):
            return None
        while len(state) > 1:
            state = next(c for c in self.children(puzzle, state) if self.is_solvable(puzzle, c))
        return state

    def initial(self, puzzle: Game24Puzzle) -> State:
        return tuple(Num(n) for n in puzzle.numbers)

    def item_to_official(self, item: StateItem, record: dict) -> dict:
        def texts(state: State | None) -> list[str] | None:
            return None if state is None else self.to_official(item.puzzle, state)

        return {
            "inputs": {
                "initial_state": [str(n) for n in item.puzzle.numbers],
                "grandparent": texts(item.grandparent),
                "parent": texts(item.parent),
                "current": texts(item.current),
                "unsolvable_child": texts(item.unsolvable_child),
            },
            "outputs": {"current_status": self.status(item.solvable)},
        }

    def to_official(self, puzzle: Game24Puzzle, state: State) -> list[str]:
        return [to_text(node) for node in state]

    def parse_state(self, puzzle: Game24Puzzle, value: Any) -> State:
        """A state from a list of expression strings (ints and AST nodes are accepted too)."""
        if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
            raise StateError(f"a Game of 24 state is a list of expressions, not {type(value).__name__}")
        if not value:
            raise StateError("the state is an empty list")
        if len(value) > MAX_EXPRESSIONS:
            raise StateError(f"the state lists more than {MAX_EXPRESSIONS} expressions")
        out: list[Node] = []
        for k, item in enumerate(value, 1):
            if isinstance(item, (Num, BinOp)):
                out.append(item)
            elif isinstance(item, bool) or not isinstance(item, (int, str)):
                raise StateError(f"expression {k} is a {type(item).__name__}, not an arithmetic expression")
            elif isinstance(item, int):
                if not 0 <= item < 10 ** MAX_DIGITS:
                    raise StateError(
                        f"expression {k} ({item}) is not a non-negative integer of at most {MAX_DIGITS} digits"
                    )
                out.append(Num(item))
            else:
                try:
                    out.append(parse(item))
                except ParseError as err:
                    raise StateError(f"expression {k} is not valid arithmetic: {err}") from None
        return tuple(out)

    def parse_state_text(self, puzzle: Game24Puzzle, text: str) -> State:
        """The list after the last "Next state:"; items may be quoted or bare, plain or LaTeX."""
        return self.parse_state(puzzle, expression_items(self.answer(answer_region(text), STATE_TRANSITION)))

    def parse_solution_text(self, puzzle: Game24Puzzle, text: str) -> State:
        """The answer expression as a one-expression state (see :func:`finereason.answers.arithmetic_answer`).

        A bracketed list right after the marker is read as a state instead.
        """
        answer = self.answer(answer_region(text), END_TO_END, puzzle.target)
        if isinstance(answer, str):
            return self.parse_state(puzzle, expression_items(answer))
        return (answer,)

    def read_answer(self, region: str, task: str, target: int = 24) -> Reading:
        """End to end: one whole expression (:func:`~.answer.expression_reading`); next state: a list."""
        if task == END_TO_END:
            return expression_reading(region, target)
        return super().read_answer(region, task)

    def answer(self, region: str, task: str, target: int = 24) -> Any:  # type: ignore[override]
        reading = self.read_answer(region, task, target)
        if reading.value is None:
            raise ParseError(reading.reason)
        return reading.value

    def answer_readable(self, region: str, task: str) -> bool:
        """One whole expression (end-to-end) or a list of expressions (next state)."""
        answer = self.answer(region, task)
        if task != END_TO_END:
            expression_items(answer)
        return True

    # ---------------------------------------------------------------- rules and moves
    def violations(self, puzzle: Game24Puzzle, state: State) -> list[str]:
        """Divisions by zero (in list order), then numbers used wrongly (smallest first)."""
        return _zero_reasons(state) + _number_reasons(_used(state), Counter(puzzle.numbers))

    def is_solvable(self, puzzle: Game24Puzzle, state: State) -> bool:
        if self.violations(puzzle, state):
            return False
        return can_make((evaluate(node) for node in state), puzzle.target)

    def children(self, puzzle: Game24Puzzle, state: State) -> Iterator[State]:
        """Every pair ``i < j`` with + - * / (both orders for - and /), new expression first."""
        values = node_values(state)
        seen: set[State] = set()
        for i in range(len(state)):
            for j in range(i + 1, len(state)):
                va, vb = values[i], values[j]
                if va is None or vb is None:
                    continue
                rest = state[:i] + state[i + 1:j] + state[j + 1:]
                for node, _ in _combinations(state[i], state[j], va, vb):
                    child = (node,) + rest
                    if child not in seen:
                        seen.add(child)
                        yield child

    def undo_moves(self, puzzle: Game24Puzzle, state: State) -> Iterator[State]:
        """Split one compound expression into its operands, which take its place."""
        seen: set[State] = set()
        for k, node in enumerate(state):
            if isinstance(node, BinOp):
                parent = state[:k] + (node.left, node.right) + state[k + 1:]
                if parent not in seen:
                    seen.add(parent)
                    yield parent

    def step(self, puzzle: Game24Puzzle, current: State, proposed: State) -> Step:
        """Compare the states as multisets of expressions, modulo commutativity of + and *."""
        used_now, used_next = _used(current), _used(proposed)
        if used_now != used_next:
            # Name the rule against the puzzle's numbers; fall back to the current state's
            # numbers when the current state itself is malformed.
            reference = Counter(puzzle.numbers)
            reasons = _number_reasons(used_next, reference if used_now == reference else used_now)
            return Step(StepKind.INVALID, tuple(reasons))
        zero = _zero_reasons(proposed)
        if zero:
            return Step(StepKind.INVALID, tuple(zero))
        now = Counter(canonical(node) for node in current)
        nxt = Counter(canonical(node) for node in proposed)
        removed, added = now - nxt, nxt - now
        if not removed and not added:
            return Step(StepKind.NONE, ("the state is unchanged",))
        ops_done = sum(count_ops(n) * k for n, k in added.items()) - sum(count_ops(n) * k for n, k in removed.items())
        try:
            if _built_from(list(added.elements()), removed):
                if ops_done == 1:
                    return Step(StepKind.FORWARD)
                return Step(StepKind.MULTIPLE, (f"{ops_done} operations applied at once; make exactly one",))
            if _built_from(list(removed.elements()), added):
                if ops_done == -1:
                    return Step(StepKind.BACKWARD)
                return Step(StepKind.MULTIPLE, (f"{-ops_done} operations undone at once; undo exactly one",))
        except _TooComplex:
            return Step(StepKind.INVALID, ("the proposed state is too complex to compare with the current one",))
        new = ", ".join(to_text(n) for n in added.elements())
        return Step(
            StepKind.INVALID,
            (f"{new} cannot be made by combining the current expressions, nor by splitting one of them",),
        )

    def check_solution(self, puzzle: Game24Puzzle, state: State) -> list[str]:
        """A solution is one expression using each number once and evaluating to the target."""
        reasons: list[str] = []
        if len(state) != 1:
            reasons.append(f"the answer has {len(state)} expressions; a solution is a single expression")
        reasons += self.violations(puzzle, state)
        if len(state) == 1:
            try:
                value = evaluate(state[0])
            except DivisionByZero:
                return reasons  # already reported by violations
            if value != puzzle.target:
                reasons.append(f"evaluates to {format_value(value)}, not {puzzle.target}")
        return reasons

    def same(self, a: State, b: State) -> bool:
        """Same multiset of expressions, up to swapping operands of + and * (see glossary)."""
        return Counter(canonical(n) for n in a) == Counter(canonical(n) for n in b)


__all__ = ["Game24Engine", "format_value", "node_values"]
