"""An independent ASP encoding of the logic-grid domain: a second sound critic for the first.

The Python solver (:mod:`finereason.domains.grid_puzzle.solver`) searches with three-valued pruning; here
clingo searches over permutations. Only the official records' reading is shared (puzzle and table
parsing); the semantics of a full table and of every clue are re-implemented as ASP rules:

- ``at(J,K,R)``: value ``K`` of column ``J`` sits in row ``R``; the key column is fixed
  (key ``K`` in row ``K``), every other column is a bijection between its values and the rows.
- The current table's filled cells are constraints; a value filled twice makes the program
  unsatisfiable, as a duplicate makes a state unsolvable.
- Each clue's condition tree becomes rules over node ids: value nodes ``e(C,N,V)`` with
  ``V = n(Int)`` (numbers scaled to integers, so decimals are exact) or ``s(String)``; boolean nodes
  ``t(C,N)``; then ``:- not t(C,root)``. As in Python, arithmetic on a string yields ``False``
  (which behaves as the number 0), ``==`` between a number and a string is false, and ``<``
  between them never holds.

A state is solvable iff the program has an answer set; each answer set is one full solution.
"""
from __future__ import annotations

from decimal import Decimal
from typing import Any

from ...asp.query import quote
from .conditions import Arith, BoolOp, Cell, Compare, Const, Node, Not, walk
from .puzzle import GridPuzzle, GridState

_BOOLEAN = (Compare, BoolOp, Not)
_ASP_CMP = {"==": "=", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}


class GridEncodingError(ValueError):
    """A condition outside what the encoding supports (e.g. a comparison used as a number)."""


def _scale(puzzle: GridPuzzle) -> int:
    """Power of ten that makes every number of the puzzle an integer."""
    places = 0
    numbers = [v for values in (puzzle.keys, *puzzle.domains) for v in values]
    numbers += [n.value for clue in puzzle.clues for n in walk(clue.tree) if isinstance(n, Const)]
    for v in numbers:
        if isinstance(v, float):
            places = max(places, -Decimal(repr(v)).normalize().as_tuple().exponent)
    return 10 ** max(places, 0)


class _Encoder:
    def __init__(self, puzzle: GridPuzzle):
        self.puzzle = puzzle
        self.scale = _scale(puzzle)
        self.columns = (puzzle.keys, *puzzle.domains)
        self.index = {v: (j, k) for j, values in enumerate(self.columns) for k, v in enumerate(values)}
        self.lines: list[str] = []
        self.counter = 0

    def data(self, value: Any) -> str:
        if isinstance(value, bool):
            return f"n({int(value)})"
        if isinstance(value, (int, float)):
            scaled = Decimal(repr(value)) * self.scale
            if scaled != scaled.to_integral_value():
                raise GridEncodingError(f"number {value!r} is not exact at scale {self.scale}")
            return f"n({int(scaled)})"
        return f"s({quote(str(value))})"

    def node_id(self) -> int:
        self.counter += 1
        return self.counter

    def value(self, c: int, node: Node) -> int:
        """Rules for a value node; returns its id."""
        n = self.node_id()
        if isinstance(node, Const):
            self.lines.append(f"e({c},{n},{self.data(node.value)}).")
        elif isinstance(node, Cell):
            if node.key not in self.index:
                raise GridEncodingError(f"r({node.key!r}) names no value of the table")
            jx, kx = self.index[node.key]
            jc = self.puzzle.column_of(node.category)
            self.lines.append(f"e({c},{n},V) :- at({jx},{kx},R), at({jc},K,R), dv({jc},K,V).")
        elif isinstance(node, Arith):
            a, b = self.value(c, node.left), self.value(c, node.right)
            op = "+" if node.op == "+" else "-"
            self.lines.append(f"e({c},{n},n(X{op}Y)) :- e({c},{a},n(X)), e({c},{b},n(Y)).")
            self.lines.append(f"e({c},{n},n(0)) :- e({c},{a},s(_)).")  # Python: arithmetic on a name is False
            self.lines.append(f"e({c},{n},n(0)) :- e({c},{b},s(_)).")
        else:
            raise GridEncodingError(f"a {type(node).__name__} used as a value is not supported")
        return n

    def boolean(self, c: int, node: Node) -> int:
        """Rules for a boolean node; returns its id (``t(c,id)`` holds iff the node is true)."""
        if not isinstance(node, _BOOLEAN):
            raise GridEncodingError(f"a {type(node).__name__} used as a condition is not supported")
        n = self.node_id()
        if isinstance(node, Compare):
            a, b = self.value(c, node.left), self.value(c, node.right)
            op = _ASP_CMP[node.op]
            if node.op in ("==", "!="):
                self.lines.append(f"t({c},{n}) :- e({c},{a},A), e({c},{b},B), A {op} B.")
            else:  # ordered comparisons hold only between two numbers or two strings
                for kind in ("n", "s"):
                    self.lines.append(f"t({c},{n}) :- e({c},{a},{kind}(X)), e({c},{b},{kind}(Y)), X {op} Y.")
        elif isinstance(node, Not):
            self.lines.append(f"t({c},{n}) :- not t({c},{self.boolean(c, node.item)}).")
        elif node.op == "and":
            parts = [self.boolean(c, item) for item in node.items]
            self.lines.append(f"t({c},{n}) :- " + ", ".join(f"t({c},{p})" for p in parts) + ".")
        else:
            for item in node.items:
                self.lines.append(f"t({c},{n}) :- t({c},{self.boolean(c, item)}).")
        return n

    def program(self, state: GridState | None) -> str:
        rows = len(self.puzzle.keys)
        out = [f"row(0..{rows - 1}).", f"at(0,K,K) :- row(K)."]
        for j, values in enumerate(self.columns):
            for k, v in enumerate(values):
                out.append(f"dv({j},{k},{self.data(v)}).")
                if j:
                    out.append(f"val({j},{k}).")
        out += [
            "1 { at(J,K,R) : row(R) } 1 :- val(J,K).",
            ":- at(J,K1,R), at(J,K2,R), K1 < K2.",
        ]
        if state is not None:
            for r, cells in enumerate(state.cells):
                for j, v in enumerate(cells, start=1):
                    if v is not None:
                        if v not in self.puzzle.domains[j - 1]:
                            raise GridEncodingError(f"{v!r} is not a value of column {self.puzzle.header[j]!r}")
                        out.append(f":- not at({j},{self.puzzle.domains[j - 1].index(v)},{r}).")
        for c, clue in enumerate(self.puzzle.clues):
            self.lines = []
            root = self.boolean(c, clue.tree)
            out += [f"% clue {clue.id}: {' '.join(clue.text.split())[:200].replace('%', ' ')}", *self.lines,
                    f":- not t({c},{root})."]
        out.append("#show at/3.")
        return "\n".join(out) + "\n"


def encode(puzzle: GridPuzzle, state: GridState | None = None) -> str:
    """The ASP program whose answer sets are the solutions extending ``state`` (default: empty table)."""
    return _Encoder(puzzle).program(state)


def _table(puzzle: GridPuzzle, atoms: list[str]) -> GridState:
    cells = [[None] * len(puzzle.domains) for _ in puzzle.keys]
    for atom in atoms:
        j, k, r = (int(x) for x in atom[3:-1].split(","))
        if j:
            cells[r][j - 1] = puzzle.domains[j - 1][k]
    return GridState(tuple(tuple(row) for row in cells))


def asp_solutions(puzzle: GridPuzzle, state: GridState | None = None, limit: int = 2) -> list[GridState]:
    """Up to ``limit`` full solutions extending ``state``, found by clingo."""
    from ...asp.worker import solve_trusted

    models, _ = solve_trusted(encode(puzzle, state), max_models=limit)
    return [_table(puzzle, atoms) for atoms in models]


def asp_is_solvable(puzzle: GridPuzzle, state: GridState | None = None) -> bool:
    """Whether some full table extends ``state`` and satisfies every clue (clingo's verdict)."""
    return bool(asp_solutions(puzzle, state, limit=1))
