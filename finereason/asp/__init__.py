"""Answer Set Programming with clingo (``pip install '.[asp]'`` in the finereason checkout): a sandboxed critic for
LLM-written programs and their LLM-ARC tests (:mod:`.critic`), the query language (:mod:`.query`),
FOLIO loading and answer reading (:mod:`.folio`), the actor-critic loop (:mod:`.arc`) and an
independent ASP encoding of the logic-grid domain (:mod:`.grid`).

The query language and FOLIO reader import without clingo; the critic needs it.
"""
