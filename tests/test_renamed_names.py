"""One name, one meaning: each renamed public name still works for one version, warns once with its new
name, and is the very object of the new name; and the new names keep their meanings apart."""
from __future__ import annotations

import importlib
import warnings

import pytest

RENAMED = [  # (module, old name, new name)
    ("finereason.integrations.report.results", "metric", "metric_value"),  # a results-dict getter, not the registry's lookup
    ("finereason.integrations.report.results", "puzzle_title", "domain_title"),
    ("finereason.integrations.report.results", "puzzle_order", "domain_order"),
    ("finereason.planning", "Step", "PlanAction"),  # a plan's action, not the engine's move verdict
    ("finereason.planning.plan_text", "Step", "PlanAction"),
    ("finereason.data.folio", "LABELS", "TRUTH_VALUES"),  # FOLIO's answers are truth values, not labels
    ("finereason.data.folio", "LABEL_MAP", "TRUTH_VALUE_WORDS"),
    ("finereason.data.folio", "read_label", "read_truth_value"),
    ("finereason.asp.query", "LABELS", "TRUTH_VALUES"),
    ("finereason.asp.query", "label", "truth_value"),
    ("finereason.workflows.arc", "accuracy_by_round", "summarize_arc"),
    ("finereason.workflows.loop_plot", "model_label", "model_title"),  # a display title, not a label
    ("finereason.data.official_files", "read_records", "read_official_records"),  # read_records: the resumable log's reader
]
MOVED = [  # (old module, old name, new module, new name)
    ("finereason.reading.labels", "label_reading", "finereason.reading.truth_values", "truth_value_reading"),
    ("finereason.reading.labels", "read_label", "finereason.reading.truth_values", "read_truth_value"),
    ("finereason.reading.labels", "LABEL_WORDS", "finereason.reading.truth_values", "TRUTH_VALUE_WORDS"),
    ("finereason.reading.labels", "LABEL_SIGNALS", "finereason.reading.truth_values", "TRUTH_VALUE_SIGNALS"),
    ("finereason.integrations.leaderboard.submit", "clean_metrics", "finereason.integrations.lm_eval.results", "clean_metrics"),
    ("finereason.verification.llm_verifier", "REQUEST", "finereason.core.prompts", "VERIFY_REQUEST"),
]


@pytest.mark.parametrize("module, old, new", RENAMED, ids=lambda x: x if isinstance(x, str) else "")
def test_an_old_name_warns_and_is_the_new_object(module, old, new):
    mod = importlib.import_module(module)
    with pytest.warns(DeprecationWarning, match=rf"{module}\.{old} is deprecated; use {new}$"):
        value = getattr(mod, old)
    assert value is getattr(mod, new)
    assert old not in vars(mod)  # only the deprecation path answers the old name


@pytest.mark.parametrize("old_module, old, new_module, new", MOVED)
def test_a_moved_name_warns_with_its_new_home(old_module, old, new_module, new):
    mod = importlib.import_module(old_module)
    with pytest.warns(DeprecationWarning, match=rf"use {new_module}\.{new}$"):
        value = getattr(mod, old)
    assert value is getattr(importlib.import_module(new_module), new)


def test_an_unknown_name_is_still_an_attribute_error():
    from finereason.integrations.report import results

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(AttributeError, match="no attribute 'nope'"):
            results.nope  # noqa: B018


def test_the_metric_title_keeps_its_old_name_with_a_warning():
    from finereason.verification.metrics import ACC, metric

    with pytest.warns(DeprecationWarning, match="Metric.title"):
        assert metric(ACC).label == metric(ACC).title == "Acc"


def test_the_two_metric_names_mean_two_things():
    """``metric(name)`` is the registry's declaration; ``metric_value(results, name)`` a number from lm-eval's results."""
    from finereason.integrations.report.results import metric_value
    from finereason.verification.metrics import ACC, Metric, metric

    assert isinstance(metric(ACC), Metric)
    assert metric_value({"acc,none": 0.25, "acc_stderr,none": 0.1}, ACC) == 0.25
    assert metric_value({"acc,strict": 0.5}, ACC) == 0.5  # another filter when ``none`` is absent
    assert metric_value({"acc,none": float("nan")}, ACC) is None  # undefined, never 0


def test_the_plan_action_and_the_move_verdict_are_two_classes():
    from finereason.core.engine import Step
    from finereason.planning import PlanAction

    action = PlanAction("pick-up", ("a",), "pick up a")
    assert str(action) == "(pick-up a)" and PlanAction is not Step


def test_domain_names_title_and_order_come_from_the_registry():
    from finereason.core.engine import engine_names, get_engine
    from finereason.integrations.report.results import domain_order, domain_title

    assert domain_order() == engine_names()
    assert domain_title("sudoku") == get_engine("sudoku").title
    assert domain_title("not-a-domain") == "not-a-domain"


def test_format_ok_takes_a_domain_and_its_old_keyword_warns():
    from finereason.verification.verifiers import format_ok

    text = "Answer: (10 - 4)(13 - 9)"
    assert format_ok("end_to_end", text, domain="game_of_24")
    with pytest.warns(DeprecationWarning, match=r"format_ok\(domain=\.\.\.\)"):
        assert format_ok("end_to_end", text, puzzle="game_of_24")
    assert not format_ok("end_to_end", "Answer: 2^(10 - 4)", domain="game_of_24")


def test_a_model_title_keeps_its_old_name_with_a_warning():
    """A model's display name is its ``title`` (a title, not a label); ``Model.label`` warns for one version."""
    from finereason.integrations.report.results import Model

    model = Model(("hf", "pretrained=org/m"), title="org/m")
    with pytest.warns(DeprecationWarning, match="Model.label is deprecated; use Model.title"):
        assert model.label == "org/m"
    with pytest.warns(DeprecationWarning, match="Model.title"):
        model.label = "renamed"
    assert model.title == "renamed"
