"""One feedback module for every domain, plans included (``finereason.verification.feedback``), and one
verify request (``finereason.core.prompts.verify_prompt``) for the loop's self-verification and the
LLM-as-verifier tasks.

Plan feedback is checked with the PDDL validator (``finereason.planning.check_plan`` on the puzzle's own
STRIPS task), not with the screening inside :func:`sound_feedback`.
"""
from __future__ import annotations

import random
import warnings

import pytest

from finereason.core.engine import get_engine
from finereason.core.prompts import VERIFY_REQUEST, verify_prompt
from finereason.domains.blocksworld.puzzle import BlocksPuzzle
from finereason.planning import check_plan
from finereason.reading.verdicts import verdict_reading
from finereason.verification.feedback import INCORRECT, SOUND_LEVELS, read_self_verdict, sound_feedback
from finereason.verification.verifiers import verify_end_to_end

BW = "blocksworld"


def hold_a() -> BlocksPuzzle:
    """Two blocks on the table, goal: hold a. One action, ``(pick-up a)``, is a whole valid plan."""
    init = frozenset({("handempty",), ("ontable", "a"), ("ontable", "b"), ("clear", "a"), ("clear", "b")})
    return BlocksPuzzle("blocksworld", ("a", "b"), init, (("holding", "a"),), 4)


def reads_as_valid_plan(puzzle: BlocksPuzzle, text: str) -> bool:
    return any(check_plan(puzzle.task, t).valid for t in (text, *text.splitlines()))


def test_a_reason_quoting_a_valid_plan_names_the_step_by_number():
    eng, pz = get_engine(BW), hold_a()
    verdict = verify_end_to_end(eng, pz, "Answer:\n(pick-up a)\n(pick-up a)")
    assert not verdict.correct and verdict.reasons[0].startswith("step 2 (pick-up a):")
    assert reads_as_valid_plan(pz, verdict.reasons[0])  # the raw reason would hand over the plan
    first = sound_feedback(eng, pz, verdict, "first_error")
    assert "- step 2: a is not clear" in first.splitlines()  # not the bare binary message
    every = sound_feedback(eng, pz, verdict, "all_errors")
    assert [line for line in every.splitlines() if line.startswith("- ")] == \
        [f"- step 2: {r.split(': ', 1)[1]}" for r in verdict.reasons]
    for text in (first, every):
        assert not reads_as_valid_plan(pz, text)
    assert sound_feedback(eng, pz, verdict, "binary").startswith(INCORRECT)
    with pytest.raises(ValueError, match="unknown feedback level"):
        sound_feedback(eng, pz, verdict, "self")


def test_plan_feedback_never_contains_a_valid_plan():
    """Mutated plans (an action dropped or repeated) of the engine's own puzzles, at every sound level."""
    eng, rng = get_engine(BW), random.Random(7)
    checked = 0
    for index in range(40):
        pz = eng.source("test", 3, index, {}).puzzle
        plan = eng.answer_text(pz, eng.solve(pz)).splitlines()
        for _ in range(3):
            mutated = list(plan)
            k = rng.randrange(len(mutated))
            if rng.random() < 0.5 and len(mutated) > 1:
                del mutated[k]
            else:
                mutated.insert(k, mutated[rng.randrange(len(mutated))])
            verdict = verify_end_to_end(eng, pz, "Answer:\n" + "\n".join(mutated))
            if verdict.correct:
                continue
            for level in SOUND_LEVELS:
                text = sound_feedback(eng, pz, verdict, level)
                assert not reads_as_valid_plan(pz, text), (index, level, text)
                checked += 1
    assert checked >= 300


def test_the_planning_feedback_copy_is_gone():
    import finereason.planning as planning

    for name in ("plan_feedback", "FEEDBACK_LEVELS"):
        with pytest.raises(AttributeError, match="finereason.verification.feedback"):
            getattr(planning, name)
    with pytest.raises(ImportError):
        __import__("finereason.planning.feedback")


# ------------------------------------------------------------------ the one verify request
@pytest.fixture(scope="module")
def rows(e2e_dataset) -> dict[str, dict]:
    """The first end-to-end row of each default domain (the shared small build)."""
    pytest.importorskip("pyarrow")
    from finereason.core.engine import default_names
    from finereason.data.folder import open_data_folder

    folder = open_data_folder(e2e_dataset)
    return {d: folder.read_table(f"{d}_end_to_end").to_pylist()[0] for d in default_names()}


def test_the_verify_request_asks_for_the_verdict_only(rows):
    for row in rows.values():
        assert "Answer:" in row["prompt"]  # the task prompt asks for an answer; the verify request must not
        prompt = verify_prompt(row, "Answer: [1, 2]")
        instructions = prompt.split("\n\nPuzzle:\n", 1)[0]
        assert instructions == VERIFY_REQUEST and instructions.count("End your response with") == 1
        body = prompt[len(instructions):]
        assert "End your response" not in body and "Verdict:" not in body and "Answer:" not in body.replace("Answer: [1, 2]", "")
        # the reply it asks for is read by the self-verdict reader
        for reply, accepted in (("All rules hold.\nVerdict: correct", True),
                                ("The first error: 3 + 3 is 6.\nVerdict: incorrect", False)):
            assert read_self_verdict(reply) is accepted and verdict_reading(reply).value is accepted


def test_the_verify_tasks_and_the_loop_send_the_same_request(rows):
    from finereason.verification import llm_verifier
    from finereason.verification.llm_verifier import verify_docs

    row = rows["game_of_24"]
    docs = verify_docs([row], seed=0)
    assert docs and all(d["prompt"] == verify_prompt(row, d["candidate"]) for d in docs)
    assert llm_verifier.verify_prompt is verify_prompt
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert llm_verifier.REQUEST == VERIFY_REQUEST
        from finereason.verification import feedback
        assert feedback.verify_prompt(row, "x") == verify_prompt(row, "x")
    assert sum(issubclass(w.category, DeprecationWarning) for w in caught) == 2
