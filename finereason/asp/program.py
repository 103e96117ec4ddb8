"""Parsing an untrusted program with ``clingo.ast`` (inside the worker): statement checks, rule labels
and guards, the predicates it defines, and clingo's messages with line numbers, scrubbed so that
they never show a path or the position of a file the program named.

Each rule ``i`` gets the extra body literal ``__fr_use(i)`` over an external atom, so one grounding
answers "does this subset of the rules still entail the query?" for every subset (explanations by
refutation).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import clingo
from clingo import ast as A

GUARD = "__fr_use"
ALLOWED_STATEMENTS = {
    "Rule", "ShowSignature", "ShowTerm", "Definition", "Minimize", "Comment", "Program", "Heuristic", "Edge",
    "ProjectAtom", "ProjectSignature", "Defined",
}
_MESSAGE = re.compile(r"<(?:string|block)>:(\d+):(\d+)(?:-\d+(?::\d+)?)?:\s*(error|warning|info):\s*(.*)", re.S)
_NOISE = re.compile(r"\[#inc_base\];?|__fr_use\(\d+\);?|;__fr_use\(\d+\)")
_PATH = re.compile(r"(?<![\w)\]/])(?:[A-Za-z]:)?[/\\][^\s\"',;]*")
_FILE_TROUBLE = re.compile(r"could not be opened|already included|include|\.lp\b", re.I)
_LABEL = re.compile(r"^\s*%+\s*\[([^\]\n]{1,60})\]")
MAX_MESSAGES = 20
MAX_MESSAGE_CHARS = 400
WITHHELD = "an error in a file named by the program (details withheld)"


def scrub(text: str) -> str:
    """A message without paths or file positions."""
    if _FILE_TROUBLE.search(text):
        return WITHHELD
    return _PATH.sub("<path>", text)


def diagnostics(messages: list[tuple[Any, str]], where: str = "") -> list[dict]:
    """clingo log messages as ``{"line", "column", "severity", "text", "where"}`` (bounded, scrubbed);
    a message located anywhere but in the program text becomes :data:`WITHHELD`."""
    out = []
    for _code, text in messages[:MAX_MESSAGES]:
        m = _MESSAGE.match(text.strip())
        if m:
            line, col, sev, body = int(m.group(1)), int(m.group(2)), m.group(3), scrub(m.group(4))
        else:
            line, col, sev, body = 0, 0, "error", WITHHELD if ":" in text.split("\n")[0][:300] else scrub(text)
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


def _signatures(term: Any, out: set[tuple[str, int]]) -> None:
    kind = str(term.ast_type).rsplit(".", 1)[-1]
    if kind == "Function":
        out.add((term.name, len(term.arguments)))
    elif kind == "SymbolicTerm" and term.symbol.type == clingo.SymbolType.Function:
        out.add((term.symbol.name, len(term.symbol.arguments)))
    elif kind == "UnaryOperation":
        _signatures(term.argument, out)
    elif kind == "Pool":
        for arg in term.arguments:
            _signatures(arg, out)


def head_signatures(node: Any, out: set[tuple[str, int]]) -> None:
    """``(name, arity)`` of every atom in a rule head (iteratively: heads can be deep)."""
    stack = [node]
    while stack:
        item = stack.pop()
        if not isinstance(item, A.AST):
            continue
        if str(item.ast_type).endswith("SymbolicAtom"):
            _signatures(item.symbol, out)
            continue
        for key in item.child_keys:
            child = getattr(item, key)
            if isinstance(child, A.AST):
                stack.append(child)
            elif child is not None and not isinstance(child, (str, int)):
                stack.extend(c for c in child if isinstance(c, A.AST))


def defined_predicates(statements: list[Any]) -> set[tuple[str, int]]:
    """Predicates some rule head, fact or ``#defined`` statement defines."""
    out: set[tuple[str, int]] = set()
    for stm in statements:
        kind = str(stm.ast_type).rsplit(".", 1)[-1]
        if kind == "Rule":
            head_signatures(stm.head, out)
        elif kind == "Defined":
            out.add((stm.name, stm.arity))
    return out


@dataclass
class Rule:
    index: int
    line: int
    text: str
    label: str


def parse(text: str, where: str = "") -> tuple[list[Any], list[dict]]:
    """(statements, errors) of ``text`` (ASCII; see :func:`.screen.to_ascii`)."""
    statements: list[Any] = []
    messages: list[tuple[Any, str]] = []
    try:
        A.parse_string(text, statements.append, logger=lambda c, t: messages.append((c, t)), message_limit=MAX_MESSAGES)
    except RuntimeError:
        return statements, [d for d in diagnostics(messages, where) if d["severity"] == "error"] or [
            {"line": 0, "column": 0, "severity": "error", "text": "cannot be parsed", "where": where}]
    return statements, []


class ParsedProgram:
    """A parsed, checked program whose rules carry guard literals."""

    def __init__(self, program: str):
        self.program = program
        self.statements, self.errors = parse(program)
        self.rules: list[Rule] = []
        self.guarded: list[Any] = []
        self.optimize = False
        self.defined: set[tuple[str, int]] = set()
        if self.errors:
            return
        for stm in self.statements:
            kind = str(stm.ast_type).rsplit(".", 1)[-1]
            if kind not in ALLOWED_STATEMENTS or (kind == "Program" and stm.name != "base"):
                self.errors.append({"line": stm.location.begin.line, "column": stm.location.begin.column,
                                    "severity": "error", "text": f"{kind} statements are not allowed", "where": ""})
            self.optimize = self.optimize or kind == "Minimize"
        self.defined = defined_predicates(self.statements)
        labels = rule_labels(program)
        lines = program.encode("utf-8").split(b"\n")
        for stm in self.statements:
            if str(stm.ast_type).endswith("Rule"):
                i, loc = len(self.rules), stm.location
                line = loc.begin.line
                self.rules.append(Rule(i, line, _source_text(lines, loc), labels.get(line) or f"line {line}"))
                guard = A.Literal(loc, A.Sign.NoSign, A.SymbolicAtom(A.Function(loc, GUARD, [A.SymbolicTerm(loc, clingo.Number(i))], 0)))
                stm = A.Rule(loc, stm.head, [*stm.body, guard])
            self.guarded.append(stm)


def _source_text(lines: list[bytes], loc: Any) -> str:
    """The program text a statement's location spans (one line, whitespace collapsed)."""
    span = lines[loc.begin.line - 1: loc.end.line]
    if not span:
        return ""
    if len(span) == 1:
        span = [span[0][loc.begin.column - 1: loc.end.column - 1]]
    else:
        span = [span[0][loc.begin.column - 1:], *span[1:-1], span[-1][: loc.end.column - 1]]
    return " ".join(b" ".join(span)[:4 * MAX_MESSAGE_CHARS].decode("utf-8", "replace").split())[:MAX_MESSAGE_CHARS]
