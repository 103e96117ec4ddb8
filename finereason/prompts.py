"""Zero-shot chain-of-thought prompts for state checking (SC), state transition (ST) and end-to-end.

Wording follows the paper's templates and the official release ("Do not solve using programming",
"Answer: (A)/(B)", "Next state: ..."); states are shown in the official Python-list formats, so the
verifiers read the answers back with the same parsers. ``PROMPT_VERSION`` is stored with every row:
change it whenever a template changes. Older versions stay reachable through the ``version``
argument (:data:`PROMPT_VERSIONS`), so rows built with them can be regenerated side by side.

Versions:
- ``v1``: the first templates.
- ``v2``: the grid-puzzle state-transition prompt also lists the clues the previous state had
  applied, so "return to the previous state" names one table and one set of applied clues.
"""
from __future__ import annotations

from typing import Any

from .engines import Engine, StateItem
from .scoring import TASKS  # noqa: F401  (re-exported)

PROMPT_VERSION = "v2"
PROMPT_VERSIONS = ("v1", "v2")

_NO_CODE = "Think step by step. Do not solve using programming."

_RULES = {
    "sudoku": (
        "Sudoku is played on a 9x9 grid, written as a Python list of 9 rows in which 0 marks an empty cell. "
        "Fill the empty cells with digits 1-9 so that every row, every column and every 3x3 box contains each "
        "digit exactly once. Digits already in the grid cannot be changed."
    ),
    "graph_coloring": (
        "Graph coloring: give every vertex of the graph one of the colors 1..{k} so that no two adjacent "
        "vertices share a color. A coloring is written as a Python list whose i-th entry is the color of "
        "vertex i, with 0 for a vertex not colored yet.\nThe graph (vertex: neighbours):\n{graph}"
    ),
    "game_of_24": (
        "Game of 24: combine the numbers {numbers} with +, -, * and / (each number used exactly once) to "
        "reach exactly 24. A state is a Python list of the expressions still to be combined; a move takes two "
        "of them, a and b, and replaces them by one expression \"(a op b)\" placed first in the list."
    ),
    "grid_puzzle": (
        "Logic grid puzzle. {question}\nCategories:\n{categories}\nClues:\n{clues}\n"
        "A state is the answer table, written as a Python list of rows: the first row names the categories, "
        "each other row starts with a value of the first category, and \"\" marks an empty cell. No value is "
        "used more than once in a category."
    ),
}

_MOVE = {
    "sudoku": "fill exactly one empty cell with a digit",
    "graph_coloring": "color exactly one uncolored vertex",
    "game_of_24": "combine exactly two expressions with one operation",
    "grid_puzzle": "apply exactly one clue that has not been applied yet, filling in the values it names",
}


def rules(engine: Engine, puzzle: Any) -> str:
    """The puzzle's rules and fixed data (graph, numbers, clues)."""
    name = engine.name
    if name == "graph_coloring":
        graph = "\n".join(f"{v}: {', '.join(map(str, nbrs)) or '-'}" for v, nbrs in enumerate(puzzle.adjacency))
        return _RULES[name].format(k=puzzle.k, graph=graph)
    if name == "game_of_24":
        return _RULES[name].format(numbers=", ".join(map(str, puzzle.numbers)))
    if name == "grid_puzzle":
        clues = "\n".join(f"{c.id}. {c.text}" for c in puzzle.clues)
        return _RULES[name].format(question=puzzle.question.strip(), categories=puzzle.categories.strip(), clues=clues)
    return _RULES[name]


def _applied(engine: Engine, state: Any, label: str = "Clues applied so far") -> str:
    if engine.name != "grid_puzzle":
        return ""
    applied = ", ".join(state.applied) or "none"
    return f"\n{label}: {applied}"


def _check_version(version: str) -> None:
    if version not in PROMPT_VERSIONS:
        raise ValueError(f"unknown prompt version {version!r}; known: {', '.join(PROMPT_VERSIONS)}")


def state_checking_prompt(engine: Engine, item: StateItem) -> str:
    """Ask whether the current state can still reach a solution: (A) solvable, (B) unsolvable."""
    colorable = engine.name == "graph_coloring"
    yes, no = ("Colorable", "Uncolorable") if colorable else ("Solvable", "Unsolvable")
    return (
        f"{rules(engine, item.puzzle)}\n\n"
        f"Current state:\n{engine.render(item.puzzle, item.current)}{_applied(engine, item.current)}\n\n"
        f"Question: can the current state still be completed to a valid solution by continuing from it, "
        f"without changing what is already filled in? {_NO_CODE}\n"
        f"(A) {yes}\n(B) {no}\n"
        f"End your response with \"Answer: (A)\" or \"Answer: (B)\"."
    )


def state_transition_prompt(engine: Engine, item: StateItem, version: str = PROMPT_VERSION) -> str:
    """Ask for exactly one move: forward to a solvable unvisited child, or back to the parent."""
    _check_version(version)
    puzzle = item.puzzle
    previous = engine.render(puzzle, item.parent) if item.parent is not None else "(none: the current state is the initial state)"
    if item.parent is not None and version != "v1":
        previous += _applied(engine, item.parent, "Clues applied in the previous state")
    explored = (
        f"\nAlready explored from the current state, and found to lead to a dead end:\n{engine.render(puzzle, item.unsolvable_child)}"
        if item.unsolvable_child is not None else ""
    )
    return (
        f"{rules(engine, puzzle)}\n\n"
        f"Previous state:\n{previous}\n\n"
        f"Current state:\n{engine.render(puzzle, item.current)}{_applied(engine, item.current)}\n{explored}\n\n"
        f"Make exactly one move. If the current state can still be completed to a solution, {_MOVE[engine.name]} "
        f"so that the new state can still be completed (do not repeat an explored state). If it cannot be "
        f"completed, backtrack: return to the previous state. {_NO_CODE}\n"
        f"End your response with \"Next state: \" followed by the new state, written in the same format as above."
    )


def end_to_end_prompt(engine: Engine, puzzle: Any, initial: Any) -> str:
    """Ask for a full solution."""
    if engine.name == "game_of_24":
        ask = "End your response with \"Answer: \" followed by one expression that uses every number once and equals 24."
        start = ""
    else:
        ask = "End your response with \"Answer: \" followed by the complete solution, written in the same format as the initial state."
        start = f"Initial state:\n{engine.render(puzzle, initial)}\n\n"
    return f"{rules(engine, puzzle)}\n\n{start}Solve the puzzle. {_NO_CODE}\n{ask}"


def messages(prompt: str) -> list[dict[str, str]]:
    """The conversational form of a prompt (TRL / chat templates)."""
    return [{"role": "user", "content": prompt}]
