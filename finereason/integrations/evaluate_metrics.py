"""Shared machinery of the ``evaluate`` metric modules in ``metrics/`` (one per task).

Each module file only declares its task and texts; verdicts come from
``finereason.verification.scoring.score_row`` and numbers from ``aggregate``, as in the lm-eval tasks.
``compute(..., starts_in_think=True)`` (or ``read_context=ReadContext(...)`` or its record) reads the
answers in the run's read context, as the lm-eval tasks' ``--metadata '{"starts_in_think": true}'`` does.
Imports ``evaluate`` and ``datasets``: only the metric modules import this file.
"""
import json
from collections.abc import Mapping

import datasets
import evaluate

from ..common.vocabulary import TASKS
from ..core.rows import DOMAIN, decode_row, row_domain
from ..reading.completion import completion_text
from ..reading.context import resolve_context
from ..verification.aggregation import N
from ..verification.scoring import aggregate, score_row

CITATION = """\
@inproceedings{chen2025finereason,
  title     = {FineReason: Evaluating and Improving LLMs' Deliberate Reasoning through Reflective Puzzle Solving},
  author    = {Chen, Guizhen and Xu, Weiwen and Zhang, Hao and Chan, Hou Pong and Liu, Chaoqun and Bing, Lidong and Zhao, Deli and Luu, Anh Tuan and Rong, Yu},
  booktitle = {Proceedings of ACL 2025},
  year      = {2025}
}
"""

_COLUMNS = ("id", "task", "label", "inputs", "outputs")  # kept, with the domain (``domain``, or old ``puzzle``)


def _as_row(reference, task):
    """A reference (row dict or its JSON string) as a validated dict of the scoring columns
    (read by :func:`finereason.core.rows.decode_row`, the one row reader)."""
    if isinstance(reference, bytes):
        reference = reference.decode("utf-8")
    if isinstance(reference, str):
        try:
            row = json.loads(reference)
        except ValueError as exc:
            raise ValueError(f"reference is not a JSON object of a dataset row: {exc}") from None
    else:
        row = reference
    if not isinstance(row, Mapping):
        raise ValueError(f"reference must be a dataset row (dict) or its JSON string, got {type(reference).__name__}")
    if "task" in row and row["task"] != task:
        hint = f"; use metrics/finereason_{row['task']}" if row["task"] in TASKS else ""
        ident = f" (id {row['id']!r})" if row.get("id") is not None else ""
        raise ValueError(f"finereason_{task} scores {task!r} rows, but a reference{ident} has task {row['task']!r}{hint}")
    decoded = decode_row(row)  # a RowError (a ValueError) names what is wrong
    out = {name: row[name] for name in _COLUMNS if name in row}
    out[DOMAIN] = row_domain(row)
    for name in ("inputs", "outputs"):
        if not isinstance(out[name], str):
            out[name] = json.dumps(getattr(decoded, name))
    return out


def encode_reference(reference, task: str) -> str:
    """The JSON string this module stores for one reference (a row dict or its JSON string)."""
    return json.dumps(_as_row(reference, task), ensure_ascii=False)


class FineReasonMetric(evaluate.Metric):
    """Base of the FineReason metrics: subclasses set ``task``, ``description`` and ``kwargs_description``."""

    task = ""
    description = ""
    kwargs_description = ""

    def _info(self):
        return evaluate.MetricInfo(
            description=self.description,
            citation=CITATION,
            inputs_description=self.kwargs_description,
            # Both columns are strings: references are stored as JSON strings of the rows, so
            # dicts and JSON strings are both accepted (add/add_batch encode dicts).
            features=datasets.Features({"predictions": datasets.Value("string"), "references": datasets.Value("string")}),
            homepage="https://aclanthology.org/2025.acl-long.333/",
            reference_urls=["https://aclanthology.org/2025.acl-long.333/", "https://github.com/DAMO-NLP-SG/FineReason"],
            license="MIT",
        )

    def encode_reference(self, reference, task=None):
        """A row dict (or its JSON string) as the validated JSON string this module stores."""
        return encode_reference(reference, task or self.task)

    def add_batch(self, *, predictions=None, references=None, **kwargs):
        """Add a batch of answers and their rows (dicts or JSON strings; checked and encoded here)."""
        if predictions is not None:
            predictions = [completion_text(p) for p in predictions]
        if references is not None:
            references = [encode_reference(r, self.task) for r in references]
        return super().add_batch(predictions=predictions, references=references, **kwargs)

    def add(self, *, prediction=None, reference=None, **kwargs):
        """Add one answer and its row (a dict or JSON string; checked and encoded here)."""
        if prediction is not None:
            prediction = completion_text(prediction)
        if reference is not None:
            reference = encode_reference(reference, self.task)
        return super().add(prediction=prediction, reference=reference, **kwargs)

    def _compute(self, predictions, references, read_context=None, starts_in_think=None):
        context = resolve_context(read_context, starts_in_think)
        rows = [_as_row(r, self.task) for r in references]
        scores = [score_row(row, completion_text(p), context=context) for row, p in zip(rows, predictions)]
        return {name: float(value) for name, value in aggregate(scores).items() if name != N}
