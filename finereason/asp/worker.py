"""The clingo side of the critic. ``python -m finereason.asp.worker`` reads one job (JSON) on stdin
and writes one report (JSON) on stdout; :mod:`finereason.asp.critic` runs it in a subprocess with a
wall-clock, CPU, memory and file-size limit. :func:`solve_trusted` runs our own encodings in-process.

Programs are parsed with ``clingo.ast``; each rule ``i`` gets the extra body literal
``__fr_use(i)`` over an external atom, so one grounding answers "does this subset of the rules
still entail the query?" for every subset (explanations by refutation).
"""
from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from typing import Any, Callable, Iterator

import clingo
from clingo import ast as A

from .query import Model, Query, QueryError, holds, label, negate, parse_query

GUARD = "__fr_use"
ALLOWED_STATEMENTS = {
    "Rule", "ShowSignature", "ShowTerm", "Definition", "Minimize", "Comment", "Program", "Heuristic", "Edge",
    "ProjectAtom", "ProjectSignature", "Defined",
}
_MESSAGE = re.compile(r"<[a-z]+>:(\d+):(\d+)(?:-\d+(?::\d+)?)?:\s*(error|warning|info):\s*(.*)", re.S)
_NOISE = re.compile(r"<[a-z]+>:\d+:\d+(?:-\d+(?::\d+)?)?:\s*|\[#inc_base\];?|__fr_use\(\d+\);?|;__fr_use\(\d+\)")
_LABEL = re.compile(r"^\s*%+\s*\[([^\]\n]{1,60})\]")
MAX_MESSAGES = 20
MAX_MESSAGE_CHARS = 400
MAX_SAMPLE_ATOMS = 200


def diagnostics(messages: list[tuple[Any, str]], where: str = "") -> list[dict]:
    """clingo log messages as ``{"line", "column", "severity", "text", "where"}`` (bounded)."""
    out = []
    for _code, text in messages[:MAX_MESSAGES]:
        m = _MESSAGE.search(text)
        if m:
            line, col, sev, body = int(m.group(1)), int(m.group(2)), m.group(3), m.group(4)
        else:
            line, col, sev, body = 0, 0, "error", text
        body = " ".join(_NOISE.sub("", body).split())[:MAX_MESSAGE_CHARS]
        out.append({"line": line, "column": col, "severity": sev, "text": body, "where": where})
    return out


def rule_labels(program: str) -> dict[int, str]:
    """Line -> label: a comment ``% [NAME] ...`` labels the statements after it, up to the next one."""
    out, current = {}, ""
    for number, line in enumerate(program.splitlines(), start=1):
        m = _LABEL.match(line)
        if m:
            current = m.group(1).strip()
        out[number] = current
    return out


def source_text(program: str, loc: Any) -> str:
    """The program text a statement's location spans (one line, whitespace collapsed)."""
    lines = program.encode("utf-8").split(b"\n")[loc.begin.line - 1: loc.end.line]
    if not lines:
        return ""
    if len(lines) == 1:
        lines[0] = lines[0][loc.begin.column - 1: loc.end.column - 1]
    else:
        lines[0], lines[-1] = lines[0][loc.begin.column - 1:], lines[-1][: loc.end.column - 1]
    return " ".join(b" ".join(lines).decode("utf-8", "replace").split())[:MAX_MESSAGE_CHARS]


@dataclass
class Rule:
    index: int
    line: int
    text: str
    label: str


class ParsedProgram:
    """A parsed, checked program whose rules carry guard literals."""

    def __init__(self, program: str):
        self.program = program
        self.messages: list[tuple[Any, str]] = []
        self.statements: list[Any] = []
        self.errors: list[dict] = []
        try:
            A.parse_string(program, self.statements.append, logger=self._log, message_limit=MAX_MESSAGES)
        except RuntimeError:
            self.errors = [d for d in diagnostics(self.messages) if d["severity"] == "error"] or [
                {"line": 0, "column": 0, "severity": "error", "text": "the program cannot be parsed", "where": ""}]
            return
        for stm in self.statements:
            kind = str(stm.ast_type).rsplit(".", 1)[-1]
            if kind not in ALLOWED_STATEMENTS or (kind == "Program" and stm.name != "base"):
                self.errors.append({"line": stm.location.begin.line, "column": stm.location.begin.column,
                                    "severity": "error", "text": f"{kind} statements are not allowed", "where": ""})
        labels = rule_labels(program)
        self.rules: list[Rule] = []
        self.guarded: list[Any] = []
        for stm in self.statements:
            if str(stm.ast_type).endswith("Rule"):
                i, loc = len(self.rules), stm.location
                line = loc.begin.line
                self.rules.append(Rule(i, line, source_text(program, loc), labels.get(line) or f"line {line}"))
                guard = A.Literal(loc, A.Sign.NoSign, A.SymbolicAtom(A.Function(loc, GUARD, [A.SymbolicTerm(loc, clingo.Number(i))], 0)))
                stm = A.Rule(loc, stm.head, [*stm.body, guard])
            self.guarded.append(stm)
        self.messages = []

    def _log(self, code: Any, text: str) -> None:
        self.messages.append((code, text))


class Session:
    """One grounding of a parsed program (plus extra facts); answers questions about rule subsets."""

    def __init__(self, parsed: ParsedProgram, facts: str = "", max_models: int = 10_000):
        self.parsed, self.max_models = parsed, max_models
        self.messages: list[tuple[Any, str]] = []
        self.ctl = clingo.Control(["0", "--warn=all"], logger=self._log, message_limit=MAX_MESSAGES)
        with A.ProgramBuilder(self.ctl) as builder:
            for stm in parsed.guarded:
                builder.add(stm)
        n = len(parsed.rules)
        if n:
            self.ctl.add("base", [], f"#external {GUARD}(0..{n - 1}).")
        self.active: set[int] = set()
        self.errors: list[dict] = []
        try:
            if facts:
                self.ctl.add("base", [], facts)
            self.ctl.ground([("base", [])], context=None)  # no context: @-terms call nothing
        except RuntimeError:
            self.errors = [d for d in diagnostics(self.messages) if d["severity"] == "error"] or [
                {"line": 0, "column": 0, "severity": "error", "text": "grounding failed", "where": ""}]
            return
        self.use(range(n))

    def _log(self, code: Any, text: str) -> None:
        self.messages.append((code, text))

    def use(self, rules: Any) -> None:
        """Switch the guard externals so that exactly ``rules`` are part of the program."""
        wanted = set(rules)
        for i in range(len(self.parsed.rules)):
            if (i in wanted) != (i in self.active) or not self.active:
                self.ctl.assign_external(clingo.Function(GUARD, [clingo.Number(i)]), i in wanted)
        self.active = wanted

    def models(self) -> Iterator[Model]:
        """Answer sets of the active rules (at most ``max_models``; more raises :class:`TooMany`)."""
        count = 0
        with self.ctl.solve(yield_=True) as handle:
            for m in handle:
                count += 1
                if count > self.max_models:
                    raise TooMany(self.max_models)
                yield to_model(m.symbols(atoms=True))


class TooMany(Exception):
    """More answer sets than the limit."""


def _terms(sym: clingo.Symbol, out: set[str]) -> None:
    for arg in sym.arguments:
        out.add(str(arg))
        if arg.type == clingo.SymbolType.Function and arg.arguments:
            _terms(arg, out)


def to_model(symbols: Any) -> Model:
    atoms, universe = set(), set()
    for sym in symbols:
        if sym.type == clingo.SymbolType.Function and sym.name == GUARD:
            continue
        atoms.add(str(sym))
        if sym.type == clingo.SymbolType.Function:
            _terms(sym, universe)
    return Model(frozenset(atoms), tuple(sorted(universe)))


# ------------------------------------------------------------------ checks over answer sets
def counter_model(session: Session, query: Query | None) -> tuple[bool, bool]:
    """(has an answer set, has one where ``query`` fails); ``query=None`` asks only the first."""
    found = False
    for model in session.models():
        found = True
        if query is None or not holds(query, model):
            return True, query is not None
    return found, False


def minimal_subset(session: Session, keeps: Callable[[list[int]], bool]) -> list[Rule] | None:
    """Deletion-based minimisation: a subset of the rules for which ``keeps`` holds and from which
    no single rule can be dropped (``None`` when ``keeps`` fails for the whole program)."""
    rules = list(range(len(session.parsed.rules)))
    try:
        if not keeps(rules):
            return None
        keep = list(rules)
        for i in rules:
            trial = [j for j in keep if j != i]
            if keeps(trial):
                keep = trial
        return [session.parsed.rules[i] for i in keep]
    finally:
        session.use(rules)


def refutation(session: Session, query: Query) -> list[Rule] | None:
    """A minimal subset of the rules that has answer sets and entails ``query`` in all of them
    (the program plus ``NOT query`` has none); ``None`` when the whole program does not."""

    def entails(subset: list[int]) -> bool:
        session.use(subset)
        try:
            has, counter = counter_model(session, query)
        except TooMany:
            return False
        return has and not counter

    return minimal_subset(session, entails)


def unsat_core(session: Session) -> list[Rule] | None:
    """A minimal subset of the rules that has no answer set (for a contradictory program)."""

    def unsat(subset: list[int]) -> bool:
        session.use(subset)
        return not counter_model(session, None)[0]

    return minimal_subset(session, unsat)


def _rules_json(rules: list[Rule] | None) -> list[dict] | None:
    return None if rules is None else [{"line": r.line, "label": r.label, "text": r.text} for r in rules]


def run_test(parsed: ParsedProgram, test: dict, max_models: int, explain: bool) -> dict:
    """Run one LLM-ARC test: ``{"type", "query", "facts", "rules-referenced", ...}``."""
    kind = test.get("type")
    out: dict[str, Any] = {"name": test.get("name", ""), "type": kind, "passed": False, "message": "", "explanation": None}
    facts = str(test.get("facts") or "")
    if facts:
        probe: list[tuple[Any, str]] = []
        try:
            A.parse_string(facts, lambda s: None, logger=lambda c, t: probe.append((c, t)), message_limit=MAX_MESSAGES)
        except RuntimeError:
            errs = diagnostics(probe, "facts")
            first = errs[0] if errs else {"line": 0, "text": "cannot be parsed"}
            out["message"] = f"the test's facts do not parse (facts line {first['line']}: {first['text']})"
            return out
    query = None
    if kind != "expect-Contradiction":
        try:
            query = parse_query(str(test.get("query") or ""))
        except QueryError as err:
            out["message"] = f"bad query {test.get('query')!r}: {err}"
            return out
    session = Session(parsed, facts, max_models)
    if session.errors:
        first = session.errors[0]
        out["message"] = f"the program with the test's facts cannot be grounded (line {first['line']}: {first['text']})"
        return out
    try:
        if kind == "expect-Contradiction":
            has = counter_model(session, None)[0]
            out["passed"] = not has
            out["message"] = "contradiction found" if not has else "expected a contradiction, but the program has an answer set"
            if not has and explain:
                out["explanation"] = _rules_json(unsat_core(session))
        elif kind == "infer-True-Any":
            ok = any(holds(query, m) for m in session.models())
            out["passed"] = ok
            out["message"] = "holds in some answer set" if ok else "the query holds in no answer set"
        elif kind in ("infer-True-All", "infer-False"):
            target = query if kind == "infer-True-All" else negate(query)
            has, counter = counter_model(session, target)
            out["passed"] = has and not counter
            if not has:
                out["message"] = "the program (with the test's facts) has no answer set"
            elif counter:
                out["message"] = ("the query fails in some answer set" if kind == "infer-True-All"
                                  else "the query holds in some answer set")
            else:
                out["message"] = "holds in every answer set" if kind == "infer-True-All" else "fails in every answer set"
            if out["passed"] and explain:
                out["explanation"] = _rules_json(refutation(session, target))
        else:
            out["message"] = (f"unknown test type {kind!r}; use infer-True-All, infer-True-Any, infer-False "
                              "or expect-Contradiction")
    except TooMany as err:
        out["message"] = f"more than {err.args[0]} answer sets: cannot decide"
    except QueryError as err:
        out["message"] = f"query error: {err}"
    return out


def run_job(job: dict) -> dict:
    """The whole critic run for one program: parse, ground, tests, the conclusion, explanations."""
    program = str(job.get("program", ""))
    max_models = int(job.get("max_models", 10_000))
    explain = bool(job.get("explain", True))
    parsed = ParsedProgram(program)
    report: dict[str, Any] = {"status": "ok", "errors": parsed.errors, "warnings": [], "answer_sets": 0,
                              "complete": True, "sample": [], "tests": [], "answer": None, "explanation": None,
                              "rules": []}
    if parsed.errors:
        report["status"] = "rejected" if any("not allowed" in e["text"] for e in parsed.errors) else "syntax_error"
        return report
    report["rules"] = [{"line": r.line, "label": r.label, "text": r.text} for r in parsed.rules]
    session = Session(parsed, "", max_models)
    if session.errors:
        report["status"] = "syntax_error"
        report["errors"] = session.errors
        return report
    report["warnings"] = [d for d in diagnostics(session.messages) if d["severity"] != "error"]
    count = 0
    try:
        for model in session.models():
            if count == 0:
                report["sample"] = sorted(model.atoms)[:MAX_SAMPLE_ATOMS]
            count += 1
    except TooMany:
        report["complete"] = False
    report["answer_sets"] = count
    if count == 0:
        report["status"] = "no_answer_set"
        if explain:
            report["explanation"] = _rules_json(unsat_core(session))
    query_text = job.get("query")
    if query_text and count:
        try:
            query = parse_query(str(query_text))
            answer = label(query, session.models())
            report["answer"] = answer
            if explain and answer in ("True", "False"):
                report["explanation"] = _rules_json(refutation(session, query if answer == "True" else negate(query)))
        except QueryError as err:
            report["query_error"] = str(err)
        except TooMany:
            report["query_error"] = f"more than {max_models} answer sets: cannot decide"
    report["tests"] = [run_test(parsed, t, max_models, explain) if isinstance(t, dict)
                       else {"name": "", "type": None, "passed": False, "message": "a test must be a JSON object", "explanation": None}
                       for t in job.get("tests") or []]
    return report


def solve_trusted(program: str, max_models: int = 0) -> tuple[list[list[str]], bool]:
    """Answer sets (shown atoms, sorted) of one of OUR encodings, in-process; (models, exhausted)."""
    ctl = clingo.Control([str(max_models), "--warn=none"])
    ctl.add("base", [], program)
    ctl.ground([("base", [])], context=None)
    models: list[list[str]] = []
    with ctl.solve(yield_=True) as handle:
        for m in handle:
            models.append(sorted(str(s) for s in m.symbols(shown=True)))
        exhausted = handle.get().exhausted
    return models, exhausted


def limit_self(memory_mb: int, cpu_s: int) -> None:
    """Address-space and CPU limits, no file writes, no core dumps (POSIX; skipped elsewhere)."""
    try:
        import resource
    except ImportError:
        return
    mem = memory_mb * 1024 * 1024
    for what, value in ((resource.RLIMIT_AS, (mem, mem)), (resource.RLIMIT_CPU, (cpu_s, cpu_s + 1)),
                        (resource.RLIMIT_FSIZE, (0, 0)), (resource.RLIMIT_CORE, (0, 0))):
        resource.setrlimit(what, value)


def main(argv: list[str]) -> int:
    if len(argv) == 2:
        limit_self(int(argv[0]), int(argv[1]))
    job = json.loads(sys.stdin.read())
    try:
        report = run_job(job)
    except MemoryError:
        report = {"status": "memory"}
    except RuntimeError as err:
        text = str(err)
        report = {"status": "memory" if "bad_alloc" in text else "error", "errors": [
            {"line": 0, "column": 0, "severity": "error", "text": text[:MAX_MESSAGE_CHARS], "where": ""}]}
    sys.stdout.write(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
