"""Zero-shot chain-of-thought prompts for state checking (SC), state transition (ST) and end-to-end.

Wording follows the paper's templates and the official release ("Do not solve using programming",
"Answer: (A)/(B)", "Next state: ..."); states are shown in the official Python-list formats, so the
verifiers read the answers back with the same parsers. ``PROMPT_VERSION`` is stored with every row:
change it whenever a template changes. Older versions stay reachable through the ``version``
argument (:data:`PROMPT_VERSIONS`), so rows built with them can be regenerated side by side.

Versions (each prompt function takes ``version``; :func:`render_row_prompt` re-renders a stored row
at any version from its official ``inputs``/``outputs``). A new version: append it to
``PROMPT_VERSIONS``, make it ``PROMPT_VERSION``, branch on ``version`` where the text changes, note it
here and regenerate the lm-eval tasks (``python -m finereason.lm_eval_tasks.generate_configs``), which
gives the previous version its ``..._<version>`` tasks.

- ``v1``: the first templates.
- ``v2``: the grid-puzzle state-transition prompt also lists the clues the previous state had
  applied, so "return to the previous state" names one table and one set of applied clues
  (the domain's ``state_note`` of the parent, under "Previous state:"; domains without a state
  note render the same text in both versions). State-checking and end-to-end prompts are the same
  in both versions.

This module is also the one home of what every path sends a model besides the task prompts: the
verify request (:func:`verify_prompt`: the LLM-as-verifier tasks and the loop's self-verification),
the plain rendering of a dialog when no chat template is applied (:func:`plain_dialog`), the FOLIO
questions (:func:`folio_direct_prompt`, :func:`folio_cot_prompt`, :func:`folio_problem_text`) and the
generation lengths, one constant per purpose (:data:`TASK_MAX_GEN_TOKS`, :data:`TURN_MAX_GEN_TOKS`,
:data:`PAPER_MAX_GEN_TOKS`, :data:`ONE_WORD_MAX_GEN_TOKS`, :data:`SMOKE_MAX_GEN_TOKS`).
"""
from __future__ import annotations

from typing import Any, Mapping

from ..common.vocabulary import END_TO_END, STATE_CHECKING, STATE_TRANSITION, TASKS  # noqa: F401  (TASKS re-exported)
from .engine import Engine, StateItem, get_engine
from .rows import row_domain, row_item, row_puzzle

PROMPT_VERSION = "v2"
PROMPT_VERSIONS = ("v1", "v2")

_NO_CODE = "Think step by step. Do not solve using programming."

# ------------------------------------------------------------------ generation lengths (one per purpose)
#: Tokens for one answer to a FineReason lm-eval task (the puzzle tasks, the verify tasks, FOLIO with
#: chain of thought): a zero-shot chain of thought on the largest prompts (an 81-cell Sudoku, a grid
#: puzzle's clue table, a plan of a dozen actions) ends well within it, so an answer is not cut before
#: its final line. Reasoning models need more (``--gen_kwargs max_gen_toks=...`` at run time).
TASK_MAX_GEN_TOKS = 4096
#: Tokens per model turn in the multi-round workflows (``finereason loop`` answers and self-verdicts,
#: ``finereason arc`` actor turns; ``--max_gen_toks``): half a task answer, because the whole dialog is
#: sent again every round, and fifteen rounds of answers and feedback must still fit a model's context.
TURN_MAX_GEN_TOKS = 2048
#: Tokens per answer in the transfer comparison (``trainers/evaluate_checkpoint.py``: GSM8K, MATH and the
#: FineReason group at one length): the FineReason paper's length, so that its rows compare with the
#: paper's table. R1-style reasoning needs more (e.g. 8192).
PAPER_MAX_GEN_TOKS = 1024
#: Tokens for an answer asked as one word (``finereason_folio_direct``: True, False or Uncertain): room
#: for the word and a little politeness around it, and no room for a chain of thought the task did not ask for.
ONE_WORD_MAX_GEN_TOKS = 64
#: Tokens per answer in the suggested smoke run (``finereason eval`` prints ``--limit 2 --gen_kwargs
#: max_gen_toks=...``): enough to see responses read and scored end to end in seconds; its scores mean nothing.
SMOKE_MAX_GEN_TOKS = 64
_NOTE_CURRENT = "Clues applied so far"  # labels of the domain's state note (Engine.state_note)
_NOTE_PREVIOUS = "Clues applied in the previous state"


def rules(engine: Engine, puzzle: Any) -> str:
    """The puzzle's rules and fixed data (graph, numbers, clues): the domain's own text."""
    return engine.rules(puzzle)


def _check_version(version: str) -> None:
    if version not in PROMPT_VERSIONS:
        raise ValueError(f"unknown prompt version {version!r}; known: {', '.join(PROMPT_VERSIONS)}")


def state_checking_prompt(engine: Engine, item: StateItem, version: str = PROMPT_VERSION) -> str:
    """Ask whether the current state can still reach a solution: (A) solvable, (B) unsolvable."""
    _check_version(version)
    yes, no = engine.choice_words
    return (
        f"{rules(engine, item.puzzle)}\n\n"
        f"Current state:\n{engine.render(item.puzzle, item.current)}{engine.state_note(item.current, _NOTE_CURRENT)}\n\n"
        f"Question: {engine.checking_question} {_NO_CODE}\n"
        f"(A) {yes}\n(B) {no}\n"
        f"End your response with \"Answer: (A)\" or \"Answer: (B)\"."
    )


def state_transition_prompt(engine: Engine, item: StateItem, version: str = PROMPT_VERSION) -> str:
    """Ask for exactly one move: forward to a solvable unvisited child, or back to the parent."""
    _check_version(version)
    puzzle = item.puzzle
    previous = engine.render(puzzle, item.parent) if item.parent is not None else "(none: the current state is the initial state)"
    if item.parent is not None and version != "v1":
        previous += engine.state_note(item.parent, _NOTE_PREVIOUS)
    explored = (
        f"\nAlready explored from the current state, and found to lead to a dead end:\n{engine.render(puzzle, item.unsolvable_child)}"
        if item.unsolvable_child is not None else ""
    )
    return (
        f"{rules(engine, puzzle)}\n\n"
        f"Previous state:\n{previous}\n\n"
        f"Current state:\n{engine.render(puzzle, item.current)}{engine.state_note(item.current, _NOTE_CURRENT)}\n{explored}\n\n"
        f"Make exactly one move. If the current state can still be completed to a solution, {engine.move_text} "
        f"so that the new state can still be completed (do not repeat an explored state). If it cannot be "
        f"completed, backtrack: return to the previous state. {_NO_CODE}\n"
        f"End your response with \"Next state: \" followed by the new state, written in the same format as above."
    )


def end_to_end_prompt(engine: Engine, puzzle: Any, initial: Any, version: str = PROMPT_VERSION) -> str:
    """Ask for a full solution."""
    _check_version(version)
    start, ask = engine.end_to_end_request(puzzle, initial)
    return f"{rules(engine, puzzle)}\n\n{start}Solve the puzzle. {_NO_CODE}\n{ask}"


def render_row_prompt(row: Mapping[str, Any], version: str = PROMPT_VERSION) -> str:
    """The prompt of a dataset row at prompt ``version``, rebuilt from the row's ``puzzle``, ``task``
    and official ``inputs``/``outputs`` (never from its stored ``prompt``). At the version a row was
    built with, this is its stored ``prompt`` byte for byte."""
    _check_version(version)
    engine, task = get_engine(row_domain(row)), row["task"]
    if task == END_TO_END:
        puzzle = row_puzzle(row)
        return end_to_end_prompt(engine, puzzle, engine.initial(puzzle), version)
    if task == STATE_CHECKING:
        return state_checking_prompt(engine, row_item(row), version)
    if task == STATE_TRANSITION:
        return state_transition_prompt(engine, row_item(row), version)
    raise ValueError(f"unknown task {task!r}; known: {', '.join(TASKS)}")


def with_prompt_version(row: Mapping[str, Any], version: str) -> dict[str, Any]:
    """``row`` with ``prompt``, ``messages`` and ``prompt_version`` re-rendered at ``version``."""
    prompt = render_row_prompt(row, version)
    return {**row, "prompt": prompt, "messages": messages(prompt), "prompt_version": version}


def messages(prompt: str) -> list[dict[str, str]]:
    """The conversational form of a prompt (TRL / chat templates)."""
    return [{"role": "user", "content": prompt}]


# ------------------------------------------------------------------ dialogs without a chat template
_ROLES = {"user": "User", "assistant": "Assistant", "system": "System"}


def plain_dialog(turns: list[dict[str, str]]) -> str:
    """The text sent to a model for a dialog when no chat template is applied (``--apply_chat_template``
    decides it, in the lm-eval tasks and in ``loop``/``arc`` alike).

    A dialog of one user turn is its prompt as it is, exactly what an lm-eval task sends for the same
    row (``doc_to_text: "{{prompt}}"``), so a loop's first round and the end-to-end task ask the same
    text. Later turns follow it as ``Assistant: ...`` / ``User: ...`` paragraphs and the text ends with
    ``Assistant:`` for the model to answer; so each round's text begins with the previous round's.
    """
    if len(turns) == 1 and turns[0].get("role") == "user":
        return turns[0]["content"]
    parts = [turns[0]["content"]] if turns and turns[0].get("role") == "user" else []
    parts += [f"{_ROLES.get(t.get('role', 'user'), 'User')}: {t['content']}" for t in turns[len(parts):]]
    return "\n\n".join(parts) + "\n\nAssistant:"


# ------------------------------------------------------------------ the verify request
#: What a model asked to verify a proposed solution is told (LLM as verifier, Stechly et al. 2024): one
#: thing to end with, the verdict.
VERIFY_REQUEST = (
    "Here is a puzzle and a proposed solution. Is it correct? Check it against every rule of the puzzle. "
    'End your response with "Verdict: correct" or "Verdict: incorrect" and, if incorrect, name the first error.'
)


def verify_prompt(row: Mapping[str, Any], candidate: str) -> str:
    """The one verify request, for the LLM-as-verifier tasks and the loop's self-verification: the
    puzzle's rules, its initial state where the domain shows one, and the candidate (a model's response
    or a made solution). It never carries the task prompt's own answer instruction, so the verdict is
    the only thing asked for."""
    engine = get_engine(row_domain(row))
    puzzle = row_puzzle(row)
    shown, _ = engine.end_to_end_request(puzzle, engine.initial(puzzle))
    return f"{VERIFY_REQUEST}\n\nPuzzle:\n{engine.rules(puzzle)}\n\n{shown}Proposed solution:\n{candidate}"


# ------------------------------------------------------------------ FOLIO (the LLM-ARC loop and baselines)
def folio_problem_text(doc: Mapping[str, Any]) -> str:
    """The numbered premises and the conclusion of a normalised FOLIO record."""
    premises = "\n".join(f"{i}. {p}" for i, p in enumerate(doc["premises"], start=1))
    return f"Premises:\n{premises}\n\nConclusion: {doc['conclusion']}"


def folio_direct_prompt(doc: Mapping[str, Any]) -> str:
    """The direct question: one word, True, False or Uncertain (``finereason_folio_direct``)."""
    return ("Based only on the premises, is the conclusion True, False, or Uncertain?\n\n" + folio_problem_text(doc) +
            "\n\nReply with exactly one word: True, False, or Uncertain.\nAnswer:")


def folio_cot_prompt(doc: Mapping[str, Any]) -> str:
    """The chain-of-thought question, ending with an ``Answer:`` line (``finereason_folio_cot``)."""
    return ("Based only on the premises, is the conclusion True, False, or Uncertain? Reason step by step, "
            "then end with a line 'Answer: True', 'Answer: False' or 'Answer: Uncertain'.\n\n" + folio_problem_text(doc))
