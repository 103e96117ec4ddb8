"""LLM-ARC (Kalyanpur et al. 2024): an LLM actor writes an answer-set program, a conclusion query
and semantic tests; the ASP critic (:mod:`.critic`) runs them and feeds back compile errors, failed
tests and explanations, for up to ``rounds`` rounds.

Any lm-eval model drives the actor (``lm_eval.api.registry.get_model``; each round is one batched
``generate_until`` call). Each request's document carries ``id = "<item id>@<round>"``, so
``finereason-replay`` (``{"id", "response"}`` lines) replays scripted or recorded dialogs.

Outputs: accuracy per round (the answer a run capped at that many rounds would give), one JSONL
transcript line per item, and the successful dialogs (correct final answer, every test passing)
as a Hub-layout SFT data set: ``data/train-00000-of-00001.parquet`` + README ``configs:``.
"""
from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from ..asp.critic import Limits, Report, run_program
from ..common.deprecated import renamed_names
from ..common.input_errors import InputError
from ..core.prompts import folio_problem_text
from ..data.folio import TRUTH_VALUES
from ..reading.blocks import block_readings
from ..reading.context import DEFAULT, ReadContext
from ..reading.truth_values import TRUTH_VALUE_SIGNALS, UNCERTAIN_REASONS
from ..reading.region import UNFINISHED, final_region
from ..verification.metrics import json_value, ratio
from .actor_prompt import instructions
from .rounds import MAX_RESPONSE_CHARS, accuracy_at_rounds

MAX_JSON_CHARS = 100_000

ACTOR_INSTRUCTIONS = instructions(tests=True)
_SURROGATE = re.compile("[\ud800-\udfff]")


class ArcError(InputError):
    """A model that cannot take part in the loop (one line for the CLI)."""


def clean_text(text: object) -> str:
    """A model response as text that can be written anywhere: lone surrogates become U+FFFD."""
    text = "" if text is None else str(text)
    return _SURROGATE.sub("\ufffd", text) if not text.isascii() else text


_PROGRAM_TAGS = frozenset({"asp", "clingo", "lp", "prolog", "gringo", "answer-set", "answerset", ""})
_SPEC_TAGS = frozenset({"json"})


@dataclass
class ActorOutput:
    program: str | None
    query: str | list[str] | None  # one expression, or numbered propositions
    tests: list[Any]
    problems: list[str]


def parse_actor(text: str, tests: bool = True, *, starts_in_think: bool = False) -> ActorOutput:
    """The committed program block and JSON block of a response (after any ``</think>``), each read by
    the commitment rule (:mod:`finereason.reading.blocks`): a later block replaces an earlier one, a
    withdrawal in the prose after a block voids it, a block cut off by the token limit is no block (the
    withdrawn one before it is never run). ``tests=False`` (the no-test ablation) does not ask for tests."""
    region = final_region(text, starts_in_think=starts_in_think) if isinstance(text, str) else ""
    body = (region or "")[-MAX_RESPONSE_CHARS:]
    readings = block_readings(body, {"program": _PROGRAM_TAGS, "JSON block": _SPEC_TAGS}, answers=TRUTH_VALUE_SIGNALS,
                              reasons=UNCERTAIN_REASONS)
    program, spec = readings["program"].value, readings["JSON block"].value
    problems: list[str] = []
    want_tests, query, tests = tests, None, []
    if program is None:
        why = readings["program"].reason
        problems.append("no ```asp code block with the program was found" if not readings["program"].statements
                        else f"no program is read: {why}")
    if spec is None:
        why = readings["JSON block"].reason
        problems.append('no ```json block with {"query": ...' + (', "tests": [...]' if tests else "") + "} was found"
                        + (f" ({why})" if readings["JSON block"].statements else ""))
    elif len(spec) > MAX_JSON_CHARS:
        problems.append(f"the JSON block is longer than {MAX_JSON_CHARS} characters")
    else:
        try:
            obj = json.loads(spec)
        except (json.JSONDecodeError, RecursionError) as err:
            problems.append(f"the JSON block is not valid JSON ({getattr(err, 'msg', 'nested too deeply')}"
                            f"{f', line {err.lineno}' if hasattr(err, 'lineno') else ''})")
            obj = None
        if isinstance(obj, list):
            obj = {"tests": obj}
        if isinstance(obj, dict):
            raw = obj.get("query")
            numbered = isinstance(raw, list) and raw and all(isinstance(x, str) for x in raw)
            query = raw if isinstance(raw, str) or numbered else None
            tests = obj.get("tests") if isinstance(obj.get("tests"), list) else []
            if query is None:
                problems.append('the JSON block has no "query" (a string, or a list of numbered propositions) for the conclusion')
            if not tests and want_tests:
                problems.append('the JSON block has no "tests" list (write at least one test)')
        elif obj is not None:
            problems.append("the JSON block must be an object {\"query\": ..., \"tests\": [...]}")
    return ActorOutput(program, query, tests, problems)


@dataclass
class Round:
    round: int
    response: str
    status: str
    answer: str | None
    tests_passed: int
    tests_total: int
    feedback: str
    done: bool

    def as_dict(self) -> dict:
        return dict(self.__dict__)


@dataclass
class ArcDialog:
    doc: dict
    messages: list[dict]
    rounds: list[Round] = field(default_factory=list)

    @property
    def done(self) -> bool:
        return bool(self.rounds) and self.rounds[-1].done

    @property
    def answer(self) -> str | None:
        return self.rounds[-1].answer if self.rounds else None

    @property
    def correct(self) -> bool:
        return self.answer == self.doc["label"]

    @property
    def success(self) -> bool:
        return self.done and self.correct

    def answer_at(self, r: int) -> str | None:
        """The answer of a run capped at ``r`` rounds."""
        upto = [x for x in self.rounds if x.round <= r]
        return upto[-1].answer if upto else None

    def transcript(self) -> dict:
        return {"id": self.doc["id"], "story_id": self.doc.get("story_id"), "label": self.doc["label"],
                "answer": self.answer, "correct": self.correct, "success": self.success,
                "rounds": [r.as_dict() for r in self.rounds], "messages": self.messages}


def first_message(doc: dict, tests: bool = True) -> str:
    return f"{instructions(tests)}\n{folio_problem_text(doc)}"


def critique(text: str, limits: Limits, tests: bool = True,
             context: ReadContext = DEFAULT) -> tuple[Report | None, ActorOutput, str, bool]:
    """Run the critic on one response, read in the run's ``context`` (unfinished reasoning offers no
    program): (report, parsed output, feedback text, done). Without tests (the ablation) a run is done
    when the program runs and answers the conclusion."""
    out = ActorOutput(None, None, [], [UNFINISHED]) if context.unfinished(text) else parse_actor(text, tests)
    if out.program is None:
        return None, out, "Critic: " + "; ".join(out.problems) + ". Send the program and the JSON block.", False
    report = run_program(out.program, out.tests if tests else [], out.query, limits=limits)
    lines = [f"Critic: {p}." for p in out.problems] + [report.feedback()]
    done = report.all_passed and not out.problems and report.answer in TRUTH_VALUES
    if done:
        lines.append(f"{'All tests pass; the' if tests else 'The'} conclusion is {report.answer}.")
    else:
        lines.append("Fix the program" + (" (or tests that were wrong)" if tests else "") + " and send both blocks again.")
    return report, out, "\n".join(lines), done


def _generate(generate: Callable, batch: list) -> list[str]:
    """One batched model call; a model that cannot answer FOLIO requests is an :class:`ArcError`."""
    try:
        responses = generate(batch)
    except (KeyError, AttributeError, TypeError, NotImplementedError) as err:
        raise ArcError(f"the model cannot answer FOLIO requests ({type(err).__name__}: {str(err)[:120]}); "
                       "use a generative model or finereason-replay") from None
    if not isinstance(responses, (list, tuple)) or len(responses) != len(batch):
        raise ArcError(f"the model returned {len(responses) if isinstance(responses, (list, tuple)) else 'no list of'} "
                       f"responses for {len(batch)} requests")
    return [clean_text(r)[:MAX_RESPONSE_CHARS] for r in responses]


def run_arc(docs: Sequence[dict], generate: Callable[[list[tuple[dict, list[dict]]]], list[str]], *,
            rounds: int = 4, limits: Limits = Limits(), jobs: int = 1, tests: bool = True,
            progress: Callable[[int, int], None] | None = None, context: ReadContext = DEFAULT,
            recorded: Mapping[tuple[str, int], str] | None = None,
            record: Callable[[list[dict]], None] | None = None) -> list[ArcDialog]:
    """The actor-critic loop. ``generate`` answers a batch of ``(request doc, chat messages)``;
    ``tests=False`` is the ablation without test generation; responses are read in ``context``.
    Resuming: ``recorded[(doc id, round)]`` is a response an earlier run got (it is replayed through the
    same critic instead of asking the model again); ``record`` is handed each round's new responses
    (``{"id", "round", "response"}``) as soon as they arrive."""
    recorded = recorded or {}
    dialogs = [ArcDialog(doc, [{"role": "user", "content": first_message(doc, tests)}]) for doc in docs]
    for r in range(1, rounds + 1):
        active = [d for d in dialogs if not d.done]
        if not active:
            break
        ask = [d for d in active if (str(d.doc["id"]), r) not in recorded]
        new = iter(_generate(generate, [({**d.doc, "id": f"{d.doc['id']}@{r}"}, list(d.messages)) for d in ask])
                   if ask else [])
        responses = [recorded.get((str(d.doc["id"]), r)) if (str(d.doc["id"]), r) in recorded else next(new)
                     for d in active]
        if record and ask:
            asked = {id(d) for d in ask}
            record([{"id": str(d.doc["id"]), "round": r, "response": text}
                    for d, text in zip(active, responses) if id(d) in asked])
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            results = list(pool.map(lambda t: critique(t, limits, tests, context), responses))
        for dialog, text, (report, _out, feedback, done) in zip(active, responses, results):
            dialog.messages.append({"role": "assistant", "content": text})
            answer = report.answer if report is not None and report.status == "ok" else None
            ran = report.tests if report is not None else []  # not `tests`: the next round's critique reads that
            dialog.rounds.append(Round(r, text, report.status if report else "no_program", answer,
                                       sum(t.passed for t in ran), len(ran), feedback, done))
            if not done and r < rounds:
                dialog.messages.append({"role": "user", "content": feedback})
        if progress:
            progress(r, len(active))
    return dialogs


def summarize_arc(dialogs: Sequence[ArcDialog], rounds: int) -> dict[str, Any]:
    """The run's summary: ``round_<r>``: accuracy when capped at r rounds (:func:`.rounds.accuracy_at_rounds`); ``final``;
    ``success_rate``; counts. Shares of no dialog are ``None`` (undefined)."""
    out: dict[str, Any] = {f"round_{r}": acc for r, acc in
                           accuracy_at_rounds(dialogs, rounds, lambda d, r: d.answer_at(r) == d.doc["label"]).items()}
    n = len(dialogs)
    out["final"] = json_value(ratio(sum(d.correct for d in dialogs), n))
    out["success_rate"] = json_value(ratio(sum(d.success for d in dialogs), n))
    out["answered"] = json_value(ratio(sum(d.answer is not None for d in dialogs), n))
    out["items"] = len(dialogs)
    return out


def round_statistics(dialogs: Sequence[ArcDialog], rounds: int) -> list[dict]:
    """Per round: dialogs still running, how many programs compiled (ran, with or without answer
    sets), how many had every test passing, the share of tests passed, and how many finished."""
    out = []
    for r in range(1, rounds + 1):
        this = [x for d in dialogs for x in d.rounds if x.round == r]
        total = sum(x.tests_total for x in this)
        out.append({"round": r, "active": len(this),
                    "compiled": sum(x.status in ("ok", "no_answer_set") for x in this),
                    "all_tests_passed": sum(x.tests_total > 0 and x.tests_passed == x.tests_total for x in this),
                    "tests_passed": sum(x.tests_passed for x in this), "tests_total": total,
                    "test_pass_rate": (sum(x.tests_passed for x in this) / total) if total else None,
                    "done": sum(x.done for x in this)})
    return out

_RENAMED = {"Dialog": "ArcDialog", "accuracy_by_round": "summarize_arc"}
__getattr__ = renamed_names(__name__, _RENAMED, globals())  # deprecated names: they work, with a warning

