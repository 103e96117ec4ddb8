"""FineReason end-to-end metric for Hugging Face ``evaluate``.

``evaluate.load("metrics/finereason_end_to_end")`` then
``compute(predictions=[model texts], references=[dataset rows])``. Every verdict comes from
``finereason.evaluation.score_row`` and the numbers from ``finereason.evaluation.aggregate``
(minus ``n``), so they equal the lm-eval tasks' numbers exactly. See README.md beside this file.
"""
import json
from collections.abc import Mapping

import datasets
import evaluate

from finereason.engines import get_engine
from finereason.evaluation import aggregate, score_row

_TASK = "end_to_end"

_CITATION = """\
@inproceedings{chen2025finereason,
  title     = {FineReason: Evaluating and Improving LLMs' Deliberate Reasoning through Reflective Puzzle Solving},
  author    = {Chen, Guizhen and Xu, Weiwen and Zhang, Hao and Chan, Hou Pong and Liu, Chaoqun and Bing, Lidong and Zhao, Deli and Luu, Anh Tuan and Rong, Yu},
  booktitle = {Proceedings of ACL 2025},
  year      = {2025}
}
"""

_DESCRIPTION = """\
FineReason end-to-end solving (Chen et al., ACL 2025): the model solves a whole puzzle and its
final answer is checked against the rules by an exact verifier, so any valid solution counts (not
only the stored one). For Game of 24 the answer is an expression using each number once.
"""

_KWARGS_DESCRIPTION = """\
Args:
    predictions (`list` of `str`): the model's answers, one per reference (``None`` counts as an
        empty answer, bytes are decoded as UTF-8; the parser skips any ``<think>...</think>``).
    references (`list` of `dict` or `str`): the dataset rows being answered, as dicts or as JSON
        strings of those dicts. Each needs ``puzzle``, ``task`` (must be ``"end_to_end"``),
        ``inputs`` and ``outputs`` (the official-schema JSON strings of a built FineReason
        dataset; parsed objects are re-encoded).
        Other columns are ignored; rows of different puzzles may be mixed.
Returns:
    acc (`float`): share of valid solutions.
    parse_error_rate (`float`): share of answers with no readable solution.
Raises:
    ValueError: a reference is not a row of this task (wrong or unknown ``task``/``puzzle``,
        missing column, unreadable JSON).
Examples:

    >>> import evaluate
    >>> metric = evaluate.load("metrics/finereason_end_to_end")
    >>> results = metric.compute(predictions=[answer_text], references=[row])
    >>> sorted(results) == ['acc', 'parse_error_rate']
    True
"""

# --- shared by the three finereason metric modules (keep identical) ---------------------------

_COLUMNS = ("id", "puzzle", "task", "label", "inputs", "outputs")
_REQUIRED = ("puzzle", "task", "inputs", "outputs")


def _as_row(reference, task):
    """A reference (row dict or its JSON string) as a validated dict of the scoring columns."""
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
    missing = [name for name in _REQUIRED if name not in row]
    if missing:
        raise ValueError(f"reference row lacks column(s) {', '.join(missing)}; pass rows of a built FineReason dataset")
    if row["task"] != task:
        hint = f"; use metrics/finereason_{row['task']}" if row["task"] in ("state_checking", "state_transition", "end_to_end") else ""
        ident = f" (id {row['id']!r})" if row.get("id") is not None else ""
        raise ValueError(f"finereason_{task} scores {task!r} rows, but a reference{ident} has task {row['task']!r}{hint}")
    try:
        get_engine(row["puzzle"])
    except KeyError as exc:
        raise ValueError(exc.args[0]) from None
    out = {name: row[name] for name in _COLUMNS if name in row}
    for name in ("inputs", "outputs"):
        if not isinstance(out[name], str):
            out[name] = json.dumps(out[name])
    return out


def encode_reference(reference, task=_TASK):
    """The JSON string this module stores for one reference (a row dict or its JSON string)."""
    return json.dumps(_as_row(reference, task), ensure_ascii=False)


def _as_text(prediction):
    if prediction is None:
        return ""
    if isinstance(prediction, bytes):
        return prediction.decode("utf-8", errors="replace")
    return prediction if isinstance(prediction, str) else str(prediction)


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class FinereasonEndToEnd(evaluate.Metric):
    """FineReason end-to-end: verdicts by ``finereason.evaluation``, never recomputed here."""

    task = _TASK

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            # Both columns are strings: references are stored as JSON strings of the rows, so
            # dicts and JSON strings are both accepted (add/add_batch encode dicts).
            features=datasets.Features({"predictions": datasets.Value("string"), "references": datasets.Value("string")}),
            homepage="https://aclanthology.org/2025.acl-long.333/",
            reference_urls=["https://aclanthology.org/2025.acl-long.333/", "https://github.com/DAMO-NLP-SG/FineReason"],
            license="MIT",
        )

    @staticmethod
    def encode_reference(reference, task=_TASK):
        """A row dict (or its JSON string) as the validated JSON string this module stores."""
        return encode_reference(reference, task)

    def add_batch(self, *, predictions=None, references=None, **kwargs):
        """Add a batch of answers and their rows (dicts or JSON strings; checked and encoded here).
        """
        if predictions is not None:
            predictions = [_as_text(p) for p in predictions]
        if references is not None:
            references = [encode_reference(r, self.task) for r in references]
        return super().add_batch(predictions=predictions, references=references, **kwargs)

    def add(self, *, prediction=None, reference=None, **kwargs):
        """Add one answer and its row (a dict or JSON string; checked and encoded here).
        """
        if prediction is not None:
            prediction = _as_text(prediction)
        if reference is not None:
            reference = encode_reference(reference, self.task)
        return super().add(prediction=prediction, reference=reference, **kwargs)

    def _compute(self, predictions, references):
        rows = [_as_row(r, self.task) for r in references]
        scores = [score_row(row, _as_text(p)) for row, p in zip(rows, predictions)]
        return {name: float(value) for name, value in aggregate(scores).items() if name != "n"}
