"""Graph coloring: color every vertex with one of the colors 1..k so that no edge joins two equal colors.

Glossary:
- *vertex*: a 0-based index ``v``; ``adjacency[v]`` is the sorted tuple of its neighbours.
- *state*: a tuple of ``n`` colors, one per vertex; ``0`` means uncolored, colors are ``1..k``.
- *conflict*: an edge whose two ends share a color (a broken rule).
- *move*: coloring one uncolored vertex with a color none of its colored neighbours has; undoing a
  move uncolors one colored vertex. FineReason's official trees always color the lowest-index
  uncolored vertex (:meth:`GraphColoringEngine.children_lowest_uncolored`); :meth:`children` allows
  any uncolored vertex, since a model may color vertices in any order.
- *mask*: an ``int`` used as a bit set; ``puzzle.masks[v]`` has bit ``u`` set for each neighbour ``u``.
- *domain*: the mask of colors an uncolored vertex may still take (bit ``c - 1`` for color ``c``).
- *saturation*: how many colors a vertex's colored neighbours already use (DSATUR picks the most
  saturated vertex, i.e. the one with the smallest domain).
- *fresh colors*: colors no vertex has yet. They are interchangeable, so the search tries only one.
- *peeling*: dropping an uncolored vertex whose domain is larger than its number of uncolored
  neighbours; whatever they get, a color stays free for it, so it is colored last.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, Sequence

from ...common.verdict import ParseError, StateError, Undecided
from ...core.engine import Engine, StateItem, Step, StepKind, official_label
from ...common.vocabulary import MRV, PAPER

State = tuple[int, ...]
Adjacency = tuple[tuple[int, ...], ...]

MAX_VERTICES = 1000        # vertices per puzzle (DIMACS benchmarks used here reach 864)
MAX_COLORS = 1000          # colors k per puzzle (more colors than vertices are never needed)
ORACLE_WORK = 100_000      # work one oracle call may do before it answers undecided: each search node
                           # costs 1 + vertices // 16 (a few seconds at most, the same on every machine)


# ====================================================================== puzzle
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


# ====================================================================== exact search
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
                raise Undecided(f"the graph coloring oracle gave up after its work budget ({ORACLE_WORK} units; "
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
    """Edges ``(u, v)``, ``u < v``, whose ends share a color, sorted."""
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


# ====================================================================== engine
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
        blank = [v for v, c in enumerate(state) if not c]
        if len(blank) == 1:
            reasons.append(f"vertex {blank[0]} is uncolored")
        elif blank:
            reasons.append(f"vertices {', '.join(map(str, blank))} are uncolored")
        return reasons + self.violations(puzzle, state)


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
    for v, c in enumerate(value):
        if not _is_int(c):
            return f"vertex {v} has color {c!r}, which is not an integer"
        if not 0 <= c <= puzzle.k:
            return f"vertex {v} has color {c}, but only colors 1..{puzzle.k} exist (0 = uncolored)"
    return None



__all__ = [
    "GraphColoringEngine", "GraphColoringPuzzle", "State", "chromatic_number", "dsatur_coloring",
    "k_coloring", "max_clique",
]
