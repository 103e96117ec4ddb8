"""The architecture you can see: folders are layers (import-linter's contract in pyproject.toml),
no import circles between modules, and no module over 500 lines."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "finereason"
MAX_LINES = 500

grimp = pytest.importorskip("grimp")


@pytest.fixture(scope="session")
def graph():
    sys.path.insert(0, str(ROOT))
    try:
        return grimp.build_graph("finereason", cache_dir=None)
    finally:
        sys.path.remove(str(ROOT))


def test_layers_contract_is_kept():
    """``lint-imports`` (the layers contract in pyproject.toml) passes: no import from a lower layer
    to a higher one, siblings marked independent stay independent."""
    from importlinter import cli

    assert cli.lint_imports(config_filename=str(ROOT / "pyproject.toml")) == cli.EXIT_STATUS_SUCCESS


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                    break
                if child in on:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        top = stack.pop()
                        on.discard(top)
                        comp.append(top)
                        if top == node:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return out


def test_cycle_finder_finds_a_planted_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_circles(graph):
    """No two modules import each other, directly or through others (a package's ``__init__`` that
    re-exports its own modules counts only for the modules it names)."""
    edges = {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    assert _cycles(edges) == []


def test_no_module_over_500_lines():
    long = {str(p.relative_to(ROOT)): n for p in PACKAGE.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}
