"""Reader and writer for DIMACS ``.col`` graph files.

Glossary:
- *problem line*: ``p edge N M``, the vertex count ``N`` and the declared edge count ``M``.
- *edge line*: ``e u v`` with 1-based vertices; files often list each edge twice (``u v`` and
  ``v u``), so ``M`` is not a reliable edge count and duplicates are merged.
- *comment line*: ``c ...``, ignored, as are blank lines.
- *adjacency*: the result, ``adjacency[v]`` being the sorted tuple of 0-based neighbours of ``v``,
  the same shape as :class:`finereason.domains.graph_coloring.puzzle.GraphColoringPuzzle` expects.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, Sequence

Adjacency = tuple[tuple[int, ...], ...]

_FORMATS = ("edge", "edges", "col")
_SELF_LOOP_POLICIES = ("ignore", "error")


def read_dimacs(source: str | os.PathLike[str], *, self_loops: str = "ignore") -> Adjacency:
    """The adjacency of a DIMACS ``.col`` graph given as a path or as the file's text.

    A :class:`os.PathLike` is always a path. A ``str`` with a line break is the file's text; a
    one-line ``str`` is text when it starts with ``c``, ``p`` or ``e`` and no such file exists,
    else a path (:class:`FileNotFoundError` when it is missing).

    Duplicate edges and edges listed in both directions are merged. Self-loops (``e 95 95`` in
    ``homer.col``) are dropped by default, as the reference tables do; ``self_loops="error"``
    rejects them. Raises :class:`ValueError` naming the line of the first malformed line.
    """
    if self_loops not in _SELF_LOOP_POLICIES:
        raise ValueError(f"self_loops must be one of {', '.join(_SELF_LOOP_POLICIES)}, not {self_loops!r}")
    if isinstance(source, os.PathLike):
        text = Path(source).read_text(encoding="utf-8")
    elif isinstance(source, str):
        one_line = "\n" not in source
        looks_like_text = source.split()[:1] in (["c"], ["p"], ["e"])
        if one_line and (Path(source).is_file() or not looks_like_text):
            text = Path(source).read_text(encoding="utf-8")
        else:
            text = source
    else:
        raise TypeError(f"expected a path or the text of a .col file, got {type(source).__name__}")
    return parse_dimacs(text.splitlines(), self_loops=self_loops)


def parse_dimacs(lines: Iterable[str], *, self_loops: str = "ignore") -> Adjacency:
    """The adjacency described by the lines of a DIMACS ``.col`` file (see :func:`read_dimacs`)."""
    n: int | None = None
    neighbours: list[set[int]] = []
    for number, raw in enumerate(lines, start=1):
        parts = raw.split()
        if not parts or parts[0] == "c":
            continue
        kind = parts[0]
        if kind == "p":
            if n is not None:
                raise ValueError(f"line {number}: a second problem line {raw.strip()!r}")
            if len(parts) != 4 or parts[1] not in _FORMATS:
                raise ValueError(f"line {number}: expected 'p edge N M', got {raw.strip()!r}")
            n = _count(parts[2], number, "vertex count")
            _count(parts[3], number, "edge count")
            neighbours = [set() for _ in range(n)]
        elif kind == "e":
            if n is None:
                raise ValueError(f"line {number}: edge line before the 'p edge N M' line")
            if len(parts) != 3:
                raise ValueError(f"line {number}: expected 'e u v', got {raw.strip()!r}")
            u = _vertex(parts[1], n, number)
            v = _vertex(parts[2], n, number)
            if u == v:
                if self_loops == "error":
                    raise ValueError(f"line {number}: self-loop on vertex {u + 1}")
                continue
            neighbours[u].add(v)
            neighbours[v].add(u)
        else:
            raise ValueError(f"line {number}: unknown line type {kind!r} (expected c, p or e)")
    if n is None:
        raise ValueError("no 'p edge N M' problem line found")
    return tuple(tuple(sorted(s)) for s in neighbours)


def to_dimacs(adjacency: Sequence[Sequence[int]], comments: Iterable[str] = ()) -> str:
    """DIMACS ``.col`` text for an adjacency (each undirected edge written once, 1-based)."""
    edges = [(u, v) for u, row in enumerate(adjacency) for v in row if u < v]
    out = [f"c {line}" for line in comments]
    out.append(f"p edge {len(adjacency)} {len(edges)}")
    out.extend(f"e {u + 1} {v + 1}" for u, v in edges)
    return "\n".join(out) + "\n"


def _count(token: str, line: int, what: str) -> int:
    if not (token.isascii() and token.isdigit()):
        raise ValueError(f"line {line}: {what} {token!r} is not a non-negative integer")
    return int(token)


def _vertex(token: str, n: int, line: int) -> int:
    if not (token.isascii() and token.isdigit()):
        raise ValueError(f"line {line}: vertex {token!r} is not a positive integer")
    v = int(token)
    if not 1 <= v <= n:
        raise ValueError(f"line {line}: vertex {v} is outside 1..{n}")
    return v - 1


__all__ = ["Adjacency", "parse_dimacs", "read_dimacs", "to_dimacs"]
