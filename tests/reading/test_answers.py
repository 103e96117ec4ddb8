"""The answer reader's rules (finereason.answers), a property test on hedged answers, and hostile inputs.

The corpus test (test_answers_corpus.py) checks realistic responses one by one; this file checks each
rule in isolation, that no answer naming both options earns credit in any task, and that every reader
finishes on 20,000-character whitespace runs and degenerate repetitions (a hang guard, not a timing test:
the speed bars live in benchmarks/).
"""
from __future__ import annotations

import signal
from contextlib import contextmanager
from typing import Any, Callable, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from finereason.domains.game_of_24.answer import arithmetic_answer
from finereason.reading import final_region, next_state_payload, read_choice, solution_payload
from finereason.verification.verifiers import format_ok
from finereason.domains.game_of_24.arith import evaluate, parse, to_text
from finereason.core.engine import get_engine
from finereason.domains.game_of_24.puzzle import Game24Puzzle
from finereason.verification.scoring import score_row
from finereason.common.verdict import ParseError, StateError
from finereason.core.oracle import oracle_solvable
from finereason.verification.verifiers import verify_end_to_end, verify_state_checking, verify_state_transition_modes

OFFICIAL = {"sudoku": "sudoku", "graph_coloring": "graphcoloring", "game_of_24": "game24", "grid_puzzle": "gridpuzzle"}
HANG_GUARD_SECONDS = 60  # only catches a reader that never returns


# ------------------------------------------------------------------ rule 1: the final region
@pytest.mark.parametrize(
    "text, starts, region",
    [
        ("plain answer", False, "plain answer"),
        ("<think>x</think>y", False, "y"),
        ("<think>a</think>b</think>c", False, "c"),
        ("<think>still thinking", False, None),
        ("<THINK>caps</THINK>done", False, "done"),
        ("no tags but the prompt opened think", True, None),
        ("reasoning</think>final", True, "final"),
        ("<think>a</think>b<think>again", False, None),
        ("", False, ""),
        ("", True, None),
    ],
)
def test_final_region(text, starts, region):
    assert final_region(text, starts_in_think=starts) == region


# ------------------------------------------------------------------ rules 2-3: committed choices
@pytest.mark.parametrize(
    "text, choice",
    [
        ("The answer is (A) if a solution exists. Here none exists. \\boxed{B}", "B"),   # last explicit wins
        ("Answer: (A) ... Correction: (B)", "B"),                                        # self-correction
        ("Answer: (B)\nIn general (A) would mean solvable.", "B"),                       # explicit outranks bare
        ("My answer: a dead end was found in row 3.", None),                              # an article is no option
        ("Answer: A dead end.", None),
        ("Answer: （B）", "B"),                                                            # fullwidth
        ("Answer：Ｂ", "B"),
        ("A\n", "A"),                                                                     # bare letter line
        ("option B", "B"),
        ("[B]", "B"),
        ("B)", "B"),
        ("\\boxed{\\text{(B)}}", "B"),
        ("The graph is not 3-colorable.", "B"),
        ("It is not solvable.", "B"),
        ("Answer: (A) or (B)", None),                                                     # hedges
        ("Answer: A/B", None),
        ("(A)(B)", None),
        ("Solvable / Unsolvable", None),
        ("Unsolvable Unsolvable Solvable Unsolvable", None),                              # keyword spam
        ("Answer: (A) if the 5 may stay, otherwise (B).", None),                          # conditional
        ("Is it (A)?", None),                                                             # a question
        ("Let me check if it is solvable. Wait", None),
        ("Final answer: A (or B if I made a mistake)", None),                          # hedges reported by the rewards tests
        ("Answer: B or A I hope this helps.", None),
        ("Answer: A/B That is all.", None),
        ("I think the answer is (B).\n\nAnswer: either A or B", None),
        ("Final answer: neither (A) nor (B)", None),
        ("The state is solvable.\n\nAnswer: (A)\n\n(B) would be wrong here.", "A"),    # a rejected option
    ],
)
def test_choice_rules(text, choice):
    assert read_choice(text).choice == choice


def test_format_ok_needs_an_explicit_single_answer():
    assert format_ok("state_checking", "Answer: (B)")
    assert not format_ok("state_checking", "Unsolvable Unsolvable Unsolvable")  # read as B, but not the asked form
    assert not format_ok("state_checking", "Answer: (A) or (B)")
    assert not format_ok("state_checking", "reasoning only", starts_in_think=True)
    assert format_ok("state_checking", "reasoning</think>Answer: (A)", starts_in_think=True)
    assert format_ok("state_transition", "Next state: [1, 2]")
    assert not format_ok("state_transition", "Next state: [1, 2")
    assert format_ok("end_to_end", "Answer: (10 - 4)(13 - 9)", domain="game_of_24")
    assert not format_ok("end_to_end", "Answer: 2^(10 - 4)", domain="game_of_24")
    assert format_ok("end_to_end", "Answer: [[1, 2], [3, 4]]", domain="sudoku")
    with pytest.raises(ValueError):
        format_ok("math", "x")


# ------------------------------------------------------------------ rule 4: lists
@pytest.mark.parametrize(
    "text, payload",
    [
        ("Next state: [1, 2]\n\nThis next state is valid.", "[1, 2]"),
        ("Next state: [1, 2]\n\nThe next state fills cell [row 1].", "[1, 2]"),
        ("Next state: [9]\nWait, wrong. Next state: [1, 2]", "[1, 2]"),
        ("**Next state:**\n```python\n[1, 2]\n```", "[1, 2]"),
        ("Next state (after one move): [1, 2]", "[1, 2]"),
        ("Next state:\n[1, 2]\n[3, 4]", "[[1, 2], [3, 4]]"),
        ("Next state: [1, 2]\n\n[1, 2]", "[1, 2]"),
    ],
)
def test_next_state_rules(text, payload):
    assert next_state_payload(text) == payload


@pytest.mark.parametrize("text", ["Next state: [1, 2] or [2, 1]", "Next state: [1, 2] / [2, 1]", "Next state: [1, 2",
                                  "Next state: [1, 2]\nNext state: [1, 2]\nNext state: [1,",  # cut off: no fallback
                                  "The new state is [1, 2]", "Next state: see above"])
def test_next_state_failures(text):
    with pytest.raises(ParseError):
        next_state_payload(text)


def test_solution_payload_prefers_the_marker_then_the_last_list():
    assert solution_payload("Try [1]. Answer: [2, 3]\n\nChecked [rows].") == "[2, 3]"
    assert solution_payload("First [1], then the grid:\n[2, 3]") == "[2, 3]"
    with pytest.raises(ParseError):
        solution_payload("Answer: [1] or [2]")


# ------------------------------------------------------------------ arithmetic
@pytest.mark.parametrize(
    "text, value",
    [
        ("Answer: (10-4)(13-9)", "((10 - 4) * (13 - 9))"),
        ("Answer: (10 − 4) × (13 − 9) = 24", "((10 - 4) * (13 - 9))"),
        ("Answer: 24 = (10 - 4) · (13 - 9)", "((10 - 4) * (13 - 9))"),
        ("Answer: $\\frac{8}{3 - \\frac{8}{3}}$", "(8 / (3 - (8 / 3)))"),
        ("Answer: 8 \\div (3 - 8 \\div 3)", "(8 / (3 - (8 / 3)))"),
        ("**Answer:** `(10 - 4) \\cdot (13 - 9) = 24`", "((10 - 4) * (13 - 9))"),
        ("(10 - 4) * (13 - 9) = 24", "((10 - 4) * (13 - 9))"),
    ],
)
def test_arithmetic_answers(text, value):
    assert to_text(arithmetic_answer(text)) == value


def test_arithmetic_rejections_and_hedges_in_prose():
    """Prose after the answer: "<expression> is wrong." rules it out; a hedged sentence offering another
    expression is a hedge (no answer); a hedged restatement of the same answer leaves it standing."""
    answer = "Answer: (1 + 2) * 8\n\n"
    for tail in ("(1 + 2) * 8 is wrong.", "I think it is (1 + 1) * 8, but it might be (1 + 2) * 8.",
                 "It could be (1 + 1) * 8 or (1 + 2) * 8.", "It might be (1 + 1) * 8."):
        with pytest.raises(ParseError):
            arithmetic_answer(answer + tail)
    for tail in ("(2 + 2) * 6 is wrong.", "This could also be written as 8 * (1 + 2).", "So 3 * 8 gives the target."):
        assert to_text(arithmetic_answer(answer + tail)) == "((1 + 2) * 8)", tail
    with pytest.raises(ParseError):
        arithmetic_answer("Answer: ((13 / 13) + (10 + 13))\nor\n(13 / 13)")


SUFFIXES = ["!", "^2", " mod 5", "²", " ** 2", " % 5", "(", ")", " or 4 * 6", " + ", "√", " x", ".5"]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["(10 - 4) * (13 - 9)", "8 / (3 - 8 / 3)", "1 * 2 * 3 * 4", "(6 + 6) + (6 + 6)"]),
       st.sampled_from(SUFFIXES), st.booleans())
def test_arithmetic_never_accepts_a_prefix(expression, suffix, claim):
    text = f"Answer: {expression}{suffix}" + (" = 24" if claim else "")
    try:
        node = arithmetic_answer(text)
    except ParseError:
        return
    assert evaluate(node) != 24 or to_text(node) != to_text(parse(expression)), text


@pytest.mark.parametrize("prefix", ["-", "−", "√", "2^", "sqrt"])
def test_arithmetic_never_drops_a_leading_operator(prefix):
    with pytest.raises(ParseError):
        arithmetic_answer(f"Answer: {prefix}(4 - 10) * (9 - 13)")


# ------------------------------------------------------------------ property: naming both options never earns credit
A_FORMS = ["(A)", "A", "Solvable", "solvable", "\\boxed{A}", "option A", "[A]", "（A）", "**(A)**", "A)", "Colorable"]
B_FORMS = ["(B)", "B", "Unsolvable", "unsolvable", "\\boxed{B}", "option B", "[B]", "（B）", "**(B)**", "B)", "Uncolorable",
           "not solvable", "not 3-colorable"]
JOINERS = [" or ", "/", " / ", "", " ", " and ", ", ", " or maybe ", "\n", " | ", " vs ", "; ", " either "]
LEADS = ["Answer: ", "Final answer: ", "The answer is ", "**Answer:** ", "", "So: ", "Answer: either "]
PREFIXES = ["", "Let me think step by step. Row 1 is fine.\n\n", "<think>\nhmm (A)? (B)?\n</think>\n",
            "## Analysis\n\n| row | ok |\n|---|---|\n| 1 | yes |\n\n"]


def _official(name: str) -> list[dict]:
    from conftest import read_jsonl, shared_path

    return read_jsonl(shared_path("finereason_official", f"{OFFICIAL[name]}_states_sample.jsonl"))


@pytest.fixture(scope="session")
def sc_items():
    out = {}
    for name in ("sudoku", "graph_coloring"):
        engine = get_engine(name)
        items = [engine.item_from_official(r) for r in _official(name)[:20]]
        out[name] = (engine, next(i for i in items if oracle_solvable(engine, i.puzzle, i.current)),
                     next(i for i in items if not oracle_solvable(engine, i.puzzle, i.current)))
    return out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(PREFIXES), st.sampled_from(LEADS), st.sampled_from(A_FORMS), st.sampled_from(JOINERS),
       st.sampled_from(B_FORMS), st.booleans(), st.sampled_from(["", ".", "\n\nThat is my answer.", " **"]))
def test_answers_naming_both_options_never_earn_credit(sc_items, prefix, lead, a, joiner, b, swap, tail):
    first, second = (b, a) if swap else (a, b)
    if not joiner and (first[-1].isalnum() or second[0].isalnum()):
        joiner = " "  # "Anot solvable" is not an answer a model writes
    response = f"{prefix}{lead}{first}{joiner}{second}{tail}"
    for engine, solvable, unsolvable in sc_items.values():
        for item in (solvable, unsolvable):
            verdict = verify_state_checking(engine, item, response)
            assert not verdict.correct, (response, verdict)
    assert not format_ok("state_checking", response), response


@pytest.fixture(scope="session")
def st_items():
    out = {}
    for name in OFFICIAL:
        engine = get_engine(name)
        items = [engine.item_from_official(r) for r in _official(name)]
        solvable = next(i for i in items if oracle_solvable(engine, i.puzzle, i.current) and i.unsolvable_child is not None)
        good = next(c for c in engine.children(solvable.puzzle, solvable.current) if oracle_solvable(engine, solvable.puzzle, c))
        unsolvable = next(i for i in items if not oracle_solvable(engine, i.puzzle, i.current) and i.parent is not None)
        out[name] = (engine, solvable, good, unsolvable)
    return out


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(list(OFFICIAL)), st.sampled_from([" or ", " or\n", " / ", "\nor\n", ", alternatively ", " and/or "]),
       st.booleans(), st.sampled_from(["", "Next state: ", "**Next state:** "]))
def test_transition_answers_naming_two_states_never_earn_credit(st_items, name, joiner, swap, lead):
    engine, solvable, good, unsolvable = st_items[name]
    for item, right, other in ((solvable, good, solvable.unsolvable_child), (unsolvable, unsolvable.parent, unsolvable.current)):
        pair = (engine.render(item.puzzle, right), engine.render(item.puzzle, other))
        first, second = pair[::-1] if swap else pair
        response = f"Next state: {first}{joiner}{second}" if not lead else f"{lead}{first}{joiner}{second}"
        for verdict in verify_state_transition_modes(engine, item, response).values():
            assert not verdict.correct, (response, verdict)


@settings(max_examples=80, deadline=None)
@given(st.sampled_from([" or ", " / ", ", or ", " and ", "\nor\n", "; "]), st.booleans())
def test_game24_answers_naming_two_expressions_never_earn_credit(joiner, swap):
    pair = ("(10 - 4) * (13 - 9)", "10 + 4 + 13 - 9")
    first, second = pair[::-1] if swap else pair
    verdict = verify_end_to_end("game_of_24", Game24Puzzle((4, 9, 10, 13)), f"Answer: {first}{joiner}{second}")
    assert not verdict.correct, verdict


def test_score_row_and_unfinished_reasoning(official_states):
    import json

    record = official_states("sudoku")[0]
    row = {"puzzle": "sudoku", "task": "state_checking", "label": record["outputs"]["current_status"],
           "inputs": json.dumps(record["inputs"]), "outputs": json.dumps(record["outputs"])}
    truth = "(A)" if record["outputs"]["current_status"] == "Solvable" else "(B)"
    assert score_row(row, f"Answer: {truth}").verdict.correct
    assert score_row(row, f"reasoning</think>Answer: {truth}", starts_in_think=True).verdict.correct
    unfinished = score_row(row, f"Let me check. Answer: {truth}", starts_in_think=True).verdict
    assert unfinished.category == "parse_error" and not unfinished.correct


# ------------------------------------------------------------------ hostile inputs: every reader finishes
@contextmanager
def hang_guard(seconds: int = HANG_GUARD_SECONDS) -> Iterator[None]:
    """Fail (instead of hanging the suite) when a reader never returns; measures nothing."""
    def fire(signum: int, frame: Any) -> None:
        raise TimeoutError("a reader did not return")

    previous = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


RUN = 20_000
PIECES = ["answer", "Answer:", "\\boxed{", "Next state:", "next state", "(A)", "A", "(", "[", "'", '"', "=", "solvable",
          "not ", "option ", "\\frac{", "{", "<think>", "</think>", "Answer: (A) or", "1, ", "[1, ", "is ", "$", "`", "**",
          "Solution:", "[[", "]", "(10 - 4) * ", "\\left(", "x"]


def hostile_texts() -> dict[str, str]:
    texts = {}
    for ws in (" ", "\n", "\t", " \n"):
        for piece in PIECES:
            texts[f"{piece!r} then {ws!r} x{RUN}"] = piece + ws * RUN + "x"
            texts[f"{ws!r} x{RUN} then {piece!r}"] = ws * RUN + piece
    for piece in PIECES:
        texts[f"{piece!r} repeated"] = (piece * (RUN // len(piece) + 1))[:RUN]
        texts[f"{piece!r} repeated with spaces"] = ((piece + " ") * (RUN // (len(piece) + 1) + 1))[:RUN]
    return texts


READERS: dict[str, Callable[[str], Any]] = {
    "read_choice": read_choice,
    "next_state_payload": next_state_payload,
    "solution_payload": solution_payload,
    "arithmetic_answer": arithmetic_answer,
    **{f"format_ok[{task},{puzzle}]": (lambda t, task=task, puzzle=puzzle: format_ok(task, t, domain=puzzle))
       for task in ("state_checking", "state_transition", "end_to_end") for puzzle in ("sudoku", "game_of_24")},
}


@pytest.mark.parametrize("reader", list(READERS))
def test_readers_finish_on_whitespace_runs_and_repetitions(reader):
    fn = READERS[reader]
    with hang_guard():
        for name, text in hostile_texts().items():
            try:
                fn(text)
            except (ParseError, StateError):
                pass


def test_verifiers_finish_on_whitespace_runs_and_repetitions(st_items):
    texts = hostile_texts()
    with hang_guard(4 * HANG_GUARD_SECONDS):
        for engine, solvable, _, unsolvable in st_items.values():
            for name, text in texts.items():
                for item in (solvable, unsolvable):
                    assert verify_state_checking(engine, item, text).category in {"parse_error", "correct", "incorrect"}
                    for verdict in verify_state_transition_modes(engine, item, text).values():
                        assert not verdict.correct, name
                assert not verify_end_to_end(engine, solvable.puzzle, text).correct, name
