"""Accuracy by round, computed once for the self-correction loop and the FOLIO actor-critic loop: a
share over no dialog is undefined (``None``), never 0."""
from __future__ import annotations

import pytest

from finereason.workflows.rounds import accuracy_at_rounds


def test_accuracy_at_rounds_counts_the_capped_answer():
    # dialog -> the round from which its answer is correct (None: never)
    fixed_at = [1, 3, None, 2]
    acc = accuracy_at_rounds(fixed_at, 3, lambda d, r: d is not None and d <= r)
    assert acc == {1: pytest.approx(1 / 4), 2: pytest.approx(2 / 4), 3: pytest.approx(3 / 4)}


def test_no_dialog_is_undefined_in_both_workflows():
    from finereason.workflows.arc import summarize_arc
    from finereason.workflows.loop import summarize_condition

    assert accuracy_at_rounds([], 2, lambda d, r: True) == {1: None, 2: None}
    assert summarize_condition([], 2)["accuracy_by_round"] == {"1": None, "2": None}
    arc = summarize_arc([], 2)
    assert arc["round_1"] is None and arc["final"] is None and arc["success_rate"] is None and arc["items"] == 0


def test_old_names_still_work_with_a_deprecation_warning():
    from finereason.workflows import arc, loop

    with pytest.warns(DeprecationWarning, match="LoopDialog"):
        assert loop.Dialog is loop.LoopDialog
    with pytest.warns(DeprecationWarning, match="summarize_condition"):
        assert loop.summarize is loop.summarize_condition
    with pytest.warns(DeprecationWarning, match="ArcDialog"):
        assert arc.Dialog is arc.ArcDialog
