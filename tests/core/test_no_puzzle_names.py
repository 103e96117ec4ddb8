"""No code outside a domain's own package names a puzzle.

Builders, prompts, scoring, reports, trainers, metrics, the CLI and the benchmarks ask the registry
(:mod:`finereason.core.engine`) about puzzles, so adding a domain touches only its own package (plus the
generated task YAMLs). This test proves it for every ``.py`` file under :data:`ROOTS`, skipping
``finereason/domains/`` (the domains themselves); tests and generated YAMLs are not scanned either.

The rule, checked on the syntax tree (so comments never count):

- every string constant counts, including the literal parts of f-strings, except docstrings (the
  first statement of a module, class or function: prose that explains, e.g., an example, is not
  code that decides anything);
- a *puzzle name* is every registered domain's ``name`` and ``official_name`` (aliases are
  conveniences and often plain words such as "grid" or "24", which answer readers may use), matched
  case-insensitively as a whole token: letters and digits may not touch it on either side, so
  ``"sudoku_state_checking"`` and ``"Sudoku"`` count, while ``"subgrid"`` does not contain ``grid``.

Code that needs a particular domain (a benchmark, an example) takes it from the registry or a
command-line argument instead.
"""
from __future__ import annotations

import ast
import re
from functools import lru_cache
from pathlib import Path

import pytest

from finereason.core import engine as base
from finereason.core.engine import engines

REPO = Path(__file__).resolve().parents[2]
ROOTS = ("finereason", "dataset_builders", "trainers", "lm_eval_tasks", "metrics", "hub_cards", "benchmarks")
EXCLUDED = ("finereason/domains/",)


def puzzle_names() -> set[str]:
    """Every registered domain's name and official name."""
    return {n for e in engines() for n in (e.name, e.official_name)}


@lru_cache(maxsize=None)
def pattern() -> re.Pattern[str]:
    alternatives = "|".join(re.escape(n) for n in sorted(puzzle_names(), key=len, reverse=True))
    return re.compile(rf"(?<![a-z0-9])(?:{alternatives})(?![a-z0-9])", re.IGNORECASE)


def python_files() -> list[Path]:
    files = []
    for root in ROOTS:
        for path in sorted((REPO / root).rglob("*.py")):
            rel = path.relative_to(REPO).as_posix()
            if "__pycache__" not in rel and not rel.startswith(EXCLUDED):
                files.append(path)
    return files


def docstring_nodes(tree: ast.AST) -> set[int]:
    """ids of the constant nodes that are docstrings."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                out.add(id(first.value))
    return out


def violations(source: str, rel: str) -> list[str]:
    """``file:line: 'literal'`` for every string constant naming a puzzle."""
    tree = ast.parse(source, rel)
    skip = docstring_nodes(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            match = pattern().search(node.value)
            if match:
                found.append(f"{rel}:{node.lineno}: {match.group(0)!r} in {node.value[:60]!r}")
    return found


def test_the_scan_sees_names():
    """The rule itself: names count in strings and f-strings, not in docstrings or comments."""
    name = engines()[0].name
    code = (f'"""Docs may say {name}."""\n'
            f'def f(x):\n    """{name} here too."""\n    # {name} in a comment\n'
            f'    a = "{name}_state_checking"\n    b = f"{{x}}-{name.upper()}"\n    return "sub{name}x"\n')
    assert [line.split(":")[1] for line in violations(code, "demo.py")] == ["5", "6"]
    assert python_files(), "the scanned folders exist"


@pytest.mark.parametrize("path", python_files(), ids=lambda p: p.relative_to(REPO).as_posix())
def test_no_puzzle_name_outside_domains(path):
    rel = path.relative_to(REPO).as_posix()
    found = violations(path.read_text(encoding="utf-8"), rel)
    assert not found, "puzzle names outside finereason/domains/ (ask the registry):\n" + "\n".join(found)
