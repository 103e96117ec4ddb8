"""Sound answers: entailment by refutation agrees with the definition over enumerated answer sets,
optimisation statements count only optimal answer sets, no enumeration cap, XOR is parity, the
numbered query format and tests as sets of propositions."""
from __future__ import annotations

import random

import pytest

pytest.importorskip("clingo")

import clingo  # noqa: E402

from finereason.asp.critic import Limits, run_program  # noqa: E402
from finereason.asp.query import Model, parse_query, truth_value  # noqa: E402
from finereason.asp.worker import UNIVERSE_DEPTH, run_job  # noqa: E402

FAST = Limits(time_s=10.0, memory_mb=1024)
CONSTANTS = ("a", "b", "c")


def enumerate_models(program: str) -> list[Model]:
    """Every answer set as a :class:`Model` (the reference semantics of queries)."""
    ctl = clingo.Control(["0", "--warn=none"])
    ctl.add("base", [], program)
    ctl.ground([("base", [])])
    models = []
    with ctl.solve(yield_=True) as handle:
        for m in handle:
            atoms, universe = set(), set()
            for sym in m.symbols(atoms=True):
                atoms.add(str(sym))
                stack = [(t, 1) for t in sym.arguments]
                while stack:
                    t, depth = stack.pop()
                    universe.add(str(t))
                    if t.type == clingo.SymbolType.Function and depth < UNIVERSE_DEPTH:
                        stack.extend((x, depth + 1) for x in t.arguments)
            models.append(Model(frozenset(atoms), tuple(sorted(universe))))
    return models


def random_program(rng: random.Random) -> str:
    lines = [f"{{ p({c}) }}." for c in CONSTANTS if rng.random() < 0.7]
    lines += [f"q({c})." for c in CONSTANTS if rng.random() < 0.4]
    lines += ["q(X) :- p(X), not r(X).", "r(X) :- p(X), q(X), X != a."] if rng.random() < 0.6 else ["r(b) :- p(a)."]
    lines += ["s(X, Y) :- p(X), q(Y)."] if rng.random() < 0.5 else ["s(a, b)."]
    if rng.random() < 0.3:
        lines.append(":- p(a), p(b).")
    lines.append("p(c) :- q(c).")
    return "\n".join(lines) + "\n"


def random_query(rng: random.Random, bound: tuple[str, ...] = (), depth: int = 0) -> str:
    terms = list(CONSTANTS) + list(bound)
    if depth >= 3 or rng.random() < 0.35:
        pred = rng.choice(["p", "q", "r", "s"])
        args = [rng.choice(terms) for _ in range(2 if pred == "s" else 1)]
        return f"{pred}({', '.join(args)})"
    op = rng.choice(["NOT", "AND", "OR", "XOR", "IF-THEN", "IFF", "SOME", "ALL"])
    if op in ("SOME", "ALL") and len(bound) < 2:
        var = "XY"[len(bound)]
        return f"{op}({var}, {random_query(rng, bound + (var,), depth + 1)})"
    if op in ("SOME", "ALL", "NOT"):
        return f"NOT({random_query(rng, bound, depth + 1)})"
    count = rng.choice([2, 3]) if op in ("AND", "OR", "XOR") else 2
    return f"{op}({', '.join(random_query(rng, bound, depth + 1) for _ in range(count))})"


def test_refutation_answers_agree_with_enumeration_on_random_programs():
    rng = random.Random(21)
    checked = 0
    for _ in range(120):
        program, query = random_program(rng), random_query(rng)
        expected = truth_value(parse_query(query), enumerate_models(program))
        report = run_job({"program": program, "query": query, "tests": [], "explain": False})
        if report.get("query_error", "").startswith("unknown predicate"):
            continue
        assert report.get("query_error") is None, (program, query, report)
        assert report["answer"] == expected, (program, query)
        checked += 1
    assert checked > 80


def test_tests_agree_with_enumeration():
    rng = random.Random(7)
    for _ in range(40):
        program, query = random_program(rng), random_query(rng)
        models = enumerate_models(program)
        q = parse_query(query)
        tests = [{"type": t, "query": query} for t in ("infer-True-All", "infer-True-Any", "infer-False")]
        report = run_job({"program": program, "tests": tests, "explain": False})
        if any(r["message"].startswith("unknown predicate") for r in report["tests"]):
            continue
        from finereason.asp.query import holds

        values = [holds(q, m) for m in models]
        assert [r["passed"] for r in report["tests"]] == [bool(models) and all(values), any(values),
                                                         bool(models) and not any(values)], (program, query)


def test_many_open_facts_need_no_enumeration():
    program = " ".join(f"{{ o({i}) }}." for i in range(1, 31))
    report = run_program(program, [{"type": "infer-True-Any", "query": "AND(o(1), o(30))"}],
                         "OR(o(1), NOT(o(1)))", limits=FAST)
    assert report.answer == "True" and report.tests[0].passed and not report.complete
    assert run_program(program, [], "o(3)", limits=FAST).answer == "Uncertain"


@pytest.mark.parametrize("program, query, answer, count", [
    ("{a}. #maximize{1:a}.", "a", "True", 1),
    ("{a}. #minimize{1:a}.", "a", "False", 1),
    ("{a; b}. :- a, b. #maximize{1:a; 1:b}.", "OR(a, b)", "True", 2),
    ("{a; b}. :- a, b. #maximize{1:a; 1:b}.", "a", "Uncertain", 2),
    ("{a; b}. :- a, b. #maximize{2:a; 1:b}.", "AND(a, NOT(b))", "True", 1),
    ("{a; b; c}. #maximize{1:a}. #minimize{1:b}.", "AND(a, NOT(b))", "True", 2),
])
def test_optimisation_answers_come_from_optimal_answer_sets(program, query, answer, count):
    report = run_program(program, [{"type": "infer-True-All", "query": query}], query, limits=FAST)
    assert report.optimize and report.answer == answer and report.answer_sets == count
    assert report.tests[0].passed is (answer == "True")


def test_xor_is_parity():
    program = "a. b. c."
    assert run_program(program, [], "XOR(a, b, c)", limits=FAST).answer == "True"
    assert run_program(program, [], "XOR(a, b)", limits=FAST).answer == "False"


def test_numbered_queries_and_tests_as_sets_of_propositions():
    program = "cat(tom). cat(kit). black(tom). mammal(X) :- cat(X)."
    tests = [
        {"type": "infer-True-All", "query": ["1. ATOM(cat(X))", "2. ATOM(black(X))", "SOME(1, 2)"]},
        {"type": "infer-True-All", "query": ["1. ATOM(cat(X))", "2. ATOM(mammal(X))", "ALL(1, 2)"]},
        {"type": "infer-False", "query": "1. ATOM(cat(X))\n2. ATOM(black(X))\nALL(1, 2)"},
        {"type": "infer-True-All", "query": ["cat(tom)", "black(tom)", "mammal(kit)"]},
        {"type": "infer-True-All", "query": ["1. ATOM(cat(tom))", "2. ATOM(black(kit))", "AND(1, 2)"]},
        {"type": "infer-True-All", "query": ["1. ATOM(cat(X))", "SOME(2)"]},
    ]
    report = run_program(program, tests, "1. ATOM(black(kit))\n2. NOT(1)\n2", limits=FAST)
    assert report.answer == "True"
    assert [t.passed for t in report.tests] == [True, True, True, True, False, False]
    assert "proposition 2 is not defined" in report.tests[5].message


def test_the_guides_asp_example_prints_what_it_says(capsys):
    from pathlib import Path

    guide = (Path(__file__).resolve().parents[2] / "docs" / "asp-critic.md").read_text(encoding="utf-8")
    code = guide.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(code, "docs/asp-critic.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    expected = [line.split("# ", 1)[1].strip() for line in code.splitlines() if line.startswith("print(")]
    assert printed == expected


def test_exactly_one_of_three_as_documented():
    query = "OR(AND(a, NOT(b), NOT(c)), AND(NOT(a), b, NOT(c)), AND(NOT(a), NOT(b), c))"
    assert run_program("a. b. c.", [], query, limits=FAST).answer == "False"
    assert run_program("a. b :- c. c :- b. {b}. :- b.", [], query, limits=FAST).answer == "True"
