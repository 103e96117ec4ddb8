"""GRPO rewards (trainers/rewards.py): tables of crafted completions, each with the reason it scores
what it scores. Puzzle rows come from a small local build; the oracle baseline supplies right answers."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("math_verify", reason="needs math-verify (pip install 'finereason[train]')")
pytest.importorskip("pyarrow", reason="needs pyarrow (pip install 'finereason[hub]')")

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from finereason.baselines import oracle  # noqa: E402
from finereason.cli import main  # noqa: E402
from finereason.dataset_builders.layout import configs_in, read_config  # noqa: E402
from finereason.engines import get_engine  # noqa: E402
from finereason.evaluation import row_item, score_row  # noqa: E402
from finereason.verdict import TRANSITION_CATEGORIES  # noqa: E402
from finereason.verifiers import is_solvable  # noqa: E402
from trainers import rewards as R  # noqa: E402
from trainers.data import puzzle_identity  # noqa: E402

COLUMNS = ("puzzle", "task", "label", "inputs", "outputs", "answer")
PUZZLES = ("sudoku", "graph_coloring", "game_of_24", "grid_puzzle")


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> dict[str, list[dict]]:
    out = tmp_path_factory.mktemp("rewards") / "data"
    assert main(["build", "--out", str(out), "--per-task", "8", "--train-size", "0", "--e2e-size", "2"]) == 0
    return {config: read_config(out, config) for config in configs_in(out)}


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
    good = next(c for c in engine.children(s.puzzle, s.current) if is_solvable(engine, s.puzzle, c))
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
@pytest.mark.parametrize("credit", [None, {}, {"sibling": 0.5}, {"unsolvable_child": 0, "parse_error": 1}])
def test_partial_credit_accepted(credit):
    assert callable(R.state_transition_reward(credit))


@pytest.mark.parametrize("credit,message", [
    ({"bogus": 0.5}, "unknown state-transition categories"),   # not a category
    ({"sibling": 1.5}, "in [0, 1]"),                           # more than a correct move
    ({"sibling": -0.1}, "in [0, 1]"),                          # a penalty is not credit
    ({"sibling": True}, "in [0, 1]"),                          # a bool is not a number here
    ({"sibling": "0.5"}, "in [0, 1]"),                         # nor is a string
])
def test_partial_credit_rejected(credit, message):
    with pytest.raises(R.RewardConfigError, match=message.replace("[", r"\[").replace("]", r"\]")):
        R.state_transition_reward(credit)
    with pytest.raises(R.RewardConfigError):
        R.get_rewards(["state_transition"], partial_credit=credit)


def test_registry_names_and_errors():
    rewards = R.get_rewards(["puzzle", "math", "format", "state_transition"], partial_credit={"sibling": 0.5})
    assert [f.__name__ for f in rewards] == ["puzzle_reward", "math_reward", "format_reward", "state_transition_reward"]
    assert set(R.REGISTRY) == set(R.REQUIRED_COLUMNS)
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
