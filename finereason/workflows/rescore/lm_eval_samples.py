"""``lm-eval``: the ``samples_<task>_<time>.jsonl`` files lm-eval writes with ``--log_samples`` for the
FineReason tasks, by any earlier task version, re-read with the current one.

Each line is one sample: ``doc`` (the dataset row: ``puzzle``, ``task``, ``inputs``, ``outputs``,
``label``), ``filter``, ``resps``/``filtered_resps`` (the response) and the metrics the task version of
the run computed: the per-row ``acc`` and the verdict record ``[task, correct, category, ...]``. The
recorded verdict and reason are that record's (``acc`` when there is no record); ours is
:func:`~finereason.verification.scoring.score_row` now, in the read context the run recorded in its
``results_<time>.json`` beside the samples (the default context when that file is absent). Lines of filters other than ``none`` are skipped. The model is the
file's folder (lm-eval's ``--output_path`` keeps one per model), the condition the task name.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

from ...common.input_errors import InputError
from ...common.jsonl import iter_json_lines
from ...common.progress import Progress
from ...core.rows import has_domain_column, row_domain
from ...integrations.lm_eval.results import load_results_file
from ...reading.context import ReadContext, read_context_of
from ...verification.explain import explain_response
from ...verification.scoring import score_row
from .records import Rescored, recorded_bool

NAME = "lm-eval"
HELP = "lm-eval samples_<task>_<time>.jsonl files of FineReason tasks (any earlier task version), re-read now"

_STAMP = re.compile(r"_\d{4}-\d{2}-\d{2}T[\d.\-:]{1,40}\Z")


def run_context(path: str, task: str) -> ReadContext:
    """The read context the run recorded for ``task`` in its ``results_<time>.json`` beside the samples
    file (the same time stamp); the default context when there is none."""
    stamp = _STAMP.search(Path(path).name[:-len(".jsonl")] if path.endswith(".jsonl") else Path(path).name)
    results = Path(path).with_name(f"results{stamp.group(0)}.json") if stamp else None
    if results is None or not results.is_file():
        return ReadContext()
    data = load_results_file(results, InputError, require_results=False)  # the one lm-eval results reader
    try:
        return read_context_of(data, task)
    except (RecursionError, ValueError, TypeError, AttributeError) as err:
        raise InputError(f"{results}: cannot read the run's read context ({str(err)[:100]})") from None


def task_name(path: str) -> str:
    """``samples_finereason_sudoku_end_to_end_2026-01-02T03-04-05.678901.jsonl`` → ``finereason_sudoku_end_to_end``."""
    name = Path(path).name
    name = name[len("samples_"):] if name.startswith("samples_") else name
    name = name[:-len(".jsonl")] if name.endswith(".jsonl") else name
    return _STAMP.sub("", name)


def _response(record: dict) -> str:
    resp = record.get("filtered_resps")
    if resp is None:
        resp = record.get("resps")
    for _ in range(4):
        if not isinstance(resp, list):
            break
        resp = resp[0] if resp else ""
    return resp if isinstance(resp, str) else ("" if resp is None else str(resp))


def recorded_verdict(record: dict, task: str) -> tuple[bool | None, str | None]:
    """The run's own verdict and reason: a ``[task, correct, category, ...]`` record among the sample's
    metrics, else ``acc``."""
    for key in sorted(record):
        value = record[key]
        if isinstance(value, list) and len(value) >= 3 and value[0] == task and isinstance(value[1], (bool, int, float)):
            return bool(value[1]), str(value[2])
    acc = record.get("acc")
    if isinstance(acc, (int, float)) and not isinstance(acc, bool) and acc in (0, 1):
        return bool(acc), None
    return recorded_bool(acc), None


def read(paths: list[str], options: Any, progress: Progress) -> Iterator[Rescored]:
    """One :class:`~.records.Rescored` per sample of the files in ``paths``."""
    for path in paths:
        model, condition = Path(path).resolve().parent.name, task_name(path)
        context = run_context(path, condition)
        for lineno, record in progress(iter_json_lines(path, "samples", InputError), None, f"rescoring {Path(path).name}"):
            doc = record.get("doc") if isinstance(record, dict) else None
            if not isinstance(doc, dict) or not ({"task", "inputs", "outputs"} <= set(doc) and has_domain_column(doc)):
                raise InputError(f"{path}:{lineno}: not an lm-eval sample of a FineReason task (no doc with domain/task/inputs/outputs)")
            if record.get("filter", "none") != "none":
                continue
            text = _response(record)
            recorded, recorded_reason = recorded_verdict(record, doc["task"])
            try:
                score = score_row(doc, text, context=context)
                explained = explain_response(row_domain(doc), text, task=doc["task"], context=context)
            except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as err:
                raise InputError(f"{path}:{lineno}: cannot score doc {doc.get('id')!r}: {err or type(err).__name__}") from None
            verdict = score.verdict
            reason = "" if verdict.correct else "; ".join((verdict.category, *verdict.reasons))
            ids = {"file": path, "line": lineno, "doc_id": record.get("doc_id"), "id": doc.get("id")}
            signal = explained["signal"]["text"] if explained["signal"] else None
            yield Rescored(ids, model, condition, recorded, verdict.correct, reason, explained["committed"] is not None,
                           explained["committed"], signal, response=text,
                           recorded_reason=recorded_reason if recorded_reason is not None else "")


__all__ = ["HELP", "NAME", "read", "recorded_verdict", "run_context", "task_name"]
