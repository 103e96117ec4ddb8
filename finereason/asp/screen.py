"""The static screen of untrusted ASP text (programs, test facts, queries), run before clingo sees it.

The screen does not lex ASP: a lexer of ours can disagree with clingo's (nested block comments,
recovery after bad escapes), so nothing is skipped. Refused anywhere in the text, comments and
strings included, case-insensitively:

- ``#`` followed (after any run of characters that are neither letters, digits, ``_`` nor ``#``:
  spaces, newlines, ``%``, ``*``...) by one of the words ``include``, ``script``, ``external``,
  ``program``, ``theory``;
- ``@`` (external function calls) and ``&`` (theory atoms);
- names starting with ``__fr_`` (reserved for the critic), NUL characters;
- lone surrogates (text that is not valid Unicode): a ``syntax`` finding, not a rejection.

One pass over the text, linear in its length; at most :data:`MAX_FINDINGS` findings.
Pure Python: the clingo worker runs the same screen again before parsing (defence in depth).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

FORBIDDEN_DIRECTIVES = ("include", "script", "external", "program", "theory")
MAX_FINDINGS = 20
# '#' then a run without word characters or '#' (so each character is scanned once), then a word
_HAZARD = re.compile(r"#[^\w#]*([a-z_]\w*)|[@&\x00]|__fr_|[\ud800-\udfff]", re.ASCII)
_WHAT = {"@": "@-terms (external function calls) are not allowed, even in comments or strings",
         "&": "theory atoms (&) are not allowed, even in comments or strings",
         "\x00": "NUL character", "__fr_": "names starting with __fr_ are reserved"}


@dataclass(frozen=True)
class Limits:
    """Resource limits of one critic run."""

    time_s: float = 10.0
    memory_mb: int = 2048
    max_program_chars: int = 100_000
    max_tests: int = 50
    max_models: int = 1_000  # answer sets counted for the report; answers never enumerate
    max_output_chars: int = 2_000_000


@dataclass(frozen=True)
class Diagnostic:
    line: int
    column: int
    text: str
    severity: str = "error"
    where: str = ""  # "" for the program, "test N facts", "query"...
    code: str = ""  # "too_large", "syntax" or "rejected" for screen findings

    def render(self) -> str:
        place = f"line {self.line}" + (f", column {self.column}" if self.column else "") if self.line else "program"
        return f"{self.severity}: {place}{f' ({self.where})' if self.where else ''}: {self.text}"


def _positions(text: str, offsets: list[int]) -> list[tuple[int, int]]:
    """(line, column) of ascending ``offsets``, in one pass."""
    out, line, line_start, prev = [], 1, 0, 0
    for off in offsets:
        newlines = text.count("\n", prev, off)
        if newlines:
            line += newlines
            line_start = text.rfind("\n", prev, off) + 1
        out.append((line, off - line_start + 1))
        prev = off
    return out


def screen(text: object, limits: Limits = Limits(), where: str = "") -> list[Diagnostic]:
    """Reasons to refuse ``text`` before clingo sees it (empty when it may run)."""
    if not isinstance(text, str):
        return [Diagnostic(0, 0, "the program must be text", where=where, code="rejected")]
    if len(text) > limits.max_program_chars:
        return [Diagnostic(0, 0, f"longer than {limits.max_program_chars} characters", where=where, code="too_large")]
    hits: list[tuple[int, str, str]] = []
    for m in _HAZARD.finditer(text.lower() if text.isascii() else _lower_keep_length(text)):
        token = m.group(0)
        if token[0] == "#":
            word = m.group(1)
            if word not in FORBIDDEN_DIRECTIVES:
                continue
            hits.append((m.start(), f"#{word} is not allowed (not even in a comment or a string)", "rejected"))
        elif "\ud800" <= token <= "\udfff":
            hits.append((m.start(), "invalid UTF-8 (a lone surrogate character)", "syntax"))
        else:
            hits.append((m.start(), _WHAT[token], "rejected"))
        if len(hits) >= MAX_FINDINGS:
            break
    return [Diagnostic(line, col, what, where=where, code=code)
            for (line, col), (_, what, code) in zip(_positions(text, [h[0] for h in hits]), hits)]


def _lower_keep_length(text: str) -> str:
    """ASCII lower case only, so offsets stay those of ``text`` (``str.lower`` may change lengths)."""
    return text.translate(_ASCII_LOWER)


_ASCII_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}


def status_of(findings: list[Diagnostic]) -> str:
    """The critic status for screen findings: ``too_large``, ``syntax_error`` or ``rejected``."""
    codes = {d.code for d in findings}
    return "too_large" if "too_large" in codes else "rejected" if "rejected" in codes else "syntax_error"


# ------------------------------------------------------------------ non-ASCII text
_ESCAPED = re.compile(r"_u([0-9a-f]{4,6})_")


def to_ascii(text: str) -> str:
    """clingo's lexer is ASCII: each non-ASCII character becomes ``_uXXXX_`` (a valid identifier part,
    and inside strings a plain string), undone by :func:`from_ascii` on everything reported back."""
    if text.isascii():
        return text
    return "".join(ch if ch < "\x80" else f"_u{ord(ch):04x}_" for ch in text)


def from_ascii(text: str) -> str:
    return _ESCAPED.sub(lambda m: chr(int(m.group(1), 16)) if int(m.group(1), 16) <= 0x10FFFF else m.group(0), text) \
        if "_u" in text else text
