"""The ASP critic: run an untrusted answer-set program and its LLM-ARC tests with clingo, safely.

- *Static screen* (:func:`screen`): size limit; only harmless directives (``#show``, ``#const``,
  aggregates, ``#minimize``...); ``#script``, ``#include``, ``#external``, ``#program``, ``#theory``,
  ``@``-terms (Python calls) and theory atoms are rejected with their line numbers. Strings and
  comments are skipped, so ``"#include"`` in a string is fine.
- *Sandboxed run* (:func:`run_program`): clingo runs in a child process (``python -m
  finereason.asp.worker``) with a wall-clock timeout, CPU and address-space limits and a zero
  file-size limit, grounding with no context object (so ``@f`` calls nothing). Syntax and grounding
  errors come back with line numbers; a runaway grounding or search is a ``timeout`` verdict.
- *Tests* in the LLM-ARC schema::

      {"name": "...", "type": "infer-True-All" | "infer-True-Any" | "infer-False" | "expect-Contradiction",
       "query": "ATOM/AND/OR/... query", "facts": "optional extra ASP facts",
       "rules-referenced": ["P1", ...], "explanation": "why this should hold"}

  ``infer-True-All``: the query holds in every answer set (and there is one); ``infer-True-Any``: in
  some; ``infer-False``: in none (and there is one); ``expect-Contradiction``: no answer set.
- *Rule labels*: a comment ``% [P3] ...`` labels the statements after it (up to the next label);
  other statements are named ``line N``. ``rules-referenced`` must name existing labels.
- *Explanations by refutation*: for an entailed query, the program plus the query's negation has no
  answer set; the critic reports a minimal subset of the rules (each one needed) that still has
  answer sets and still entails the query. For a contradictory program, a minimal unsatisfiable subset.
"""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Any, Sequence

TEST_TYPES = ("infer-True-All", "infer-True-Any", "infer-False", "expect-Contradiction")
ALLOWED_DIRECTIVES = frozenset({
    "show", "const", "minimize", "minimise", "maximize", "maximise", "count", "sum", "sum+", "min", "max",
    "inf", "sup", "infimum", "supremum", "true", "false", "defined", "heuristic", "edge", "project",
})
STATUSES = ("ok", "no_answer_set", "syntax_error", "rejected", "timeout", "memory", "too_large", "error")
_DIRECTIVE = re.compile(r"#\s*([A-Za-z_]+\+?)")


@dataclass(frozen=True)
class Limits:
    """Resource limits of one critic run."""

    time_s: float = 10.0
    memory_mb: int = 2048
    max_program_chars: int = 100_000
    max_tests: int = 50
    max_models: int = 10_000
    max_output_chars: int = 2_000_000


@dataclass(frozen=True)
class Diagnostic:
    line: int
    column: int
    text: str
    severity: str = "error"
    where: str = ""  # "" for the program, "facts" for a test's facts

    def render(self) -> str:
        place = f"line {self.line}" + (f", column {self.column}" if self.column else "") if self.line else "program"
        return f"{self.severity}: {place}{f' ({self.where})' if self.where else ''}: {self.text}"


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
                lines.append(f"The program runs: {self.answer_sets}{more} answer set(s).")
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


# ------------------------------------------------------------------ static screen
def _code_spans(text: str) -> list[tuple[int, str]]:
    """(offset, code) pieces of ``text`` outside strings and comments."""
    spans, i, start, n = [], 0, 0, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            spans.append((start, text[start:i]))
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
            start = i
        elif ch == "%":
            spans.append((start, text[start:i]))
            if text.startswith("%*", i):
                end = text.find("*%", i + 2)
                i = n if end < 0 else end + 2
            else:
                end = text.find("\n", i)
                i = n if end < 0 else end
            start = i
        else:
            i += 1
    spans.append((start, text[start:]))
    return spans


def _line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def screen(text: str, limits: Limits = Limits(), where: str = "") -> list[Diagnostic]:
    """Reasons to refuse ``text`` before clingo sees it (empty when it may run)."""
    if not isinstance(text, str):
        return [Diagnostic(0, 0, "the program must be text", where=where)]
    if len(text) > limits.max_program_chars:
        return [Diagnostic(0, 0, f"longer than {limits.max_program_chars} characters", where=where)]
    if "\0" in text:
        return [Diagnostic(*_line_col(text, text.index("\0")), "NUL character", where=where)]
    out = []
    for offset, code in _code_spans(text):
        for m in _DIRECTIVE.finditer(code):
            if m.group(1).lower() not in ALLOWED_DIRECTIVES:
                out.append(Diagnostic(*_line_col(text, offset + m.start()), f"#{m.group(1)} is not allowed", where=where))
        for m in re.finditer(r"@|&|__fr_", code):
            what = {"@": "@-terms (external function calls) are not allowed",
                    "&": "theory atoms (&) are not allowed"}.get(m.group(0), "names starting with __fr_ are reserved")
            out.append(Diagnostic(*_line_col(text, offset + m.start()), what, where=where))
        if len(out) >= 20:
            break
    return out[:20]


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
        elif t.get("type") != "expect-Contradiction" and not isinstance(t.get("query"), str):
            problems.append(f"test {i}: needs a \"query\" string")
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


def run_program(program: str, tests: Sequence[Any] = (), query: str | None = None, *,
                limits: Limits = Limits(), explain: bool = True) -> Report:
    """Screen, then run ``program`` with its tests and conclusion query in a limited child process.

    Never raises for bad programs: every failure is a :class:`Report` status.
    """
    errors = screen(program, limits)
    tests = list(tests)
    for i, t in enumerate(tests, start=1):
        if isinstance(t, dict) and isinstance(t.get("facts"), str):
            errors += screen(t["facts"], limits, where=f"test {i} facts")
    if errors:
        status = "too_large" if any("longer than" in e.text for e in errors) else "rejected"
        return Report(status, errors=errors)
    problems = check_tests(tests, limits)
    job = {"program": program, "tests": tests[: limits.max_tests], "query": query, "explain": explain,
           "max_models": limits.max_models}
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "PYTHONPATH", "LANG", "LC_ALL", "SYSTEMROOT")}
    env["OMP_NUM_THREADS"] = "1"
    try:
        # the worker limits itself (address space, CPU, no file writes) before reading the job;
        # no preexec_fn, so this is safe from several threads (``arc --jobs``)
        proc = subprocess.Popen([sys.executable, "-m", "finereason.asp.worker", str(limits.memory_mb),
                                 str(int(limits.time_s) + 2)], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, start_new_session=True, cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    except OSError as err:
        return Report("error", errors=[Diagnostic(0, 0, f"cannot start clingo: {err}")])
    try:
        out, err = proc.communicate(json.dumps(job).encode(), timeout=limits.time_s)
    except subprocess.TimeoutExpired:
        _kill(proc)
        proc.communicate()
        return Report("timeout", errors=[Diagnostic(0, 0, f"no result within {limits.time_s:g} s")])
    if proc.returncode != 0 or not out:
        tail = err.decode("utf-8", "replace").strip().splitlines()[-1:] if err else []
        if proc.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
            return Report("timeout", errors=[Diagnostic(0, 0, "CPU time limit reached")])
        status = "memory" if any("MemoryError" in t or "bad_alloc" in t for t in tail) else "error"
        return Report(status, errors=[Diagnostic(0, 0, (tail[0] if tail else f"exit status {proc.returncode}")[:400])])
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
