"""One verdict per (response, read context) on every public path that reads model text.

One corpus is fed through every path reachable in-process, under both read contexts
(``ReadContext()`` and ``ReadContext(starts_in_think=True)``), and every path must give the verdict
:func:`finereason.verification.scoring.score_row` gives:

- ``score_row`` with ``context=`` and with the older ``starts_in_think=`` keyword;
- ``finereason score``'s library (:func:`~finereason.verification.score_responses.score_config`, with
  ``--process`` for end-to-end rows);
- the lm-eval task's ``process_results`` hook, the run's ``--metadata`` handed to the task object;
- the report's re-scoring of logged samples and the leaderboard's counts, from results files that record
  the context the way lm-eval writes them;
- the GRPO rewards (``get_rewards(..., context=)``), the ``loop`` feedback round's verdict and its
  self-verdict (against the verify task's reading of the same critique);
- with hand-decided expectations: the verify task's and the FOLIO task's hooks (verdicts and labels),
  and ``arc``'s critic (an unfinished actor response offers no program).
The ``evaluate`` modules read the same corpus in ``integrations/test_metrics_modules.py`` (importing
``evaluate`` costs seconds), and a real lm-eval run records the context and is re-scored by the
report in ``integrations/test_lm_eval_tasks.py``.

The corpus: responses drawn from the reading property generators (``reading_world.py`` and
``reading/test_reading_properties.py``: every domain and task, answers withdrawn, corrected, hedged,
wrapped, ...), R1-style responses (the reasoning with no ``<think>`` tag, closed or not by ``</think>``),
and the shared real responses (``../shared/real_responses``: Game-of-24 and PlanBench answers, as written
and as an R1-style model would leave them unfinished).

Expected values besides agreement come from the rule, not from the code: under ``starts_in_think`` a
response without ``</think>`` has no final answer (``parse_error``), and one whose reasoning is closed reads
as its final region does in the default context.
"""
from __future__ import annotations

import importlib.util
import json
import random
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from conftest import SHARED
from reading_world import slots
from test_reading_properties import KINDS, THINKING, _variant

from finereason.common.verdict import Category
from finereason.common.vocabulary import END_TO_END, STATE_CHECKING
from finereason.reading import ReadContext, read_context_of
from finereason.verification.scoring import score_row

PARSE_ERROR = Category.PARSE_ERROR.value
CONTEXTS = (ReadContext(), ReadContext(starts_in_think=True))
REPO = Path(__file__).resolve().parents[1]
R1_REASONING = ("Okay, so I need to work through this puzzle carefully.\nLet me check each rule in turn.\n\n",
                "Alright, let me think step by step.\nFirst the constraints, then the answer.\n\n")
DRAWN_PER_KIND = 30
STAMP = "2026-01-01T00-00-00"


@dataclass(frozen=True)
class Case:
    """One response to one row; ``unfinished``: it has no ``</think>`` (R1-style: the prompt opened
    ``<think>``), so under ``starts_in_think`` it has no final answer. ``closed``: its text after the
    last ``</think>``, when it has one."""

    row: dict
    text: str
    origin: str
    unfinished: bool
    closed: str | None = None


def _row(row: dict, rid: str) -> dict:
    return {**row, "id": rid, "prompt": f"Solve puzzle {rid}."}


def _with_r1(row: dict, rid: str, text: str, origin: str, rng: random.Random) -> list[Case]:
    """``text`` as written, left unfinished by an R1-style model, and closed by ``</think>``."""
    reasoning = rng.choice(R1_REASONING)
    unfinished = "</think>" not in text.lower()
    return [Case(_row(row, f"{rid}/plain"), text, origin, unfinished),
            Case(_row(row, f"{rid}/r1"), reasoning + text, f"{origin}/r1", unfinished),
            Case(_row(row, f"{rid}/closed"), f"{reasoning}{rng.choice(THINKING)}\n</think>\n\n{text}", f"{origin}/closed",
                 False, text if unfinished else None)]


def _drawn(kind: str) -> list[tuple[object, str]]:
    """(slot, response) pairs drawn by the property tests' generator of response families."""
    out: list[tuple[object, str]] = []

    @settings(max_examples=DRAWN_PER_KIND, derandomize=True, database=None, deadline=None, phases=(Phase.generate,),
              suppress_health_check=list(HealthCheck))
    @given(_variant(kind))
    def collect(case):
        out.append(case)

    collect()
    return out


def _game24_rows() -> list[tuple[dict, str]]:
    path = SHARED / "real_responses" / "game24" / "gpt-4o-mini.jsonl"
    if not path.is_file():
        return []
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [({"puzzle": "game_of_24", "task": END_TO_END, "label": None,
              "inputs": json.dumps({"initial_state": r["numbers"]}), "outputs": json.dumps({})}, r["response"])
            for r in lines[::25]]


def _plan_rows() -> list[tuple[dict, str]]:
    from finereason.domains.blocksworld.source import read_instance

    folder = SHARED / "real_responses" / "planbench"
    if not folder.is_dir():
        return []
    out = []
    for path in sorted(folder.glob("*.jsonl")):
        record = json.loads(path.read_text(encoding="utf-8").splitlines()[3])
        source = read_instance(SHARED / record["problem"], SHARED / record["domain"])
        puzzle = "mystery_blocksworld" if source.puzzle.vocabulary != "blocksworld" else "blocksworld"
        out.append(({"puzzle": puzzle, "task": END_TO_END, "label": None, "inputs": json.dumps(source.record["inputs"]),
                     "outputs": json.dumps(source.record.get("outputs", {}))}, record["response"]))
    return out


@lru_cache(maxsize=None)
def corpus() -> tuple[Case, ...]:
    rng = random.Random(29)
    cases: list[Case] = []
    for kind in KINDS:
        for i, (slot, response) in enumerate(_drawn(kind)):
            cases += _with_r1(slot.row(), f"{kind}{i}", response, f"drawn/{kind}", rng)
    for slot in slots():
        for j, answer in enumerate(slot.answers):
            cases += _with_r1(slot.row(), f"{slot.name}/{j}", slot.marked(answer), f"slot/{slot.kind}", rng)
    for source, rows in (("real/game24", _game24_rows()), ("real/planbench", _plan_rows())):
        for i, (row, text) in enumerate(rows):
            cases += _with_r1(row, f"{source}/{i}", text, source, rng)
    return tuple(cases)


@lru_cache(maxsize=None)
def reference(context: ReadContext) -> tuple:
    """The verdicts of ``score_row``, the one place verdicts are computed."""
    return tuple(score_row(case.row, case.text, context=context) for case in corpus())


def _key(score) -> tuple:
    return score.verdict.correct, score.verdict.category, score.verdict.prediction


# ------------------------------------------------------------------ the corpus and the rule
def test_the_corpus_spans_every_source_and_verdict():
    origins = {c.origin.split("/")[0] for c in corpus()}
    assert {"drawn", "slot"} <= origins
    if (SHARED / "real_responses").is_dir():
        assert "real" in origins
    default = reference(CONTEXTS[0])
    categories = {s.verdict.category for s in default}
    assert {Category.CORRECT.value, PARSE_ERROR} <= categories and len(categories) >= 4
    assert {c.row["task"] for c in corpus()} == {"state_checking", "state_transition", "end_to_end"}


@pytest.mark.parametrize("context", CONTEXTS, ids=lambda c: c.describe())
def test_the_context_reads_as_the_rule_says(context):
    """Under starts_in_think a response without </think> has no answer; a closed one reads as its final region."""
    flipped = 0
    for case, score, default in zip(corpus(), reference(context), reference(CONTEXTS[0])):
        if context.starts_in_think and case.unfinished:
            assert score.verdict.category == PARSE_ERROR, case.origin
            flipped += default.verdict.correct
        if case.closed is not None:
            plain = score_row(case.row, case.closed)
            assert _key(score) == _key(plain), case.origin
    assert flipped >= 20 or not context.starts_in_think  # the context changes real verdicts, not only wrong ones


# ------------------------------------------------------------------ every path, both contexts
@pytest.mark.parametrize("context", CONTEXTS, ids=lambda c: c.describe())
def test_score_row_alias_and_score_command(context, tmp_path):
    from finereason.verification.process import process_score
    from finereason.verification.score_responses import score_config
    from finereason.core.rows import row_puzzle

    cases, expected = corpus(), reference(context)
    for case, score in zip(cases, expected):
        assert _key(score_row(case.row, case.text, starts_in_think=context.starts_in_think)) == _key(score), case.origin
    rows = {c.row["id"]: c.row for c in cases}
    path = tmp_path / "responses.jsonl"
    path.write_text("".join(json.dumps({"id": c.row["id"], "response": c.text}) + "\n" for c in cases), encoding="utf-8")
    scored = list(score_config(rows, str(path), data="corpus", config="mixed", context=context))
    assert [_key(s.score) for s in scored] == [_key(s) for s in expected]
    e2e = [c for c in cases if c.row["task"] == END_TO_END][::4]
    path.write_text("".join(json.dumps({"id": c.row["id"], "response": c.text}) + "\n" for c in e2e), encoding="utf-8")
    processed = list(score_config({c.row["id"]: c.row for c in e2e}, str(path), data="corpus", config="e2e",
                                  context=context, process=True))
    for case, done in zip(e2e, processed):
        direct = process_score(case.row["puzzle"], row_puzzle(case.row), case.text, context=context)
        assert done.process.to_dict() == direct.to_dict(), case.origin
        if context.starts_in_think and case.unfinished:
            assert done.process.steps_read == 0, case.origin  # unfinished reasoning shows no steps


def _load_hooks(name: str):
    pytest.importorskip("lm_eval")
    path = REPO / "lm_eval_tasks" / "finereason" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"_contract_{name}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("context", CONTEXTS, ids=lambda c: c.describe())
def test_lm_eval_hook_scores_in_the_runs_metadata(context):
    hooks = _load_hooks("utils")
    task = hooks.FineReasonTask.__new__(hooks.FineReasonTask)  # the task object, with the run's --metadata
    task._config = SimpleNamespace(metadata={"version": 2.0, "starts_in_think": context.starts_in_think})
    for case, score in zip(corpus(), reference(context)):
        out = task.process_results(case.row, [case.text])
        assert out["acc"] == float(score.verdict.correct), case.origin
        if isinstance(out.get("parse_error_rate"), float):
            assert out["parse_error_rate"] == float(score.verdict.category == PARSE_ERROR), case.origin
        verdicts = [v for v in out.values() if isinstance(v, tuple) and v[:1] == (case.row["task"],)]
        assert all(v == score.as_tuple() for v in verdicts), case.origin
        assert verdicts or case.row["task"] == END_TO_END, case.origin  # state tasks aggregate the verdict records


def _write_run(root: Path, context: ReadContext, recorded: bool) -> dict[str, list[int]]:
    """An lm-eval output folder of the corpus: one results file recording ``context`` (as lm-eval writes
    ``--metadata``, and with the tasks' ``read_context`` record when ``recorded``) and one samples file per
    task. Returns the corpus indices of each task's samples, in file order."""
    tasks: dict[str, list[int]] = {}
    for i, case in enumerate(corpus()):
        tasks.setdefault(f"finereason_{case.row['puzzle']}_{case.row['task']}", []).append(i)
    meta = {"version": 2.0, "starts_in_think": context.starts_in_think}
    if recorded:
        meta["read_context"] = context.to_dict()
    data = {"results": {t: {"acc,none": 0.0, "sample_len": len(ix)} for t, ix in tasks.items()},
            "configs": {t: {"task": t, "metadata": meta} for t in tasks},
            "versions": {t: 2.0 for t in tasks}, "config": {"model": "contract-model", "model_args": "pretrained=contract"},
            "date": 1.0}
    root.mkdir(parents=True)
    (root / f"results_{STAMP}.json").write_text(json.dumps(data), encoding="utf-8")
    cases = corpus()
    for task, indices in tasks.items():
        lines = [{"doc_id": n, "doc": cases[i].row, "filter": "none", "resps": [[cases[i].text]],
                  "filtered_resps": [cases[i].text]} for n, i in enumerate(indices)]
        (root / f"samples_{task}_{STAMP}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return tasks


@pytest.mark.parametrize("recorded", [True, False], ids=["read_context", "metadata_flag"])
@pytest.mark.parametrize("context", CONTEXTS, ids=lambda c: c.describe())
def test_report_and_leaderboard_rescore_in_the_recorded_context(context, recorded, tmp_path):
    from finereason.integrations.leaderboard.board import collect
    from finereason.integrations.leaderboard.stats import counts_of
    from finereason.integrations.report.results import load_models, load_samples

    tasks = _write_run(tmp_path / "run", context, recorded)
    assert read_context_of(json.loads((tmp_path / "run" / f"results_{STAMP}.json").read_text())) == context
    expected = reference(context)
    (model,), _ = load_models([tmp_path / "run"])
    for task, indices in tasks.items():
        result = model.tasks[task]
        assert result.context == context
        assert [_key(s) for _, s in load_samples(result)] == [_key(expected[i]) for i in indices], task
    (entry,) = collect(tmp_path / "run")
    for task, indices in tasks.items():
        if task.endswith(STATE_CHECKING):  # the board's re-verified class counts
            assert entry.tasks[task].counts == counts_of([expected[i] for i in indices]), task


@pytest.mark.parametrize("context", CONTEXTS, ids=lambda c: c.describe())
def test_rewards_pay_the_verdict(context):
    from finereason.integrations.training.rewards import get_rewards
    from finereason.integrations.training.rewards.puzzle import ROW_COLUMNS
    from finereason.verification.verifiers import format_ok

    cases, expected = corpus(), reference(context)
    columns = {name: [c.row.get(name) for c in cases] for name in ROW_COLUMNS}
    texts = [c.text for c in cases]
    puzzle, fmt = get_rewards(["puzzle", "format"], context=context)
    paid = puzzle(texts, **columns)
    formats = fmt(texts, **columns)
    for case, score, reward, form in zip(cases, expected, paid, formats):
        assert reward == float(score.verdict.correct), case.origin
        assert form == 0.0 or score.verdict.category != PARSE_ERROR, case.origin
        assert form == float(format_ok(case.row["task"], case.text, context=context, domain=case.row["puzzle"])), case.origin


CRITIQUES = (  # (critique, accepted in the default context, accepted under starts_in_think): decided by hand
    ("Verdict: correct", True, None),
    ("Every step is valid.\nVerdict: incorrect", False, None),
    ("Okay, let me check the plan. Verdict: correct seems likely.\n\nVerdict: incorrect", False, None),
    ("Let me check.\n</think>\nVerdict: correct", True, True),
    ("<think>Verdict: incorrect</think>\nVerdict: correct", True, True),
    ("Hmm, step 2 looks wrong.\n</think>\n\nThe second step breaks a rule.\nVerdict: incorrect", False, False),
    ("I think it works", None, None),
    ("Verdict: correct\n</think>\nI cannot tell.", None, None),
)


@pytest.mark.parametrize("context", CONTEXTS, ids=lambda c: c.describe())
def test_loop_round_and_verify_task_read_alike(context):
    """The loop's answer verdicts equal score_row's; its self-verdict equals the verify task's reading."""
    from finereason.core.engine import get_engine
    from finereason.verification.llm_verifier import score_verify
    from finereason.workflows.loop import Counter, LoopDialog, play_round

    cases = [(c, s) for c, s in zip(corpus(), reference(context)) if c.row["task"] == END_TO_END]
    critiques = {c.row["id"]: CRITIQUES[i % len(CRITIQUES)] for i, (c, _) in enumerate(cases)}
    texts = {c.row["id"]: c.text for c, _ in cases}

    def generate(batch):
        out = []
        for doc, _messages in batch:
            rid, _, rest = doc["id"].rpartition("@")
            out.append(critiques[rid][0] if rest.endswith("/verify") else texts[rid])
        return out

    dialogs = [LoopDialog(c.row, get_engine(c.row["puzzle"])) for c, _ in cases]
    for condition in ("first_error", "self"):
        records = play_round(dialogs, generate, condition, Counter(generate), context)
        for (case, score), rec in zip(cases, records):
            assert (rec["correct"], rec["verdict"]["category"]) == (score.verdict.correct, score.verdict.category), case.origin
            if condition == "self":
                critique, default, opened = critiques[case.row["id"]]
                want = opened if context.starts_in_think else default
                doc = {"candidate_correct": score.verdict.correct, "candidate_reasons": "[]"}
                assert rec["accepted"] is want is score_verify(doc, critique, context=context).accepted, critique


@pytest.mark.parametrize("context", CONTEXTS, ids=lambda c: c.describe())
def test_verify_task_hook_reads_in_the_runs_context(context):
    hooks = _load_hooks("verify_utils")
    task = hooks.VerifyTask.__new__(hooks.VerifyTask)  # the task object, with the run's --metadata
    task._config = SimpleNamespace(metadata={"version": 1.0, "starts_in_think": context.starts_in_think})
    for critique, default, opened in CRITIQUES:
        want = opened if context.starts_in_think else default
        for truth in (True, False):
            out = task.process_results({"candidate_correct": truth, "candidate_reasons": "[]"}, [critique])
            assert out["acc"] == float(want is truth), critique
            assert {v[1] for v in out.values() if isinstance(v, tuple)} <= {want}, critique


FOLIO_ANSWERS = (  # (response, label in the default context, label under starts_in_think): decided by hand
    ("Answer: True", "True", None),
    ("The premises say nothing about it.\nAnswer: Uncertain", "Uncertain", None),
    ("Let me reason.\n</think>\nAnswer: False", "False", "False"),
    ("<think>Answer: True</think>\n\nAnswer: False", "False", "False"),
    ("<think>Answer: True", None, None),
)


@pytest.mark.parametrize("context", CONTEXTS, ids=lambda c: c.describe())
def test_folio_hook_reads_in_the_runs_context(context):
    hooks = _load_hooks("folio_utils")
    task = hooks.FolioTask.__new__(hooks.FolioTask)  # the task object, with the run's --metadata
    task._config = SimpleNamespace(metadata={"version": 1.0, "starts_in_think": context.starts_in_think})
    for text, default, opened in FOLIO_ANSWERS:
        want = opened if context.starts_in_think else default
        for label in ("True", "False", "Uncertain"):
            out = task.process_results({"label": label}, [text])
            assert out == {"acc": float(want == label), "parse_error_rate": float(want is None)}, text


@pytest.mark.parametrize("context", CONTEXTS, ids=lambda c: c.describe())
def test_arc_actor_is_read_in_the_runs_context(context):
    from finereason.asp.critic import Limits
    from finereason.workflows.arc import critique

    text = "Let me write the program.\n```asp\nfact.\n```\n```json\n{\"query\": \"fact\", \"tests\": []}\n```"
    if not context.starts_in_think:
        pytest.importorskip("clingo")
    report, out, feedback, done = critique(text, Limits(time_s=5.0), True, context)
    if context.starts_in_think:  # no </think>: the program is still reasoning, never run
        assert report is None and out.program is None and not done and "unfinished" in feedback
    else:
        assert out.program is not None and report is not None
