"""Queries compiled to ASP rules, so that the solver decides entailment by refutation.

:func:`compile_query` turns a parsed query (:mod:`.query`) into rules that derive the 0-ary atom
``<root>`` exactly when the query holds in an answer set (the same meaning as
:func:`.query.holds`). The rules only read the program's atoms and ``__fr_u/1``, the terms of the
answer set (the critic defines ``__fr_u(T) :- A.`` for every term ``T`` of every possible atom
``A``), so adding them never changes the program's answer sets: each answer set is extended by
the query's value in it. "The program entails the query" is then one solver call: no answer set
with ``not <root>`` (with the atom assumed false).

Every node gets a predicate ``__fr_q<k>_<n>`` over the variables in scope (bound by the
enclosing ``SOME``/``ALL``, each ranging over ``__fr_u``); ``XOR`` is parity (an odd number of
its arguments hold). Pure Python: no clingo needed to compile.
"""
from __future__ import annotations

from .query import Atom, Lit, Quant, Query, Term, Var, ground_term

UNIVERSE = "__fr_u"




def atom_text(atom: Atom, env: dict[str, str]) -> str:
    text = atom.name if not atom.args else f"{atom.name}({','.join(ground_term(a, env) for a in atom.args)})"
    return ("-" if atom.negated else "") + text


class _Compiler:
    def __init__(self, prefix: str):
        self.prefix, self.count, self.variables = prefix, 0, 0
        self.lines: list[str] = []

    def fresh(self, scope: list[str]) -> str:
        self.count += 1
        name = f"{self.prefix}_{self.count}"
        return f"{name}({','.join(scope)})" if scope else name

    def rule(self, head: str, scope: list[str], body: list[str]) -> None:
        self.lines.append(f"{head} :- {', '.join([f'{UNIVERSE}({v})' for v in scope] + body) or '#true'}.")

    def node(self, q: Query, env: dict[str, str], scope: list[str]) -> str:
        head = self.fresh(scope)
        if isinstance(q, Atom):
            self.rule(head, scope, [atom_text(q, env)])
        elif isinstance(q, Quant):
            self.variables += 1
            var = f"V{self.variables}"
            inner = self.node(q.body, {**env, q.var: var}, scope + [var])
            if q.op == "SOME":
                self.rule(head, scope, [f"{UNIVERSE}({var})", inner])
            else:
                witness = self.fresh(scope)
                self.rule(witness, scope, [f"{UNIVERSE}({var})", f"not {inner}"])
                self.rule(head, scope, [f"not {witness}"])
        else:
            kids = [self.node(item, env, scope) for item in q.items]
            if q.op == "NOT":
                self.rule(head, scope, [f"not {kids[0]}"])
            elif q.op == "AND":
                self.rule(head, scope, kids)
            elif q.op == "OR":
                for kid in kids:
                    self.rule(head, scope, [kid])
            elif q.op == "XOR":
                elements = "; ".join(f"{i} : {kid}" for i, kid in enumerate(kids))
                self.rule(head, scope, [f"N = #count{{ {elements} }}", "N \\ 2 = 1"])
            elif q.op == "IF-THEN":
                self.rule(head, scope, [f"not {kids[0]}"])
                self.rule(head, scope, [kids[1]])
            else:  # IFF
                self.rule(head, scope, kids)
                self.rule(head, scope, [f"not {kids[0]}", f"not {kids[1]}"])
        return head


def compile_query(query: Query, root: str) -> str:
    """ASP rules deriving the 0-ary atom ``root`` iff ``query`` holds (see the module docstring)."""
    compiler = _Compiler(root)
    top = compiler.node(query, {}, [])
    compiler.lines.append(f"{root} :- {top}.")
    return "\n".join(compiler.lines) + "\n"


def predicates(query: Query) -> set[tuple[str, int]]:
    """The ``(name, arity)`` of every atom the query reads."""
    if isinstance(query, Atom):
        return {(query.name, len(query.args))}
    if isinstance(query, Quant):
        return predicates(query.body)
    return set().union(*(predicates(q) for q in query.items))
