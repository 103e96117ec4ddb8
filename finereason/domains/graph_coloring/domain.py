"""The graph-coloring domain: the engine plus what prompts, builders, reports and trainers need."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ...core.difficulty import DifficultyConfig, knob
from ...core.engine import BrokenStep
from ...core.puzzle_sources import SourcePuzzle, rng_for, split_stream
from ...core.steps import NOT_A_LIST
from .engine import GraphColoringEngine
from .puzzle import GraphColoringPuzzle, State

# One written coloring: "vertex 3: color 2", "vertex 3 -> 2", "node 3 gets color 2", "v3 = 2",
# "color vertex 3 with color 2". A number followed by more candidates ("2, 3", "2 or 3") is a list of
# options (or neighbours), not a coloring.
_NUM = r"(?P<{p}>[0-9]{{1,6}})"
_COLOR_WORD = r"(?:colou?r\s*#?\s*)"
_COLORING = re.compile(
    r"(?<![A-Za-z0-9])(?:vertex|node|v)\s*#?\s*" + _NUM.format(p="av")
    + r"\s*(?:(?:=|:|->|→|←)\s*" + _COLOR_WORD + r"?|(?:gets|takes|receives|is\s+colou?red(?:\s+with)?|is\s+assigned"
    r"|is|colou?red(?:\s+with)?)\s+" + _COLOR_WORD + r"?)" + _NUM.format(p="ac") + NOT_A_LIST
    + r"|(?<![A-Za-z])colou?r\s+(?:vertex|node)\s*#?\s*" + _NUM.format(p="bv") + r"\s+(?:with\s+|as\s+|in\s+)?"
    + _COLOR_WORD + r"?" + _NUM.format(p="bc") + NOT_A_LIST,
    re.IGNORECASE,
)

PLANAR_SHARE = 0.3  # share of generated graphs that are planar (the rest Erdos-Renyi)


@dataclass(frozen=True)
class GraphColoringConfig(DifficultyConfig):
    """Graph-coloring knobs: the vertices of a generated connected graph, drawn per puzzle from the range
    (default 15..25), and its kind (default: the builder's mix of Erdos-Renyi and planar graphs)."""

    min_vertices: int | None = knob(3, 40, doc="fewest vertices")
    max_vertices: int | None = knob(3, 40, doc="most vertices")
    kind: str | None = knob(choices=("erdos_renyi", "planar"), doc="graph family")


class GraphColoringDomain(GraphColoringEngine):
    title = "Graph Coloring"
    position = 20
    move_text = "color exactly one uncolored vertex"
    choice_words = ("Colorable", "Uncolorable")
    difficulty_fields = ("vertices", "edges", "k")
    identity_fields = ("graph",)
    train_samples = 8

    def rules(self, puzzle: GraphColoringPuzzle) -> str:
        graph = "\n".join(f"{v}: {', '.join(map(str, nbrs)) or '-'}" for v, nbrs in enumerate(puzzle.adjacency))
        return (
            f"Graph coloring: give every vertex of the graph one of the colors 1..{puzzle.k} so that no two adjacent "
            "vertices share a color. A coloring is written as a Python list whose i-th entry is the color of "
            f"vertex i, with 0 for a vertex not colored yet.\nThe graph (vertex: neighbours):\n{graph}"
        )

    def read_steps(self, puzzle: GraphColoringPuzzle, text: str) -> list[Any]:
        """Written colorings ("vertex 3: color 2", "color vertex 3 with 2", "v3 = 2") and whole coloring
        lists, in the order written; a vertex the graph does not have is a broken step."""
        from ...core.steps import written_steps

        def coloring(m: re.Match) -> Any:
            g = m.groupdict()
            vertex, color = (g["av"], g["ac"]) if g["av"] is not None else (g["bv"], g["bc"])
            return _colorer(puzzle.n, int(vertex), int(color))

        return written_steps(self, puzzle, text, _COLORING, coloring)

    def mutate_solution(self, puzzle: GraphColoringPuzzle, solution: State, rng: Any, kind: str) -> State | None:
        """``broken``: one end of an edge takes the other end's color; ``ablated``: one vertex is left
        uncolored; ``random``: every vertex gets a random color."""
        if kind == "broken":
            edges = puzzle.edges()
            if not edges:
                return None
            u, v = rng.choice(edges)
            return solution[:u] + (solution[v],) + solution[u + 1:]
        if kind == "ablated" and solution:
            v = rng.randrange(len(solution))
            return solution[:v] + (0,) + solution[v + 1:]
        if kind == "random":
            return tuple(rng.randint(1, puzzle.k) for _ in solution)
        return None

    def difficulty(self, puzzle: GraphColoringPuzzle) -> dict[str, Any]:
        return {"vertices": len(puzzle.adjacency), "edges": sum(map(len, puzzle.adjacency)) // 2, "k": puzzle.k}

    def depth(self, puzzle: GraphColoringPuzzle, state: State) -> int:
        return sum(1 for c in state if c)

    def source(self, split: str, seed: int, index: int, options: dict[str, Any]) -> SourcePuzzle:
        from .source import generate

        stream = split_stream(seed, split)
        kind = "planar" if rng_for(stream, "graph-kind", index).random() < PLANAR_SHARE else "erdos_renyi"
        return generate(stream, index, kind=kind, preset="official")

    difficulty_config = GraphColoringConfig
    reasoning_gym_name = "graph_color"

    def from_reasoning_gym(self, entry: dict) -> tuple[GraphColoringPuzzle, State]:
        graph = entry["metadata"]["puzzle"]
        n = len(graph["vertices"])
        puzzle = GraphColoringPuzzle.from_edges(n, graph["edges"], graph["num_colors"])
        answer = entry["metadata"]["possible_answer"]
        return puzzle, tuple(int(answer[v]) for v in range(n))

    def reasoning_gym_answer(self, puzzle: GraphColoringPuzzle, state: State) -> str:
        import json

        return json.dumps({str(v): c for v, c in enumerate(state)})

    def configured_source(self, split: str, seed: int, index: int, config: GraphColoringConfig) -> SourcePuzzle:
        if config.is_default():
            return self.source(split, seed, index, {})
        from .source import generate

        stream = split_stream(seed, split)
        kind = config.kind or ("planar" if rng_for(stream, "graph-kind", index).random() < PLANAR_SHARE else "erdos_renyi")
        vertices = config.pick("vertices", rng_for(seed, self.name, split, index, "difficulty"))
        return generate(stream, index, kind=kind, preset="official", vertices=vertices)


def _colorer(n: int, vertex: int, color: int) -> Any:
    """The written coloring of ``vertex`` with ``color`` (0 uncolors it) as a move on the state before it."""
    def apply(state: State) -> State | BrokenStep:
        if vertex >= n:
            return BrokenStep((f"vertex {vertex} does not exist (the vertices are 0..{n - 1})",))
        return state[:vertex] + (color,) + state[vertex + 1:]
    return apply
