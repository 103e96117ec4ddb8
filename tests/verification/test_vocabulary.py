"""One vocabulary: tasks, tree orders, verdict categories and metric names are each defined once
(``finereason.common.vocabulary``, ``finereason.common.verdict.Category``, ``finereason.verification.aggregation.METRICS``) and
the code that uses them imports them instead of spelling them again."""
from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from finereason.verification import aggregation
from finereason.common import vocabulary
from finereason.verification.aggregation import METRICS, metric_names, paper_accuracy, rate_name, row_values, summarize
from finereason.common.verdict import TRANSITION_CATEGORIES, UNDECIDED, Category, Verdict

REPO = Path(__file__).resolve().parents[2]
CODE_DIRS = ("finereason", "dataset_builders", "trainers", "lm_eval_tasks", "metrics")


def _sources() -> list[Path]:
    return [p for d in CODE_DIRS for p in sorted((REPO / d).rglob("*.py")) if p.name != "vocabulary.py"]


def test_shared_names_are_the_vocabulary_objects():
    from finereason.core import engine as base
    from finereason.integrations.training import rewards

    assert vocabulary.TASKS == (vocabulary.STATE_CHECKING, vocabulary.STATE_TRANSITION, vocabulary.END_TO_END)
    assert vocabulary.STATE_TASKS == vocabulary.TASKS[:2]
    assert base.ORDERS is vocabulary.ORDERS and vocabulary.ORDERS == (vocabulary.PAPER, vocabulary.MRV)
    assert rewards.PUZZLE_TASKS is vocabulary.TASKS  # public alias of the reward module
    assert set(METRICS) == set(vocabulary.TASKS)


def test_no_task_or_order_tuple_is_spelled_again():
    """A tuple of task names or tree orders written as literals outside the vocabulary is a second definition."""
    words = set(vocabulary.TASKS) | set(vocabulary.ORDERS)
    found = []
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and len(node.elts) >= 2 and all(
                    isinstance(e, ast.Constant) and e.value in words for e in node.elts):
                found.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert not found, found


def test_every_verdict_category_is_a_member():
    assert TRANSITION_CATEGORIES == ("correct", "multiple_moves", "invalid_move", "unsolvable_child",
                                     "backtracking_failure", "sibling", "parse_error")
    values = [c.value for c in Category]
    assert len(values) == len(set(values))
    assert {"incorrect", "invalid_solution", "undecided"} <= set(values)
    assert UNDECIDED == Category.UNDECIDED.value
    # verdicts are made with members, never with a bare category string
    bare = []
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Verdict" and len(node.args) >= 2 \
                    and isinstance(node.args[1], ast.Constant):
                bare.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert not bare, bare


def test_metric_names_are_declared_once_per_task():
    assert metric_names(vocabulary.END_TO_END) == ["acc", "parse_error_rate"]
    assert metric_names(vocabulary.STATE_CHECKING) == ["acc", "parse_error_rate", "precision_unsolvable", "recall_unsolvable",
                                                       "f1_unsolvable", "acc_solvable", "acc_unsolvable"]
    assert metric_names(vocabulary.STATE_TRANSITION) == (["acc", "parse_error_rate", "acc_paper", "acc_solvable", "acc_unsolvable"]
                                                         + [f"rate_{c}" for c in TRANSITION_CATEGORIES])
    with pytest.raises(ValueError, match="unknown task"):
        metric_names("no_such_task")


def _template_metrics(task: str) -> dict[str, tuple[bool, bool]]:
    """{name: (per-row mean?, higher is better?)} of a task template's ``metric_list``."""
    text = (REPO / "lm_eval_tasks" / "finereason" / f"_{task}_template_yaml").read_text(encoding="utf-8")
    items = re.findall(r"- metric: (\S+)\n\s+aggregation: (.+?)\n\s+higher_is_better: (true|false)", text)
    out = {}
    for name, agg, higher in items:
        assert agg.strip() in ("mean", f"!function utils.agg_{name}"), (task, name, agg)
        out[name] = (agg.strip() == "mean", higher == "true")
    return out


@pytest.mark.parametrize("task", vocabulary.TASKS)
def test_lm_eval_templates_declare_the_same_metrics(task):
    from finereason.verification.process import PROCESS_HIGHER_IS_BETTER, PROCESS_METRICS

    expected = {m.name: (m.per_row, m.higher_is_better) for m in METRICS[task]}
    if task == vocabulary.END_TO_END:  # end-to-end tasks also report process scoring (finereason.verification.process)
        expected.update((name, (False, PROCESS_HIGHER_IS_BETTER[name])) for name in PROCESS_METRICS)
    assert _template_metrics(task) == expected


def test_lm_eval_hooks_have_an_aggregation_per_set_metric():
    pytest.importorskip("lm_eval")
    import importlib.util

    spec = importlib.util.spec_from_file_location("fr_utils", REPO / "lm_eval_tasks" / "finereason" / "utils.py")
    utils = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(utils)
    for task, metrics in METRICS.items():
        for m in metrics:
            assert callable(getattr(utils, f"agg_{m.name}", None)) is (not m.per_row), (task, m.name)


@pytest.mark.parametrize("seed", range(5))
def test_row_values_average_to_the_summary(seed):
    """lm-eval averages ``row_values`` per row; the means must equal what ``summarize`` reports."""
    rng = random.Random(seed)
    for task in vocabulary.TASKS:
        n = rng.randint(1, 40)
        cats = list(TRANSITION_CATEGORIES) + [Category.INCORRECT.value, Category.UNDECIDED.value]
        verdicts = [Verdict(c == Category.CORRECT.value, c) for c in (rng.choice(cats) for _ in range(n))]
        paper = [Verdict(rng.random() < 0.5, Category.CORRECT.value) for _ in range(n)] \
            if task == vocabulary.STATE_TRANSITION else [None] * n
        solvable = None if task == vocabulary.END_TO_END else [rng.random() < 0.5 for _ in range(n)]
        summary = summarize(task, verdicts, solvable)
        if task == vocabulary.STATE_TRANSITION:
            summary[aggregation.ACC_PAPER] = paper_accuracy(paper)
        rows = [row_values(task, v, p) for v, p in zip(verdicts, paper)]
        per_row = [m.name for m in METRICS[task] if m.per_row]
        assert all(set(r) == set(per_row) for r in rows)
        for name in per_row:
            assert sum(r[name] for r in rows) / n == pytest.approx(summary[name]), (task, name)
        assert set(summary) - {aggregation.N} == set(metric_names(task))


def test_rate_names_follow_the_categories():
    assert [rate_name(c) for c in TRANSITION_CATEGORIES] == [n for n in metric_names(vocabulary.STATE_TRANSITION)
                                                             if n.startswith("rate_")]
