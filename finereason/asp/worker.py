"""The clingo side of the critic. ``python -m finereason.asp.worker MEMORY_MB CPU_S`` limits itself
(:mod:`.sandbox`), reads one job (JSON) on stdin and writes one report (JSON) on stdout;
:mod:`.critic` runs it in a subprocess, in an empty temporary directory, with a wall-clock limit.
:func:`solve_trusted` runs our own encodings in-process.

Inside, the job is screened again (:mod:`.screen`), non-ASCII text is escaped for clingo's lexer
(and unescaped in the report), and the work runs in a thread with a large stack, so deeply nested
terms get a verdict instead of a crash. Answers never enumerate answer sets: a query is compiled
into rules (:mod:`.query_asp`) and each polarity is one solver call with an assumption. Programs
with ``#minimize``/``#maximize`` are checked on their optimal answer sets only (enumerated, up to
``max_models``).
"""
from __future__ import annotations

import gc
import json
import sys
import threading
from typing import Any, Callable, Iterator

import clingo

from .program import GUARD, MAX_MESSAGE_CHARS, MAX_MESSAGES, ParsedProgram, Rule, defined_predicates, diagnostics, parse
from .query import Query, QueryError, parse_query
from .query_asp import UNIVERSE, compile_query, predicates
from .sandbox import restrict
from .screen import Limits, from_ascii, screen, status_of, to_ascii

MAX_SAMPLE_ATOMS = 200
UNIVERSE_DEPTH = 16  # SOME/ALL range over atom arguments and their subterms down to this depth
RESERVED = "__fr_"


class TooMany(Exception):
    """More (optimal) answer sets than the limit, where an answer needs them all."""


class Session:
    """One grounding of a parsed program (plus extra facts); answers questions about rule subsets."""

    def __init__(self, parsed: ParsedProgram, facts: str = "", max_models: int = 1_000):
        self.parsed, self.max_models, self.queries = parsed, max_models, 0
        self.messages: list[tuple[Any, str]] = []
        options = ["1", "--warn=all"] + (["--opt-mode=optN"] if parsed.optimize else [])
        self.ctl = clingo.Control(options, logger=lambda c, t: self.messages.append((c, t)), message_limit=MAX_MESSAGES)
        with clingo.ast.ProgramBuilder(self.ctl) as builder:
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
        self.warnings = [d for d in diagnostics(self.messages) if d["severity"] != "error"]
        self._universe()
        self.use(range(n))

    def _universe(self) -> None:
        """``__fr_u(T) :- A.`` for every term T of every possible atom A and its subterms down to
        :data:`UNIVERSE_DEPTH`, grounded as a program part of its own (rules added through the
        backend are not seen as a domain by later grounding)."""
        lines = []
        for sa in list(self.ctl.symbolic_atoms):
            sym = sa.symbol
            if sym.type != clingo.SymbolType.Function or sym.name.startswith(RESERVED):
                continue
            atom, stack, seen = str(sym), [(t, 1) for t in sym.arguments], set()
            while stack:
                term, depth = stack.pop()
                if term in seen:
                    continue
                seen.add(term)
                lines.append(f"{UNIVERSE}({term}) :- {atom}.")
                if term.type == clingo.SymbolType.Function and depth < UNIVERSE_DEPTH:
                    stack.extend((t, depth + 1) for t in term.arguments)
        if lines:
            self.ctl.add(f"{RESERVED}universe", [], "\n".join(lines))
            self.ctl.ground([(f"{RESERVED}universe", [])], context=None)

    def use(self, rules: Any) -> None:
        """Switch the guard externals so that exactly ``rules`` are part of the program."""
        wanted = set(rules)
        for i in range(len(self.parsed.rules)):
            if (i in wanted) != (i in self.active) or not self.active:
                self.ctl.assign_external(clingo.Function(GUARD, [clingo.Number(i)]), i in wanted)
        self.active = wanted

    def add_query(self, query: Query) -> int | None:
        """Ground the query's rules; the program literal of "the query holds" (None: never derivable)."""
        self.queries += 1
        root, part = f"{RESERVED}query{self.queries}", f"{RESERVED}part{self.queries}"
        try:
            self.ctl.add(part, [], compile_query(query, root))
            self.ctl.ground([(part, [])], context=None)
        except RuntimeError:
            raise QueryError("the query cannot be compiled into clingo rules (a name clingo reserves?)") from None
        sa = self.ctl.symbolic_atoms[clingo.Function(root)]
        return None if sa is None else sa.literal

    def _optimal(self) -> Iterator[clingo.Model]:
        self.ctl.configuration.solve.models = 0
        try:
            with self.ctl.solve(yield_=True) as handle:
                for m in handle:
                    if m.optimality_proven:
                        yield m
        finally:
            self.ctl.configuration.solve.models = 1

    def exists(self, literal: int | None = 0, value: bool = True) -> bool:
        """Is there an answer set (optimal, with optimisation) in which the query of ``literal`` has
        ``value``? ``literal=0``: any answer set. One solver call without optimisation."""
        if literal is None and value:
            return False
        assume = [] if not literal else [literal if value else -literal]
        if not self.parsed.optimize:
            return bool(self.ctl.solve(assumptions=assume).satisfiable)
        for count, m in enumerate(self._optimal(), start=1):
            if not literal or m.is_true(literal) == value:
                return True
            if count >= self.max_models:
                raise TooMany(self.max_models)
        return False

    def count(self) -> tuple[int, bool, list[str]]:
        """(answer sets up to ``max_models``, all counted, the first one's atoms)."""
        count, sample = 0, []
        self.ctl.configuration.solve.models = 0
        try:
            with self.ctl.solve(yield_=True) as handle:
                for m in handle:
                    if self.parsed.optimize and not m.optimality_proven:
                        continue
                    if count == 0:
                        sample = sorted(str(s) for s in m.symbols(atoms=True) if not s.name.startswith(RESERVED))
                    count += 1
                    if count >= self.max_models:
                        return count, False, sample[:MAX_SAMPLE_ATOMS]
        finally:
            self.ctl.configuration.solve.models = 1
        return count, True, sample[:MAX_SAMPLE_ATOMS]


# ------------------------------------------------------------------ answers and explanations
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


def entails(session: Session, literal: int | None, value: bool) -> bool:
    """The program has an answer set, and in every one the query has ``value`` (refutation)."""
    return session.exists() and not session.exists(literal, not value)


def refutation(session: Session, literal: int | None, value: bool) -> list[Rule] | None:
    """A minimal subset of the rules that has answer sets and entails the query's ``value``."""
    if session.parsed.optimize:
        return None  # subsets change the optimum: no explanation

    def keeps(subset: list[int]) -> bool:
        session.use(subset)
        return entails(session, literal, value)

    return minimal_subset(session, keeps)


def unsat_core(session: Session) -> list[Rule] | None:
    """A minimal subset of the rules that has no answer set (for a contradictory program)."""
    if session.parsed.optimize:
        return None

    def unsat(subset: list[int]) -> bool:
        session.use(subset)
        return not session.exists()

    return minimal_subset(session, unsat)


def _rules_json(rules: list[Rule] | None) -> list[dict] | None:
    return None if rules is None else [{"line": r.line, "label": r.label, "text": r.text} for r in rules]


def unknown_predicates(query: Query, defined: set[tuple[str, int]]) -> str | None:
    missing = sorted(predicates(query) - defined)
    if not missing:
        return None
    names = ", ".join(f"{n}/{a}" for n, a in missing[:5])
    return (f"unknown predicate {names}: no rule or fact defines it (check the spelling and arity; "
            "closed world: an undefined atom is simply false)")


def truth_value_of(session: Session, query: Query, explain: bool) -> tuple[str, list[dict] | None]:
    """True / False / Uncertain by refutation, and the explanation of a True or False answer."""
    literal = session.add_query(query)
    if not session.exists(literal, False):
        answer = "True"
    elif not session.exists(literal, True):
        answer = "False"
    else:
        return "Uncertain", None
    return answer, _rules_json(refutation(session, literal, answer == "True")) if explain else None


def run_test(parsed: ParsedProgram, test: dict, max_models: int, explain: bool) -> dict:
    """Run one LLM-ARC test: ``{"type", "query", "facts", "rules-referenced", ...}``."""
    kind = test.get("type")
    out: dict[str, Any] = {"name": str(test.get("name", ""))[:200], "type": kind, "passed": False, "message": "",
                           "explanation": None}
    facts = str(test.get("facts") or "")
    defined = set(parsed.defined)
    if facts:
        statements, errors = parse(facts, "facts")
        if errors:
            out["message"] = f"the test's facts do not parse (facts line {errors[0]['line']}: {errors[0]['text']})"
            return out
        defined |= defined_predicates(statements)
    query = None
    if kind != "expect-Contradiction":
        try:
            query = parse_query(test.get("query") or "")
        except QueryError as err:
            out["message"] = f"bad query: {err}"
            return out
        unknown = unknown_predicates(query, defined)
        if unknown:
            out["message"] = unknown
            return out
    session = Session(parsed, facts, max_models)
    if session.errors:
        first = session.errors[0]
        out["message"] = f"the program with the test's facts cannot be grounded (line {first['line']}: {first['text']})"
        return out
    try:
        if kind == "expect-Contradiction":
            has = session.exists()
            out["passed"] = not has
            out["message"] = "contradiction found" if not has else "expected a contradiction, but the program has an answer set"
            if not has and explain:
                out["explanation"] = _rules_json(unsat_core(session))
            return out
        literal = session.add_query(query)
        if kind == "infer-True-Any":
            out["passed"] = session.exists(literal, True)
            out["message"] = "holds in some answer set" if out["passed"] else "the query holds in no answer set"
        elif kind in ("infer-True-All", "infer-False"):
            value = kind == "infer-True-All"
            has = session.exists()
            counter = has and session.exists(literal, not value)
            out["passed"] = has and not counter
            if not has:
                out["message"] = "the program (with the test's facts) has no answer set"
            elif counter:
                out["message"] = "the query fails in some answer set" if value else "the query holds in some answer set"
            else:
                out["message"] = "holds in every answer set" if value else "fails in every answer set"
            if out["passed"] and explain:
                out["explanation"] = _rules_json(refutation(session, literal, value))
        else:
            out["message"] = (f"unknown test type {kind!r}; use infer-True-All, infer-True-Any, infer-False "
                              "or expect-Contradiction")
    except TooMany as err:
        out["message"] = f"more than {err.args[0]} optimal answer sets: cannot decide"
    except QueryError as err:
        out["message"] = f"bad query: {err}"
    return out


def _screened(job: dict) -> list[dict]:
    def queries(value: Any) -> list[str]:
        return [value] if isinstance(value, str) else [q for q in value if isinstance(q, str)] if isinstance(value, list) else []

    texts = [("", job.get("program", ""))] + [("query", q) for q in queries(job.get("query"))]
    for i, t in enumerate(job.get("tests") or [], start=1):
        if isinstance(t, dict):
            texts += [(f"test {i} facts", t["facts"])] if isinstance(t.get("facts"), str) else []
            texts += [(f"test {i} query", q) for q in queries(t.get("query"))]
    limits = Limits(max_program_chars=10**7)
    found = [d for where, text in texts for d in screen(text, limits, where)]
    return [{"line": d.line, "column": d.column, "severity": "error", "text": d.text, "where": d.where, "code": d.code}
            for d in found]


def run_job(job: dict) -> dict:
    """The whole critic run for one program: parse, ground, tests, the conclusion, explanations."""
    report: dict[str, Any] = {"status": "ok", "errors": _screened(job), "warnings": [], "answer_sets": 0,
                              "complete": True, "sample": [], "tests": [], "answer": None, "explanation": None,
                              "rules": [], "optimize": False}
    if report["errors"]:
        report["status"] = {"too_large": "too_large", "syntax": "syntax_error"}.get(report["errors"][0]["code"], "rejected")
        return report
    job = _map_strings(job, to_ascii)
    max_models, explain = int(job.get("max_models", 1_000)), bool(job.get("explain", True))
    parsed = ParsedProgram(str(job.get("program", "")))
    if parsed.errors:
        report["errors"] = parsed.errors
        report["status"] = "rejected" if any("not allowed" in e["text"] for e in parsed.errors) else "syntax_error"
        return report
    report["optimize"] = parsed.optimize
    report["rules"] = [{"line": r.line, "label": r.label, "text": r.text} for r in parsed.rules]
    session = Session(parsed, "", max_models)
    if session.errors:
        report["status"], report["errors"] = "syntax_error", session.errors
        return report
    report["warnings"] = session.warnings
    report["answer_sets"], report["complete"], report["sample"] = session.count()
    if not session.exists():
        report["status"] = "no_answer_set"
        if explain:
            report["explanation"] = _rules_json(unsat_core(session))
    query_text = job.get("query")
    if query_text and report["status"] == "ok":
        try:
            query = parse_query(query_text)
            unknown = unknown_predicates(query, parsed.defined)
            if unknown:
                report["query_error"] = unknown
            else:
                report["answer"], report["explanation"] = truth_value_of(session, query, explain)
        except QueryError as err:
            report["query_error"] = str(err)
        except TooMany:
            report["query_error"] = f"more than {max_models} optimal answer sets: cannot decide"
    report["tests"] = [run_test(parsed, t, max_models, explain) if isinstance(t, dict)
                       else {"name": "", "type": None, "passed": False, "message": "a test must be a JSON object", "explanation": None}
                       for t in job.get("tests") or []]
    return _map_strings(report, from_ascii)


def _map_strings(value: Any, fn: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return fn(value)
    if isinstance(value, list):
        return [_map_strings(v, fn) for v in value]
    if isinstance(value, dict):
        return {k: _map_strings(v, fn) for k, v in value.items()}
    return value


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


def _error(status: str, text: str) -> dict:
    return {"status": status, "errors": [{"line": 0, "column": 0, "severity": "error", "text": text[:MAX_MESSAGE_CHARS], "where": ""}]}


def guarded_run(job: dict) -> dict:
    """:func:`run_job` with every failure mapped to a verdict (memory, too deep, error)."""
    reserve = bytearray(8 << 20)  # freed on MemoryError so that the verdict can still be written
    try:
        return run_job(job)
    except MemoryError:
        del reserve
        gc.collect()
        return _error("memory", "the memory limit was reached")
    except RecursionError:
        return _error("too_large", "terms or expressions are nested too deeply")
    except RuntimeError as err:
        text = str(err)
        if "bad_alloc" in text:
            return _error("memory", "the memory limit was reached")
        return _error("error", diagnostics([(None, text)])[0]["text"] if text else "the solver failed")


def main(argv: list[str]) -> int:
    memory_mb = int(argv[0]) if argv else 2048
    layers = restrict(memory_mb, int(argv[1])) if len(argv) == 2 else []
    raw = sys.stdin.buffer.read()
    result: dict[str, Any] = {}

    def work() -> None:
        try:
            result.update(guarded_run(json.loads(raw)))
        except MemoryError:
            result.update(_error("memory", "the memory limit was reached"))
        except (ValueError, TypeError) as err:
            result.update(_error("error", f"bad job: {type(err).__name__}"))

    sys.setrecursionlimit(100_000)
    threading.stack_size(max(32, min(512, memory_mb // 4)) << 20)
    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    result["sandbox"] = layers
    sys.stdout.write(json.dumps(result))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
