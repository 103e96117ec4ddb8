"""The one process-steps rule, in every domain: only the committed attempt's steps are read.

Each case writes a first attempt whose second step breaks a rule (the issue's ``10 + 1 = 12``), scraps it
("Wait, scrap that."), then writes a correct step list and a correct final answer. The verdict is
``correct`` and the process shows the correct attempt's steps only (counted by the test's own
construction), with no invalid step: the scrapped step is withdrawn by the reader's retraction signal.
"""
from __future__ import annotations

import pytest

from finereason.core.engine import get_engine
from finereason.domains.game_of_24.puzzle import Game24Puzzle
from finereason.verification.process import committed_attempt, process_score
from finereason.verification.verifiers import verify_end_to_end

SCRAP = "Wait, scrap that."


def _case(domain: str) -> tuple[object, str, str, int]:
    """(puzzle, scrapped attempt, committed attempt with its answer, steps of the committed attempt)."""
    eng = get_engine(domain)
    if domain == "game_of_24":
        pz = Game24Puzzle((4, 6, 8, 8), 24)
        return pz, "4 * 6 = 24\n10 + 1 = 12", "4 * 6 = 24\n8 / 8 = 1\n24 * 1 = 24\nAnswer: (4 * 6) * (8 / 8)", 3
    pz = eng.source("test", 1, 0, {}).puzzle
    sol = eng.solve(pz)
    if domain == "sudoku":
        init = eng.initial(pz)
        empty = [i for i in range(81) if not init[i]]
        fills = [f"r{i // 9 + 1}c{i % 9 + 1} = {sol[i]}" for i in empty]
        i = empty[1]
        clash = next(init[j] for j in range(i // 9 * 9, i // 9 * 9 + 9) if init[j])  # a digit the row holds
        bad = f"{fills[0]}\nr{i // 9 + 1}c{i % 9 + 1} = {clash}"
        return pz, bad, "\n".join(fills) + f"\nAnswer: {eng.render(pz, sol)}", len(empty)
    if domain == "graph_coloring":
        lines = [f"vertex {v}: color {c}" for v, c in enumerate(sol)]
        u = pz.adjacency[0][0]
        bad = f"{lines[0]}\nvertex {u}: color {sol[0]}"  # a neighbour of vertex 0 takes its color
        return pz, bad, "\n".join(lines) + f"\nAnswer: {list(sol)}", pz.n
    if domain == "blocksworld":
        plan = eng.answer_text(pz, sol).splitlines()
        bad = f"Plan:\n{plan[0]}\n{plan[0]}"  # the first action twice: the hand is no longer empty
        return pz, bad, "Plan:\n" + "\n".join(plan), len(plan)
    raise AssertionError(domain)


@pytest.mark.parametrize("domain", ["game_of_24", "sudoku", "graph_coloring", "blocksworld"])
def test_a_scrapped_attempt_is_not_read(domain):
    eng = get_engine(domain)
    pz, scrapped, committed, steps = _case(domain)
    alone = process_score(eng, pz, scrapped)
    assert alone.first_invalid_step == 2  # the scrapped attempt, read alone, breaks a rule at step 2
    text = f"{scrapped}\n{SCRAP}\n{committed}"
    assert verify_end_to_end(eng, pz, text).correct
    v = process_score(eng, pz, text)
    assert (v.first_invalid_step, v.first_dead_end_step, v.steps_read) == (None, None, steps), v
    assert process_score(eng, pz, committed).to_dict() == v.to_dict()  # as if the scrapped attempt was never written


def test_the_committed_attempt_is_cut_by_the_readers_signals():
    text = "4 * 6 = 24\n10 + 1 = 12\nWait, scrap that.\n8 / 8 = 1\nAnswer: (4 * 6) * (8 / 8)"
    assert committed_attempt("game_of_24", text).endswith("8 / 8 = 1\nAnswer: (4 * 6) * (8 / 8)")
    assert "10 + 1" not in committed_attempt("game_of_24", text)
    plain = "4 * 6 = 24\n8 / 8 = 1\n24 * 1 = 24"  # no signal, no answer: every written step
    assert committed_attempt("game_of_24", plain) == plain
    g24 = Game24Puzzle((4, 6, 8, 8), 24)
    assert process_score("game_of_24", g24, plain).steps_read == 3
    # a withdrawn answer withdraws its steps: nothing commits, the text after the last signal shows none
    withdrawn = plain + "\nAnswer: (4 * 6) * (8 / 8)\nHmm, I am not sure about this."
    assert process_score("game_of_24", g24, withdrawn).steps_read == 0
    # signals are found in the reader's normalised text and the cut is made in the original: a ligature
    # (one character that normalises to two) and a full-width letter before the cut keep it in place
    for head in ("\ufb01 \ufb01 ", "\uff37ait, no. "):
        text = f"{head}4 * 6 = 24\n10 + 1 = 12\nWait, scrap that.\n8 / 8 = 1\nAnswer: (4 * 6) * (8 / 8)"
        assert committed_attempt("game_of_24", text) == ", scrap that.\n8 / 8 = 1\nAnswer: (4 * 6) * (8 / 8)"


def test_the_last_of_many_signals_starts_the_attempt():
    text = "wait, hmm. 10 + 1 = 12 " * 5_000 + "\n4 * 6 = 24\n8 / 8 = 1\n24 * 1 = 24\nAnswer: (4 * 6) * (8 / 8)"
    attempt = committed_attempt("game_of_24", text)
    assert attempt == ". 10 + 1 = 12 \n4 * 6 = 24\n8 / 8 = 1\n24 * 1 = 24\nAnswer: (4 * 6) * (8 / 8)"
    v = process_score("game_of_24", Game24Puzzle((4, 6, 8, 8), 24), text)
    assert (v.first_invalid_step, v.steps_read) == (1, 4)  # the one false line after the last signal is its step 1
