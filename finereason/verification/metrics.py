"""The metric registry: every metric finereason reports, declared once.

A :class:`Metric` holds its public name, the tasks that report it, its direction, its per-row value
(a function of one row's record) and how the rows are aggregated:

- ``mean``: the mean of the per-row value;
- ``ratio``: the sum of the per-row value over the sum of the per-row ``over`` (the rows that count);
- ``f1``: the harmonic mean of two other metrics of the task (``of``).

**Undefined is undefined**: a metric whose denominator is empty (precision when nothing is predicted
unsolvable, recall or a per-class accuracy when the class has no row, any rate over no rows) is
:data:`UNDEFINED` (NaN), never 0.0; an F1 of an undefined precision or recall is undefined (an F1 of
two zeros is 0.0). JSON written by finereason holds ``null`` for it (:func:`json_value`), lm-eval's
results ``NaN``; tables show "—"; an undefined value is never averaged (:func:`is_undefined`). A row (what the per-row functions read) is the task's answer
record unless the metric names another ``record``:

- ``verdict``: a puzzle-task or FOLIO answer (``correct``, ``verdict``, ``paper`` and ``solvable``, as
  :class:`finereason.verification.scoring.RowScore`; a FOLIO answer's verdict is
  :func:`finereason.verification.verifiers.verify_folio`'s);
- ``verify``: a verify-task verdict (:class:`finereason.verification.llm_verifier.VerifyScore`);
- ``process``: the process verdict of an end-to-end answer (:class:`finereason.verification.process.ProcessVerdict`).

**One overall score** (:func:`overall`): the size-weighted mean of ``acc`` over a group's tasks, as
lm-eval's group reports it; the leaderboard's headline, the report's group table and
``trainers/evaluate_checkpoint.py`` compute it here.

Everything reads this module: :mod:`finereason.verification.aggregation`, :mod:`finereason.verification.process` and
:mod:`finereason.verification.llm_verifier` compute the metrics with :func:`compute`; the lm-eval hooks
(``lm_eval_tasks/finereason/utils.py``, ``verify_utils.py``) return per-row values or row records
and aggregate with ``agg_<name>`` functions made from here; ``lm_eval_tasks/generate_configs.py`` writes the
YAML ``metric_list`` s; the ``evaluate`` modules, report tables and leaderboard columns take names,
titles and directions from here. Adding a metric is one :class:`Metric` in :data:`METRICS` (and its
per-row function); then regenerate the task YAMLs (``python -m finereason.lm_eval_tasks.generate_configs``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

from ..common.verdict import TRANSITION_CATEGORIES, UNSOLVABLE, Category
from ..common.vocabulary import END_TO_END, STATE_CHECKING, STATE_TRANSITION, TASKS

VERIFY = "verify"  # the LLM-as-verifier task (finereason.verification.llm_verifier)
FOLIO = "folio"  # the FOLIO baselines (finereason_folio_direct, finereason_folio_cot)
ALL_TASKS: tuple[str, ...] = (*TASKS, VERIFY, FOLIO)

# what one row is (see the module docstring)
VERDICT, PROCESS, VERIFY_RECORD = "verdict", "process", "verify"
RECORDS: tuple[str, ...] = (VERDICT, PROCESS, VERIFY_RECORD)

MEAN, RATIO, F1 = "mean", "ratio", "f1"
AGGREGATIONS: tuple[str, ...] = (MEAN, RATIO, F1)

# when a metric is computed: always, only with the oracle's solvable labels, only with paper-mode verdicts
LABELS, PAPER = "labels", "paper"

# Summaries (``aggregation.summarize``, ``score`` output, ``evaluate`` modules) list a task's metrics
# section by section in this order; lm-eval, YAMLs and the leaderboard list them in declaration order.
SECTIONS: tuple[str, ...] = ("overall", "per_class", "unsolvable_positive", "category", "paper")

# names other modules use by constant (each also appears once below, in its declaration)
ACC = "acc"
ACC_PAPER = "acc_paper"
PARSE_ERROR_RATE = "parse_error_rate"
ACC_SOLVABLE = "acc_solvable"
ACC_UNSOLVABLE = "acc_unsolvable"
PRECISION_UNSOLVABLE = "precision_unsolvable"
RECALL_UNSOLVABLE = "recall_unsolvable"
F1_UNSOLVABLE = "f1_unsolvable"
RATE_PREFIX = "rate_"


def rate_name(category: str) -> str:
    """The metric naming the share of answers in ``category`` (``rate_<category>``)."""
    return f"{RATE_PREFIX}{category}"


@dataclass(frozen=True)
class Metric:
    """One reported metric (see the module docstring).

    ``per_row``: lm-eval averages the per-row value itself (YAML aggregation ``mean``, with a standard
    error); otherwise the lm-eval hook returns the row's record and ``agg_<name>`` aggregates the set.
    ``needs``: ``None``, :data:`LABELS` (only when the oracle's solvable labels are known) or
    :data:`PAPER` (only with paper-mode verdicts). ``category``: the error-taxonomy category a
    ``rate_<category>`` metric counts. ``title``: a short display title (tables, leaderboard columns;
``label`` is its deprecated name: a *label* is a state's ``Solvable``/``Unsolvable``).
    """

    name: str
    tasks: tuple[str, ...]
    higher_is_better: bool
    value: Callable[[Any], Any] | None
    aggregation: str = MEAN
    over: Callable[[Any], Any] | None = None
    of: tuple[str, ...] = ()
    record: str | None = None
    per_row: bool = True
    needs: str | None = None
    section: str = "overall"
    title: str = ""
    description: str = ""
    category: str | None = None

    def __post_init__(self) -> None:
        if self.aggregation not in AGGREGATIONS or self.record not in (None, *RECORDS) or self.section not in SECTIONS:
            raise ValueError(f"metric {self.name}: bad aggregation, record or section")
        if self.aggregation != MEAN and self.per_row:
            raise ValueError(f"metric {self.name}: only a mean can be averaged per row by lm-eval")
        if (self.aggregation == RATIO) != (self.over is not None) or (self.aggregation == F1) != bool(self.of):
            raise ValueError(f"metric {self.name}: a ratio needs `over`, an f1 needs `of`")
        if unknown := set(self.tasks) - set(ALL_TASKS):
            raise ValueError(f"metric {self.name}: unknown task(s) {', '.join(sorted(unknown))}")

    @property
    def label(self) -> str:
        """Deprecated name of :attr:`title`."""
        import warnings

        warnings.warn("Metric.label is deprecated; use Metric.title", DeprecationWarning, stacklevel=2)
        return self.title

    def row_value(self, row: Any) -> float:
        """The per-row value of one row (what lm-eval averages for a ``per_row`` metric)."""
        if self.value is None:
            raise ValueError(f"metric {self.name} has no per-row value ({self.aggregation} of other metrics)")
        return float(self.value(row))


UNDEFINED = math.nan
"""The value of a metric whose denominator is empty (NaN: lm-eval's results are floats)."""


def is_undefined(value: Any) -> bool:
    """Whether a metric value is undefined (``None`` or NaN)."""
    return value is None or (isinstance(value, float) and math.isnan(value))


def json_value(value: Any) -> Any:
    """A metric value for JSON: ``None`` (``null``) when undefined, else the value."""
    return None if is_undefined(value) else value


def ratio(num: float, den: float) -> float:
    """``num / den``, or :data:`UNDEFINED` for an empty denominator (the one rule for every metric)."""
    return num / den if den else UNDEFINED


# ------------------------------------------------------------------ per-row functions
def _pred_unsolvable(r: Any) -> bool:
    return r.verdict.prediction == UNSOLVABLE


def _rate(category: str) -> Callable[[Any], bool]:
    return lambda r: r.verdict.category == category


def _readable(v: Any) -> bool:
    return v.readable


_STATE = (STATE_CHECKING, STATE_TRANSITION)
_PUZZLE = (*TASKS,)
_CHECKING = (STATE_CHECKING,)
_UNSOLVABLE_POSITIVE = "with unsolvable as the positive class"

# ------------------------------------------------------------------ the registry (declaration = report order)
METRICS: tuple[Metric, ...] = (
    Metric(ACC, (*_PUZZLE, VERIFY, FOLIO), True, lambda r: r.correct, title="Acc", description="share of correct answers"),
    Metric(PARSE_ERROR_RATE, (*_PUZZLE, FOLIO), False, lambda r: r.verdict.parse_error, title="Parse err",
           description="share of unreadable answers"),
    Metric(ACC_PAPER, (STATE_TRANSITION,), True, lambda r: r.paper is not None and r.paper.correct, needs=PAPER,
           section="paper", title="paper", description="accuracy with the paper's scoring (paper-mode verdicts)"),
    Metric(PRECISION_UNSOLVABLE, _CHECKING, True, lambda r: _pred_unsolvable(r) and r.solvable is False, RATIO,
           over=lambda r: _pred_unsolvable(r) and r.solvable is not None, per_row=False, needs=LABELS,
           section="unsolvable_positive", title="P", description=f"precision {_UNSOLVABLE_POSITIVE}"),
    Metric(RECALL_UNSOLVABLE, _CHECKING, True, lambda r: _pred_unsolvable(r) and r.solvable is False, RATIO,
           over=lambda r: r.solvable is False, per_row=False, needs=LABELS, section="unsolvable_positive",
           title="R", description=f"recall {_UNSOLVABLE_POSITIVE}"),
    Metric(F1_UNSOLVABLE, _CHECKING, True, None, F1, of=(PRECISION_UNSOLVABLE, RECALL_UNSOLVABLE),
           per_row=False, needs=LABELS, section="unsolvable_positive", title="F1",
           description=f"F1 {_UNSOLVABLE_POSITIVE}"),
    Metric(ACC_SOLVABLE, _STATE, True, lambda r: r.solvable is True and r.correct, RATIO,
           over=lambda r: r.solvable is True, per_row=False, needs=LABELS, section="per_class",
           title="Acc solvable", description="accuracy on rows whose state is solvable"),
    Metric(ACC_UNSOLVABLE, _STATE, True, lambda r: r.solvable is False and r.correct, RATIO,
           over=lambda r: r.solvable is False, per_row=False, needs=LABELS, section="per_class",
           title="Acc unsolvable", description="accuracy on rows whose state is unsolvable"),
    *(Metric(rate_name(c), (STATE_TRANSITION,), c == Category.CORRECT.value, _rate(c), section="category",
             title=c.replace("_", " "), description=f"share of answers in the category {c}", category=c)
      for c in TRANSITION_CATEGORIES),
    # where a written end-to-end solution process first goes wrong (finereason.verification.process)
    Metric("process_rate_readable", (END_TO_END,), True, _readable, record=PROCESS, per_row=False,
           title="Readable", description="share of answers that show a process"),
    Metric("process_rate_invalid_step", (END_TO_END,), False,
           lambda v: v.readable and v.first_invalid_step is not None, RATIO, over=_readable, record=PROCESS, per_row=False, title="Invalid step",
           description="among answers that show a process, the share with an invalid step"),
    Metric("process_rate_dead_end", (END_TO_END,), False,
           lambda v: v.readable and v.first_dead_end_step is not None, RATIO, over=_readable, record=PROCESS, per_row=False, title="Dead end",
           description="among answers that show a process, the share that enters a dead end"),
    Metric("process_rate_undecided", (END_TO_END,), False, lambda v: v.readable and bool(v.undecided), RATIO,
           over=_readable, record=PROCESS, per_row=False, title="Undecided",
           description="among answers that show a process, the share where the oracle gave up"),
    Metric("process_steps_read", (END_TO_END,), True, lambda v: v.steps_read, record=PROCESS, per_row=False,
           title="Steps read", description="mean steps read per answer"),
    # the LLM-as-verifier task (finereason.verification.llm_verifier)
    Metric("false_positive_rate", (VERIFY,), False, lambda s: not s.truth and s.accepted is True, RATIO,
           over=lambda s: not s.truth, per_row=False, title="FPR",
           description="wrong candidates accepted / wrong candidates"),
    Metric("false_negative_rate", (VERIFY,), False, lambda s: bool(s.truth) and s.accepted is not True, RATIO,
           over=lambda s: bool(s.truth), per_row=False, title="FNR",
           description="correct candidates not accepted / correct candidates"),
    Metric("critique_precision", (VERIFY,), True, lambda s: not s.truth and s.accepted is False and bool(s.critique_ok),
           RATIO, over=lambda s: not s.truth and s.accepted is False, per_row=False,
           title="Critique P", description="rejections of wrong candidates whose critique names an existing error "
           "/ rejections of wrong candidates"),
    Metric("no_verdict_rate", (VERIFY,), False, lambda s: s.accepted is None, per_row=False,
           title="No verdict", description="share of responses without a clear verdict"),
)
"""Every metric, in report order (lm-eval's ``process_results`` keys, YAML ``metric_list`` s)."""

BY_NAME: dict[str, Metric] = {}
for _m in METRICS:
    if _m.name in BY_NAME:
        raise ValueError(f"metric {_m.name} is declared twice")
    if any(name not in BY_NAME for name in _m.of):
        raise ValueError(f"metric {_m.name}: declare {', '.join(_m.of)} before it")
    BY_NAME[_m.name] = _m


def metric(name: str) -> Metric:
    """The metric called ``name`` (a one-line error for an unknown name)."""
    try:
        return BY_NAME[name]
    except KeyError:
        raise ValueError(f"unknown metric {name!r}; known: {', '.join(BY_NAME)}") from None


def record_of(m: Metric, task: str) -> str:
    """What one row of ``task`` is for ``m``: its own record, else the task's answer record."""
    return m.record or (VERIFY_RECORD if task == VERIFY else VERDICT)


def task_metrics(task: str, record: str | None = None) -> tuple[Metric, ...]:
    """The metrics ``task`` reports in report order (only those computed from ``record`` rows, if given)."""
    if task not in ALL_TASKS:
        raise ValueError(f"unknown task {task!r}; use one of {', '.join(ALL_TASKS)}")
    return tuple(m for m in METRICS if task in m.tasks and (record is None or record_of(m, task) == record))


def compute(task: str, rows: Sequence[Any], record: str, *, have: Iterable[str] = (),
            summary_order: bool = False, only: Iterable[str] | None = None) -> dict[str, float]:
    """The ``task`` metrics over ``record`` rows, leaving out those that need what is not in ``have``
    (:data:`LABELS`, :data:`PAPER`); in report order, or section by section (:data:`SECTIONS`) with
    ``summary_order``; ``only``: just these metrics."""
    have = set(have)
    chosen = [m for m in task_metrics(task, record) if m.needs is None or m.needs in have]
    if only is not None:
        wanted = set(only)
        wanted |= {name for m in chosen if m.name in wanted for name in m.of}
        chosen = [m for m in chosen if m.name in wanted]
    out: dict[str, float] = {}
    for m in chosen:
        if m.aggregation == F1:
            p, r = (out[name] for name in m.of)
            out[m.name] = UNDEFINED if is_undefined(p) or is_undefined(r) else 2 * p * r / (p + r) if p + r else 0.0
        else:
            num = sum(m.value(row) for row in rows)
            out[m.name] = ratio(num, sum(m.over(row) for row in rows) if m.aggregation == RATIO else len(rows))
    if summary_order:
        chosen.sort(key=lambda m: SECTIONS.index(m.section))
    return {m.name: out[m.name] for m in chosen}


# ------------------------------------------------------------------ the overall score
OVERALL_METRIC = ACC
OVERALL_GROUP = "finereason"
"""The headline group: the generated benchmark's state-checking and state-transition tasks (as the
paper's tables); ``finereason_official`` is the official release's (every task)."""


def overall(parts: Iterable[tuple[Any, Any]]) -> float:
    """The one overall score of a group (the tasks its lm-eval YAML lists, ``_<group>.yaml``): the
    mean of its tasks' ``acc`` weighted by their sizes,
    ``sum(acc_t * n_t) / sum(n_t)`` over ``parts`` = ``(acc_t, n_t)`` pairs, which is the share of correct
    answers over all the group's rows and exactly what lm-eval's group reports (``aggregate_metric_list``:
    ``acc``, ``mean``, ``weight_by_size: true``). :data:`UNDEFINED` when there is no part, or a part's
    accuracy is undefined or its size unknown (never averaged over what is there)."""
    total = weight = 0.0
    seen = False
    for value, n in parts:
        if is_undefined(value) or isinstance(n, bool) or not isinstance(n, int) or n <= 0:
            return UNDEFINED
        total += float(value) * n
        weight += n
        seen = True
    return total / weight if seen else UNDEFINED


def metric_list_yaml(task: str, hooks: str) -> str:
    """The lm-eval ``metric_list`` of ``task`` as YAML text: ``mean`` for a per-row metric, else
    ``!function <hooks>.agg_<name>`` (the hook module's aggregation of the row records)."""
    items = "".join(
        f"  - metric: {m.name}\n    aggregation: {'mean' if m.per_row else f'!function {hooks}.agg_{m.name}'}\n"
        f"    higher_is_better: {'true' if m.higher_is_better else 'false'}\n" for m in task_metrics(task))
    return f"metric_list:\n{items}"


def set_aggregations(tasks: Iterable[str], summaries: dict[str, Callable[[list], dict[str, float]]]
                     ) -> dict[str, Callable[[list], float]]:
    """``{"agg_<name>": aggregation}`` for every set-level (not ``per_row``) metric of ``tasks``: each
    turns lm-eval's list of row records into the metric with ``summaries[record](records)``
    (:data:`UNDEFINED` when the summary leaves it out). The lm-eval hook modules serve these as module attributes."""
    out: dict[str, Callable[[list], float]] = {}
    for task in tasks:
        for m in task_metrics(task):
            if not m.per_row:
                out[f"agg_{m.name}"] = _aggregation(m.name, summaries[record_of(m, task)])
    return out


def hook_attributes(module: str, aggregations: dict[str, Callable[[list], float]], names: Callable[[], Iterable[str]]
                    ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for an lm-eval hook module that serves ``aggregations`` (made by
    :func:`set_aggregations`) as attributes; ``names`` gives the module's own names (``globals``)."""
    def module_getattr(name: str) -> Any:
        try:
            return aggregations[name]
        except KeyError:
            raise AttributeError(f"module {module!r} has no attribute {name!r}") from None

    def module_dir() -> list[str]:
        return sorted([*names(), *aggregations])

    return module_getattr, module_dir


def _aggregation(name: str, summary: Callable[[list], dict[str, float]]) -> Callable[[list], float]:
    def aggregate_metric(items: list) -> float:
        return summary(items).get(name, UNDEFINED)

    aggregate_metric.__name__ = f"agg_{name}"
    return aggregate_metric


__all__ = ["ACC", "ACC_PAPER", "ACC_SOLVABLE", "ACC_UNSOLVABLE", "F1_UNSOLVABLE", "PARSE_ERROR_RATE",
           "PRECISION_UNSOLVABLE", "RECALL_UNSOLVABLE", "AGGREGATIONS", "ALL_TASKS", "BY_NAME", "F1", "FOLIO", "LABELS", "MEAN", "METRICS", "Metric", "OVERALL_GROUP", "OVERALL_METRIC", "PAPER", "PROCESS",
           "RATE_PREFIX", "RATIO", "RECORDS", "SECTIONS", "UNDEFINED", "VERDICT", "VERIFY", "VERIFY_RECORD", "compute",
           "is_undefined", "json_value", "metric", "metric_list_yaml", "overall", "rate_name", "ratio", "record_of", "set_aggregations", "task_metrics"]
