"""The LLM-ARC actor's instructions (in our own words): the output format, encoding guidelines per
class of logical statement, test-writing guidelines, error-fixing instructions and a worked example.
``tests=False`` gives the ablation without test generation (``finereason arc --no-tests``)."""
from __future__ import annotations

FORMAT = """You translate a logic problem into an Answer Set Program (clingo syntax){tested}.

Write, in this order:
1. The program in a ```asp code block. Put a comment `% [P1] <premise text>` before the rules of each
   premise (P1, P2, ...), and `% [OPEN] ...` before choice rules for facts the premises leave open.
   Every possible world must be an answer set: a conclusion is True if it holds in all of them,
   False if it holds in none, Uncertain otherwise.
   Never write #script, #include, #external, #program, #theory, '@' or '&' (not even in comments or
   strings): such programs are refused. Use plain lower-case names (e.g. `jose`, `at_and_t`).
2. A ```json block: {json_shape}.
   The query language: atoms in clingo syntax, ATOM(a), AND(q, ...), OR(q, ...), NOT(q), XOR(q, ...)
   (an odd number hold; for two: exactly one), IF-THEN(q, q), IFF(q, q), SOME(X, q), ALL(X, q).
   Numbered form: one proposition per line, then the query over their numbers, e.g.
   ["1. ATOM(student(X))", "2. ATOM(takes(X, logic))", "SOME(1, 2)"] (some X is both) or
   "ALL(1, 2)" (every X with 1 has 2) or "AND(1, 2)".
   A query on a predicate that no rule or fact defines is reported as an unknown predicate: the
   world is closed (an atom that cannot be derived is false), so define everything you ask about.
"""

TEST_FORMAT = """   A test: {"name": "...", "type": "infer-True-All" | "infer-True-Any" | "infer-False" | "expect-Contradiction",
   "query": "<query or numbered propositions>", "facts": "optional extra ASP facts",
   "rules-referenced": ["P1", ...], "explanation": "why it must hold"}.
   infer-True-All: holds in every answer set; infer-True-Any: in at least one; infer-False: in none;
   expect-Contradiction: the program plus the facts has no answer set.
"""

GUIDELINES = """Encoding guidelines, by kind of statement:
- "All A are B": `b(X) :- a(X).`  "No A is B": `:- a(X), b(X).` (or `-b(X) :- a(X).` when not-B is asked about).
- "Some A is B" with no named individual: invent one, `a(some_a). b(some_a).`
- "A or B" (inclusive) for x: `1 { a(x); b(x) }.`; "either A or B, but not both": `1 { a(x); b(x) } 1.`
- "If A then B" about an individual: `b(x) :- a(x).`; "A if and only if B": both directions.
- Unknown facts (neither stated nor implied): a choice rule `{ p(x) }.` under `% [OPEN]`; never
  assume them true or false. Every individual that the conclusion mentions must exist in the program.
- Explicit negation ("x is not B"): `-b(x).` with `:- b(X), -b(X).` so both cannot hold.
- Numbers and comparisons are fine (`older(X, Y) :- age(X, A), age(Y, B), A > B.`); keep domains finite.
"""

TEST_GUIDELINES = """Test-writing guidelines:
- Write at least one test per premise and name the premises it relies on in "rules-referenced".
- Use "facts" to add a fresh individual (e.g. `cat(felix).`) and check that a general rule fires for it.
- Check that open facts stay open: an infer-True-Any test for the fact and another for its negation.
- Use expect-Contradiction to check constraints ("No A is B": facts `a(z). b(z).` must contradict).
- Test the conclusion's parts, not only the conclusion: tests catch a wrong encoding before the answer does.
"""

FIXING = """When the critic answers:
- Compile errors come with line numbers: fix that line (an unsafe variable needs a positive body
  atom that binds it; a misspelt predicate is reported as unknown).
- A failed test means the program or the test is wrong: reread the premise, decide which, and fix
  that one. Never delete a test only to make the run pass.
- "no answer set" comes with a minimal set of contradicting rules: one of them is encoded wrongly.
- Send the complete program and the complete JSON block again each time.
"""

EXAMPLE_PROGRAM = """% [P1] All squirrels eat nuts.
eats_nuts(X) :- squirrel(X).
% [P2] Rocky is a squirrel or a chipmunk.
1 { squirrel(rocky); chipmunk(rocky) }.
% [P3] No chipmunk is a squirrel.
:- chipmunk(X), squirrel(X).
% [OPEN] Whether Rocky is a squirrel is left open by P2.
"""

EXAMPLE = """Example. Premises: 1. All squirrels eat nuts. 2. Rocky is a squirrel or a chipmunk.
3. No chipmunk is a squirrel. Conclusion: Rocky eats nuts.

```asp
""" + EXAMPLE_PROGRAM + """```

```json
{"query": "eats_nuts(rocky)"<<TESTS>>}
```
(The conclusion is Uncertain: Rocky may be a chipmunk.)
"""

EXAMPLE_TESTS = """,
 "tests": [
  {"name": "squirrels eat nuts", "type": "infer-True-All", "query": "eats_nuts(sam)", "facts": "squirrel(sam).",
   "rules-referenced": ["P1"]},
  {"name": "Rocky may be a squirrel", "type": "infer-True-Any", "query": "squirrel(rocky)", "rules-referenced": ["P2"]},
  {"name": "Rocky may be a chipmunk", "type": "infer-True-Any", "query": "chipmunk(rocky)", "rules-referenced": ["P2"]},
  {"name": "never both", "type": "infer-False",
   "query": ["1. ATOM(chipmunk(X))", "2. ATOM(squirrel(X))", "SOME(1, 2)"], "rules-referenced": ["P3"]},
  {"name": "a chipmunk squirrel contradicts", "type": "expect-Contradiction", "facts": "chipmunk(sam). squirrel(sam).",
   "rules-referenced": ["P3"]}]"""


def instructions(tests: bool = True) -> str:
    """The actor's instructions (and example), with or without test generation."""
    shape = '{"query": "<the conclusion>", "tests": [<tests>]}' if tests else '{"query": "<the conclusion>"}'
    parts = [FORMAT.format(tested=" and test it" if tests else "", json_shape=shape)]
    if tests:
        parts.append(TEST_FORMAT)
    parts.append(GUIDELINES)
    if tests:
        parts.append(TEST_GUIDELINES)
    fixing = FIXING if tests else "\n".join(ln for ln in FIXING.splitlines() if "test" not in ln and "that one" not in ln)
    parts.append(fixing)
    parts.append(EXAMPLE.replace("<<TESTS>>", EXAMPLE_TESTS if tests else ""))
    return "\n".join(p.rstrip("\n") + "\n" for p in parts).rstrip() + "\n"
