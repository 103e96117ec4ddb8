"""GRPO rewards on every shape TRL and chat models hand them: plain strings, conversational lists
(one message or several turns), a bare message dict, content given as a list of parts, and empty or
missing completions; and ``None`` on every row a reward does not judge.

Rows are official Sudoku states; the right answer is the stored parent of an unsolvable state (going
back is the only correct move there), the wrong one the state itself, both read from the file.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from conftest import read_jsonl, shared_path

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from finereason.integrations.training import rewards  # noqa: E402

COLUMNS = ("puzzle", "task", "label", "inputs", "outputs", "answer")


@pytest.fixture(scope="session")
def record() -> dict:
    records = read_jsonl(shared_path("finereason_official", "sudoku_states_sample.jsonl"))
    return next(r for r in records if r["outputs"]["current_status"] == "Unsolvable")


def row(record: dict, task: str) -> dict:
    return {"puzzle": "sudoku", "task": task, "label": record["outputs"]["current_status"], "answer": None,
            "inputs": json.dumps(record["inputs"]), "outputs": json.dumps(record["outputs"])}


MATH_ROW = {"puzzle": None, "task": "math", "label": None, "inputs": None, "outputs": None, "answer": "7"}


def columns(rows: list[dict]) -> dict:
    """Dataset columns as TRL passes them: one list per column."""
    return {c: [r.get(c) for r in rows] for c in COLUMNS}


def reward(name: str):
    (fn,) = rewards.get_rewards([name])
    return fn


def go_back(record: dict) -> str:
    return "The grid is stuck, so I undo the last fill.\nNext state: " + json.dumps(record["inputs"]["parent"])


def stay(record: dict) -> str:
    return "Next state: " + json.dumps(record["inputs"]["current"])


def shapes(text: str) -> dict[str, object]:
    """The same answer in every completion shape a reward may receive."""
    rows_text = text.split("Next state: ", 1)
    split_at = text.index("], [") + 3 if "], [" in text else len(text) // 2
    return {
        "string": text,
        "one message": [{"role": "assistant", "content": text}],
        "message dict": {"role": "assistant", "content": text},
        "content parts": [{"role": "assistant", "content": [{"type": "text", "text": text}]}],
        # a streamed answer: the state list arrives in two text parts, cut between two rows
        "split parts": [{"role": "assistant", "content": [{"type": "text", "text": text[:split_at]},
                                                           {"type": "text", "text": text[split_at:]}]}],
        "split parts in a dict": {"role": "assistant", "content": [{"type": "text", "text": text[:split_at]},
                                                                   {"type": "text", "text": text[split_at:]}]},
        "reasoning then answer": [{"role": "assistant", "content": rows_text[0] + "Let me write it out.\nNext state: " + rows_text[-1]}],
    }


def test_every_completion_shape_is_read_as_its_text(record):
    st = reward("state_transition")
    right, wrong = shapes(go_back(record)), shapes(stay(record))
    rows = [row(record, "state_transition")]
    for shape in right:
        assert st([right[shape]], **columns(rows)) == [1.0], shape
        assert st([wrong[shape]], **columns(rows)) == [0.0], shape


def test_multi_turn_completions_are_judged_on_the_final_assistant_message(record):
    st = reward("state_transition")
    rows = [row(record, "state_transition")]
    revised = [{"role": "assistant", "content": stay(record)}, {"role": "user", "content": "Is that state still solvable?"},
               {"role": "assistant", "content": go_back(record)}]
    regressed = [{"role": "assistant", "content": go_back(record)}, {"role": "user", "content": "Are you sure?"},
                 {"role": "assistant", "content": stay(record)}]
    # a tool (or user) turn is not the model's words, even when it ends the conversation
    echoed = [{"role": "assistant", "content": stay(record)}, {"role": "tool", "content": go_back(record)}]
    assert st([revised, regressed, echoed], **columns(rows * 3)) == [1.0, 0.0, 0.0]


@pytest.mark.parametrize("empty", ["", [], None, {"role": "assistant", "content": None},
                                   [{"role": "assistant", "content": ""}], [{"role": "assistant", "content": []}]],
                         ids=["empty-string", "empty-list", "None", "content-None", "empty-message", "no-parts"])
def test_empty_completions_score_zero_and_never_raise(record, empty):
    for name, task in (("state_transition", "state_transition"), ("state_checking", "state_checking"),
                       ("puzzle", "state_transition"), ("format", "state_checking")):
        assert reward(name)([empty], **columns([row(record, task)])) == [0.0], name


def test_rows_a_reward_does_not_judge_get_none(record):
    rows = [row(record, "state_checking"), row(record, "state_transition"), MATH_ROW]
    done = [[{"role": "assistant", "content": "Answer: (B)"}], go_back(record), "The answer is \\boxed{7}."]
    assert reward("state_checking")(done, **columns(rows)) == [1.0, None, None]
    assert reward("state_transition")(done, **columns(rows)) == [None, 1.0, None]
    assert reward("end_to_end")(done, **columns(rows)) == [None, None, None]
    assert reward("puzzle")(done, **columns(rows)) == [1.0, 1.0, None]
    # empty completions do not change which rows are judged
    assert reward("state_checking")(["", [], None], **columns(rows)) == [0.0, None, None]
    assert reward("puzzle")(["", [], None], **columns(rows)) == [0.0, 0.0, None]
