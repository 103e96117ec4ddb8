"""LLM-as-verifier tasks (``finereason_verify_<domain>``): does a model accept a candidate solution, and
is its critique right? (Stechly et al. 2024: LLM verifiers have high false-negative rates.)

Candidates are made from end-to-end rows, deterministically (a seeded stream per row and kind):

- ``correct``: the oracle's solution (:meth:`~finereason.core.engine.Engine.solve`);
- ``broken`` / ``ablated`` / ``random``: the domain's :meth:`~finereason.core.engine.Engine.mutate_solution`
  (one rule broken; one number, value or action left out; random); a domain that cannot make a kind
  makes no candidate of it;
- ``model``: a real model's end-to-end response, from a JSON Lines file of ``{"id": row id, "response": text}``.

The request is the one verify request, :func:`finereason.core.prompts.verify_prompt` (the puzzle's rules,
its initial state where the domain shows one, the candidate; the loop's self-verification sends the same).
The truth of every candidate is the sound verifier's
(:func:`~finereason.verification.verifiers.verify_end_to_end`), never the kind: a mutation that happens to stay
valid is labelled correct. The model's verdict is the last ``Verdict: correct|incorrect`` after its
reasoning (:func:`~finereason.verification.feedback.read_self_verdict`); no clear verdict earns nothing. Its critique
*names an existing error* when one sentence of it (at most :data:`MAX_SENTENCE_CHARS` characters and
:data:`MAX_SENTENCE_NUMBERS` distinct numbers) mentions every number of one of the verifier's reasons
(the cell, vertex, colour, number or step the reason names).

Metrics (a public contract, :data:`VERIFY_METRICS`, declared in :mod:`finereason.verification.metrics`):
``acc``; ``false_positive_rate`` (wrong candidates accepted / wrong candidates);
``false_negative_rate`` (correct candidates not accepted / correct candidates); ``critique_precision``
(rejections of wrong candidates whose critique names an existing error / rejections of wrong
candidates); ``no_verdict_rate``.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from ..common.deprecated import renamed_names
from ..common.verdict import Verdict
from ..core.engine import get_engine
from ..core.literals import strip_thinking
from ..core.prompts import TASK_MAX_GEN_TOKS, VERIFY_REQUEST, verify_prompt
from ..core.puzzle_sources import rng_for
from ..core.rows import row_domain
from ..reading.context import ReadContext, resolve_context
from .feedback import read_self_verdict
from .metrics import VERIFY, VERIFY_RECORD, compute, metric_list_yaml, task_metrics
from .scoring import row_puzzle
from .verifiers import verify_end_to_end

MUTATIONS: tuple[str, ...] = ("broken", "ablated", "random")
KINDS: tuple[str, ...] = ("correct", *MUTATIONS)
MODEL = "model"
VERIFY_METRICS: tuple[str, ...] = tuple(m.name for m in task_metrics(VERIFY))  # declared in the metric registry
MAX_CANDIDATE_CHARS = 20_000
MAX_CRITIQUE_CHARS = 16_000
MAX_SENTENCE_CHARS = 300
MAX_SENTENCE_NUMBERS = 8

_NUMBER = re.compile(r"(?<![0-9])[0-9]{1,6}(?![0-9])")
_SENTENCE = re.compile(r"[^.;!?\n]+")


# ------------------------------------------------------------------ candidates
def candidate_text(kind: str | None, candidate: str) -> str:
    """A candidate as the end-to-end verifier reads it: a model's response as written, a made one after ``Answer:``."""
    return candidate if kind == MODEL else f"Answer: {candidate}"


def verify_candidate(row: dict, kind: str | None, candidate: str, context: ReadContext | None = None) -> Verdict:
    """The sound verifier's verdict on a candidate solution of ``row``'s puzzle (the candidate's truth).
    A model's response (``kind == "model"``) is read in the run's read ``context`` (a response whose
    reasoning never closes has no answer); a made candidate is an answer, read the same in every context."""
    text = candidate_text(kind, candidate)
    return verify_end_to_end(get_engine(row_domain(row)), row_puzzle(row), text,
                             context=resolve_context(context) if kind == MODEL else None)


def _doc(row: dict, kind: str, candidate: str, context: ReadContext | None = None) -> dict:
    verdict = verify_candidate(row, kind, candidate, context)
    return {**row, "id": f"{row['id']}/{kind}", "source_id": row["id"], "task": VERIFY, "kind": kind,
            "candidate": candidate, "candidate_correct": verdict.correct,
            "candidate_reasons": json.dumps(list(verdict.reasons)), "label": "correct" if verdict.correct else "incorrect",
            "prompt": verify_prompt(row, candidate)}


def candidates(row: dict, seed: int = 0, kinds: Sequence[str] = KINDS) -> list[dict]:
    """The verify documents of one end-to-end row, one per kind the domain can make (none when the
    puzzle has no solution)."""
    engine = get_engine(row_domain(row))
    puzzle = row_puzzle(row)
    solution = engine.solve(puzzle)
    if solution is None:
        return []
    out = []
    for kind in kinds:
        if kind == "correct":
            state = solution
        elif kind in MUTATIONS:
            state = engine.mutate_solution(puzzle, solution, rng_for(seed, VERIFY, row["id"], kind), kind)
        else:
            raise ValueError(f"unknown candidate kind {kind!r} (known: {', '.join(KINDS)})")
        if state is not None:
            out.append(_doc(row, kind, engine.answer_text(puzzle, state)))
    return out


def verify_docs(rows: Iterable[dict], seed: int = 0, model_answers: dict[str, str] | None = None, *,
                context: ReadContext | None = None) -> list[dict]:
    """Every verify document of ``rows`` in row order, plus one ``model`` candidate per row with an answer
    in ``model_answers`` (row id -> response), its truth read in the run's read ``context``
    (:meth:`ReadContext.from_metadata` of the task's metadata)."""
    docs = []
    for row in rows:
        docs += candidates(row, seed)
        answer = (model_answers or {}).get(str(row["id"]))
        if answer is not None:
            docs.append(_doc(row, MODEL, answer[:MAX_CANDIDATE_CHARS], context))
    return docs


def read_model_answers(path: str) -> dict[str, str]:
    """``{"id": row id, "response": text}`` lines (one-line errors naming the file and line)."""
    from pathlib import Path

    from ..common.jsonl import iter_json_lines

    out: dict[str, str] = {}
    for lineno, obj in iter_json_lines(str(Path(path))):
        if not isinstance(obj, dict) or "id" not in obj or not isinstance(obj.get("response"), str):
            raise ValueError(f'{path}:{lineno}: expected {{"id": ..., "response": "..."}}')
        out[str(obj["id"])] = obj["response"]
    return out


# ------------------------------------------------------------------ reading and verifying the model
def numbers(text: str) -> set[int]:
    return {int(n) for n in _NUMBER.findall(text)}


def names_error(critique: str, reasons: Sequence[str]) -> bool:
    """Whether one short sentence of ``critique`` mentions every number of one of ``reasons``."""
    wanted = [numbers(r) for r in reasons]
    wanted = [w for w in wanted if w]
    if not wanted:
        return False
    for m in _SENTENCE.finditer(critique[:MAX_CRITIQUE_CHARS]):
        sentence = m.group()
        if len(sentence) > MAX_SENTENCE_CHARS:
            continue
        have = numbers(sentence)
        if len(have) <= MAX_SENTENCE_NUMBERS and any(w <= have for w in wanted):
            return True
    return False


@dataclass(frozen=True)
class VerifyScore:
    """One verdict: the candidate's truth, the model's verdict (None: none) and whether its critique
    names an existing error (None unless it rejected a wrong candidate)."""

    truth: bool
    accepted: bool | None
    critique_ok: bool | None

    @property
    def correct(self) -> bool:
        """Whether the model's verdict matches the candidate's truth (the registry's per-row ``acc``)."""
        return self.accepted is self.truth

    def as_tuple(self) -> tuple:
        return (self.truth, self.accepted, self.critique_ok)


def score_verify(doc: dict, response: str, *, context: ReadContext | None = None) -> VerifyScore:
    """Verify one model response to one verify document (never raises on the response), read in the
    run's ``context``: a response whose reasoning never closes has no verdict."""
    text = response if isinstance(response, str) else ""
    finished = not resolve_context(context).unfinished(text)
    accepted = read_self_verdict(text) if finished else None
    truth = bool(doc["candidate_correct"])
    critique_ok = None
    if accepted is False and not truth:
        critique_ok = names_error(strip_thinking(text), json.loads(doc["candidate_reasons"]))
    return VerifyScore(truth, accepted, critique_ok)


def summarize_verify(scores: Iterable[VerifyScore | Sequence[Any]]) -> dict[str, float]:
    """The :data:`VERIFY_METRICS` of a list of verdicts (or their tuples)."""
    items = [s if isinstance(s, VerifyScore) else VerifyScore(*s) for s in scores]
    return compute(VERIFY, items, VERIFY_RECORD)


# ------------------------------------------------------------------ baselines
def oracle_verdict(doc: dict) -> str:
    """The sound verifier as a verifier model: its verdict and, when wrong, its first reason."""
    verdict = verify_candidate(doc, doc.get("kind"), doc["candidate"])
    if verdict.correct:
        return "Verdict: correct"
    return f"The first error: {verdict.reasons[0] if verdict.reasons else 'the answer is not a valid solution'}.\nVerdict: incorrect"


# ------------------------------------------------------------------ lm-eval task files
#: the verify tasks' version (1.1: self-verdicts read under the commitment rule; see the task changelog)
VERIFY_TASK_VERSION = "1.1"


def verify_task_name(engine: Any) -> str:
    return f"finereason_verify_{engine.name}"


def verify_configs(engines: Iterable[Any], header: str = "") -> dict[str, str]:
    """The lm-eval YAMLs of the verify tasks (file name -> text): one ``finereason_verify_<domain>.yaml``
    per domain, over its ``<domain>_end_to_end`` config, and the group ``finereason_verify`` of the
    domains in the default set. Hooks live in ``lm_eval_tasks/finereason/verify_utils.py``."""
    domains = list(engines)
    metrics = metric_list_yaml(VERIFY, "verify_utils")
    files = {}
    for engine in domains:
        name = verify_task_name(engine)
        files[f"{name}.yaml"] = (
            f"{header}task: {name}\nclass: !function verify_utils.VerifyTask\n"
            f"dataset_kwargs:\n  config: {engine.name}_end_to_end\n"
            "output_type: generate_until\ntest_split: test\ndoc_to_text: \"{{prompt}}\"\ndoc_to_target: \"{{label}}\"\n"
            "process_results: !function verify_utils.process_results\nnum_fewshot: 0\n"
            f"generation_kwargs:\n  until: []\n  max_gen_toks: {TASK_MAX_GEN_TOKS}\n  do_sample: false\n  temperature: 0.0\n"
            f"{metrics}metadata:\n  version: {VERIFY_TASK_VERSION}\n")
    members = "".join(f"  - {verify_task_name(e)}\n" for e in domains if getattr(e, "in_default_set", True))
    files["_finereason_verify.yaml"] = (
        f"{header}group: finereason_verify\ntask:\n{members}"
        "aggregate_metric_list:\n  - metric: acc\n    aggregation: mean\n    weight_by_size: true\n"
        f"metadata:\n  version: {VERIFY_TASK_VERSION}\n")
    return files


__all__ = ["KINDS", "MUTATIONS", "VERIFY", "VERIFY_REQUEST", "VERIFY_METRICS", "VerifyScore", "candidate_text", "candidates",
           "verify_candidate", "names_error", "oracle_verdict", "read_model_answers", "score_verify", "summarize_verify", "verify_configs", "verify_docs", "verify_prompt", "verify_task_name"]


__getattr__ = renamed_names(__name__, {"REQUEST": "VERIFY_REQUEST"}, globals(), moved_to="finereason.core.prompts")
