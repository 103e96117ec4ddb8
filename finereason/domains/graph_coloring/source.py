"""Graph coloring puzzle sources: seeded random graphs and a DIMACS reader, with exact chromatic numbers.

Glossary:
- *kind*: how a graph is drawn.
  - ``erdos_renyi``: G(n, p), each of the n(n-1)/2 pairs an edge with probability ``p = density``;
    drawn again (same random stream) until connected.
  - ``planar``: a random *stacked triangulation* (Apollonian network): start from a triangle, then
    put each new vertex inside a random triangular face and join it to the face's three corners.
    That graph is maximal planar (3n - 6 edges). A random spanning tree of it is kept, and every
    other edge is kept with probability ``density``, so the result is connected and truly planar
    (a subgraph of a planar graph), with at most 3n - 6 edges and chromatic number 2, 3 or 4.
    Vertex labels are shuffled so the outer triangle is not always 0, 1, 2.
- *preset*: default ranges for ``n`` and ``density`` when not given (see :data:`PRESETS`).
  ``"small"``: n in 8..20. ``"official"``: n in 15..25 and ER density 0.45..0.80, the ranges
  measured on the 51 official ``graphcoloring_questions`` graphs.
- *k*: the puzzle's number of colors, the **exact** chromatic number from
  :func:`finereason.domains.graph_coloring.solver.chromatic_number`. The official release instead stores
  a greedy coloring's color count, which is sometimes above the true minimum.
- *key*: :func:`stable_key` of the sorted edge list (same labelled graph, same key).
"""
from __future__ import annotations

import os
import random
from pathlib import Path

from ...core.puzzle_sources import SourcePuzzle, rng_for, stable_key
from .dimacs import read_dimacs
from .puzzle import GraphColoringPuzzle
from .solver import chromatic_number

PUZZLE = "graph_coloring"
KINDS = ("erdos_renyi", "planar")
# preset -> ((min n, max n), {kind: (min density, max density)})
PRESETS: dict[str, tuple[tuple[int, int], dict[str, tuple[float, float]]]] = {
    "small": ((8, 20), {"erdos_renyi": (0.3, 0.7), "planar": (0.5, 1.0)}),
    "official": ((15, 25), {"erdos_renyi": (0.45, 0.80), "planar": (0.5, 1.0)}),
}
MAX_TRIES = 1000          # G(n, p) draws before giving up on a connected graph

Edges = list[tuple[int, int]]


def generate(seed: int, index: int, *, vertices: int | None = None, kind: str = "erdos_renyi",
             density: float | None = None, preset: str = "small") -> SourcePuzzle:
    """The ``index``-th connected random graph of ``seed``, with k its exact chromatic number.

    ``vertices`` and ``density`` are drawn from the ``preset``'s ranges when ``None``. Raises
    :class:`ValueError` for an unknown ``kind``/``preset``, too few vertices, a density outside
    0..1, or an ER density so low that :data:`MAX_TRIES` draws give no connected graph.
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    if preset not in PRESETS:
        raise ValueError(f"preset must be one of {', '.join(PRESETS)}, not {preset!r}")
    low_n = 2 if kind == "erdos_renyi" else 3
    if vertices is not None and (isinstance(vertices, bool) or not isinstance(vertices, int) or vertices < low_n):
        raise ValueError(f"vertices must be an integer >= {low_n} for {kind}, got {vertices!r}")
    if density is not None and not (isinstance(density, (int, float)) and 0.0 <= density <= 1.0):
        raise ValueError(f"density must be a number in 0..1, got {density!r}")
    rng = rng_for(seed, PUZZLE, index)
    (n_lo, n_hi), densities = PRESETS[preset]
    n = rng.randint(n_lo, n_hi) if vertices is None else vertices
    d_lo, d_hi = densities[kind]
    p = rng.uniform(d_lo, d_hi) if density is None else float(density)
    edges = erdos_renyi(n, p, rng) if kind == "erdos_renyi" else planar(n, p, rng)
    return make_source(n, edges)


def erdos_renyi(n: int, p: float, rng: random.Random) -> Edges:
    """The sorted edges of a connected G(n, p), redrawn until connected (at most :data:`MAX_TRIES`)."""
    pairs = [(u, v) for u in range(n) for v in range(u + 1, n)]
    for _ in range(MAX_TRIES):
        edges = [e for e in pairs if rng.random() < p]
        if is_connected(n, edges):
            return edges
    raise ValueError(f"no connected G({n}, {p:.3f}) in {MAX_TRIES} draws; raise the density")


def planar(n: int, p: float, rng: random.Random) -> Edges:
    """The sorted edges of a random connected planar graph (see the module glossary)."""
    faces = [(0, 1, 2)]
    full = {(0, 1), (0, 2), (1, 2)}
    for v in range(3, n):
        a, b, c = faces.pop(rng.randrange(len(faces)))
        faces += [(a, b, v), (a, c, v), (b, c, v)]
        full |= {(a, v), (b, v), (c, v)}
    full_sorted = sorted(full)
    tree = _random_spanning_tree(n, full_sorted, rng)
    kept = [e for e in full_sorted if e in tree or rng.random() < p]
    label = list(range(n))
    rng.shuffle(label)
    return sorted(tuple(sorted((label[u], label[v]))) for u, v in kept)  # type: ignore[misc]


def _random_spanning_tree(n: int, edges: Edges, rng: random.Random) -> set[tuple[int, int]]:
    """A spanning tree by Kruskal's algorithm on a random edge order (the graph must be connected)."""
    parent = list(range(n))

    def root(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    tree: set[tuple[int, int]] = set()
    for u, v in rng.sample(edges, len(edges)):
        ru, rv = root(u), root(v)
        if ru != rv:
            parent[ru] = rv
            tree.add((u, v))
    return tree


def is_connected(n: int, edges: Edges) -> bool:
    """Whether the graph on ``0..n-1`` with ``edges`` is connected (n = 0 counts as connected)."""
    if n <= 1:
        return True
    rows: list[list[int]] = [[] for _ in range(n)]
    for u, v in edges:
        rows[u].append(v)
        rows[v].append(u)
    seen = {0}
    stack = [0]
    while stack:
        for w in rows[stack.pop()]:
            if w not in seen:
                seen.add(w)
                stack.append(w)
    return len(seen) == n


def make_source(n: int, edges: Edges, *, k: int | None = None) -> SourcePuzzle:
    """A :class:`SourcePuzzle` in the official ``graphcoloring_questions`` schema.

    ``k`` defaults to the exact chromatic number.
    """
    rows: list[list[int]] = [[] for _ in range(n)]
    for u, v in edges:
        rows[u].append(v)
        rows[v].append(u)
    adjacency = [sorted(r) for r in rows]
    if k is None:
        k = chromatic_number(adjacency)
    puzzle = GraphColoringPuzzle(tuple(tuple(r) for r in adjacency), k)
    sorted_edges = puzzle.edges()
    return SourcePuzzle(
        puzzle=puzzle,
        key=stable_key(sorted_edges),
        difficulty={"vertices": n, "edges": len(sorted_edges), "k": k},
        record={"inputs": {"graph": adjacency, "chromatic_number": k}},
    )


def read_dimacs_puzzle(path: str | os.PathLike[str], *, k: int | None = None) -> SourcePuzzle:
    """A puzzle from a DIMACS ``.col`` file, with k its exact chromatic number.

    Computing chi is exponential in the worst case: fine for small or easy instances
    (``myciel3``-``myciel5``, ``queen5_5``, ``huck``, ``jean``, ``anna``, ``david``, ``miles250``),
    hopeless for hard ones (``DSJC125.5``, ``le450_*``). Pass a known chromatic number as ``k`` to
    skip the computation (it is then trusted, not checked). The graph need not be connected.
    """
    adjacency = read_dimacs(Path(path))
    edges = [(u, v) for u, row in enumerate(adjacency) for v in row if u < v]
    return make_source(len(adjacency), edges, k=k)


__all__ = [
    "KINDS", "MAX_TRIES", "PRESETS", "erdos_renyi", "generate", "is_connected", "make_source", "planar",
    "read_dimacs_puzzle",
]
