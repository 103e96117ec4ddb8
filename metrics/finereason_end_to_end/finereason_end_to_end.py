"""FineReason end-to-end metric for Hugging Face ``evaluate``.

``evaluate.load("metrics/finereason_end_to_end")`` then
``compute(predictions=[model texts], references=[dataset rows])``. Every verdict comes from
``finereason.verification.scoring.score_row`` and the numbers from ``finereason.verification.scoring.aggregate``
(minus ``n``), so they equal the lm-eval tasks' numbers exactly. See README.md beside this file.
"""
import evaluate

from finereason.common import vocabulary  # modules, not classes: evaluate loads the first Metric class it finds
from finereason.integrations import \
    evaluate_metrics as metric_modules  # modules, not classes: evaluate loads the first Metric class it finds

_TASK = vocabulary.END_TO_END

_DESCRIPTION = """\
FineReason end-to-end solving (Chen et al., ACL 2025): the model solves a whole puzzle and its
final answer is checked against the rules by an exact verifier, so any valid solution counts (not
only the stored one). The answer takes the form the puzzle's prompt asks for (each domain's own).
"""

_KWARGS_DESCRIPTION = """\
Args:
    predictions (`list` of `str`): the model's answers, one per reference (``None`` counts as an
        empty answer, bytes are decoded as UTF-8, chat messages are read as the rewards read them;
        the parser skips any ``<think>...</think>``).
    references (`list` of `dict` or `str`): the dataset rows being answered, as dicts or as JSON
        strings of those dicts. Each needs ``domain`` (or ``puzzle``, its old name), ``task`` (must be ``"end_to_end"``),
        ``inputs`` and ``outputs`` (the official-schema JSON strings of a built FineReason
        dataset; parsed objects are re-encoded).
        Other columns are ignored; rows of different puzzles may be mixed.
    starts_in_think (`bool`, optional): the chat template's prompt already opened ``<think>``
        (R1-distill, QwQ, Qwen3 thinking), so an answer without ``</think>`` is unfinished (no credit).
    read_context (`finereason.reading.ReadContext` or its ``to_dict()`` record, optional): the run's
        read context, in place of ``starts_in_think``.
Returns:
    acc (`float`): share of valid solutions.
    parse_error_rate (`float`): share of answers with no readable solution.
Raises:
    ValueError: a reference is not a row of this task (wrong or unknown ``task``/``domain``,
        missing column, unreadable JSON).
Examples:

    >>> import evaluate
    >>> metric = evaluate.load("metrics/finereason_end_to_end")
    >>> results = metric.compute(predictions=[answer_text], references=[row])
    >>> sorted(results) == ['acc', 'parse_error_rate']
    True
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class FinereasonEndToEnd(metric_modules.FineReasonMetric):
    """FineReason end to end: verdicts by ``finereason.verification.scoring``, never recomputed here."""

    task = _TASK
    description = _DESCRIPTION
    kwargs_description = _KWARGS_DESCRIPTION
