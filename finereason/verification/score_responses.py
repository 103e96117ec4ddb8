"""Scoring files of model responses: the library behind ``finereason score``.

Responses are JSON Lines, ``{"index": i, "response": ...}`` for an official states file (``i`` the
0-based line) or ``{"id": ..., "response": ...}`` for a config of a built dataset folder. Every
response is verified by the one row scorer, :func:`finereason.verification.scoring.score_row`; an official line is
first turned into a row of the dataset schema (:func:`official_row`); the state's truth is our oracle's,
as for every row (:func:`finereason.data.state_labels.state_truth`).

Reading and validating comes before scoring (:func:`read_official_batch`), and scoring yields one
:class:`ScoredResponse` at a time, so a caller can stream the verdict lines it writes.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Sequence

from ..common.input_errors import InputError
from ..common.jsonl import iter_json_lines
from ..common.progress import Progress, no_progress
from ..common.verdict import Verdict, solvable_label
from ..common.vocabulary import END_TO_END, STATE_TASKS
from ..core.engine import Engine
from ..core.rows import row_domain, row_puzzle
from ..data.official_files import engine_for_file, iter_items, read_official_records
from ..reading.completion import completion_text
from ..reading.context import ReadContext, resolve_context
from .aggregation import category_counts, summarize
from .scoring import RowScore, aggregate, score_row
from .explain import explain_response
from .verifiers import MODES


@dataclass(frozen=True)
class ScoredResponse:
    """One verified response: its key (line index or row id), the row score and the reported verdict
    (the strict one, or the paper one when scoring an official file in ``paper`` mode)."""

    key: int | str
    score: RowScore
    verdict: Verdict
    process: Any | None = None  # a finereason.verification.process.ProcessVerdict (``score --process``)
    explanation: dict[str, Any] | None = None  # finereason.verification.explain (``score --explain``)

    def line(self) -> dict[str, Any]:
        """The JSON Lines verdict record ``finereason score`` writes."""
        key = "index" if isinstance(self.key, int) else "id"
        line: dict[str, Any] = {key: self.key, "correct": self.verdict.correct, "category": self.verdict.category,
                                "reasons": list(self.verdict.reasons)}
        if key == "id" and self.score.paper is not None:
            line["correct_paper"] = self.score.paper.correct
            line["category_paper"] = self.score.paper.category
        if self.process is not None:
            line["process"] = self.process.to_dict()
        if self.explanation is not None:
            line["explanation"] = self.explanation
        return line


def official_row(engine: Engine, record: dict, task: str, solvable: bool | None) -> dict[str, Any]:
    """The row (dataset schema: ``domain``, ``task``, ``label``, ``inputs``/``outputs`` JSON) that
    :func:`~finereason.verification.scoring.score_row` reads, for one official states record; ``solvable`` is the
    label (``None``: undecided, left to the verifier)."""
    return {"domain": engine.name, "task": task, "label": solvable_label(solvable),
            "inputs": json.dumps(record.get("inputs", record)), "outputs": json.dumps(record.get("outputs", {}))}


# ------------------------------------------------------------------ official states files
@dataclass(frozen=True)
class OfficialBatch:
    """Validated responses to an official states file, ready to score."""

    path: str
    engine: Engine
    task: str
    records: tuple[dict, ...]
    responses: tuple[tuple[int, str], ...]  # (line index, response text), in file order


def read_official_batch(official: str, task: str, responses: str) -> OfficialBatch:
    """Read an official states file and the responses to it (``-``: standard input).

    Raises :class:`~finereason.data.official_files.OfficialDataError` for a bad states file and
    :class:`~finereason.common.input_errors.InputError` for a bad responses file (messages name the line).
    """
    if task not in STATE_TASKS:
        raise InputError(f"--task {task!r}: an official states file is scored for {' or '.join(STATE_TASKS)}")
    engine = engine_for_file(official)
    records = tuple(read_official_records(official))
    count = sum(1 for _ in iter_items(official, records))  # every record must give a state item
    read: list[tuple[int, str]] = []
    seen: set[int] = set()
    for lineno, obj in iter_json_lines(responses, "responses", InputError):
        if not isinstance(obj, dict) or "index" not in obj or "response" not in obj:
            raise InputError(f"{responses}:{lineno}: expected {{\"index\": i, \"response\": \"...\"}}")
        index, text = obj["index"], obj["response"]
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < count:
            raise InputError(f"{responses}:{lineno}: index {index!r} is not a line of {official} (0..{count - 1})")
        if index in seen:
            raise InputError(f"{responses}:{lineno}: index {index} appears twice")
        text = completion_text(text)  # a chat-message response reads as the rewards read it
        seen.add(index)
        read.append((index, text))
    if not read:
        raise InputError(f"{responses}: no responses")
    return OfficialBatch(str(official), engine, task, records, tuple(read))


def score_official(batch: OfficialBatch, *, mode: str = "strict", context: ReadContext | None = None,
                   starts_in_think: bool | None = None, progress: Progress = no_progress,
                   explain: bool = False) -> Iterator[ScoredResponse]:
    """Verify each response of ``batch`` against its state, labelled by our oracle, read in ``context``
    (``starts_in_think=`` is an alias); ``mode`` picks the reported state-transition verdict (``strict`` or ``paper``);
    ``explain``: add each reading's explanation (:func:`~finereason.verification.explain.explain_response`)."""
    context = resolve_context(context, starts_in_think)
    if mode not in MODES:
        raise InputError(f"unknown mode {mode!r}; use one of {', '.join(MODES)}")
    engine = batch.engine
    for index, text in progress(batch.responses, len(batch.responses), f"scoring {engine.name}"):
        row = official_row(engine, batch.records[index], batch.task, None)
        score = score_row(row, text, context=context)  # the truth is the oracle's, as for every row
        verdict = score.paper if mode == "paper" and score.paper is not None else score.verdict
        yield ScoredResponse(index, score, verdict,
                             explanation=explain_response(engine, text, task=batch.task, context=context) if explain else None)


def official_metrics(task: str, scored: Sequence[ScoredResponse]) -> dict[str, float]:
    """The metrics of an official file's scored responses (reported verdicts, oracle labels)."""
    return summarize(task, [s.verdict for s in scored], [s.score.solvable for s in scored])


def verdict_counts(scored: Sequence[ScoredResponse]) -> dict[str, int]:
    """How many reported verdicts fell in each category, most frequent first."""
    return category_counts([s.verdict for s in scored])


# ------------------------------------------------------------------ built dataset folders
def read_config_rows(data: str | Path, config: str) -> dict[str, dict]:
    """The rows of one config of a built dataset folder, by id (after the folder's integrity checks;
    raises :class:`~finereason.data.folder.DataFolderError`). Needs the dataset extras (pyarrow)."""
    from ..data.folder import open_data_folder

    folder = open_data_folder(Path(data))
    return {row["id"]: row for row in folder.read_table(config).to_pylist()}


def score_config(rows: dict[str, dict], responses: str, *, data: str, config: str, context: ReadContext | None = None,
                 starts_in_think: bool | None = None, process: bool = False, explain: bool = False) -> Iterator[ScoredResponse]:
    """Verify each response of ``responses`` (JSON Lines keyed by row ``id``; ``-``: standard input)
    against its row, one at a time, read in ``context`` (``starts_in_think=`` is an alias); ``data`` and
    ``config`` name the rows in error messages. ``process``: also verify the steps each end-to-end
    answer shows (:mod:`finereason.verification.process`), in the same context.

    Raises :class:`~finereason.common.input_errors.InputError` at once when ``process`` is asked of a config
    that is not end-to-end, and while iterating at the first bad line or when there is none.
    """
    if process and any(row.get("task") != END_TO_END for row in rows.values()):
        raise InputError(f"--process needs an end_to_end config, not {config}")
    return _score_config(rows, responses, data, config, resolve_context(context, starts_in_think), process, explain)


def _score_config(rows: dict[str, dict], responses: str, data: str, config: str, context: ReadContext,
                  process: bool, explain: bool = False) -> Iterator[ScoredResponse]:
    seen: set[str] = set()
    for lineno, obj in iter_json_lines(responses, "responses", InputError):
        if not isinstance(obj, dict) or "id" not in obj or "response" not in obj:
            raise InputError(f"{responses}:{lineno}: expected {{\"id\": ..., \"response\": \"...\"}}")
        rid = str(obj["id"])
        if rid not in rows:
            raise InputError(f"{responses}:{lineno}: id {rid!r} is not a row of {config}")
        if rid in seen:
            raise InputError(f"{responses}:{lineno}: id {rid!r} appears twice")
        seen.add(rid)
        try:
            text = completion_text(obj["response"])
            score = score_row(rows[rid], text, context=context)
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as err:  # a row the schema check let through
            raise InputError(f"{data}: config {config}, row {rid!r} cannot be scored: {err}") from None
        explanation = explain_response(row_domain(rows[rid]), text, task=rows[rid]["task"], context=context) if explain else None
        yield ScoredResponse(rid, score, score.verdict, _process(rows[rid], text, context) if process else None, explanation)
    if not seen:
        raise InputError(f"{responses}: no responses")


def _process(row: dict, text: str, context: ReadContext) -> Any:
    """The process verdict of one end-to-end answer (``score --process``)."""
    from .process import process_score

    return process_score(row_domain(row), row_puzzle(row), text, context=context)


def config_metrics(scored: Sequence[ScoredResponse]) -> dict[str, float]:
    """All metrics of one config's scored responses (``acc``, ``acc_paper``, P/R/F1, rates, ...)."""
    return aggregate(s.score for s in scored)


def process_metrics(scored: Sequence[ScoredResponse]) -> dict[str, float]:
    """The ``process_*`` metrics of responses scored with ``process=True``."""
    from .process import summarize_process

    return summarize_process([s.process for s in scored if s.process is not None])


__all__ = ["OfficialBatch", "ScoredResponse", "config_metrics", "official_metrics", "official_row", "process_metrics",
           "read_config_rows", "read_official_batch", "score_config", "score_official", "verdict_counts"]
