"""GRPO rewards (finereason.integrations.training.rewards): tables of crafted
completions, each with the reason it scores what it scores; unfinished reasoning, hedging, keyword spam
and unboxed math earning nothing; completion shapes; bounded math verification that never logs the
completion. Puzzle rows come from a small local build; the oracle baseline supplies right answers."""
from __future__ import annotations

import faulthandler
import json
import logging
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

pytest.importorskip("math_verify", reason="needs math-verify (pip install 'finereason[train]')")
pytest.importorskip("pyarrow", reason="needs pyarrow (pip install 'finereason[hub]')")

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from finereason.models.baselines import oracle  # noqa: E402
from finereason.dataset_builders.layout import configs_in, read_config  # noqa: E402
from finereason.core.engine import default_names, get_engine  # noqa: E402
from finereason.core.rows import row_item  # noqa: E402
from finereason.verification.scoring import score_row  # noqa: E402
from finereason.common.verdict import TRANSITION_CATEGORIES  # noqa: E402
from finereason.core.oracle import oracle_solvable  # noqa: E402
from finereason.integrations.training import rewards as R  # noqa: E402
from finereason.integrations.training.mixing import puzzle_identity  # noqa: E402

COLUMNS = ("puzzle", "task", "label", "inputs", "outputs", "answer")
PUZZLES = tuple(default_names())  # the puzzles the shared small_dataset build holds


@pytest.fixture(scope="session")
def data(small_dataset) -> dict[str, list[dict]]:
    return {config: read_config(small_dataset, config) for config in configs_in(small_dataset)}


def kwargs_of(rows: list[dict], **extra) -> dict:
    """Dataset columns as TRL passes them to a reward: one list per column."""
    return {c: [r.get(c) for r in rows] for c in COLUMNS} | extra


def math_row(answer: str | None) -> dict:
    return {"task": "math", "answer": answer, "puzzle": None, "label": None, "inputs": None, "outputs": None}


def next_state(engine, puzzle, state) -> str:
    return f"Let me think.\nNext state: {engine.render(puzzle, state)}"


# ------------------------------------------------------------------ state transition: every category
def st_cases(rows: list[dict]) -> list[tuple[str, dict, str]]:
    """(expected category, row, completion) for every state-transition category, on Sudoku rows."""
    engine = get_engine("sudoku")
    solvable = next(r for r in rows if r["label"] == "Solvable" and row_item(r).unsolvable_child is not None)
    dead = next(r for r in rows if r["label"] == "Unsolvable" and row_item(r).parent is not None)
    s, d = row_item(solvable), row_item(dead)
    good = next(c for c in engine.children(s.puzzle, s.current) if oracle_solvable(engine, s.puzzle, c))
    two_cells = next(iter(engine.children(s.puzzle, good)))
    cells = list(s.current)
    empty = cells.index(0)
    cells[empty] = next(v for v in cells[empty // 9 * 9:empty // 9 * 9 + 9] if v)  # repeats a digit of its row
    sibling = next(c for c in engine.children(d.puzzle, d.parent) if not engine.same(c, d.current))
    return [
        # the oracle's move: one fill that keeps the grid solvable
        ("correct", solvable, oracle(solvable)),
        # a child of a child: two cells filled at once
        ("multiple_moves", solvable, next_state(engine, s.puzzle, two_cells)),
        # fills an empty cell with a digit already in its row
        ("invalid_move", solvable, next_state(engine, s.puzzle, tuple(cells))),
        # one legal fill, but the grid can no longer be completed (the stored dead end)
        ("unsolvable_child", solvable, next_state(engine, s.puzzle, s.unsolvable_child)),
        # from a dead end, repeating the current state is not a backtrack
        ("backtracking_failure", dead, next_state(engine, d.puzzle, d.current)),
        # from a dead end, another child of the parent instead of the parent itself
        ("sibling", dead, next_state(engine, d.puzzle, sibling)),
        # no "Next state:" list at all
        ("parse_error", solvable, "I am not sure what to do here."),
    ]


def test_every_state_transition_category_and_partial_credit(data):
    cases = st_cases(data["sudoku_state_transition"])
    assert sorted(c for c, _, _ in cases) == sorted(TRANSITION_CATEGORIES)
    rows = [row for _, row, _ in cases]
    completions = [text for _, _, text in cases]
    for category, row, text in cases:  # the table is right about the verifier
        assert score_row(row, text).verdict.category == category, category
    credit = {"sibling": 0.5, "unsolvable_child": 0.25, "multiple_moves": 0.1}
    plain = R.state_transition_reward()(completions, **kwargs_of(rows))
    partial = R.state_transition_reward(credit)(completions, **kwargs_of(rows))
    for (category, _, _), a, b in zip(cases, plain, partial):
        assert a == (1.0 if category == "correct" else 0.0), category
        assert b == (1.0 if category == "correct" else credit.get(category, 0.0)), category
    # the puzzle reward is the strict verdict, without partial credit
    assert R.puzzle_reward(completions, **kwargs_of(rows)) == plain


def test_log_metric_receives_every_state_transition_rate(data):
    cases = st_cases(data["sudoku_state_transition"])
    rows = [row for _, row, _ in cases]
    completions = [text for _, _, text in cases]
    for reward in (R.state_transition_reward(), R.puzzle_reward):
        logged: dict[str, float] = {}
        reward(completions, **kwargs_of(rows, log_metric=logged.__setitem__))
        for category in TRANSITION_CATEGORIES:  # one completion of each: every rate is 1/7
            assert logged[f"finereason/state_transition/rate_{category}"] == pytest.approx(1 / len(cases))
        assert logged["finereason/state_transition/parse_error_rate"] == pytest.approx(1 / len(cases))


# ------------------------------------------------------------------ format
def test_format_reward_table(data):
    sc = data["sudoku_state_checking"][0]
    st = next(r for r in data["game_of_24_state_transition"] if r["label"] == "Solvable")
    e2e = data["game_of_24_end_to_end"][0]
    item = row_item(st)
    engine = get_engine("game_of_24")
    wrong_but_readable = next_state(engine, item.puzzle, item.current)  # "no move": wrong, but a readable state
    cases = [
        (sc, "Answer: (A)", 1.0),                              # a choice, right or wrong, is well formed
        (sc, "<think>(A)?</think> Answer: (B)", 1.0),           # the final choice after the thinking counts
        (sc, "It depends on the next cells.", 0.0),             # no choice at all
        (st, wrong_but_readable, 1.0),                          # format is not correctness: a readable state
        (st, "Next state: ['(1 + 2)', ", 0.0),                  # a truncated list cannot be read
        (st, "", 0.0),                                          # empty completion
        (e2e, oracle(e2e), 1.0),                                # a full expression
        (e2e, "I cannot find a solution.", 0.0),                # no expression
        (math_row("5"), "So the result is \\boxed{5}.", 1.0),   # a boxed answer
        (math_row("5"), "So the result is \\boxed{7}.", 1.0),   # wrong, but boxed and readable
        (math_row("5"), "The answer is $5$.", 0.0),             # readable, but not in \boxed{}
        (math_row("5"), "The answer is 5", 0.0),                # plain text, no \boxed{}
        (math_row("5"), "\\boxed{}", 0.0),                      # an empty box
    ]
    got = R.format_reward([c for _, c, _ in cases], **kwargs_of([r for r, _, _ in cases]))
    assert got == [want for _, _, want in cases]


# ------------------------------------------------------------------ math
MATH_CASES = [
    ("\\frac{1}{2}", "\\boxed{0.5}", 1.0),                 # a decimal equals the fraction
    ("0.5", "\\boxed{\\frac{1}{2}}", 1.0),                 # and the other way round
    ("0.5", "\\boxed{1/2}", 1.0),                          # a slash fraction
    ("18", "Adding them up gives \\boxed{18}.", 1.0),      # the boxed value is extracted from the text
    ("18", "Adding them up gives \\boxed{17}.", 0.0),      # a wrong value
    ("2x+1", "\\boxed{1 + 2x}", 1.0),                      # algebraic equivalence
    ("3", "<think>maybe \\boxed{5}</think> so \\boxed{3}", 1.0),  # the final box wins over the thinking
    ("5", "<think>maybe \\boxed{5}</think> so \\boxed{3}", 0.0),  # ... so the earlier 5 does not count
    ("18", "", 0.0),                                       # empty completion
    ("", "\\boxed{18}", 0.0),                              # no reference answer: nothing to match
    (None, "\\boxed{18}", 0.0),                            # missing reference answer
]


@pytest.mark.parametrize("gold,completion,want", MATH_CASES)
def test_math_reward_table(gold, completion, want):
    assert R.math_reward([completion], **kwargs_of([math_row(gold)])) == [want]


def test_conversational_and_plain_completions_score_the_same(data):
    st = data["sudoku_state_transition"][0]
    rows = [st, data["sudoku_state_checking"][0], data["game_of_24_end_to_end"][0], math_row("\\frac{1}{2}")]
    texts = [oracle(rows[0]), oracle(rows[1]), oracle(rows[2]), "so \\boxed{0.5}"]
    chats = [[{"role": "assistant", "content": t}] for t in texts]
    for reward in (R.puzzle_reward, R.math_reward, R.format_reward, R.state_checking_reward,
                   R.state_transition_reward(), R.end_to_end_reward):
        assert reward(texts, **kwargs_of(rows)) == reward(chats, **kwargs_of(rows)), reward.__name__
    assert R.puzzle_reward(chats, **kwargs_of(rows)) == [1.0, 1.0, 1.0, None]
    assert R.math_reward(chats, **kwargs_of(rows)) == [None, None, None, 1.0]


# ------------------------------------------------------------------ applicability
def test_none_on_rows_a_reward_does_not_judge(data):
    sc, st, e2e = data["sudoku_state_checking"][0], data["sudoku_state_transition"][0], data["sudoku_end_to_end"][0]
    rows = [sc, st, e2e, math_row("4")]
    texts = [oracle(sc), oracle(st), oracle(e2e), "\\boxed{4}"]
    table = [
        (R.puzzle_reward, [1.0, 1.0, 1.0, None]),              # every puzzle task; not math
        (R.math_reward, [None, None, None, 1.0]),              # math only
        (R.state_checking_reward, [1.0, None, None, None]),    # its own task only
        (R.state_transition_reward(), [None, 1.0, None, None]),
        (R.end_to_end_reward, [None, None, 1.0, None]),
        (R.format_reward, [1.0, 1.0, 1.0, 1.0]),               # every row with a known task
    ]
    for reward, want in table:
        assert reward(texts, **kwargs_of(rows)) == want, reward.__name__
    # a row with an unknown task gets no format verdict
    assert R.format_reward(["x"], task=["poetry"]) == [None]


# ------------------------------------------------------------------ tied to the instance
def _two_instances(rows: list[dict], same_label: bool = False) -> tuple[dict, dict]:
    a = rows[0]
    for b in rows[1:]:
        if puzzle_identity(b) != puzzle_identity(a) and (same_label or b["label"] != a["label"]):
            return a, b
    raise AssertionError("the build has no two different instances")


@pytest.mark.parametrize("puzzle", PUZZLES)
@pytest.mark.parametrize("task", ["state_checking", "state_transition", "end_to_end"])
def test_a_solution_of_instance_a_never_scores_on_instance_b(data, puzzle, task):
    rows = data[f"{puzzle}_{task}"]
    # state checking answers are one letter: take two instances whose right letters differ
    a, b = _two_instances(rows, same_label=task != "state_checking")
    answer = oracle(a)
    reward = R.puzzle_reward
    assert reward([answer], **kwargs_of([a])) == [1.0]
    assert reward([answer], **kwargs_of([b])) == [0.0]
    assert reward([oracle(b)], **kwargs_of([b])) == [1.0]


def test_a_math_answer_of_question_a_never_scores_on_question_b():
    assert R.math_reward(["\\boxed{12}", "\\boxed{12}"], **kwargs_of([math_row("12"), math_row("13")])) == [1.0, 0.0]


# ------------------------------------------------------------------ registry and configuration
@pytest.mark.parametrize("credit", [None, {}, {"sibling": 0.5}, {"unsolvable_child": 0, "parse_error": 0}])
def test_partial_credit_accepted(credit):
    assert callable(R.state_transition_reward(credit))


@pytest.mark.parametrize("credit,message", [
    ({"bogus": 0.5}, "unknown state-transition categories"),   # not a category
    ({"sibling": 1.5}, "in [0, 1]"),                           # more than a correct move
    ({"sibling": -0.1}, "in [0, 1]"),                          # a penalty is not credit
    ({"sibling": True}, "in [0, 1]"),                          # a bool is not a number here
    ({"sibling": "0.5"}, "in [0, 1]"),                         # nor is a string
    ({"parse_error": 0.5}, "parse_error cannot earn"),         # unreadable or unfinished answers earn 0
])
def test_partial_credit_rejected(credit, message):
    with pytest.raises(R.RewardConfigError, match=message.replace("[", r"\[").replace("]", r"\]")):
        R.state_transition_reward(credit)
    with pytest.raises(R.RewardConfigError):
        R.get_rewards(["state_transition"], partial_credit=credit)


def test_registry_names_and_errors():
    rewards = R.get_rewards(["puzzle", "math", "format", "state_transition"], partial_credit={"sibling": 0.5})
    assert [f.__name__ for f in rewards] == ["puzzle_reward", "math_reward", "format_reward", "state_transition_reward"]
    thinking = R.get_rewards(["puzzle", "math", "format", "state_transition"], starts_in_think=True)
    assert [f.__name__ for f in thinking] == [f.__name__ for f in rewards]  # TRL logs rewards/<name>/mean
    assert all(spec.columns for spec in R.REGISTRY.values())  # one registry: names and columns together
    with pytest.raises(R.RewardConfigError, match="unknown reward 'accuracy'.*known rewards: state_checking"):
        R.get_rewards(["puzzle", "accuracy"])
    with pytest.raises(R.RewardConfigError, match="empty"):
        R.get_rewards([])


def test_check_columns():
    R.check_columns(["puzzle", "math", "format"], ["prompt", "task", "puzzle", "inputs", "outputs", "label", "answer"])
    with pytest.raises(R.RewardConfigError, match="'math' needs dataset column\\(s\\) answer"):
        R.check_columns(["format", "math"], ["prompt", "task"])
    with pytest.raises(R.RewardConfigError, match="'puzzle' needs dataset column\\(s\\) inputs"):
        R.check_columns(["puzzle"], ["prompt", "task", "puzzle", "outputs", "label"])


# ------------------------------------------------------------------ the answer reader's rules, through get_rewards
ALL_REWARDS = ("puzzle", "format", "math", "state_checking", "state_transition", "end_to_end")


def rewards_of(rows: list[dict], completions: list, starts_in_think: bool) -> dict[str, list]:
    """Every registry reward on ``completions``, built by ``get_rewards`` as ``grpo.py`` builds them."""
    funcs = R.get_rewards(ALL_REWARDS, starts_in_think=starts_in_think)
    return {name: f(completions, **kwargs_of(rows)) for name, f in zip(ALL_REWARDS, funcs)}


def one_row_per_kind(data) -> list[dict]:
    """A row of every puzzle and task, plus a math row (right answers: the oracle, ``\\boxed{4}``)."""
    return [data[f"{p}_{t}"][0] for p in PUZZLES for t in R.PUZZLE_TASKS] + [math_row("4")]


def right_answer(row: dict) -> str:
    return "\\boxed{4}" if row["task"] == "math" else oracle(row)


def test_finished_reasoning_earns_and_unfinished_earns_nothing(data):
    """R1-distill templates open <think> in the prompt: a completion without </think> is unfinished,
    however right its text looks, and every reward pays 0; the same answer after </think> pays 1."""
    rows = one_row_per_kind(data)
    finished = [f"Let me check every cell.\n</think>\n\n{right_answer(r)}" for r in rows]
    unfinished = [f"Let me check every cell. {right_answer(r)} Wait" for r in rows]
    tagged = [f"<think>Let me check every cell. {right_answer(r)}" for r in rows]  # opened here, never closed
    for name, got in rewards_of(rows, finished, starts_in_think=True).items():
        assert all(v in (None, 1.0) for v in got) and 1.0 in got, (name, got)
    for texts, flag in ((unfinished, True), (tagged, False), (tagged, True)):
        for name, got in rewards_of(rows, texts, starts_in_think=flag).items():
            assert all(v in (None, 0.0) for v in got) and 0.0 in got, (name, flag, got)
    # without the flag, the untagged text is a plain answer and earns
    assert all(v in (None, 1.0) for v in rewards_of(rows, [right_answer(r) for r in rows], False)["puzzle"])


def test_the_issues_reward_exploits_earn_nothing(data):
    sc = {label: next(r for r in data[f"{p}_state_checking"] if r["label"] == label)
          for p in PUZZLES for label in ("Solvable", "Unsolvable")}
    rows = list(sc.values())
    # unfinished reasoning that mentions "solvable" (earned 1.0 on solvable rows before)
    for name, got in rewards_of(rows, ["Let me check if it is solvable. Wait"] * len(rows), True).items():
        assert set(got) <= {None, 0.0}, name
    # keyword spam naming both classes (what a 100-step GRPO run learned to print)
    spam = "Unsolvable Unsolvable Solvable Unsolvable Solvable Solvable Unsolvable"
    for flag, text in ((False, spam), (True, "</think>" + spam)):
        for name, got in rewards_of(rows, [text] * len(rows), flag).items():
            assert set(got) <= {None, 0.0}, name
    # math: a last number in unfinished reasoning, and a finished but unboxed answer
    math = [math_row("42")] * 2
    for name, got in rewards_of(math, ["Let me compute 6*7 = 42. Wait", "</think> 6*7 = 42"], True).items():
        assert set(got) <= {None, 0.0}, name


# ------------------------------------------------------------------ math corpus (tests/data/math_rewards.jsonl)
MATH_CORPUS = [json.loads(line) for line in (REPO / "tests" / "data" / "math_rewards.jsonl").read_text(encoding="utf-8").splitlines()
               if line.strip()]


def test_math_corpus_is_realistic_and_balanced():
    assert len(MATH_CORPUS) >= 50 and len({c["id"] for c in MATH_CORPUS}) == len(MATH_CORPUS)
    assert {c["style"] for c in MATH_CORPUS} == {"reasoning", "chat", "small"}
    assert sum(c["math"] for c in MATH_CORPUS) >= 15 and sum(1 - c["math"] for c in MATH_CORPUS) >= 15
    assert any(c["starts_in_think"] for c in MATH_CORPUS) and not all(c["starts_in_think"] for c in MATH_CORPUS)


@pytest.mark.parametrize("case", MATH_CORPUS, ids=[c["id"] for c in MATH_CORPUS])
def test_math_corpus(case):
    math, fmt = R.get_rewards(["math", "format"], starts_in_think=case["starts_in_think"])
    row = math_row(case["gold"])
    got = (math([case["completion"]], **kwargs_of([row]))[0], format_of(fmt, case["completion"], row))
    assert got == (case["math"], case["format"]), case["why"]


def format_of(fmt, completion, row) -> float:
    return fmt([completion], **kwargs_of([row]))[0]


# ------------------------------------------------------------------ completion shapes
def test_completion_shapes(data):
    """Strings, one message, conversations (tool turns are not the model's words), content parts,
    parsed-out reasoning, and empty or missing completions: none crashes, each reads as a grader would."""
    sc = next(r for r in data["sudoku_state_checking"] if r["label"] == "Solvable")
    parts = [{"type": "text", "text": "Answer: "}, {"type": "image"}, {"type": "text", "text": "(A)"}]
    right = [
        "Answer: (A)",
        {"role": "assistant", "content": "Answer: (A)"},
        [{"role": "assistant", "content": "Answer: (A)"}],
        [{"role": "assistant", "content": parts}],
        parts,
        [{"role": "assistant", "content": "Let me call the checker."}, {"role": "tool", "content": "Answer: (B)"},
         {"role": "assistant", "content": "The checker agrees. Answer: (A)"}],
    ]
    wrong = [
        "", None, [], {}, [{"role": "assistant", "content": None}], [{"role": "assistant", "content": []}],
    ]
    for shape in right:
        assert R.state_checking_reward([shape], **kwargs_of([sc])) == [1.0], shape
        assert R.format_reward([shape], **kwargs_of([sc])) == [1.0], shape
    for shape in wrong:
        assert R.state_checking_reward([shape], **kwargs_of([sc])) == [0.0], shape
        assert R.format_reward([shape], **kwargs_of([sc])) == [0.0], shape
    # a user turn is not the model's answer: the model said (B), well formed but wrong
    chat = [{"role": "assistant", "content": "Answer: (B)"}, {"role": "user", "content": "Answer: (A)"}]
    assert R.state_checking_reward([chat], **kwargs_of([sc])) == [0.0]
    assert R.format_reward([chat], **kwargs_of([sc])) == [1.0]
    # a response parser (TRL parse_response) that split the reasoning off closed it: finished
    parsed = [{"role": "assistant", "reasoning_content": "Row 3 lacks a 7... maybe (B)?", "content": "Answer: (A)"}]
    truncated = [{"role": "assistant", "content": "Row 3 lacks a 7... Answer: (A)"}]  # nothing split off
    for reward in R.get_rewards(["state_checking", "format"], starts_in_think=True):
        assert reward([parsed, truncated], **kwargs_of([sc, sc])) == [1.0, 0.0]
    assert R.completion_text(parsed) == "<think>Row 3 lacks a 7... maybe (B)?</think>Answer: (A)"
    assert R.completion_text(parts) == "Answer: (A)"


# ------------------------------------------------------------------ no credit for naming both options (property)
BOTH = [("(A)", "(B)"), ("A", "B"), ("Solvable", "Unsolvable"), ("solvable", "not solvable"),
        ("(A) Solvable", "(B) Unsolvable"), ("[A]", "[B]"), ("（A）", "（B）"), ("colorable", "not colorable")]
HEDGES = [
    "Answer: {x} or {y}", "Answer: {x}/{y}", "**Answer:** {x} / {y}", "\\boxed{{{x}}} or \\boxed{{{y}}}",
    "Answer: {x}{y}", "Final answer: {x}, {y}", "{x} {y} {x} {y}",
    "The answer is {x} and {y}.", "Answer: either {x} or {y}", "Answer: {x} | {y}", "\\boxed{{{x} \\text{{ or }} {y}}}",
    "Answer: {x}\n\nOr possibly {y}.", "Answer: {x} and/or {y}", "- {x}\n- {y}",
]
REASONING = ["", "Let me check the rows.\n", "Row 1 is fine. Answer: (A)?\n", "| row | ok |\n|---|---|\n| 1 | yes |\n",
             "I think the answer is (B).\n\n"]


def _both_options_text(draw_x, draw_y, template, before, after, think) -> str:
    return f"{think}{before}{template.format(x=draw_x, y=draw_y)}{after}"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pair=st.sampled_from(BOTH), swap=st.booleans(), template=st.sampled_from(HEDGES),
       before=st.sampled_from(REASONING), after=st.sampled_from(["", "\n", " I hope this helps.", "\n\n---"]),
       think=st.sampled_from(["", "<think>The answer is (A). Answer: (B)</think>\n"]), starts_in_think=st.booleans())
def test_no_completion_naming_both_options_earns_anything(data, pair, swap, template, before, after, think, starts_in_think):
    x, y = pair[::-1] if swap else pair
    assume("{x}{y}" not in template or x[-1] in ")]）")  # "solvablenot solvable" is one garbled word
    text = _both_options_text(x, y, template, before, after, think)
    if starts_in_think and "</think>" not in text:
        text = "The grid is nearly full.</think>\n" + text
    rows = [next(r for r in data[f"{p}_state_checking"] if r["label"] == label)
            for p in PUZZLES for label in ("Solvable", "Unsolvable")]
    for name, got in rewards_of(rows, [text] * len(rows), starts_in_think).items():
        assert set(got) <= {None, 0.0}, (name, text)


@settings(max_examples=100, deadline=None)
@given(a=st.integers(-50, 50), b=st.integers(-50, 50), joint=st.sampled_from([" or ", ", or maybe ", " / ", "\n", " "]),
       reason=st.sampled_from(["", "<think>It is 3.</think>"]))
def test_no_math_completion_boxing_two_values_earns_anything(a, b, joint, reason):
    if a == b:
        b = a + 1
    text = f"{reason}The answer is \\boxed{{{a}}}{joint}\\boxed{{{b}}}."
    rows = [math_row(str(a)), math_row(str(b))]
    for name in ("math", "format"):
        (reward,) = R.get_rewards([name])
        assert reward([text, text], **kwargs_of(rows)) == [0.0, 0.0], (name, text)


MORE_HEDGES = [  # hedges that earlier versions of the reader credited as one option
    "Final answer: {x} (or {y} if I made a mistake)", "Answer: {x} or {y} I hope this helps.",
    "Answer: {x}/{y} That is all.", "I think the answer is (B).\n\nAnswer: either {x} or {y}",
    "Final answer: neither ({x}) nor ({y})",
]


@pytest.mark.parametrize("template", MORE_HEDGES)
def test_more_hedges_naming_both_options_earn_nothing(data, template):
    rows = [next(r for r in data[f"{p}_state_checking"] if r["label"] == label)
            for p in PUZZLES for label in ("Solvable", "Unsolvable")]
    for x, y in (("A", "B"), ("B", "A")):
        got = R.puzzle_reward([template.format(x=x, y=y)] * len(rows), **kwargs_of(rows))
        assert set(got) <= {None, 0.0}, template


# ------------------------------------------------------------------ bounded cost (hang catchers, no timing asserts)
@contextmanager
def hang_guard(seconds: int = 600):
    """Abort the test run with every thread's traceback if the block hangs (a hang catcher, generous on
    purpose: speed is measured in benchmarks/bench_rewards.py, not asserted here)."""
    faulthandler.dump_traceback_later(seconds, exit=True)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()


RUN = 20_000
CRAFTED = [
    "answer" + " " * RUN + "x", "Answer:" + " " * RUN + "(A)", "\\boxed{" + " " * RUN, "\\boxed{" + " " * RUN + "4}",
    "Next state:" + " " * RUN + "[", "Next state: [" + " " * RUN, "[" + " " * RUN + "]", " " * RUN,
    "<think>" + " " * RUN + "</think>" + " " * RUN, "\\boxed{" * (RUN // 7), "Next state: [[" * (RUN // 14),
    "Answer: (A" + " " * RUN, "(A) " * (RUN // 4), "Unsolvable " * (RUN // 11), "(" * RUN + ")" * RUN,
    "Answer: " + "(10 - 4) * " * (RUN // 11) + "1", "\\frac{" * (RUN // 6), "\\t" * RUN, "\n" * RUN + "Answer: (A)",
]


def test_crafted_whitespace_runs_and_repetitions_finish_in_every_reward(data):
    rows = one_row_per_kind(data)
    with hang_guard():
        for text in CRAFTED:
            for flag in (False, True):
                got = rewards_of(rows, [text] * len(rows), flag)
                assert all(v is None or 0.0 <= v <= 1.0 for values in got.values() for v in values)


ADVERSARIAL_LATEX = "\\exp(\\exp(\\exp(999)))"  # sends math-verify's parser into its timeout


@pytest.fixture
def math_verify_logging(monkeypatch):
    """math-verify's loggers enabled, as in a fresh process (another test in this worker may have
    configured logging); the rewards' silencing must leave them so."""
    import math_verify  # noqa: F401  (creates its loggers)

    for name in [n for n in list(logging.root.manager.loggerDict) if n.split(".")[0] in ("math_verify", "latex2sympy2_extended")]:
        monkeypatch.setattr(logging.getLogger(name), "disabled", False)


def test_adversarial_latex_is_bounded_and_never_logged(caplog, capfd, math_verify_logging):
    """math-verify logs input it gives up on ("Timeout during parsing: <text>"); the rewards silence it."""
    caplog.set_level(logging.DEBUG)
    completions = [f"So the value is $\\boxed{{{ADVERSARIAL_LATEX}}}$.", f"\\boxed{{{ADVERSARIAL_LATEX} + x^{{999}}}}",
                   "\\boxed{(x+1)^{999} - (x-1)^{999}}", "\\boxed{10^{10^{10}}}", "\\boxed{(10^{99})!}"]
    with hang_guard():
        for reward in R.get_rewards(["math", "format"]):
            got = reward(completions, **kwargs_of([math_row("5")] * len(completions)))
            assert set(got) <= {0.0, 1.0}
    out, err = capfd.readouterr()
    for text in (caplog.text, out, err):
        assert "exp(999)" not in text and "999}" not in text
    assert not logging.getLogger("math_verify.parser").disabled  # the silencing is temporary


def test_math_verify_failures_are_never_logged(monkeypatch, caplog, math_verify_logging):
    """Deterministic: math-verify logs the input of any parse that fails ("Error parsing: <text>");
    make every parse fail and check that the text reaches the log only without the rewards' silencing."""
    import math_verify.parser
    from math_verify import LatexExtractionConfig, parse

    import finereason.integrations.training.rewards.math_worker as impl

    impl._math_verify()  # warm up before breaking the parser

    def broken(*args, **kwargs):
        raise ValueError("parser failure")

    monkeypatch.setattr(math_verify.parser, "extract_target_from_pred", broken)
    caplog.set_level(logging.DEBUG)
    marker = "q_{314159} + \\sqrt{q_{271828}}"
    parse(f"\\boxed{{{marker}}}", extraction_config=[LatexExtractionConfig()], parsing_timeout=1)
    assert marker in caplog.text  # what the rewards guard against
    caplog.clear()
    for reward in R.get_rewards(["math", "format"]):
        assert reward([f"\\boxed{{{marker}}}"], **kwargs_of([math_row("x + 1")])) == [0.0]
    assert "314159" not in caplog.text and "271828" not in caplog.text


def test_math_off_the_main_thread_is_bounded_and_still_credits(capfd):
    """Off the main thread math-verify's signal timeouts cannot run: a worker process does the work
    under them and is killed when a request overruns (no reward, no hang, nothing logged)."""
    import threading

    rows = [math_row("2x+1"), math_row("5"), math_row("5"), math_row("\\sqrt{2}")]
    texts = ["\\boxed{1 + 2x}", f"\\boxed{{{ADVERSARIAL_LATEX}}}", "\\boxed{\\sin(x)^{999}+\\cos(x)^{999}-\\tan(x)^{99}}",
             "\\boxed{\\sqrt 2}"]
    got: dict[str, list] = {}

    def score() -> None:
        got["math"] = R.math_reward(texts, **kwargs_of(rows))
        got["format"] = R.format_reward(texts[:1], **kwargs_of(rows[:1]))

    with hang_guard():
        worker = threading.Thread(target=score)
        worker.start()
        worker.join()
    assert got == {"math": [1.0, 0.0, 0.0, 1.0], "format": [1.0]}
    out, err = capfd.readouterr()
    assert "exp(999)" not in out + err and "999}" not in out + err


def test_plain_numbers_never_reach_math_verify(monkeypatch):
    """The exact fast path: integers, decimals and fractions are compared without math-verify."""
    import finereason.integrations.training.rewards.math_worker as impl

    calls: list[str] = []
    monkeypatch.setattr(impl, "_parse_guess", lambda content: calls.append(content) or ())
    monkeypatch.setattr(impl, "_parse_gold", lambda answer: calls.append(answer) or ())
    rows = [math_row("\\frac{1}{2}"), math_row("12"), math_row("-3"), math_row("1000"), math_row("0.75")]
    texts = ["\\boxed{0.5}", "\\boxed{13}", "\\boxed{-3}", "\\boxed{1{,}000}", "\\boxed{\\dfrac{3}{4}}"]
    assert R.math_reward(texts, **kwargs_of(rows)) == [1.0, 0.0, 1.0, 1.0, 1.0]
    assert R.format_reward(texts, **kwargs_of(rows)) == [1.0] * 5
    assert calls == []


# ------------------------------------------------------------------ chat templates that open <think>
R1_TEMPLATE = ("{% for m in messages %}{% if m['role'] == 'user' %}<｜User｜>{{ m['content'] }}{% else %}"
               "<｜Assistant｜>{{ m['content'] }}<｜end▁of▁sentence｜>{% endif %}{% endfor %}"
               "{% if add_generation_prompt %}<｜Assistant｜><think>\n{% endif %}")
QWEN3_TEMPLATE = ("{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
                  "{% if add_generation_prompt %}<|im_start|>assistant\n{% if enable_thinking is defined and "
                  "enable_thinking is false %}<think>\n\n</think>\n\n{% endif %}{% endif %}")
QWQ_TEMPLATE = ("{% if messages[0]['role'] != 'system' %}<|im_start|>system\nThink inside <think> tags.<|im_end|>\n{% endif %}"
                "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
                "{% if add_generation_prompt %}<|im_start|>assistant\n<think>\n{% endif %}")
MENTIONS_THINK = ("{% for m in messages %}<|user|>Use <think> to reason. {{ m['content'] }}\n{% endfor %}"
                  "{% if add_generation_prompt %}<|assistant|>\n{% endif %}")


@pytest.fixture(scope="session")
def tokenizer():
    pytest.importorskip("transformers")
    from finereason.models.tiny import build_tokenizer

    return build_tokenizer()


@pytest.mark.parametrize("template,kwargs,want", [
    (R1_TEMPLATE, {}, True),                              # R1-distill: the prompt ends in "<think>\n"
    (QWQ_TEMPLATE, {}, True),                             # QwQ, Qwen3-Thinking-2507: same
    (QWEN3_TEMPLATE, {}, False),                          # Qwen3 hybrid: the model writes <think> itself
    (QWEN3_TEMPLATE, {"enable_thinking": False}, False),  # thinking off: an empty, closed think block
    (MENTIONS_THINK, {}, False),                          # a prompt that only mentions the tag
    (None, {}, False),                                    # no chat template: plain prompts
])
def test_prompt_opens_think(tokenizer, template, kwargs, want):
    tokenizer.chat_template = template
    assert R.prompt_opens_think(tokenizer, kwargs) is want


def test_grpo_sets_starts_in_think_from_the_template_unless_overridden(tokenizer, capsys):
    from types import SimpleNamespace

    from finereason.integrations.training.grpo.config import ScriptArguments
    from trainers.grpo import thinking_prompt

    tokenizer.chat_template = R1_TEMPLATE
    args = SimpleNamespace(chat_template_kwargs=None)
    assert thinking_prompt(ScriptArguments(), args, tokenizer) is True
    assert "starts_in_think=True (detected from the chat template)" in capsys.readouterr().err
    assert thinking_prompt(ScriptArguments(starts_in_think=False), args, tokenizer) is False  # the override wins
    tokenizer.chat_template = QWEN3_TEMPLATE
    assert thinking_prompt(ScriptArguments(), args, tokenizer) is False
    assert thinking_prompt(ScriptArguments(starts_in_think=True), args, tokenizer) is True
