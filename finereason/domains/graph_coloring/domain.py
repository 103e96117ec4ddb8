"""The graph-coloring domain: the engine plus what prompts, builders, reports and trainers need."""
from __future__ import annotations

from typing import Any

from ...sources import SourcePuzzle, rng_for
from .engine import GraphColoringEngine, GraphColoringPuzzle, State

PLANAR_SHARE = 0.3  # share of generated graphs that are planar (the rest Erdos-Renyi)


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

    def difficulty(self, puzzle: GraphColoringPuzzle) -> dict[str, Any]:
        return {"vertices": len(puzzle.adjacency), "edges": sum(map(len, puzzle.adjacency)) // 2, "k": puzzle.k}

    def depth(self, puzzle: GraphColoringPuzzle, state: State) -> int:
        return sum(1 for c in state if c)

    def source(self, split: str, seed: int, index: int, options: dict[str, Any]) -> SourcePuzzle:
        from .source import generate

        stream = seed * 4 + (1 if split == "test" else 2)
        kind = "planar" if rng_for(stream, "graph-kind", index).random() < PLANAR_SHARE else "erdos_renyi"
        return generate(stream, index, kind=kind, preset="official")
