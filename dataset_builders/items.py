"""Rows of the Hub datasets: one schema for every config, so configs can be mixed (e.g. for GRPO)."""
from __future__ import annotations

import json
from typing import Any

from finereason.common.verdict import solvable_label
from finereason.common.vocabulary import DIFFICULTY_FIELDS, END_TO_END, STATE_CHECKING
from finereason.core.engine import Engine, StateItem
from finereason.core.rows import DOMAIN, LEGACY_DOMAIN
from finereason.core.prompts import PROMPT_VERSION, end_to_end_prompt, messages, state_checking_prompt, state_transition_prompt

# ``puzzle`` is the old name of ``domain``, written (the same value) until the next major version
COLUMNS = ("id", DOMAIN, "task", "prompt", "messages", "label", *DIFFICULTY_FIELDS, "prompt_version", "inputs", "outputs",
           LEGACY_DOMAIN)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def puzzle_difficulty(engine: Engine, puzzle: Any) -> dict:
    """Difficulty fields read off the puzzle itself (used when a source gives none, e.g. official data)."""
    return engine.difficulty(puzzle)


def state_depth(engine: Engine, puzzle: Any, state: Any) -> int | None:
    """Moves from the initial state, read off a state (the official release stores no depth)."""
    return engine.depth(puzzle, state)


def difficulty_of(engine: Engine, puzzle: Any, base: dict, depth: int | None) -> dict:
    """Difficulty columns: the source's fields (else the puzzle's own) plus the state's depth."""
    known = {**puzzle_difficulty(engine, puzzle), **{k: v for k, v in base.items() if v is not None}}
    out = {name: known.get(name) for name in DIFFICULTY_FIELDS}
    out["depth"] = depth
    return out


def state_row(engine: Engine, task: str, item: StateItem, depth: int | None, record: dict, difficulty: dict) -> dict:
    """A state-checking or state-transition row in the official states schema."""
    prompt = state_checking_prompt(engine, item) if task == STATE_CHECKING else state_transition_prompt(engine, item)
    official = engine.item_to_official(item, record)
    return {
        "id": "",
        DOMAIN: engine.name,
        "task": task,
        "prompt": prompt,
        "messages": messages(prompt),
        "label": solvable_label(item.solvable),  # None for a record that states no current_status
        **difficulty_of(engine, item.puzzle, difficulty, depth),
        "prompt_version": PROMPT_VERSION,
        "inputs": _json(official["inputs"]),
        "outputs": _json(official["outputs"]),
        LEGACY_DOMAIN: engine.name,
    }


def end_to_end_row(engine: Engine, puzzle: Any, record: dict, difficulty: dict) -> dict:
    """An end-to-end row in the official questions schema (the solution kept in ``outputs``)."""
    prompt = end_to_end_prompt(engine, puzzle, engine.initial(puzzle))
    return {
        "id": "",
        DOMAIN: engine.name,
        "task": END_TO_END,
        "prompt": prompt,
        "messages": messages(prompt),
        "label": None,
        **difficulty_of(engine, puzzle, difficulty, 0),
        "prompt_version": PROMPT_VERSION,
        "inputs": _json(record.get("inputs", {})),
        "outputs": _json(record.get("outputs", {})),
        LEGACY_DOMAIN: engine.name,
    }
