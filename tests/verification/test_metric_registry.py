"""The metric registry (``finereason.verification.metrics``): each metric declared once, and every
consumer (aggregation, lm-eval hooks and YAMLs, ``evaluate`` modules, report, leaderboard) reads it."""
from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest
import yaml

from finereason.verification import aggregation, process, llm_verifier as verify_task
from finereason.lm_eval_tasks.generate_configs import TASK_FOLDER, render_configs, task_templates
from finereason.common.verdict import SOLVABLE, TRANSITION_CATEGORIES, UNSOLVABLE, Verdict
from finereason.verification import metrics as M
from finereason.common.vocabulary import END_TO_END, STATE_CHECKING, STATE_TRANSITION, TASKS

ROOT = Path(__file__).resolve().parents[2]


class _Loader(yaml.SafeLoader):
    pass


_Loader.add_constructor("!function", lambda loader, node: f"!function {loader.construct_scalar(node)}")


def _yaml(text: str) -> dict:
    return yaml.load(text, Loader=_Loader)


def _hook(name: str):
    spec = importlib.util.spec_from_file_location(f"_registry_test_{name}", TASK_FOLDER / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ------------------------------------------------------------------ the declarations
def test_names_are_unique_and_every_task_has_metrics():
    names = [m.name for m in M.METRICS]
    assert len(names) == len(set(names)) == len(M.BY_NAME)
    for task in M.ALL_TASKS:
        assert M.task_metrics(task)[0].name == "acc"  # the headline metric comes first everywhere


def test_declarations_are_checked():
    with pytest.raises(ValueError, match="per row"):
        M.Metric("x", (STATE_CHECKING,), True, lambda r: 1, M.RATIO, over=lambda r: 1)
    with pytest.raises(ValueError, match="needs `over`"):
        M.Metric("x", (STATE_CHECKING,), True, lambda r: 1, M.RATIO, per_row=False)
    with pytest.raises(ValueError, match="unknown task"):
        M.Metric("x", ("nope",), True, lambda r: 1)
    with pytest.raises(ValueError, match="unknown metric 'nope'"):
        M.metric("nope")


def test_error_taxonomy_categories_are_the_rate_metrics():
    rates = [m for m in M.task_metrics(STATE_TRANSITION) if m.category is not None]
    assert [m.category for m in rates] == list(TRANSITION_CATEGORIES)
    assert all(m.name == M.rate_name(m.category) and m.higher_is_better == (m.category == "correct") for m in rates)


def test_old_declarations_are_views_of_the_registry():
    for task in TASKS:
        assert [m.name for m in aggregation.METRICS[task]] == [m.name for m in M.task_metrics(task, M.VERDICT)]
    assert process.PROCESS_HIGHER_IS_BETTER == {m.name: m.higher_is_better for m in M.task_metrics(END_TO_END, M.PROCESS)}
    assert verify_task.VERIFY_METRICS == tuple(m.name for m in M.task_metrics(M.VERIFY))


# ------------------------------------------------------------------ aggregation
def _verdicts(rng: random.Random, n: int) -> list[Verdict]:
    cats = [*TRANSITION_CATEGORIES, "wrong"]
    return [Verdict(rng.random() < .5, rng.choice(cats), (), rng.choice([SOLVABLE, UNSOLVABLE, None])) for _ in range(n)]


@pytest.mark.parametrize("seed", range(5))
def test_summary_matches_hand_computation(seed):
    """The registry's declarative aggregations give the textbook numbers (counted here by hand)."""
    rng = random.Random(seed)
    verdicts = _verdicts(rng, 30)
    labels = [rng.choice([True, False, None]) for _ in verdicts]
    got = aggregation.summarize(STATE_CHECKING, verdicts, labels)
    pairs = list(zip(verdicts, labels))
    tp = sum(v.prediction == UNSOLVABLE and s is False for v, s in pairs)
    pred = sum(v.prediction == UNSOLVABLE and s is not None for v, s in pairs)
    pos = sum(s is False for s in labels)
    p, r = (tp / pred if pred else None), (tp / pos if pos else None)
    same = lambda value, want: value != value if want is None else value == want  # noqa: E731 (undefined: NaN)
    assert same(got["precision_unsolvable"], p) and same(got["recall_unsolvable"], r)
    assert same(got["f1_unsolvable"], None if p is None or r is None else 2 * p * r / (p + r) if p + r else 0.0)
    solv = [v.correct for v, s in pairs if s is True]
    assert same(got["acc_solvable"], sum(solv) / len(solv) if solv else None)
    assert got["acc"] == sum(v.correct for v in verdicts) / 30
    # summaries list section by section; lm-eval and YAMLs in declaration order
    assert list(got) == ["n", "acc", "parse_error_rate", "acc_solvable", "acc_unsolvable", "precision_unsolvable",
                         "recall_unsolvable", "f1_unsolvable"]


def test_empty_sets_are_undefined():
    """One rule: an empty denominator is undefined (NaN), never 0.0, for every metric of every record."""
    for values in (M.compute(M.VERIFY, [], M.VERIFY_RECORD).values(), process.summarize_process([]).values()):
        assert values and all(M.is_undefined(v) for v in values)
    assert M.is_undefined(None) and not M.is_undefined(0.0) and M.json_value(M.UNDEFINED) is None


# ------------------------------------------------------------------ lm-eval: hooks and YAMLs
def test_committed_task_templates_are_generated_from_the_registry():
    """Each committed ``_<task>_template_yaml`` is byte-for-byte what the generator writes."""
    for name, text in task_templates().items():
        assert (TASK_FOLDER / name).read_text(encoding="utf-8") == text, f"{name}: run python -m finereason.lm_eval_tasks.generate_configs"


@pytest.mark.parametrize("task", M.ALL_TASKS)
def test_every_metric_appears_in_the_yaml_with_its_direction_and_aggregation(task):
    files = render_configs()
    if task == M.VERIFY:
        hooks = "verify_utils"
        listed = [_yaml(text)["metric_list"] for name, text in files.items() if name.startswith("finereason_verify_")]
    elif task == M.FOLIO:  # the FOLIO baselines' YAMLs are written by hand: they must list the registry's metrics
        pytest.importorskip("lm_eval")
        hooks = "folio_utils"
        paths = sorted(TASK_FOLDER.glob("finereason_folio_*.yaml"))
        listed = [_yaml(path.read_text(encoding="utf-8"))["metric_list"] for path in paths]
        assert len(listed) == 2
    else:
        hooks = "utils"
        listed = [_yaml(files[f"_{task}_template_yaml"])["metric_list"]]
    module = _hook(hooks)
    for metric_list in listed:
        assert [item["metric"] for item in metric_list] == [m.name for m in M.task_metrics(task)]
        for item, m in zip(metric_list, M.task_metrics(task)):
            assert item["higher_is_better"] is m.higher_is_better
            if m.per_row:
                assert item["aggregation"] == "mean"
            else:
                assert item["aggregation"] == f"!function {hooks}.agg_{m.name}"
                assert callable(getattr(module, f"agg_{m.name}"))


def test_hooks_serve_exactly_the_set_level_aggregations():
    utils, verify_utils = _hook("utils"), _hook("verify_utils")
    set_level = lambda tasks: {f"agg_{m.name}" for t in tasks for m in M.task_metrics(t) if not m.per_row}  # noqa: E731
    assert {n for n in dir(utils) if n.startswith("agg_")} == set_level(TASKS)
    assert {n for n in dir(verify_utils) if n.startswith("agg_")} == set_level([M.VERIFY])
    assert utils.agg_f1_unsolvable.__name__ == "agg_f1_unsolvable"
    with pytest.raises(AttributeError):
        utils.agg_acc  # a per-row metric: lm-eval averages it itself


@pytest.fixture(scope="session")
def rows(small_dataset) -> dict[str, list[dict]]:
    pq = pytest.importorskip("pyarrow.parquet")
    return {task: [r for f in sorted(small_dataset.glob(f"*_{task}/test-*.parquet")) for r in pq.read_table(f).to_pylist()]
            for task in TASKS}


@pytest.mark.parametrize("task", TASKS)
def test_process_results_reports_every_registered_metric(rows, task):
    from finereason.models.baselines import oracle

    from finereason.verification.scoring import aggregate, score_row
    from finereason.core.rows import row_puzzle

    utils = _hook("utils")
    answers = [(row, oracle(row) if i % 2 else "Answer: [1, 2]") for i, row in enumerate(rows[task])]
    results = [utils.process_results(row, [text]) for row, text in answers]
    metrics = M.task_metrics(task)
    assert all(list(r) == [m.name for m in metrics] for r in results)
    expected = aggregate(score_row(row, text) for row, text in answers)
    if task == END_TO_END:
        expected.update(process.summarize_process([process.process_score(r["puzzle"], row_puzzle(r), t) for r, t in answers]))
    for m in metrics:  # lm-eval's mean of the per-row values, or the hook's aggregation: the library's numbers
        values = [r[m.name] for r in results]
        got = sum(values) / len(values) if m.per_row else getattr(utils, f"agg_{m.name}")(values)
        assert got == pytest.approx(expected[m.name], abs=1e-12, nan_ok=True), m.name


def test_verify_process_results_reports_every_registered_metric(rows):
    docs = verify_task.verify_docs(rows[END_TO_END][:2])
    verify_utils = _hook("verify_utils")
    results = [verify_utils.process_results(d, [verify_task.oracle_verdict(d)]) for d in docs]
    assert all(list(r) == list(verify_task.VERIFY_METRICS) for r in results)
    assert sum(r["acc"] for r in results) == len(results)
    assert verify_utils.agg_false_positive_rate([r["false_positive_rate"] for r in results]) == 0.0


# ------------------------------------------------------------------ evaluate modules, report, leaderboard
@pytest.mark.parametrize("task", TASKS)
def test_evaluate_module_documents_every_metric_it_returns(task):
    text = (ROOT / "metrics" / f"finereason_{task}" / f"finereason_{task}.py").read_text(encoding="utf-8")
    for m in M.task_metrics(task, M.VERDICT):
        assert m.name in text or (m.category and "rate_<category>" in text and m.category in text), m.name


def test_leaderboard_columns_take_labels_and_directions_from_the_registry():
    from finereason.integrations.leaderboard.board import columns

    cols = {c.key: c for c in columns(["sudoku"])}
    named = [key for key in cols if key in M.BY_NAME]
    assert set(named) == {"precision_unsolvable", "recall_unsolvable", "f1_unsolvable", "parse_error_rate"}
    for key in named:
        assert cols[key].higher_is_better is M.metric(key).higher_is_better
        assert cols[key].title.endswith(M.metric(key).title)
    assert cols["parse_error_rate"].higher_is_better is False


def test_report_table_4_lists_the_positive_class_section():
    from finereason.integrations.report.tables import SC_POSITIVE

    assert SC_POSITIVE == ("precision_unsolvable", "recall_unsolvable", "f1_unsolvable")
