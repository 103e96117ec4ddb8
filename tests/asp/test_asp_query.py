"""The LLM-ARC query language: parsing with limits, every operator, labels over answer sets."""
from __future__ import annotations

import pytest

from finereason.asp.query import MAX_QUERY_CHARS, Model, QueryError, holds, parse_query, truth_value


def model(*atoms: str, universe: tuple[str, ...] = ()) -> Model:
    return Model(frozenset(atoms), universe)


W1 = model("cat(tom)", "black(tom)", "cat(kit)", "-dog(tom)", 'name(tom,"Tom \\"T\\"")', "age(tom,3)", "rain",
           universe=("kit", "tom", '"Tom \\"T\\""', "3"))


@pytest.mark.parametrize("query, expected", [
    ("cat(tom)", True), ("ATOM(cat(tom))", True), ("dog(tom)", False), ("-dog(tom)", True), ("rain", True),
    ("NOT(rain)", False), ("AND(cat(tom), black(tom))", True), ("AND(cat(tom), black(kit))", False),
    ("OR(black(kit), black(tom))", True), ("OR(black(kit), dog(tom))", False),
    ("XOR(black(tom), black(kit))", True), ("XOR(black(tom), cat(kit))", False),
    ("IF-THEN(black(kit), dog(tom))", True), ("IF-THEN(cat(tom), dog(tom))", False),
    ("IFF(black(kit), dog(tom))", True), ("IFF(cat(tom), dog(tom))", False),
    ("SOME(X, AND(cat(X), black(X)))", True), ("SOME(X, dog(X))", False),
    ("ALL(X, IF-THEN(cat(X), black(X)))", False), ("ALL(X, IF-THEN(black(X), cat(X)))", True),
    ("SOME(X, SOME(Y, AND(cat(X), cat(Y), NOT(black(Y)))))", True),
    ('name(tom, "Tom \\"T\\"")', True), ("age(tom, 3)", True), ("age(tom, 4)", False),
    ("  AND( cat(tom) ,\n black(tom) )  ", True),
])
def test_operators(query, expected):
    assert holds(parse_query(query), W1) is expected


def test_truth_values_over_answer_sets():
    q = parse_query("black(tom)")
    assert truth_value(q, [W1, W1]) == "True"
    assert truth_value(q, [model("cat(tom)")]) == "False"
    assert truth_value(q, [W1, model("cat(tom)")]) == "Uncertain"
    assert truth_value(q, []) is None


@pytest.mark.parametrize("query, message", [
    ("", "empty"), ("AND(", "end of the query"), ("cat(X)", "not bound"), ("FOO(a)", "unknown operator"),
    ("NOT(a, b)", "NOT takes"), ("IF-THEN(a)", "IF-THEN takes"), ("XOR(a)", "XOR takes"),
    ("cat(tom) extra", "after the end"), ("cat(tom;kit)", "unexpected"), ("SOME(x, cat(x))", "a variable"),
    ("cat(" * 60 + ")" * 60, "nested"), ("a" * (MAX_QUERY_CHARS + 1), "longer"),
    ("SOME(A, SOME(B, SOME(C, SOME(D, p(A,B,C,D)))))", "nested SOME/ALL"), ("cat(Tom(a))", "expected"),
    ("__import__('os')", "unexpected"),
])
def test_bad_queries_raise_query_error(query, message):
    with pytest.raises(QueryError, match=message):
        parse_query(query)


def test_non_string_query():
    with pytest.raises(QueryError):
        parse_query(None)  # type: ignore[arg-type]


def test_aliases():
    assert parse_query("EXISTS(X, cat(X))") == parse_query("SOME(X, cat(X))")
    assert parse_query("IMPLIES(a, b)") == parse_query("IF-THEN(a, b)")


def test_asp_modules_import_without_clingo_or_heavy_packages():
    import subprocess
    import sys
    import textwrap

    blocked = ("clingo", "torch", "lm_eval", "datasets", "pyarrow", "transformers")
    code = textwrap.dedent(f"""
        import importlib.abc, sys

        class Block(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in {blocked!r}:
                    raise ImportError("blocked: " + name, name=name.split(".")[0])
                return None

        sys.meta_path.insert(0, Block())
        import finereason.asp.query, finereason.data.folio, finereason.asp.critic, finereason.workflows.arc
        from finereason.commands import main
        assert main(["arc", "--model", "hf"]) == 2
        print("ok")
    """)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "pip install '.[asp,eval]' in the finereason checkout (clingo missing)" in result.stderr


@pytest.mark.parametrize("query, expected", [
    ("1. ATOM(cat(X))\n2. ATOM(black(X))\nSOME(1, 2)", True),
    ("1. ATOM(cat(X))\n2. ATOM(black(X))\nALL(1, 2)", False),
    ("1. ATOM(black(X))\n2. ATOM(cat(X))\nALL(1, 2)", True),
    (["1. ATOM(cat(tom))", "2. ATOM(black(kit))", "AND(1, 2)"], False),
    (["1. ATOM(cat(tom))", "2. NOT(1)", "3. OR(1, 2)"], True),
    (["1) ATOM(cat(X))", "2: ATOM(dog(X))", "SOME(1, 2)"], False),
    (["1. ATOM(cat(X))", "SOME(1)"], True),
    (["1. ATOM(age(X, N))", "SOME(1)"], True),
    (["cat(tom)", "black(tom)"], True),
    (["cat(tom)", "black(kit)"], False),
])
def test_numbered_format(query, expected):
    assert holds(parse_query(query), W1) is expected


@pytest.mark.parametrize("query, message", [
    ("1. cat(tom)\n1. dog(tom)\n1", "numbered twice"),
    ("1. cat(tom)\ncat(kit)\n1", "not numbered"),
    ("1. cat(tom)\nAND(1, 2)", "proposition 2 is not defined"),
    ("1. cat(X)\n2. dog(X)\n3. cat(X)\nALL(1, 2, 3)", "ALL takes"),
    ("1. cat(X)\nAND(1, 1)", "not bound"),
    ("1. p(A, B, C, D)\nSOME(1)", "SOME/ALL"),
    ([], "list query"), ([1, 2], "list query"),
])
def test_numbered_format_errors(query, message):
    with pytest.raises(QueryError, match=message):
        parse_query(query)
