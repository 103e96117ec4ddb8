"""The ASP critic against hostile programs: the screen cannot be out-lexed, the worker cannot read files
(Landlock, no new descriptors, empty directory), messages never echo paths, parent-side work scales
linearly, and UTF-8, deep terms and memory exhaustion get proper verdicts."""
from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from finereason.asp.screen import Limits, from_ascii, screen, to_ascii

REPO = Path(__file__).resolve().parents[2]
FAST = Limits(time_s=5.0, memory_mb=1024)
EXPLOIT = '%* %* *% " *%\n#include "{path}".\n%* " *%\nok.\n'


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    path = tmp_path / "secret.lp"
    path.write_text("leaked(topsecret).\n")
    return path


def _assert_no_leak(report, secret: Path) -> None:
    text = report.feedback() + repr(report)
    assert "topsecret" not in text and "leaked" not in " ".join(report.sample)
    assert str(secret.parent) not in text


# ------------------------------------------------------------------ the exploit
def test_nested_comment_exploit_is_refused_in_programs_facts_and_queries(secret):
    pytest.importorskip("clingo")
    from finereason.asp.critic import run_program

    program = EXPLOIT.format(path=secret)
    report = run_program(program, limits=FAST)
    assert report.status == "rejected" and report.errors[0].line == 2
    _assert_no_leak(report, secret)
    test = {"type": "infer-True-All", "query": "leaked(topsecret)", "facts": program}
    report = run_program("ok.", [test], limits=FAST)
    assert report.status == "rejected" and report.errors[0].where == "test 1 facts"
    assert "PASSED" not in report.feedback()
    _assert_no_leak(report, secret)
    report = run_program("ok.", [], f'q("#include {secret}")', limits=FAST)
    assert report.status == "rejected" and report.errors[0].where == "query"


def _worker_script(body: str) -> subprocess.CompletedProcess:
    """Run ``body`` in a fresh interpreter after the worker's OS restrictions (no screen in front)."""
    code = textwrap.dedent("""
        import sys
        import clingo
        from finereason.asp import sandbox
        from finereason.asp.program import diagnostics
        layers = sandbox.restrict(1024, 20)
    """) + textwrap.dedent(body)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          cwd=str(REPO), env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})


def test_worker_sandbox_stops_an_include_that_passed_the_screen(secret):
    pytest.importorskip("clingo")
    result = _worker_script(f"""
        messages = []
        ctl = clingo.Control(logger=lambda c, t: messages.append((c, t)))
        try:
            ctl.add("base", [], '#include "{secret}".')
            ctl.ground([("base", [])])
            atoms = [str(a.symbol) for a in ctl.symbolic_atoms]
        except RuntimeError:
            atoms = []
        print("ATOMS", atoms)
        print("LAYERS", layers)
        print("MESSAGES", [d["text"] for d in diagnostics(messages)])
    """)
    assert result.returncode == 0, result.stderr
    assert "topsecret" not in result.stdout and "ATOMS []" in result.stdout
    assert "nofile" in result.stdout
    assert str(secret.parent) not in result.stdout.split("MESSAGES", 1)[1]


def test_landlock_denies_every_file_where_the_kernel_has_it(secret):
    from finereason.asp.sandbox import landlock_abi

    if landlock_abi() < 1:
        pytest.skip("this kernel has no Landlock")
    code = f"""
from finereason.asp.sandbox import landlock_deny_all
assert landlock_deny_all()
for path in ({str(secret)!r}, {str(REPO / "README.md")!r}, {sys.executable!r}):
    try:
        open(path).read()
        print("OPENED", path)
    except PermissionError:
        print("DENIED", path)
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                            env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    assert "OPENED" not in result.stdout and result.stdout.count("DENIED") == 3


def test_reports_say_which_sandbox_layers_ran():
    pytest.importorskip("clingo")
    from finereason.asp.critic import run_program

    layers = run_program("a.", limits=FAST).sandbox
    assert {"rlimits", "nofile"} <= set(layers)


def test_messages_about_files_are_withheld_and_paths_scrubbed():
    pytest.importorskip("clingo")
    from finereason.asp.program import WITHHELD, diagnostics

    out = diagnostics([(None, '<block>:1:1-30: error: file could not be opened:\n  /home/u/secret.lp\n'),
                       (None, "/home/u/secret.lp:3:1-4: error: syntax error, unexpected <IDENTIFIER>\n"),
                       (None, "<string>:2:1-5: info: atom does not occur in any rule head:\n  p/2 at /x/y\n")])
    assert out[0]["text"] == WITHHELD and out[1]["text"] == WITHHELD and out[1]["line"] == 0
    assert "/x/y" not in out[2]["text"] and "p/2" in out[2]["text"] and out[2]["line"] == 2


# ------------------------------------------------------------------ the screen
@pytest.mark.parametrize("text", ["#include", "#  include", "#\n\tinclude", "#%**%include", "# %* *% INCLUDE", "#Script",
                                  "#EXTERNAL", "# program", "#theory", "p(@f).", "a :- &x{}.", "% @ in a comment", '"&"'])
def test_screen_refuses_directive_names_anywhere(text):
    assert any(d.code == "rejected" for d in screen(text))


@pytest.mark.parametrize("text", ["#show p/1.", "#const n=3.", "% C# programmer", "% #1 rule", "#minimize{1:a}.",
                                  '"include program theory"', "##", "# 12", "#includes"])
def test_screen_lets_harmless_text_through(text):
    assert screen(text) == []


def test_screen_positions_are_line_and_column():
    found = screen("a.\nb.\n  #include x.\nc. @f")
    assert [(d.line, d.column) for d in found] == [(3, 3), (4, 4)]
    (d,) = screen("ok.\np(\ud800).")
    assert (d.line, d.column, d.code) == (2, 3, "syntax")


def _best(fn, text: str, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn(text)
        times.append(time.perf_counter() - start)
    return min(times)


HOSTILE_SHAPES = {  # texts that made a character-by-character lexer or a regex go quadratic
    "hashes": "#",
    "hash-runs": "#" + "%* " * 30 + "1",
    "backticks": "`",
    "fences": "```\n",
    "underscores": "_",
    "open-comments": "%* ",
}


@pytest.mark.parametrize("shape", sorted(HOSTILE_SHAPES))
def test_screen_and_actor_parser_scale_linearly(shape):
    from finereason.workflows.arc import parse_actor

    unit = HOSTILE_SHAPES[shape]
    small, large = unit * (100_000 // len(unit)), unit * (400_000 // len(unit))
    limits = Limits(max_program_chars=10**7)
    for fn in (lambda t: screen(t, limits), parse_actor):
        # both floored at 5 ms (timer noise on a shared machine); quadratic work on 400k characters
        # takes seconds, linear work milliseconds
        ratio = max(_best(fn, large, 5), 5e-3) / max(_best(fn, small, 5), 5e-3)
        assert ratio < 10, (shape, ratio)  # linear: ~4; quadratic: ~16


# ------------------------------------------------------------------ UTF-8, deep terms, memory
def test_non_ascii_escapes_round_trip():
    text = 'p(josé). q("naïve ☃ 😀"). % [P1] Zoë'
    assert to_ascii(text).isascii() and from_ascii(to_ascii(text)) == text


def test_non_ascii_names_work_end_to_end():
    pytest.importorskip("clingo")
    from finereason.asp.critic import run_program

    program = '% [P1] José is a student.\nstudent(josé).\nname(josé, "José Ñúñez 😀").\n'
    report = run_program(program, [{"type": "infer-True-All", "query": "student(josé)", "rules-referenced": ["P1"]}],
                         'SOME(X, AND(student(X), name(X, "José Ñúñez 😀")))', limits=FAST)
    assert report.status == "ok" and report.answer == "True", report.feedback()
    assert report.tests[0].passed and "student(josé)" in report.sample
    assert report.rules[0]["label"] == "P1" and "josé" in report.rules[0]["text"]
    bad = run_program("p(a).\nq(b) :- p(é)) .\n", limits=FAST)
    assert bad.status == "syntax_error" and bad.errors[0].line == 2


@pytest.mark.parametrize("where", ["program", "facts", "query"])
def test_lone_surrogates_are_a_clean_syntax_verdict(where):
    pytest.importorskip("clingo")
    from finereason.asp.critic import run_program

    bad = "p(\udc80)."
    program = bad if where == "program" else "p(a)."
    tests = [{"type": "infer-True-All", "query": "p(a)", "facts": bad}] if where == "facts" else []
    report = run_program(program, tests, "p(\ud800)" if where == "query" else None, limits=FAST)
    assert report.status == "syntax_error" and "surrogate" in report.errors[0].text
    assert isinstance(report.feedback(), str)


@pytest.mark.parametrize("program", [
    "p(" + "f(" * 30_000 + "a" + ")" * 30_000 + ").",
    "p(" + "+".join(["1"] * 30_000) + ").",
    "p(X) :- X = " + "-(" * 20_000 + "1" + ")" * 20_000 + ".",
])
def test_deeply_nested_terms_get_a_verdict(program):
    pytest.importorskip("clingo")
    from finereason.asp.critic import run_program

    report = run_program(program, [], "SOME(X, p(X))", limits=Limits(time_s=30.0, memory_mb=1024, max_program_chars=200_000))
    assert report.status in ("ok", "too_large"), report.feedback()
    if report.status == "ok":
        assert report.answer == "True"


@pytest.mark.parametrize("program", ["{p(X,Y)} :- X=1..3000, Y=1..3000.", "p(X,Y) :- X=1..20000, Y=1..20000."])
def test_memory_exhaustion_is_a_memory_verdict(program):
    pytest.importorskip("clingo")
    from finereason.asp.critic import run_program

    report = run_program(program, limits=Limits(time_s=60.0, memory_mb=256))
    assert report.status == "memory", report.feedback()


def test_the_worker_screens_again_whatever_the_parent_sent(secret):
    pytest.importorskip("clingo")
    from finereason.asp.worker import guarded_run

    exploit = EXPLOIT.format(path=secret)
    for job in ({"program": exploit}, {"program": "ok.", "tests": [{"type": "infer-True-All", "query": "ok", "facts": exploit}]},
                {"program": "ok.", "query": f'p("#include {secret}")'}):
        report = guarded_run({"tests": [], **job})
        assert report["status"] == "rejected" and "topsecret" not in repr(report)


def test_random_token_soups_never_give_an_error_verdict():
    pytest.importorskip("clingo")
    import random

    from finereason.asp.worker import guarded_run

    rng = random.Random(5)
    query_tokens = ["AND(", "OR(", "NOT(", "XOR(", "IF-THEN(", "SOME(", "ALL(", "ATOM(", ")", ",", "X", "p(", "a", "1",
                    "-", '"s"', "not", "1. ", "\n", "2. ", "inf", "(", "f("]
    program_tokens = ["p(X)", ":-", ".", ",", "q(a)", "{", "}", "1", "..", "X", "not ", "-", "#show", "#minimize{", ":",
                      "%", "\n", "%*", "*%", '"', "\\", "(", ")", "=", "+", ";", "#count{", "é", "X=1..3", "|"]
    for _ in range(300):
        query = "".join(rng.choice(query_tokens) for _ in range(rng.randint(1, 12)))
        program = "".join(rng.choice(program_tokens) for _ in range(rng.randint(1, 20)))
        for job in ({"program": "p(a). {q(a)}. r(f(a)).", "query": query, "tests": [{"type": "infer-True-All", "query": query}]},
                    {"program": program, "query": "SOME(X, p(X))", "tests": [{"type": "infer-False", "query": "p(a)", "facts": program}]}):
            report = guarded_run(job)
            assert report["status"] in ("ok", "no_answer_set", "syntax_error", "rejected"), (job, report)
