"""The graph coloring puzzle value: an undirected graph (0-based adjacency lists) and a number of colors.

A *state* is a tuple of ``n`` colors, one per vertex; ``0`` means uncolored, colors are ``1..k``.
``puzzle.masks[v]`` is an ``int`` bit set with bit ``u`` set for each neighbour ``u`` of ``v``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from ...common.verdict import StateError

State = tuple[int, ...]
Adjacency = tuple[tuple[int, ...], ...]

MAX_VERTICES = 1000        # vertices per puzzle (DIMACS benchmarks used here reach 864)
MAX_COLORS = 1000          # colors k per puzzle (more colors than vertices are never needed)


@dataclass(frozen=True)
class GraphColoringPuzzle:
    """An undirected graph (symmetric adjacency lists, 0-based) and the number of colors ``k``.

    The adjacency is normalised to sorted, duplicate-free tuples; asymmetric lists, self-loops,
    out-of-range neighbours and non-integers raise :class:`StateError`.
    """

    adjacency: Adjacency
    k: int
    masks: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not _is_int(self.k) or self.k < 1:
            raise StateError(f"the number of colors must be a positive integer, got {self.k!r}")
        if self.k > MAX_COLORS:
            raise StateError(f"at most {MAX_COLORS} colors are supported, got k = {self.k}")
        if isinstance(self.adjacency, Sequence) and len(self.adjacency) > MAX_VERTICES:
            raise StateError(f"at most {MAX_VERTICES} vertices are supported, got {len(self.adjacency)}")
        adjacency = _normalise_adjacency(self.adjacency)
        object.__setattr__(self, "adjacency", adjacency)
        object.__setattr__(self, "masks", _masks_of(adjacency))

    @classmethod
    def from_edges(cls, n: int, edges: Iterable[tuple[int, int]], k: int) -> "GraphColoringPuzzle":
        """The puzzle on vertices ``0..n-1`` with the given undirected edges."""
        rows: list[set[int]] = [set() for _ in range(n)]
        for u, v in edges:
            if not (0 <= u < n and 0 <= v < n):
                raise StateError(f"edge ({u}, {v}) leaves the vertices 0..{n - 1}")
            rows[u].add(v)
            rows[v].add(u)
        return cls(tuple(tuple(sorted(r)) for r in rows), k)

    @property
    def n(self) -> int:
        """The number of vertices."""
        return len(self.adjacency)

    def edges(self) -> list[tuple[int, int]]:
        """Each undirected edge once, as ``(u, v)`` with ``u < v``, sorted."""
        return [(u, v) for u, row in enumerate(self.adjacency) for v in row if u < v]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _normalise_adjacency(adjacency: Any) -> Adjacency:
    """Sorted, duplicate-free neighbour tuples, after checking range, self-loops and symmetry."""
    if isinstance(adjacency, (str, bytes)) or not isinstance(adjacency, Sequence):
        raise StateError(f"the graph must be a list of neighbour lists, got {type(adjacency).__name__}")
    n = len(adjacency)
    rows: list[tuple[int, ...]] = []
    for v, row in enumerate(adjacency):
        if isinstance(row, (str, bytes)) or not isinstance(row, Sequence):
            raise StateError(f"the neighbours of vertex {v} must be a list, got {type(row).__name__}")
        for u in row:
            if not _is_int(u):
                raise StateError(f"vertex {v} has a non-integer neighbour {u!r}")
            if not 0 <= u < n:
                raise StateError(f"vertex {v} has neighbour {u}, but the vertices are 0..{n - 1}")
            if u == v:
                raise StateError(f"vertex {v} lists itself as a neighbour (self-loop)")
        rows.append(tuple(sorted(set(row))))
    sets = [frozenset(r) for r in rows]
    for v, row in enumerate(rows):
        for u in row:
            if v not in sets[u]:
                raise StateError(f"vertex {v} lists {u} as a neighbour, but vertex {u} does not list {v}")
    return tuple(rows)


def _masks_of(adjacency: Sequence[Sequence[int]]) -> tuple[int, ...]:
    masks = []
    for row in adjacency:
        m = 0
        for u in row:
            m |= 1 << u
        masks.append(m)
    return tuple(masks)


__all__ = ["MAX_COLORS", "MAX_VERTICES", "Adjacency", "GraphColoringPuzzle", "State"]
