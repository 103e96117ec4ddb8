"""The ASP critic: run an untrusted answer-set program and its LLM-ARC tests with clingo, safely.

- *Static screen* (:mod:`.screen`): size limit; ``#include``, ``#script``, ``#external``,
  ``#program``, ``#theory`` (any case, any spacing), ``@`` and ``&`` are refused *anywhere* in the
  program, in test facts and in queries (comments and strings too: the screen does not lex, so it
  cannot be out-lexed), with their line numbers. Lone surrogates are a ``syntax_error``.
- *Sandboxed run* (:func:`run_program`): clingo runs in a child process (``python -m
  finereason.asp.worker``) in an empty temporary directory, with a wall-clock timeout, CPU and
  address-space limits, no file writes, no new file descriptors and (where the kernel has it) a
  Landlock ruleset that denies every file access (:mod:`.sandbox`); grounding has no context object
  (so ``@f`` calls nothing). Syntax and grounding errors come back with line numbers, scrubbed of
  paths; a runaway grounding or search is a ``timeout`` verdict, a deep term ``too_large``.
- *Tests* in the LLM-ARC schema::

      {"name": "...", "type": "infer-True-All" | "infer-True-Any" | "infer-False" | "expect-Contradiction",
       "query": "a query, or numbered propositions ["1. ATOM(..)", "2. ATOM(..)", "AND(1,2)"]",
       "facts": "optional extra ASP facts",
       "rules-referenced": ["P1", ...], "explanation": "why this should hold"}

  ``infer-True-All``: the query holds in every answer set (and there is one); ``infer-True-Any``: in
  some; ``infer-False``: in none (and there is one); ``expect-Contradiction``: no answer set.
- *Rule labels*: a comment ``% [P3] ...`` labels the statements after it (up to the next label);
  other statements are named ``line N``. ``rules-referenced`` must name existing labels.
- *Answers by refutation*: the query is compiled into rules (:mod:`.query_asp`); it is True when the
  program has answer sets and none where the query fails (one solver call per polarity, no
  enumeration). A query on a predicate no rule or fact defines is an ``unknown predicate`` finding.
  With ``#minimize``/``#maximize``, only optimal answer sets count.
- *Explanations by refutation*: for an entailed query, the program plus the query's negation has no
  answer set; the critic reports a minimal subset of the rules (each one needed) that still has
  answer sets and still entails the query. For a contradictory program, a minimal unsatisfiable subset.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from .screen import Diagnostic, Limits, screen, status_of

__all__ = ["Diagnostic", "Limits", "Report", "TestResult", "check_tests", "run_program", "screen"]
_PACKAGE_ROOT = str(Path(__file__).resolve().parent.parent.parent)

TEST_TYPES = ("infer-True-All", "infer-True-Any", "infer-False", "expect-Contradiction")
STATUSES = ("ok", "no_answer_set", "syntax_error", "rejected", "timeout", "memory", "too_large", "error")


@dataclass
class TestResult:
    name: str
    type: str | None
    passed: bool
    message: str
    explanation: list[dict] | None = None
    unknown_rules: list[str] = field(default_factory=list)
    unused_rules: list[str] = field(default_factory=list)


@dataclass
class Report:
    """Everything the critic found about one program."""

    status: str
    errors: list[Diagnostic] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)
    answer_sets: int = 0
    complete: bool = True
    sample: list[str] = field(default_factory=list)
    tests: list[TestResult] = field(default_factory=list)
    answer: str | None = None  # True / False / Uncertain for the conclusion query
    query_error: str | None = None
    explanation: list[dict] | None = None
    rules: list[dict] = field(default_factory=list)
    optimize: bool = False  # answers come from the optimal answer sets only
    sandbox: list[str] = field(default_factory=list)  # OS layers the worker applied (see .sandbox)

    @property
    def runs(self) -> bool:
        return self.status in ("ok", "no_answer_set")

    @property
    def all_passed(self) -> bool:
        return self.status == "ok" and all(t.passed for t in self.tests) and self.query_error is None

    def feedback(self, max_chars: int = 6_000) -> str:
        """The critic's message to the actor: errors with line numbers, failed tests, explanations."""
        lines: list[str] = []
        if self.status == "timeout":
            lines.append("TIMEOUT: grounding or solving did not finish within the time limit; "
                         "bound your domains (avoid unbounded arithmetic or huge intervals).")
        elif self.status in ("memory", "too_large", "error"):
            lines.append(f"{self.status.upper()}: " + ("; ".join(e.render() for e in self.errors) or "the run failed"))
        elif self.status in ("syntax_error", "rejected"):
            lines.append("The program does not compile:" if self.status == "syntax_error" else "The program was rejected:")
            lines += [f"  {e.render()}" for e in self.errors]
        else:
            if self.status == "no_answer_set":
                lines.append("The program has no answer set (its rules contradict each other).")
                lines += _explain(self.explanation, "  a minimal contradictory set of rules:")
            else:
                more = "" if self.complete else "+"
                optimal = " optimal" if self.optimize else ""
                lines.append(f"The program runs: {self.answer_sets}{more}{optimal} answer set(s)."
                             + (" (With #minimize/#maximize only optimal answer sets count.)" if self.optimize else ""))
            for w in self.warnings[:8]:
                lines.append(f"  {w.render()}")
            if self.query_error:
                lines.append(f"Conclusion query error: {self.query_error}")
            elif self.answer is not None:
                lines.append(f"The conclusion query evaluates to {self.answer}.")
                if self.status == "ok":
                    lines += _explain(self.explanation, "  refutation uses:")
            for i, t in enumerate(self.tests, start=1):
                head = f"Test {i}{f' ({t.name})' if t.name else ''} [{t.type}]: {'PASSED' if t.passed else 'FAILED'}: {t.message}"
                lines.append(head)
                if t.unknown_rules:
                    lines.append(f"  rules-referenced names unknown rules: {', '.join(t.unknown_rules)}")
                if t.unused_rules:
                    lines.append(f"  note: the refutation does not need {', '.join(t.unused_rules)}")
                lines += _explain(t.explanation, "  refutation uses:")
        text = "\n".join(lines)
        return text if len(text) <= max_chars else text[: max_chars - 20] + "\n... (truncated)"


def _explain(rules: list[dict] | None, head: str) -> list[str]:
    if not rules:
        return []
    return [head] + [f"    line {r['line']} [{r['label']}]: {r['text']}" for r in rules[:30]]


def check_tests(tests: Sequence[Any], limits: Limits = Limits()) -> list[str]:
    """Problems with the tests themselves (shape, type names), one line each."""
    problems = []
    if len(tests) > limits.max_tests:
        problems.append(f"more than {limits.max_tests} tests")
    for i, t in enumerate(tests[: limits.max_tests], start=1):
        if not isinstance(t, dict):
            problems.append(f"test {i} is not a JSON object")
        elif t.get("type") not in TEST_TYPES:
            problems.append(f"test {i}: type {t.get('type')!r} is not one of {', '.join(TEST_TYPES)}")
        elif t.get("type") != "expect-Contradiction" and not (
                isinstance(t.get("query"), str) or (_query_texts(t.get("query")) and len(_query_texts(t.get("query"))) == len(t.get("query")))):
            problems.append(f"test {i}: needs a \"query\" string (or a list of numbered propositions)")
        elif t.get("facts") is not None and not isinstance(t.get("facts"), str):
            problems.append(f"test {i}: \"facts\" must be a string of ASP facts")
        elif t.get("rules-referenced") is not None and not isinstance(t.get("rules-referenced"), list):
            problems.append(f"test {i}: \"rules-referenced\" must be a list of rule labels")
    return problems


# ------------------------------------------------------------------ sandboxed run
def _kill(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()


def _query_texts(query: Any) -> list[str]:
    if isinstance(query, str):
        return [query]
    if isinstance(query, (list, tuple)):
        return [q for q in query if isinstance(q, str)]
    return []


def screen_job(program: str, tests: Sequence[Any], query: Any, limits: Limits) -> list[Diagnostic]:
    """Screen findings for everything of a job that reaches clingo or the query compiler."""
    errors = screen(program, limits)
    for i, t in enumerate(tests, start=1):
        if isinstance(t, dict):
            if isinstance(t.get("facts"), str):
                errors += screen(t["facts"], limits, where=f"test {i} facts")
            for text in _query_texts(t.get("query")):
                errors += screen(text, limits, where=f"test {i} query")
    for text in _query_texts(query):
        errors += screen(text, limits, where="query")
    return errors


def _failure(returncode: int, stderr: bytes) -> Report:
    """The verdict for a worker that died; nothing it printed is echoed (it could name files)."""
    text = stderr[-4000:].decode("utf-8", "replace").lower()
    if returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        return Report("timeout", errors=[Diagnostic(0, 0, "CPU time limit reached")])
    if any(w in text for w in ("memoryerror", "bad_alloc", "cannot allocate memory", "out of memory")):
        return Report("memory", errors=[Diagnostic(0, 0, "the memory limit was reached")])
    if returncode == -signal.SIGSEGV:
        return Report("too_large", errors=[Diagnostic(0, 0, "the solver's stack overflowed: terms or expressions "
                                                            "are nested too deeply")])
    return Report("error", errors=[Diagnostic(0, 0, f"the solver process failed (exit status {returncode})")])


def run_program(program: str, tests: Sequence[Any] = (), query: Any = None, *,
                limits: Limits = Limits(), explain: bool = True) -> Report:
    """Screen, then run ``program`` with its tests and conclusion query in a limited child process.

    Never raises for bad programs: every failure is a :class:`Report` status.
    """
    tests = list(tests)
    errors = screen_job(program, tests[: limits.max_tests], query, limits)
    if errors:
        return Report(status_of(errors), errors=errors[:20])
    problems = check_tests(tests, limits)
    job = {"program": program, "tests": tests[: limits.max_tests], "query": query, "explain": explain,
           "max_models": limits.max_models}
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "LC_ALL", "SYSTEMROOT")}
    env["PYTHONPATH"] = os.pathsep.join([_PACKAGE_ROOT] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
    env["OMP_NUM_THREADS"] = "1"
    try:
        holder = tempfile.TemporaryDirectory(prefix="finereason-asp-")
    except OSError as err:
        return Report("error", errors=[Diagnostic(0, 0, f"cannot create the solver's empty directory: {err.strerror or type(err).__name__}")])
    with holder as empty:
        try:
            # the worker limits itself (address space, CPU, no file writes or opens, Landlock) before
            # reading the job, in an empty directory; no preexec_fn, so this is thread-safe (``arc --jobs``)
            proc = subprocess.Popen([sys.executable, "-m", "finereason.asp.worker", str(limits.memory_mb),
                                     str(int(limits.time_s) + 2)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, env=env, start_new_session=True, cwd=empty)
        except OSError as err:
            return Report("error", errors=[Diagnostic(0, 0, f"cannot start clingo: {err.strerror or type(err).__name__}")])
        try:
            out, err = proc.communicate(json.dumps(job).encode(), timeout=limits.time_s)
        except subprocess.TimeoutExpired:
            _kill(proc)
            proc.communicate()
            return Report("timeout", errors=[Diagnostic(0, 0, f"no result within {limits.time_s:g} s")])
    if proc.returncode != 0 or not out:
        return _failure(proc.returncode, err or b"")
    if len(out) > limits.max_output_chars:
        return Report("error", errors=[Diagnostic(0, 0, "the solver's output is too large")])
    report = _from_json(json.loads(out), tests)
    if problems:
        report.warnings = [Diagnostic(0, 0, p, "warning", "tests") for p in problems] + report.warnings
    return report


def _diag(d: dict) -> Diagnostic:
    return Diagnostic(int(d.get("line", 0)), int(d.get("column", 0)), str(d.get("text", "")),
                      str(d.get("severity", "error")), str(d.get("where", "")))


def _from_json(data: dict, tests: Sequence[Any]) -> Report:
    report = Report(
        status=str(data.get("status", "error")), errors=[_diag(d) for d in data.get("errors") or []],
        warnings=[_diag(d) for d in data.get("warnings") or []], answer_sets=int(data.get("answer_sets", 0)),
        complete=bool(data.get("complete", True)), sample=list(data.get("sample") or []), answer=data.get("answer"),
        query_error=data.get("query_error"), explanation=data.get("explanation"), rules=list(data.get("rules") or []),
        optimize=bool(data.get("optimize")), sandbox=[str(x) for x in data.get("sandbox") or []],
    )
    labels = {r["label"] for r in report.rules}
    for spec, res in zip(tests, data.get("tests") or []):
        result = TestResult(str(res.get("name", "")), res.get("type"), bool(res.get("passed")), str(res.get("message", "")),
                            res.get("explanation"))
        cited = [str(x) for x in (spec.get("rules-referenced") or [])] if isinstance(spec, dict) else []
        result.unknown_rules = [c for c in cited if c not in labels]
        if result.unknown_rules:
            result.passed = False
        if result.explanation is not None:
            used = {r["label"] for r in result.explanation}
            result.unused_rules = [c for c in cited if c in labels and c not in used]
        report.tests.append(result)
    return report
