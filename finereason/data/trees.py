"""Lazy puzzle trees: depth-first decomposition by minimal moves, every node labelled by the oracle.

Full trees explode (a graph-coloring tree can reach millions of nodes), so :func:`dfs` is a
generator with node and depth caps: callers take what they need and stop.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from ..common.vocabulary import PAPER
from ..core.engine import Engine
from ..core.oracle import oracle_solvable


@dataclass(frozen=True)
class Node:
    """A visited tree node: its state, depth, oracle label and parent node (``None`` at the root)."""

    state: Any
    depth: int
    solvable: bool
    parent: "Node | None" = None

    def path(self) -> list[Any]:
        """States from the root to this node."""
        out, node = [], self
        while node is not None:
            out.append(node.state)
            node = node.parent
        return out[::-1]


def dfs(
    engine: Engine,
    puzzle: Any,
    root: Any,
    *,
    order: str = PAPER,
    max_nodes: int = 10_000,
    max_depth: int | None = None,
    expand_unsolvable: bool = True,
) -> Iterator[Node]:
    """Visit the tree below ``root`` depth-first (pre-order), lazily.

    ``order`` picks the branching variable (see :meth:`Engine.branch`). Unsolvable nodes are
    expanded too unless ``expand_unsolvable`` is false, as the paper's trees hold every rule-valid
    state. Stops after ``max_nodes`` nodes; never goes below ``max_depth``.
    """
    if max_nodes < 1:
        return
    stack: list[tuple[Any, int, Node | None]] = [(root, 0, None)]
    visited = 0
    while stack:
        state, depth, parent = stack.pop()
        node = Node(state, depth, oracle_solvable(engine, puzzle, state), parent)
        yield node
        visited += 1
        if visited >= max_nodes:
            return
        if (max_depth is not None and depth >= max_depth) or (not node.solvable and not expand_unsolvable):
            continue
        children = list(engine.branch(puzzle, state, order))
        stack.extend((child, depth + 1, node) for child in reversed(children))
