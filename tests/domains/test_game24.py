"""Game of 24: safe arithmetic, the exact oracle, moves, step classification and official data."""
from __future__ import annotations

import csv
from collections import Counter
from fractions import Fraction
from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import read_jsonl, shared_path
from finereason.domains.game_of_24 import arith
from finereason.domains.game_of_24.arith import BinOp, DivisionByZero, Num
from finereason.core.engine import StepKind, get_engine
from finereason.domains.game_of_24.answer import arithmetic_answer, expression_reading
from finereason.domains.game_of_24.engine import Game24Engine
from finereason.domains.game_of_24.puzzle import Game24Puzzle
from finereason.domains.game_of_24.solver import can_make, solvable_multisets, solve
from finereason.common.verdict import ParseError, StateError
from finereason.verification.verifiers import verify_end_to_end, verify_state_transition

ENGINE: Game24Engine = get_engine("game_of_24")  # type: ignore[assignment]
P1247 = Game24Puzzle((1, 2, 4, 7))


def state(*items: str | int) -> tuple:
    return ENGINE.parse_state(P1247, list(items))


def official_items(official_states):
    return [(rec, ENGINE.item_from_official(rec)) for rec in official_states("game24")]


# ------------------------------------------------------------------ registry
def test_registered_under_all_names():
    for name in ("game_of_24", "game24", "24"):
        assert get_engine(name) is ENGINE
    assert ENGINE.official_name == "game24"


# ------------------------------------------------------------------ solver facts
def test_exactly_1362_of_1820_multisets_are_solvable():
    assert len(list(combinations_with_replacement(range(1, 14), 4))) == 1820
    assert len(solvable_multisets(1, 13, 4)) == 1362


def test_tot_24_csv_is_exactly_our_solvable_set():
    with open(shared_path("game24", "24.csv"), encoding="utf-8", newline="") as fh:
        puzzles = [tuple(sorted(int(x) for x in row["Puzzles"].split())) for row in csv.DictReader(fh)]
    assert len(puzzles) == 1362 and len(set(puzzles)) == 1362
    assert all(can_make(p) for p in puzzles)
    assert set(puzzles) == set(solvable_multisets())


def test_solve_gives_a_checked_solution_exactly_when_solvable():
    solvable = set(solvable_multisets())
    for numbers in combinations_with_replacement(range(1, 14), 4):
        text = solve(numbers)
        assert (text is not None) == (numbers in solvable)
        if text is not None:
            assert ENGINE.check_solution(Game24Puzzle(numbers), (arith.parse(text),)) == []


def test_every_official_question_is_solvable():
    questions = read_jsonl(shared_path("finereason_official", "game24_questions.jsonl"))
    assert len(questions) == 98
    for record in questions:
        puzzle = ENGINE.puzzle_from_official(record)
        assert ENGINE.is_solvable(puzzle, ENGINE.parse_state(puzzle, record["inputs"]["initial_state"]))


# ------------------------------------------------------------------ official states
def test_oracle_agrees_with_every_official_label(official_states):
    items = official_items(official_states)
    assert len(items) == 100
    disagreements = [rec for rec, item in items if ENGINE.is_solvable(item.puzzle, item.current) != item.solvable]
    assert disagreements == []
    # the sample holds both labels, so agreement is not trivial
    assert {item.solvable for _, item in items} == {True, False}


def test_official_unsolvable_children_are_unsolvable_children(official_states):
    for _, item in official_items(official_states):
        assert item.unsolvable_child is not None
        assert not ENGINE.is_solvable(item.puzzle, item.unsolvable_child)
        # the official tree uses our move convention exactly: new expression first, order kept
        assert item.unsolvable_child in set(ENGINE.children(item.puzzle, item.current))
        assert item.current in set(ENGINE.children(item.puzzle, item.parent))
        assert ENGINE.step(item.puzzle, item.current, item.unsolvable_child).kind is StepKind.FORWARD
        assert ENGINE.step(item.puzzle, item.parent, item.current).kind is StepKind.FORWARD
        assert ENGINE.step(item.puzzle, item.current, item.parent).kind is StepKind.BACKWARD
        if item.grandparent is not None:
            assert ENGINE.step(item.puzzle, item.grandparent, item.current).kind is StepKind.MULTIPLE


def test_official_states_round_trip(official_states):
    for rec, item in official_items(official_states):
        inputs = rec["inputs"]
        for key in ("current", "parent", "grandparent", "unsolvable_child"):
            if inputs[key] is None:
                assert getattr(item, key) is None
                continue
            assert ENGINE.to_official(item.puzzle, getattr(item, key)) == inputs[key]
            assert ENGINE.render(item.puzzle, getattr(item, key)) == repr(inputs[key])
        assert list(item.puzzle.numbers) == [int(x) for x in inputs["initial_state"]]


def test_transition_verdicts_on_official_items(official_states):
    for _, item in official_items(official_states):
        child = ENGINE.render(item.puzzle, item.unsolvable_child)
        parent = ENGINE.render(item.puzzle, item.parent)
        current = ENGINE.render(item.puzzle, item.current)
        if item.solvable:
            paper = verify_state_transition(ENGINE, item, f"Next state: {child}", "paper")
            strict = verify_state_transition(ENGINE, item, f"Next state: {child}", "strict")
            assert paper.category == strict.category == "unsolvable_child"
        else:
            assert verify_state_transition(ENGINE, item, f"Next state: {parent}").category == "correct"
            assert verify_state_transition(ENGINE, item, f"Next state: {current}").category == "backtracking_failure"


# ------------------------------------------------------------------ arithmetic parser
@pytest.mark.parametrize(
    "text",
    [
        "__import__('os').system('x')",  # code
        "9**9**9",                        # exponentiation
        "NaN", "inf", "x", "2 x 3",      # names
        "1.5", "1e5",                     # non-integers
        "٣", "３ + 1",                    # unicode digits (Arabic-Indic, fullwidth)
        "-3", "3 - -3", "+3",             # unary signs
        "1234567",                        # more than 6 digits
        "", "()", "(1", "1)", "1 2", "1 +", "[1]",
        "(" * 51 + "1" + ")" * 51,        # nested deeper than the limit
        "+".join(["1"] * 60),             # more numbers and operators than the limit
    ],
)
def test_parser_rejects(text):
    with pytest.raises(ParseError):
        arith.parse(text)


@pytest.mark.parametrize(
    "text",
    ["(" * 100_000 + "1" + ")" * 100_000, "1" * 5_000_000, "(" * 2_500_000 + ")" * 2_500_000],
    ids=["100k-nested-parentheses", "5MB-number", "5MB-parentheses"],
)
def test_hostile_sizes_fail_with_a_typed_error(text):
    # Each reader refuses the text with its own error type (never RecursionError, MemoryError or a
    # hang); how fast is measured against a linear scan of the same text in benchmarks/bench_hostile.py.
    next_state, answer, equations = f"Next state: [1, {text}]", f"Answer: {text}", text.replace("1", "1\n=")
    calls = [
        (ParseError, lambda: arith.parse(text)),
        (StateError, lambda: ENGINE.parse_state(P1247, ["1", text])),
        ((ParseError, StateError), lambda: ENGINE.parse_state_text(P1247, next_state)),
        (ParseError, lambda: ENGINE.parse_solution_text(P1247, answer)),
        (ParseError, lambda: ENGINE.parse_solution_text(P1247, equations)),
    ]
    for error, call in calls:
        with pytest.raises(error):
            call()


def test_parser_precedence_aliases_and_format():
    assert arith.to_text(arith.parse("1 + 2 * 3")) == "(1 + (2 * 3))"
    assert arith.to_text(arith.parse("8 - 4 - 2")) == "((8 - 4) - 2)"
    assert arith.to_text(arith.parse("((((4))) ×6)÷2 − 1")) == "(((4 * 6) / 2) - 1)"
    assert arith.parse(" ( 4 +\t7 ) ") == arith.parse("(4 + 7)") == BinOp("+", Num(4), Num(7))
    assert arith.parse("(" * 50 + "1" + ")" * 50) == Num(1)
    node = arith.parse("(4 + 4) * (7 - 1)")
    assert arith.leaves(node) == Counter({4: 2, 7: 1, 1: 1})
    assert arith.count_ops(node) == 3
    assert arith.evaluate(node) == 48
    assert hash(node) == hash(arith.parse("((4+4)*(7-1))"))


def test_division_by_zero_is_an_error_not_a_crash():
    with pytest.raises(DivisionByZero) as info:
        arith.evaluate(arith.parse("1/0"))
    assert isinstance(info.value, ZeroDivisionError)
    puzzle = Game24Puzzle((2, 2, 4, 7))
    bad = ENGINE.parse_state(puzzle, ["(4 / (2 - 2))", "7"])
    assert ENGINE.violations(puzzle, bad) == ["expression (4 / (2 - 2)) divides by zero"]
    assert not ENGINE.is_solvable(puzzle, bad)
    current = ENGINE.parse_state(puzzle, ["(2 - 2)", "4", "7"])
    step = ENGINE.step(puzzle, current, bad)
    assert step.kind is StepKind.INVALID and "divides by zero" in step.reasons[0]
    assert (ENGINE.parse_state(puzzle, ["(4 / (2 - 2))", "7"]) not in set(ENGINE.children(puzzle, current)))
    verdict = verify_end_to_end(ENGINE, puzzle, "Answer: (2 * 7 + 4) / (2 - 2)")
    assert verdict.category == "invalid_solution" and "divides by zero" in verdict.reasons[0]


def test_parse_state_errors():
    with pytest.raises(StateError, match="expression 2 is not valid arithmetic"):
        ENGINE.parse_state(P1247, ["1", "2 ** 3"])
    for bad in ([], "1 2 4 7", None, [1.5], [True], [["1"]], [-1], ["1"] * 1000):
        with pytest.raises(StateError):
            ENGINE.parse_state(P1247, bad)
    assert ENGINE.parse_state(P1247, [1, 2, "(4 + 7)"]) == (Num(1), Num(2), BinOp("+", Num(4), Num(7)))


# ------------------------------------------------------------------ model text
@pytest.mark.parametrize(
    "text, expected",
    [
        ("Next state: [(4 + 7), 1, 2]", ["(4 + 7)", "1", "2"]),                # bare items
        ("Next state: ['(4 + 7)', '1', '2']", ["(4 + 7)", "1", "2"]),          # the official quoting
        ('Next state: ["(4+7)", 1, 2,]', ["(4 + 7)", "1", "2"]),               # double quotes, ints, trailing comma
        ("**Next state:** `[(7 × 4), 1, 2]`", ["(7 * 4)", "1", "2"]),          # markdown, unicode sign
        ("Next state: $[(4 \\times 7), 1, 2]$", ["(4 * 7)", "1", "2"]),       # LaTeX operators
        ("Next state: $[\\frac{7}{4}, 1 \\cdot 2]$", ["(7 / 4)", "(1 * 2)"]),
        ("Next state: [7 \\div 4, 1, 2]", ["(7 / 4)", "1", "2"]),
        ("Next state: \\[ [(7 - 4), 1, 2] \\]", ["(7 - 4)", "1", "2"]),      # display math
        ("Next state:\n\\[\\left[ \\left(4 + 7\\right), 1, 2 \\right]\\]", ["(4 + 7)", "1", "2"]),
        ("<think>Next state: [1]</think>Next state: [(4 + 7), 2, 1]", ["(4 + 7)", "2", "1"]),
    ],
)
def test_parse_state_text_formats(text, expected):
    proposed = ENGINE.parse_state_text(P1247, text)
    assert ENGINE.to_official(P1247, proposed) == expected


@pytest.mark.parametrize(
    "text, error",
    [
        ("I think we should add 4 and 7.", ParseError),        # no marker
        ("Next state: (4 + 7), 1, 2", ParseError),             # no list
        ("Next state: [__import__('os'), 1, 2]", StateError),  # code is not arithmetic
        ("Next state: []", StateError),
    ],
)
def test_parse_state_text_failures(text, error):
    with pytest.raises(error):
        ENGINE.parse_state_text(P1247, text)


@pytest.mark.parametrize(
    "text",
    [
        "Answer: (13 - 9) * (2 + 4) = 24",
        "So the final answer is **(13-9)×(2+4)**.",
        "Answer: $(13 - 9) \\times (2 + 4) = 24$",
        "The answer is \\boxed{(13-9) \\cdot (2+4)}",
        "Answer: 24 = (13 - 9) * (2 + 4)",
        "Answer: ['((13 - 9) * (2 + 4))']",
        "13 - 9 = 4, 2 + 4 = 6\n(13 - 9) * (2 + 4) = 24",       # no marker: last line with '='
        "<think>Answer: 1 + 1</think>\nAnswer: (13 - 9) * (2 + 4)\nThis answer uses each number once.",
    ],
)
def test_end_to_end_formats(text):
    assert verify_end_to_end(ENGINE, Game24Puzzle((2, 4, 9, 13)), text).correct


# ------------------------------------------------------------------ solutions and instance binding
def test_check_solution_reasons():
    puzzle = Game24Puzzle((2, 4, 9, 13))
    ok = (arith.parse("(13 - 9) * (2 + 4)"),)
    assert ENGINE.check_solution(puzzle, ok) == []
    assert ENGINE.check_solution(puzzle, (arith.parse("(13 - 9) * (2 + 4) - 1"),)) == [
        "uses 1, which is not among the numbers", "evaluates to 23, not 24",
    ]
    assert ENGINE.check_solution(puzzle, (arith.parse("(13 - 9) * (2 + 4 + 4) - 16"),))[:2] == [
        "uses 4 twice, but the numbers have it once", "uses 16, which is not among the numbers",
    ]
    assert ENGINE.check_solution(puzzle, (arith.parse("13 + 9 + 2"),)) == ["does not use 4"]
    assert ENGINE.check_solution(puzzle, (arith.parse("(13 - 9)"), arith.parse("(2 + 4)")))[0].startswith(
        "the answer has 2 expressions"
    )


def test_a_solution_of_one_puzzle_is_rejected_for_another():
    a, b = Game24Puzzle((2, 4, 9, 13)), Game24Puzzle((2, 4, 9, 12))
    answer = f"Answer: {solve(a.numbers)}"
    assert verify_end_to_end(ENGINE, a, answer).correct
    assert not verify_end_to_end(ENGINE, b, answer).correct
    # every official question's solution fails on every other official multiset
    questions = read_jsonl(shared_path("finereason_official", "game24_questions.jsonl"))
    puzzles = list({tuple(sorted(ENGINE.puzzle_from_official(q).numbers)): None for q in questions})
    for i, numbers in enumerate(puzzles):
        solution = f"Answer: {solve(numbers)}"
        other = Game24Puzzle(puzzles[(i + 1) % len(puzzles)])
        assert verify_end_to_end(ENGINE, Game24Puzzle(numbers), solution).correct
        assert not verify_end_to_end(ENGINE, other, solution).correct


def test_target_is_part_of_the_instance():
    assert not ENGINE.check_solution(Game24Puzzle((1, 2, 3, 4)), (arith.parse("1 * 2 * 3 * 4"),))
    assert ENGINE.check_solution(Game24Puzzle((1, 2, 3, 4), target=10), (arith.parse("1 * 2 * 3 * 4"),)) == [
        "evaluates to 24, not 10",
    ]


# ------------------------------------------------------------------ rules and steps
def test_violations_name_the_numbers():
    assert ENGINE.violations(P1247, state(1, 2, 4, 7)) == []
    assert ENGINE.violations(P1247, state("(4 + 4)", 1, 2)) == [
        "uses 4 twice, but the numbers have it once", "does not use 7",
    ]
    assert ENGINE.violations(P1247, state("(4 + 8)", 1, 2, 7)) == ["uses 8, which is not among the numbers"]


def test_oracle_small_cases():
    assert ENGINE.is_solvable(P1247, state("((7 - 1) * (2 * 4))")) is False  # 48
    assert ENGINE.is_solvable(P1247, state("((7 - 1) * (4 / 2) * 2)")) is False  # uses 2 twice
    assert ENGINE.is_solvable(Game24Puzzle((1, 2, 3, 4)), (arith.parse("1 * 2 * 3 * 4"),)) is True
    assert ENGINE.is_solvable(Game24Puzzle((3, 3, 8, 8)), (arith.parse("8 / (3 - 8 / 3)"),)) is True
    assert can_make([3, 3, 8, 8]) and can_make([Fraction(8, 3), 3, 8]) and not can_make([1, 1, 1, 1])


STEP_CASES = [
    # (current, proposed, expected kind, substring of the first reason)
    ((1, 2, 4, 7), ("(4 + 7)", 1, 2), StepKind.FORWARD, None),
    ((1, 2, 4, 7), (1, "(7 + 4)", 2), StepKind.FORWARD, None),              # commuted, moved
    ((1, 2, 4, 7), ("(7 - 4)", 1, 2), StepKind.FORWARD, None),              # later minus earlier
    (("(4 + 7)", 1, 2), ("(1 + (7 + 4))", 2), StepKind.FORWARD, None),      # commuted inside
    (("(4 + 7)", 1, 2), ("(4 + 7 + 1)", 2), StepKind.FORWARD, None),        # left-assoc text
    ((1, 2, 4, 7), (7, 4, 2, 1), StepKind.NONE, None),                      # reordered only
    (("(4 + 7)", 1, 2), ("((((4+7))))", 1, 2), StepKind.NONE, None),        # redundant parentheses
    ((1, 2, 4, 7), ("(1 + 2)", "(4 * 7)"), StepKind.MULTIPLE, "2 operations applied"),
    ((1, 2, 4, 7), ("((1 + 2) + 4)", 7), StepKind.MULTIPLE, "2 operations applied"),
    ((1, 2, 4, 7), ("(((1 + 2) + 4) * 7)",), StepKind.MULTIPLE, "3 operations applied"),
    (("(4 + 7)", 1, 2), (4, 7, 1, 2), StepKind.BACKWARD, None),
    (("((4 + 7) + 1)", 2), (4, 7, 1, 2), StepKind.MULTIPLE, "2 operations undone"),
    ((1, 2, 4, 7), ("(4 + 4)", 1, 2), StepKind.INVALID, "uses 4 twice"),
    ((1, 2, 4, 7), ("(4 + 8)", 1, 2), StepKind.INVALID, "does not use 7"),
    ((1, 2, 4, 7), (11, 1, 2), StepKind.INVALID, "does not use 4"),          # a value is not a move
    (("(4 + 7)", 1, 2), ("(4 + 1)", 7, 2), StepKind.INVALID, "cannot be made"),  # regrouped
    (("((4 + 7) + 1)", 2), ("(4 + (7 + 1))", 2), StepKind.INVALID, "cannot be made"),  # reassociated
    (("(4 - 7)", 1, 2), ("(7 - 4)", 1, 2), StepKind.INVALID, "cannot be made"),  # - is not commutative
]


@pytest.mark.parametrize("current, proposed, kind, reason", STEP_CASES)
def test_step_crafted(current, proposed, kind, reason):
    step = ENGINE.step(P1247, state(*current), state(*proposed))
    assert step.kind is kind, step
    if reason is not None:
        assert reason in step.reasons[0], step.reasons


def test_same_is_modulo_commutativity_only():
    assert ENGINE.same(state("((7 + 4) * 1)", 2), state(2, "(1 * (4 + 7))"))
    assert not ENGINE.same(state("(7 - 4)", 1, 2), state("(4 - 7)", 1, 2))
    assert not ENGINE.same(state("((1 + 2) + 4)", 7), state("(1 + (2 + 4))", 7))


def test_from_input_forms():
    puzzle, current = ENGINE.from_input({"numbers": "1 2 4 7", "state": ["(4 + 7)", "1", "2"]})
    assert puzzle == P1247 and current == state("(4 + 7)", 1, 2)
    assert ENGINE.from_input([1, 2, 4, 7]) == (P1247, state(1, 2, 4, 7))


# ------------------------------------------------------------------ properties
_leaf = st.integers(0, 999_999).map(Num)
_exprs = st.recursive(
    _leaf, lambda sub: st.builds(BinOp, st.sampled_from(arith.OPERATORS), sub, sub), max_leaves=12
)


def _reference_value(node):
    """Exact value as an integer (numerator, denominator) pair, without Fraction."""
    if isinstance(node, Num):
        return node.value, 1
    (a, b), (c, d) = _reference_value(node.left), _reference_value(node.right)
    if node.op == "+":
        return a * d + c * b, b * d
    if node.op == "-":
        return a * d - c * b, b * d
    if node.op == "*":
        return a * c, b * d
    if c == 0:
        raise ZeroDivisionError
    return (a * d, b * c) if c > 0 else (-a * d, -b * c)


@settings(max_examples=300, deadline=None)
@given(_exprs)
def test_text_round_trip_and_exact_value(node):
    text = arith.to_text(node)
    assert arith.parse(text) == node
    assert arith.parse(text.replace(" ", "")) == node
    try:
        num, den = _reference_value(node)
    except ZeroDivisionError:
        with pytest.raises(DivisionByZero):
            arith.evaluate(node)
        return
    assert arith.evaluate(node) == Fraction(num, den)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 50), min_size=1, max_size=8), st.lists(st.sampled_from("+-*/"), min_size=7, max_size=7))
def test_flat_text_uses_usual_precedence(numbers, ops):
    """Unparenthesised text: * and / bind tighter, all operators associate to the left."""
    ops = ops[: len(numbers) - 1]
    text = "".join(f"{n}{op}" for n, op in zip(numbers, ops)) + str(numbers[-1])
    terms, pending = [Fraction(numbers[0])], []
    try:
        for op, n in zip(ops, numbers[1:]):
            if op == "*":
                terms[-1] *= n
            elif op == "/":
                terms[-1] /= n
            else:
                pending.append(op)
                terms.append(Fraction(n))
    except ZeroDivisionError:
        with pytest.raises(DivisionByZero):
            arith.evaluate(arith.parse(text))
        return
    expected = terms[0]
    for op, term in zip(pending, terms[1:]):
        expected = expected + term if op == "+" else expected - term
    assert arith.evaluate(arith.parse(text)) == expected


@st.composite
def _states(draw):
    """A puzzle and a state reached from it by 0-2 random forward moves."""
    puzzle = Game24Puzzle(tuple(draw(st.lists(st.integers(0, 13), min_size=2, max_size=4))))
    current = ENGINE.parse_state(puzzle, list(puzzle.numbers))
    for _ in range(draw(st.integers(0, 2))):
        kids = list(ENGINE.children(puzzle, current))
        if not kids or len(current) <= 2:
            break
        current = kids[draw(st.integers(0, len(kids) - 1))]
    return puzzle, current


@settings(max_examples=150, deadline=None)
@given(_states())
def test_moves_are_classified_and_undone(case):
    puzzle, current = case
    kids = list(ENGINE.children(puzzle, current))
    assert bool(kids) == (len(current) > 1)  # + - * always apply
    for child in kids:
        assert ENGINE.violations(puzzle, child) == []
        assert ENGINE.step(puzzle, current, child).kind is StepKind.FORWARD
        assert ENGINE.step(puzzle, child, current).kind is StepKind.BACKWARD
        assert any(ENGINE.same(parent, current) for parent in ENGINE.undo_moves(puzzle, child))
        assert ENGINE.parse_state(puzzle, ENGINE.to_official(puzzle, child)) == child


@settings(max_examples=150, deadline=None)
@given(_states())
def test_oracle_is_consistent_with_the_tree(case):
    """A state is solvable iff it is a solution or one of its children is solvable."""
    puzzle, current = case
    kids = list(ENGINE.children(puzzle, current))
    expected = any(ENGINE.is_solvable(puzzle, c) for c in kids) if len(current) > 1 else (
        ENGINE.check_solution(puzzle, current) == []
    )
    assert ENGINE.is_solvable(puzzle, current) == expected


def _naive_can_make(values: list[Fraction], target: Fraction) -> bool:
    """Reference: plain recursive search with Fraction, no memo, no pruning."""
    if len(values) == 1:
        return values[0] == target
    for i in range(len(values)):
        for j in range(len(values)):
            if i != j:
                a, b = values[i], values[j]
                rest = [v for k, v in enumerate(values) if k not in (i, j)]
                options = [a + b, a - b, a * b] + ([a / b] if b else [])
                if any(_naive_can_make(rest + [r], target) for r in options):
                    return True
    return False


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.fractions(min_value=-20, max_value=20, max_denominator=6), min_size=1, max_size=4),
    st.integers(-30, 30),
)
def test_oracle_matches_naive_fraction_search(values, target):
    assert can_make(values, target) == _naive_can_make(values, Fraction(target))


# ------------------------------------------------------------------ the commitment rule on expressions (issue 20)
P4_9_10_13 = Game24Puzzle((4, 9, 10, 13))
GOOD, OTHER = "(10 - 4) * (13 - 9)", "10 + 4 + 13 - 9"


def _credited(text: str, puzzle: Game24Puzzle = P4_9_10_13) -> bool:
    return verify_end_to_end(ENGINE, puzzle, text).correct


@pytest.mark.parametrize(
    "text, numbers",
    [
        ("(10 - 2) * (11 - 8) = 24 [ANSWER END]", (2, 8, 10, 11)),                  # end tag on the answer line
        ("(12 - 6) * (11 - 7) = 6 * 4 = 24.  \n[ANSWER END]", (6, 7, 11, 12)),        # full stop after 24
        ("Answer: 8(13 - 12 + 2)", (2, 8, 12, 13)),                                   # implicit multiplication
        ("### Final Answer\n(10 - 4) * (13 - 9) = 24", (4, 9, 10, 13)),              # heading without a colon
        ("So the final answer is:\n\n(10 - 4) * (13 - 9)", (4, 9, 10, 13)),           # announced, bare line
        ("(10 - 4) x (13 - 9) = 24", (4, 9, 10, 13)),                                 # x between operands
        ("**Answer: (10 - 4) * (13 - 9) = 24**", (4, 9, 10, 13)),                      # bold
        ("(10 - 4) * (13 - 9) = 24 ---> done", (4, 9, 10, 13)),                      # an arrow remark
        ("Answer: One solution is (10 - 4) * (13 - 9) = 24.", (4, 9, 10, 13)),        # prose after the marker
        ("(10 - 4) * (13 - 9) = 24\n\nCheck:\n10 - 4 = 6\n13 - 9 = 4\n6 * 4 = 24", (4, 9, 10, 13)),  # steps after
        ("(10 - 4) * (13 - 9) = 24\n\nAnswer: 24", (4, 9, 10, 13)),                   # the target restated
        ("(13 - 9) * (10 - 4) = 24\nAnswer: (10 - 4) * (13 - 9)", (4, 9, 10, 13)),    # restated, commuted
        ("Answer: (10 - 4) * (13 - 9) + 1 = 24\n\nWait, that's wrong. Corrected: (10 - 4) * (13 - 9) = 24",
         (4, 9, 10, 13)),                                                              # a correction commits
    ],
)
def test_committed_expressions_are_credited(text, numbers):
    assert _credited(text, Game24Puzzle(numbers)), text


@pytest.mark.parametrize(
    "text",
    [
        f"Answer: {GOOD} = 24\n\nWait, that's wrong. Corrected: (10 - 4) * (13",    # correction cut off: no fallback
        f"Answer: {GOOD} = 24\n\nI couldn't find a solution.",                        # inability after it
        f"Answer: {GOOD} = 24\n\nHmm, scratch that, I need to redo this.",            # retraction after it
        f"Answer: {GOOD} = 24\n\nFinal answer: {OTHER} = 24",                         # a later answer replaces it
        f"Answer: {GOOD} = 24\n\nAnswer: no solution exists",                        # a later non-expression answer
        f"{GOOD} = 24 or {OTHER} = 24",                                               # two at once
        f"{GOOD} = 24\nor alternatively\n{OTHER} = 24",                               # two at once, across lines
        f"{GOOD} = 24 (incorrect)",                                                   # rejected on its line
        f"{GOOD} = 24\nHowever, this does not equal 24.",                              # rejected on the next line
        "(10 - 4) * (13 - 9) * 1 = 6 * 5 = 24",                                       # an unsound chain
        f"Answer: {GOOD} mod 5",                                                      # more than the expression
        f"Answer: √({GOOD})",
        f"Answer: {GOOD}!",
        "Final answer:",                                                              # cut off after the marker
    ],
)
def test_withdrawn_replaced_hedged_or_unsound_answers_are_not_credited(text):
    puzzle = Game24Puzzle((1, 4, 9, 10, 13)) if "* 1 =" in text else P4_9_10_13
    assert not _credited(text, puzzle), text


def test_unsound_chain_reads_but_never_credits():
    puzzle = Game24Puzzle((1, 4, 9, 10, 13))
    assert _credited("(10 - 4) * (13 - 9) * 1 = 6 * 4 = 24", puzzle)
    reading = expression_reading("(10 - 4) * (13 - 9) * 1 = 6 * 5 = 24")
    assert reading.value is None and "unsound" in reading.reason
    # a wrong expression in a chain is read and reported by the verifier
    verdict = verify_end_to_end(ENGINE, Game24Puzzle((2, 3, 11, 13)), "(13 - 11) * (3 + 2) = 2 * 5 = 10 + 14 = 24")
    assert not verdict.correct and "evaluates to 10, not 24" in verdict.reasons


def test_text_after_the_answer_is_read_to_the_end():
    tail = "This uses each number exactly once. " * 1_000          # 36 KB of explanation
    assert _credited(f"Answer: {GOOD} = 24\n\n{tail}")
    assert not _credited(f"Answer: {GOOD} = 24\n\n{tail}\n\nActually no, I made a mistake.")


def test_reading_exposes_statements_and_live_answers():
    reading = expression_reading(f"Answer: {GOOD}\nAnswer: {OTHER}\nAnswer: {GOOD}")
    assert reading.value is not None and reading.live == 2 and not reading.single
    assert expression_reading(f"Answer: {GOOD}").single
    with pytest.raises(ParseError, match="cut off"):
        arithmetic_answer("Answer: (10 - 4) * (13")


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["", ".", " [ANSWER END]", "\n\nThis uses each number once.", "\n\nAnswer: 24", " **"]),
       st.sampled_from(["", "**", "$", "`"]), st.sampled_from([GOOD, "(13 - 9) * (10 - 4)", "24 = " + GOOD]))
def test_formatting_and_neutral_text_never_change_the_verdict(tail, wrap, expression):
    assert _credited(f"Answer: {wrap}{expression}{wrap}{tail}")


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["Wait, that's wrong.", "Actually no.", "I'm not sure about this.", "I could not find a valid one.",
                        "Scratch that.", "Hmm, let me redo this."]),
       st.integers(min_value=0, max_value=len(OTHER) - 1))
def test_retractions_and_cut_corrections_never_credit(retraction, cut):
    text = f"Answer: {GOOD} = 24\n\n{retraction}"
    assert not _credited(text)
    assert not _credited(f"{text} Corrected: {OTHER[:cut + 1]}" if cut < len(OTHER) - 1 else f"{text} Corrected: {OTHER}")
