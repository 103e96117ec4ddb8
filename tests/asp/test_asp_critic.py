"""The clingo critic: screening of hostile programs, errors with line numbers, limits, LLM-ARC tests,
explanations by refutation."""
from __future__ import annotations

import pytest

pytest.importorskip("clingo")

from finereason.asp.critic import Limits, Report, run_program, screen  # noqa: E402
from hostile import hostile_responses  # noqa: E402

FAST = Limits(time_s=3.0, memory_mb=1024)

CATS = """% [P1] All cats are mammals.
mammal(X) :- cat(X).
% [P2] Tom is a cat.
cat(tom).
% [OPEN] Tom may be black.
{ black(tom) }.
other(a).
"""


def run(program: str, tests=(), query=None, limits: Limits = FAST, **kw) -> Report:
    report = run_program(program, tests, query, limits=limits, **kw)
    assert isinstance(report, Report)
    assert isinstance(report.feedback(), str)
    return report


# ------------------------------------------------------------------ hostile programs
@pytest.mark.parametrize("program, line, what", [
    ('#include "/etc/passwd".', 1, "#include"),
    ('a.\n#script (python)\nimport os\nos.system("touch /tmp/fr_pwned")\n#end.', 2, "#script"),
    ("a.\n\n#script(lua) os.execute('touch /tmp/fr_pwned') #end.", 3, "#script"),
    ("p(@system(1)).", 1, "@-terms"),
    ("#external q.\np :- q.", 1, "#external"),
    ("#program step(t).\np.", 1, "#program"),
    ("#theory t { }.", 1, "#theory"),
    ("a.\n  #  include \"x.lp\".", 2, "include"),
    ("p :- &diff{ x - y } <= 3.", 1, "theory atoms"),
    ("__fr_use(1).", 1, "reserved"),
])
def test_dangerous_constructs_are_rejected_with_line_numbers(program, line, what):
    report = run(program)
    assert report.status == "rejected"
    assert report.errors and report.errors[0].line == line
    assert any(what in e.text for e in report.errors)
    assert f"line {line}" in report.feedback()


def test_included_file_is_never_read(tmp_path):
    secret = tmp_path / "secret.lp"
    secret.write_text("leaked(yes).")
    report = run(f'#include "{secret}".\nok.')
    assert report.status == "rejected" and "leaked" not in report.feedback()


@pytest.mark.parametrize("text", ['say("#include x").', "% #script (python) in a comment\nok.",
                                  '%* #include "x" *%\nok.', 'mail("a@b").', "% AT&T\nok.", "#INCLUDE \"x\".",
                                  "# \t\n include \"x\".", "#%* *%include \"x\".", "#Program base.", "#EXTERNAL a."])
def test_directive_names_are_refused_anywhere_even_in_strings_and_comments(text):
    assert run(text).status == "rejected"


def test_harmless_words_after_hashes_are_fine():
    report = run('% C# programmer, #1 in the list, #included\nsay("include script program").\nok.')
    assert report.status == "ok" and report.answer_sets == 1


def test_harmless_directives_are_allowed():
    program = "#const n = 3.\nnum(1..n).\ntotal(S) :- S = #sum { X : num(X) }.\n#show total/1.\n"
    report = run(program, [{"type": "infer-True-All", "query": "total(6)"}])
    assert report.status == "ok" and report.tests[0].passed


def test_syntax_error_has_line_and_column():
    report = run("a :- b.\nb.\np(X :- q.\n")
    assert report.status == "syntax_error"
    assert report.errors[0].line == 3 and report.errors[0].column == 5
    assert "syntax error" in report.errors[0].text
    assert "line 3, column 5" in report.feedback()


def test_unsafe_variable_is_reported_without_internal_guards():
    report = run("a.\np(X) :- q(Y).\nq(1).")
    assert report.status == "syntax_error"
    assert report.errors[0].line == 2 and "unsafe" in report.errors[0].text
    assert "__fr_" not in report.feedback() and "#inc_base" not in report.feedback()


@pytest.mark.parametrize("program", [
    "p(X+1) :- p(X).\np(0).",                       # infinite grounding
    "p(X) :- X = 1..2000000000.",                  # huge grounding
])
def test_non_terminating_programs_get_a_timeout_or_memory_verdict(program):
    report = run(program, limits=Limits(time_s=2.0, memory_mb=512))
    assert report.status in ("timeout", "memory")
    assert report.feedback().split(":")[0] in ("TIMEOUT", "MEMORY")


def test_oversized_program_is_refused_before_clingo():
    report = run("a. " * 60_000, limits=Limits(max_program_chars=100_000))
    assert report.status == "too_large"


@pytest.mark.parametrize("name, text", sorted(hostile_responses().items()))
def test_hostile_texts_as_programs_facts_and_queries_never_crash(name, text):
    tests = [{"type": "infer-True-All", "query": text[:4_000], "facts": text[:2_000]}]
    report = run(text[:200_000], tests, text[:4_000], limits=Limits(time_s=5.0, memory_mb=1024, max_program_chars=300_000))
    assert report.status in ("ok", "no_answer_set", "syntax_error", "rejected", "timeout", "memory", "too_large")


def test_hostile_test_facts_are_screened():
    report = run(CATS, [{"type": "infer-True-All", "query": "cat(tom)", "facts": '#include "/etc/passwd".'}])
    assert report.status == "rejected" and report.errors[0].where == "test 1 facts"


def test_answer_set_limit_is_reported():
    report = run("{ a(1..20) }.", limits=Limits(time_s=5.0, max_models=50))
    assert report.status == "ok" and report.answer_sets == 50 and not report.complete
    assert "50+ answer set" in report.feedback()


# ------------------------------------------------------------------ tests in the LLM-ARC schema
def test_every_test_type_passes_and_fails_correctly():
    tests = [
        {"type": "infer-True-All", "query": "mammal(tom)"},
        {"type": "infer-True-All", "query": "black(tom)"},          # only in some answer sets
        {"type": "infer-True-Any", "query": "black(tom)"},
        {"type": "infer-True-Any", "query": "cat(kit)"},
        {"type": "infer-False", "query": "cat(kit)"},
        {"type": "infer-False", "query": "black(tom)"},
        {"type": "expect-Contradiction", "facts": ":- mammal(tom)."},
        {"type": "expect-Contradiction", "facts": "dog(rex)."},
        {"type": "infer-True-All", "query": "mammal(rex)", "facts": "cat(rex)."},
        {"type": "infer-True-Any", "query": "cat(tom"},               # bad query
        {"type": "infer-maybe", "query": "cat(tom)"},                 # bad type
        {"type": "infer-True-All", "query": "cat(tom)", "facts": "p(X :- ."},  # bad facts
    ]
    report = run(CATS, tests)
    assert [t.passed for t in report.tests] == [True, False, True, False, True, False, True, False, True, False, False, False]
    assert "expecting" in report.tests[11].message or "facts line 1" in report.tests[11].message
    assert "infer-True-All" in report.tests[10].message
    text = report.feedback()
    assert "Test 2 [infer-True-All]: FAILED" in text and "Test 1 [infer-True-All]: PASSED" in text


def test_rules_referenced_must_name_existing_labels():
    report = run(CATS, [
        {"type": "infer-True-All", "query": "mammal(tom)", "rules-referenced": ["P1", "P2"]},
        {"type": "infer-True-All", "query": "mammal(tom)", "rules-referenced": ["P1", "P7"]},
        {"type": "infer-True-All", "query": "mammal(tom)", "rules-referenced": ["P1", "OPEN"]},
    ])
    first, second, third = report.tests
    assert first.passed and not first.unknown_rules and not first.unused_rules
    assert not second.passed and second.unknown_rules == ["P7"]
    assert third.passed and third.unused_rules == ["OPEN"]
    assert "unknown rules: P7" in report.feedback()


def test_refutation_is_a_minimal_entailing_subset():
    program = ("% [A] a.\na.\n% [B]\nb :- a.\n% [C]\nc :- b.\n% [D]\nd.\n% [E]\nc :- d, e.\n% [F]\n{ e }.\n")
    report = run(program, [{"type": "infer-True-All", "query": "c", "rules-referenced": ["A", "B", "C"]}])
    test = report.tests[0]
    assert test.passed
    assert [r["label"] for r in test.explanation] == ["A", "B", "C"]
    # every rule of the explanation is needed: dropping one loses the entailment
    kept = [r["text"] for r in test.explanation]
    for i in range(len(kept)):
        sub = "\n".join(kept[:i] + kept[i + 1:])
        assert run(sub, [{"type": "infer-True-All", "query": "c"}]).tests[0].passed is False
    assert "refutation uses:" in report.feedback() and "line 6 [C]: c :- b." in report.feedback()


def test_conclusion_label_and_its_explanation():
    report = run(CATS, query="mammal(tom)")
    assert report.answer == "True"
    assert {r["label"] for r in report.explanation} == {"P1", "P2"}
    assert run(CATS, query="black(tom)").answer == "Uncertain"
    assert run(CATS, query="cat(kit)").answer == "False"
    unknown = run(CATS, query="dog(tom)")  # closed world would say False: a misspelt name is a finding
    assert unknown.answer is None and unknown.query_error.startswith("unknown predicate dog/1")
    assert "unknown predicate dog/1" in unknown.feedback()
    test = run(CATS, [{"type": "infer-False", "query": "mamal(tom)"}]).tests[0]
    assert not test.passed and "unknown predicate mamal/1" in test.message
    assert run(CATS, [{"type": "infer-False", "query": "dog(rex)", "facts": "dog(kit)."}]).tests[0].passed
    assert run(CATS, query="AND(cat(tom), NOT(").query_error


def test_contradictory_program_gets_a_minimal_unsatisfiable_core():
    program = "% [X]\nx.\n% [Y]\ny :- x.\n% [Z]\n:- y.\n% [W]\nw.\n"
    report = run(program, query="w")
    assert report.status == "no_answer_set" and report.answer is None
    assert [r["label"] for r in report.explanation] == ["X", "Y", "Z"]
    assert "no answer set" in report.feedback()


def test_screen_is_pure_and_bounded():
    assert screen("a.") == []
    assert len(screen("#include x.\n" * 1000)) == 20


def test_list_queries_are_well_formed_tests():
    report = run(CATS, [{"type": "infer-True-All", "query": ["1. ATOM(cat(X))", "2. ATOM(mammal(X))", "ALL(1, 2)"]},
                        {"type": "infer-True-All", "query": [1, 2]}])
    assert report.tests[0].passed and not report.tests[1].passed
    assert [w.text for w in report.warnings if w.where == "tests"] == [
        'test 2: needs a "query" string (or a list of numbered propositions)']
