"""FineReason state transition metric for Hugging Face ``evaluate``.

``evaluate.load("metrics/finereason_state_transition")`` then
``compute(predictions=[model texts], references=[dataset rows])``. Every verdict comes from
``finereason.verification.scoring.score_row`` and the numbers from ``finereason.verification.scoring.aggregate``
(minus ``n``), so they equal the lm-eval tasks' numbers exactly. See README.md beside this file.
"""
import evaluate

from finereason.common import vocabulary  # modules, not classes: evaluate loads the first Metric class it finds
from finereason.integrations import \
    evaluate_metrics as metric_modules  # modules, not classes: evaluate loads the first Metric class it finds

_TASK = vocabulary.STATE_TRANSITION

_DESCRIPTION = """\
FineReason state transition (Chen et al., ACL 2025): given an intermediate state, the model
proposes the next state after "Next state:". From a solvable state one valid forward move is needed;
from an unsolvable state the model must backtrack to the parent. Each answer falls in exactly one
category: correct, multiple_moves, invalid_move, unsolvable_child, backtracking_failure, sibling,
parse_error. `acc` is strict (the child must still be solvable, checked by the exact oracle);
`acc_paper` follows the official scoring (only the given unsolvable child is penalised).
"""

_KWARGS_DESCRIPTION = """\
Args:
    predictions (`list` of `str`): the model's answers, one per reference (``None`` counts as an
        empty answer, bytes are decoded as UTF-8, chat messages are read as the rewards read them;
        the parser skips any ``<think>...</think>``).
    references (`list` of `dict` or `str`): the dataset rows being answered, as dicts or as JSON
        strings of those dicts. Each needs ``domain`` (or ``puzzle``, its old name), ``task`` (must be ``"state_transition"``),
        ``inputs`` and ``outputs`` (the official-schema JSON strings of a built FineReason
        dataset; parsed objects are re-encoded).
        The truth of each current state is the exact oracle's (a stored ``label`` is not trusted).
        Other columns are ignored; rows of different puzzles may be mixed.
    starts_in_think (`bool`, optional): the chat template's prompt already opened ``<think>``
        (R1-distill, QwQ, Qwen3 thinking), so an answer without ``</think>`` is unfinished (no credit).
    read_context (`finereason.reading.ReadContext` or its ``to_dict()`` record, optional): the run's
        read context, in place of ``starts_in_think``.
Returns:
    acc (`float`): strict accuracy (a forward move must keep the state solvable).
    acc_paper (`float`): accuracy under the official (paper) scoring.
    parse_error_rate (`float`): share of answers with no readable state.
    acc_solvable, acc_unsolvable (`float`): strict accuracy on solvable / unsolvable current states.
    rate_<category> (`float`): share of answers per strict category, for correct, multiple_moves,
        invalid_move, unsolvable_child, backtracking_failure, sibling and parse_error.
Raises:
    ValueError: a reference is not a row of this task (wrong or unknown ``task``/``domain``,
        missing column, unreadable JSON).
Examples:

    >>> import evaluate
    >>> metric = evaluate.load("metrics/finereason_state_transition")
    >>> results = metric.compute(predictions=[answer_text], references=[row])
    >>> sorted(results) == ['acc', 'acc_paper', 'acc_solvable', 'acc_unsolvable', 'parse_error_rate', 'rate_backtracking_failure', 'rate_correct', 'rate_invalid_move', 'rate_multiple_moves', 'rate_parse_error', 'rate_sibling', 'rate_unsolvable_child']
    True
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class FinereasonStateTransition(metric_modules.FineReasonMetric):
    """FineReason state transition: verdicts by ``finereason.verification.scoring``, never recomputed here."""

    task = _TASK
    description = _DESCRIPTION
    kwargs_description = _KWARGS_DESCRIPTION
