"""Exact graph coloring search on bit masks: extending a partial coloring (DSATUR-ordered backtracking),
DSATUR greedy coloring, maximum clique, k-coloring and the chromatic number.

Glossary:
- *mask*: an ``int`` used as a bit set; ``masks[v]`` has bit ``u`` set for each neighbour ``u``.
- *domain*: the mask of colors an uncolored vertex may still take (bit ``c - 1`` for color ``c``).
- *saturation*: how many colors a vertex's colored neighbours already use (DSATUR picks the most
  saturated vertex, i.e. the one with the smallest domain).
- *fresh colors*: colors no vertex has yet. They are interchangeable, so the search tries only one.
- *peeling*: dropping an uncolored vertex whose domain is larger than its number of uncolored
  neighbours; whatever they get, a color stays free for it, so it is colored last.
"""
from __future__ import annotations

from operator import and_
from typing import Any, Iterator, Sequence

from ...common.verdict import Undecided
from .puzzle import GraphColoringPuzzle, _is_int, _masks_of, _normalise_adjacency


def _graph_masks(adjacency: Sequence[Sequence[int]] | GraphColoringPuzzle) -> tuple[int, ...]:
    if isinstance(adjacency, GraphColoringPuzzle):
        return adjacency.masks
    return _masks_of(_normalise_adjacency(adjacency))


def _bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of ``mask``, ascending."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _propagate(masks: Sequence[int], dom: list[int], free: int, used: int, queue: list[int]) -> tuple[int, int] | None:
    """Color the queued vertices (their domains are single colors) and everything that forces.

    Removes each colored vertex from ``free`` and its color from its free neighbours' domains
    (``dom`` is changed in place). Returns the new ``(free, used)``, or ``None`` when a domain empties.
    """
    while queue:
        x = queue.pop()
        xbit = 1 << x
        if not free & xbit:
            continue
        free ^= xbit
        color = dom[x]
        used |= color
        m = masks[x] & free
        while m:
            low = m & -m
            m ^= low
            u = low.bit_length() - 1
            d = dom[u]
            if d & color:
                d ^= color
                if not d:
                    return None
                dom[u] = d
                if not d & (d - 1):
                    queue.append(u)
    return free, used


def _peel(masks: Sequence[int], dom: Sequence[int], free: int, peeled: list[int]) -> int:
    """Drop free vertices with more colors left than free neighbours (appended to ``peeled``)."""
    changed = True
    while changed:
        changed = False
        m = free
        while m:
            low = m & -m
            m ^= low
            v = low.bit_length() - 1
            if dom[v].bit_count() > (masks[v] & free).bit_count():
                free ^= low
                peeled.append(v)
                changed = True
    return free


def _select(masks: Sequence[int], dom: Sequence[int], free: int) -> int:
    """DSATUR choice: the free vertex with the fewest colors left, then the most free neighbours."""
    best = -1
    best_size = 1 << 30
    best_degree = -1
    m = free
    while m:
        low = m & -m
        m ^= low
        v = low.bit_length() - 1
        size = dom[v].bit_count()
        if size < best_size:
            best, best_size, best_degree = v, size, (masks[v] & free).bit_count()
        elif size == best_size:
            degree = (masks[v] & free).bit_count()
            if degree > best_degree:
                best, best_degree = v, degree
    return best


def _branch_colors(domain: int, used: int) -> int:
    """The colors to try: those already in use, plus one fresh color (fresh colors are symmetric)."""
    fresh = domain & ~used
    return (domain & used) | (fresh & -fresh)


def _extend(masks: Sequence[int], k: int, colors: Sequence[int], witness: bool = True,
            budget: int | None = None) -> list[int] | None:
    """A proper coloring with colors ``1..k`` that keeps every nonzero entry of ``colors``, or ``None``.

    With ``witness=False`` a solvable case returns ``[]`` instead of building the coloring. With a
    ``budget``, more than that much work (each color tried costs ``1 + n // 16``) raises :class:`Undecided`.

    Exact: DSATUR-ordered backtracking with forward checking and unit propagation on domain
    masks, fresh-color symmetry breaking and peeling. ``None`` too when ``colors`` already has a
    conflict. The caller guarantees ``len(colors) == len(masks)`` and colors in ``0..k``.
    """
    n = len(masks)
    limit = budget
    full = (1 << k) - 1
    dom = [full] * n
    members = [0] * (k + 1)  # members[c]: the vertices colored c
    near = [0] * (k + 1)     # near[c]: the vertices next to one colored c
    free = 0
    used = 0
    for v, c in enumerate(colors):
        if c:
            if members[c] & masks[v]:
                return None
            members[c] |= 1 << v
            near[c] |= masks[v]
            dom[v] = 1 << (c - 1)
            used |= dom[v]
        else:
            free |= 1 << v
    for c in range(1, k + 1):
        m = near[c] & free
        bit = 1 << (c - 1)
        while m:
            low = m & -m
            m ^= low
            dom[low.bit_length() - 1] ^= bit
    queue: list[int] = []
    m = free
    while m:
        low = m & -m
        m ^= low
        v = low.bit_length() - 1
        d = dom[v]
        if not d:
            return None
        if not d & (d - 1):
            queue.append(v)
    start = _propagate(masks, dom, free, used, queue)
    if start is None:
        return None
    free, used = start
    peeled: list[int] = []
    free = _peel(masks, dom, free, peeled)
    if not free:
        return _finish(masks, k, dom, peeled) if witness else []
    # A frame: [domains, free vertices, used colors, branching vertex, colors left to try,
    # length of ``peeled`` after this node's own peeling (restored before each branch)]
    v = _select(masks, dom, free)
    stack: list[list[Any]] = [[dom, free, used, v, _branch_colors(dom[v], used), len(peeled)]]
    while stack:
        frame = stack[-1]
        dom, free, used, v, todo, mark = frame
        if not todo:
            stack.pop()
            continue
        color = todo & -todo
        frame[4] = todo ^ color
        if budget is not None:
            budget -= 1 + n // 16
            if budget < 0:
                raise Undecided(f"the graph coloring oracle gave up after its work budget ({limit} units; "
                                f"{n} vertices, k = {k}): too hard to decide exactly")
        del peeled[mark:]
        child = dom[:]
        child[v] = color
        after = _propagate(masks, child, free, used, [v])
        if after is None:
            continue
        child_free, child_used = after
        child_free = _peel(masks, child, child_free, peeled)
        if not child_free:
            return _finish(masks, k, child, peeled) if witness else []
        w = _select(masks, child, child_free)
        stack.append([child, child_free, child_used, w, _branch_colors(child[w], child_used), len(peeled)])
    return None


def _finish(masks: Sequence[int], k: int, dom: Sequence[int], peeled: Sequence[int]) -> list[int]:
    """The coloring at a solved leaf: assigned colors, then peeled vertices in reverse peel order."""
    peeled_set = set(peeled)
    colors = [0] * len(dom)
    members = [0] * (k + 1)
    for v, d in enumerate(dom):
        if v not in peeled_set:
            c = d.bit_length()
            colors[v] = c
            members[c] |= 1 << v
    for v in reversed(peeled):
        around = masks[v]
        for c in range(1, k + 1):
            if not members[c] & around:
                colors[v] = c
                members[c] |= 1 << v
                break
        else:  # cannot happen: peeling keeps a free color for every peeled vertex
            raise RuntimeError(f"peeled vertex {v} has no color left")
    return colors


def _conflicts(masks: Sequence[int], state: Sequence[int]) -> list[tuple[int, int]]:
    """Edges ``(u, v)``, ``u < v``, whose ends share a color, sorted: each vertex meets its color class
    (the vertices of its color, as a mask; uncolored vertices clash with nothing) among its neighbours."""
    if len(state) != len(masks):
        return _edge_conflicts(masks, state)
    members = dict.fromkeys(state, 0)
    for v, c in enumerate(state):
        members[c] |= 1 << v
    members[0] = 0
    if not any(map(and_, masks, map(members.__getitem__, state))):
        return []  # a proper coloring (the common case): one pass over the vertices, not the edges
    out = []
    for u, c in enumerate(state):
        clash = masks[u] & members[c] >> (u + 1) << (u + 1)  # later neighbours of u's color
        while clash:
            low = clash & -clash
            out.append((u, low.bit_length() - 1))
            clash ^= low
    return out


def _edge_conflicts(masks: Sequence[int], state: Sequence[int]) -> list[tuple[int, int]]:
    """:func:`_conflicts` edge by edge (a state whose length is not the graph's)."""
    out = []
    for u, cu in enumerate(state):
        if cu:
            for v in _bits(masks[u] >> (u + 1) << (u + 1)):
                if state[v] == cu:
                    out.append((u, v))
    return out


# ====================================================================== chromatic number
def dsatur_coloring(adjacency: Sequence[Sequence[int]] | GraphColoringPuzzle) -> tuple[int, ...]:
    """A proper coloring by Brélaz's greedy DSATUR (colors ``1..``); an upper bound on χ."""
    return _dsatur(_graph_masks(adjacency))


def _dsatur(masks: Sequence[int]) -> tuple[int, ...]:
    n = len(masks)
    colors = [0] * n
    seen = [0] * n  # colors among colored neighbours, as a mask
    free = (1 << n) - 1
    for _ in range(n):
        best, best_key = -1, (-1, -1)
        for v in _bits(free):
            key = (seen[v].bit_count(), (masks[v] & free).bit_count())
            if key > best_key:
                best, best_key = v, key
        low = ~seen[best] & (seen[best] + 1)  # lowest color not seen
        colors[best] = low.bit_length()
        free ^= 1 << best
        for u in _bits(masks[best] & free):
            seen[u] |= low
    return tuple(colors)


def max_clique(adjacency: Sequence[Sequence[int]] | GraphColoringPuzzle, node_limit: int = 200_000) -> tuple[int, ...]:
    """A clique of the graph, sorted: a maximum one unless the search needs over ``node_limit`` nodes.

    Branch and bound with a greedy-coloring bound (Tomita's MCQ). When the limit is hit the
    largest clique found so far is returned; any clique is a lower bound on the chromatic number.
    """
    return _max_clique(_graph_masks(adjacency), node_limit)


def _max_clique(masks: Sequence[int], node_limit: int) -> tuple[int, ...]:
    n = len(masks)
    if n == 0:
        return ()
    order = sorted(range(n), key=lambda v: -masks[v].bit_count())
    index = {v: i for i, v in enumerate(order)}
    local = [0] * n  # masks relabelled so that low indices have high degree
    for i, v in enumerate(order):
        for u in _bits(masks[v]):
            local[i] |= 1 << index[u]
    best: list[int] = _greedy_clique(local)
    nodes = 0

    def expand(clique: list[int], candidates: int) -> bool:
        nonlocal best, nodes
        nodes += 1
        if nodes > node_limit:
            return False
        vertices, bounds = _color_classes(local, candidates)
        for i in range(len(vertices) - 1, -1, -1):
            if len(clique) + bounds[i] <= len(best):
                return True
            v = vertices[i]
            clique.append(v)
            inner = candidates & local[v]
            if inner:
                if not expand(clique, inner):
                    return False
            elif len(clique) > len(best):
                best = clique[:]
            clique.pop()
            candidates &= ~(1 << v)
        return True

    expand([], (1 << n) - 1)
    return tuple(sorted(order[i] for i in best))


def _greedy_clique(masks: Sequence[int]) -> list[int]:
    """A maximal clique grown from each vertex in turn, keeping the largest (first 64 seeds)."""
    best: list[int] = []
    for seed in range(min(len(masks), 64)):
        clique = [seed]
        candidates = masks[seed]
        while candidates:
            v = max(_bits(candidates), key=lambda u: (masks[u] & candidates).bit_count())
            clique.append(v)
            candidates &= masks[v]
        if len(clique) > len(best):
            best = clique
    return best


def _color_classes(masks: Sequence[int], candidates: int) -> tuple[list[int], list[int]]:
    """Candidates in greedy color-class order, with the class number of each (a clique bound)."""
    vertices: list[int] = []
    bounds: list[int] = []
    uncolored = candidates
    color = 0
    while uncolored:
        color += 1
        pool = uncolored
        while pool:
            low = pool & -pool
            v = low.bit_length() - 1
            uncolored ^= low
            pool ^= low
            pool &= ~masks[v]
            vertices.append(v)
            bounds.append(color)
    return vertices, bounds


def k_coloring(adjacency: Sequence[Sequence[int]] | GraphColoringPuzzle, k: int,
               precolored: Sequence[int] | None = None) -> tuple[int, ...] | None:
    """A proper coloring with colors ``1..k`` extending ``precolored`` (0 = free), or ``None``. Exact."""
    if not _is_int(k) or k < 0:
        raise ValueError(f"k must be a non-negative integer, got {k!r}")
    masks = _graph_masks(adjacency)
    colors = list(precolored) if precolored is not None else [0] * len(masks)
    if len(colors) != len(masks) or any(not 0 <= c <= k for c in colors):
        raise ValueError(f"precolored must hold {len(masks)} colors in 0..{k}")
    found = _extend(masks, k, colors)
    return None if found is None else tuple(found)


def chromatic_number(adjacency: Sequence[Sequence[int]] | GraphColoringPuzzle) -> int:
    """The exact chromatic number χ of a graph.

    Lower bound: a large clique (:func:`max_clique`); upper bound: :func:`dsatur_coloring`. Each
    ``k`` from the lower bound up is then decided exactly, with the clique precolored ``1..ω``
    (every coloring can be renamed so), until one is colorable.
    """
    masks = _graph_masks(adjacency)
    n = len(masks)
    if n == 0:
        return 0
    if not any(masks):
        return 1
    clique = _max_clique(masks, 200_000)
    upper = max(_dsatur(masks))
    precolored = [0] * n
    for color, v in enumerate(clique, start=1):
        precolored[v] = color
    for k in range(len(clique), upper):
        if _extend(masks, k, precolored) is not None:
            return k
    return upper


__all__ = ["chromatic_number", "dsatur_coloring", "k_coloring", "max_clique"]
