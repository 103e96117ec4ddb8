"""Metrics against tables worked out by hand, on rows of the official Sudoku sample.

Every expected number below is written out from a confusion matrix or a category count made by
construction (the answers are chosen so that each row's outcome is known without running any
finereason code); the same numbers must come out of every path that reports them: ``aggregate``
(CLI, reports), the lm-eval hooks (``process_results`` then the task's aggregation functions) and the
``evaluate`` metric modules.

State checking: *unsolvable* is the positive class. A parse error counts as wrong and, as documented,
as *not* predicting unsolvable: on an Unsolvable row it is a false negative, on a Solvable row it is
neither a true nor a false positive.
"""
from __future__ import annotations

import importlib.util
import json
from fractions import Fraction
from pathlib import Path

import pytest

from brute import sudoku_candidates, sudoku_completions
from conftest import read_jsonl, shared_path
from finereason.verification.aggregation import metric_names
from finereason.verification.scoring import aggregate, score_row

REPO = Path(__file__).resolve().parents[2]


def sudoku_rows(task: str) -> tuple[list[dict], list[dict]]:
    """(solvable rows, unsolvable rows) of ``task`` made from the official Sudoku states sample."""
    records = read_jsonl(shared_path("finereason_official", "sudoku_states_sample.jsonl"))
    rows = [{"id": f"sudoku-{k}", "puzzle": "sudoku", "task": task, "label": r["outputs"]["current_status"],
             "inputs": json.dumps(r["inputs"]), "outputs": json.dumps(r["outputs"])} for k, r in enumerate(records)]
    return [r for r in rows if r["label"] == "Solvable"], [r for r in rows if r["label"] == "Unsolvable"]


def lm_eval_utils():
    """The lm-eval hooks of the task folder, loaded as lm-eval loads them (from the file)."""
    spec = importlib.util.spec_from_file_location("finereason_task_utils", REPO / "lm_eval_tasks" / "finereason" / "utils.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def through_lm_eval_hooks(rows: list[dict], answers: list[str]) -> dict[str, float]:
    """What lm-eval computes: ``process_results`` per row, then each metric's aggregation."""
    utils = lm_eval_utils()
    per_row = [utils.process_results(row, [answer]) for row, answer in zip(rows, answers)]
    out = {}
    for name in metric_names(rows[0]["task"]):
        items = [r[name] for r in per_row]
        agg = getattr(utils, f"agg_{name}", None)
        out[name] = agg(items) if agg is not None else sum(items) / len(items)  # "mean" in the YAML
    return out


def through_metric_module(task: str, rows: list[dict], answers: list[str]) -> dict[str, float]:
    evaluate = pytest.importorskip("evaluate", reason="the metric modules need `evaluate`")
    metric = evaluate.load(str(REPO / "metrics" / f"finereason_{task}"), keep_in_memory=True)
    return metric.compute(predictions=answers, references=rows)


def every_path(rows: list[dict], answers: list[str]) -> list[dict[str, float]]:
    from_aggregate = {k: v for k, v in aggregate([score_row(r, a) for r, a in zip(rows, answers)]).items() if k != "n"}
    return [from_aggregate, through_lm_eval_hooks(rows, answers), through_metric_module(rows[0]["task"], rows, answers)]


# ------------------------------------------------------------------ state checking
def test_state_checking_mixed_confusion_matrix():
    solvable, unsolvable = sudoku_rows("state_checking")
    A, B, NONE = "Reasoning...\nAnswer: (A)", "The grid is stuck.\nAnswer: (B)", "I am not sure."
    # 6 Unsolvable rows: (B) (B) \boxed{B} (A) parse-error (B)   -> TP 4, FN 2 (one of them a parse error)
    # 4 Solvable rows:   (B) (A) (A) parse-error                 -> FP 1, TN 2, and one parse error
    rows = unsolvable[:6] + solvable[:4]
    answers = [B, B, "So the answer is \\boxed{B}.", A, NONE, B, B, A, A, NONE]
    tp, fp, fn = 4, 1, 2
    precision, recall = Fraction(tp, tp + fp), Fraction(tp, tp + fn)          # 4/5, 4/6
    want = {
        "acc": 6 / 10,                       # 4 TP + 2 TN
        "parse_error_rate": 2 / 10,
        "precision_unsolvable": 0.8,
        "recall_unsolvable": 2 / 3,
        "f1_unsolvable": float(2 * precision * recall / (precision + recall)),  # 8/11
        "acc_solvable": 2 / 4,
        "acc_unsolvable": 4 / 6,
    }
    assert want["f1_unsolvable"] == pytest.approx(8 / 11)
    for got in every_path(rows, answers):
        assert set(got) == set(want)
        for name, value in want.items():
            assert got[name] == pytest.approx(value, abs=1e-12), name


def _undefined(value) -> bool:
    return value is None or value != value  # null in JSON, NaN in lm-eval's float results


def test_state_checking_without_a_positive_prediction_or_row():
    """An empty denominator is undefined on every path (NaN, null in JSON), never 0.0: precision when
    nothing is predicted unsolvable, recall and per-class accuracy when a class has no row, F1 with them."""
    solvable, unsolvable = sudoku_rows("state_checking")
    rows, answers = solvable[:3], ["Answer: (A)"] * 3
    for got in every_path(rows, answers):
        assert (got["acc"], got["acc_solvable"]) == (1.0, 1.0)
        for name in ("precision_unsolvable", "recall_unsolvable", "f1_unsolvable", "acc_unsolvable"):
            assert _undefined(got[name]), (name, got[name])
    # every row unsolvable, every answer a parse error: recall 0 (defined), precision undefined (none predicted)
    rows, answers = unsolvable[:3], ["no idea"] * 3
    for got in every_path(rows, answers):
        assert (got["acc"], got["parse_error_rate"], got["recall_unsolvable"]) == (0.0, 1.0, 0.0)
        assert _undefined(got["precision_unsolvable"]) and _undefined(got["f1_unsolvable"])
        assert _undefined(got["acc_solvable"]) and got["acc_unsolvable"] == 0.0
    # precision and recall both 0 (defined): F1 is 0, not undefined
    rows, answers = unsolvable[:1] + solvable[:1], ["Answer: (A)", "Answer: (B)"]
    for got in every_path(rows, answers):
        assert (got["precision_unsolvable"], got["recall_unsolvable"], got["f1_unsolvable"]) == (0.0, 0.0, 0.0)


# ------------------------------------------------------------------ state transition
def grid(row: dict, key: str) -> tuple[int, ...]:
    return tuple(v for line in json.loads(row["inputs"])[key] for v in line)


def final(row: dict) -> tuple[int, ...]:
    return tuple(v for line in json.loads(row["outputs"])["final"] for v in line)


def text(cells: tuple[int, ...]) -> str:
    return "Let me think.\nNext state: " + json.dumps([list(cells[r * 9:r * 9 + 9]) for r in range(9)])


def fill(cells: tuple[int, ...], *moves: tuple[int, int]) -> tuple[int, ...]:
    out = list(cells)
    for i, d in moves:
        out[i] = d
    return tuple(out)


def forward_answers(row: dict) -> dict[str, str]:
    """Answers to a solvable row whose categories follow from the rules and the published solution.

    The puzzle has one solution (checked here by ``tests/brute.py``), so a fill that agrees with the
    published final grid keeps the state solvable and any other rule-valid fill is a dead end.
    """
    current, solution = grid(row, "current"), final(row)
    assert sudoku_completions(current, limit=2) == 1, "the argument needs a unique completion"
    empty = [i for i in range(81) if not current[i]]
    i, j = empty[0], empty[1]
    stored = grid(row, "unsolvable_child")
    dead = next(fill(current, (k, d)) for k in empty for d in sudoku_candidates(current, k)
                if d != solution[k] and fill(current, (k, d)) != stored)
    clash_cell = next(k for k in empty if set(range(1, 10)) - set(sudoku_candidates(current, k)))
    clash = min(set(range(1, 10)) - set(sudoku_candidates(current, clash_cell)))
    return {
        "correct": text(fill(current, (i, solution[i]))),
        "multiple_moves": text(fill(current, (i, solution[i]), (j, solution[j]))),
        "invalid_move": text(fill(current, (clash_cell, clash))),          # repeats a digit of a peer
        "stored_dead_end": text(stored),                                   # unsolvable_child in both modes
        "other_dead_end": text(dead),                                      # strict: unsolvable_child; paper: correct
        "parse_error": "I would fill a cell, but I will not say which.",
    }


def backtrack_answers(row: dict) -> dict[str, str]:
    """Answers to an unsolvable row: back to the parent, stay, or another child of the parent."""
    current, parent = grid(row, "current"), grid(row, "parent")
    changed = next(i for i in range(81) if current[i] != parent[i])
    other = next(d for d in sudoku_candidates(parent, changed) if d != current[changed])
    return {
        "correct": text(parent),
        "backtracking_failure": text(current),
        "sibling": text(fill(parent, (changed, other))),
    }


def test_state_transition_category_table():
    solvable, unsolvable = sudoku_rows("state_transition")
    fwd = [forward_answers(r) for r in solvable[:2]]
    back = [backtrack_answers(r) for r in unsolvable[:2]]
    plan = [  # (row, answer, strict category, correct in paper mode)
        (solvable[0], fwd[0]["correct"], "correct", True),
        (solvable[1], fwd[1]["correct"], "correct", True),
        (solvable[0], fwd[0]["multiple_moves"], "multiple_moves", False),
        (solvable[1], fwd[1]["invalid_move"], "invalid_move", False),
        (solvable[0], fwd[0]["stored_dead_end"], "unsolvable_child", False),
        (solvable[0], fwd[0]["other_dead_end"], "unsolvable_child", True),
        (solvable[1], fwd[1]["other_dead_end"], "unsolvable_child", True),
        (solvable[1], fwd[1]["parse_error"], "parse_error", False),
        (unsolvable[0], back[0]["correct"], "correct", True),
        (unsolvable[0], back[0]["backtracking_failure"], "backtracking_failure", False),
        (unsolvable[1], back[1]["sibling"], "sibling", False),
        (unsolvable[1], back[1]["backtracking_failure"], "backtracking_failure", False),
    ]
    rows, answers = [p[0] for p in plan], [p[1] for p in plan]
    for row, answer, category, _ in plan:
        assert score_row(row, answer).verdict.category == category, (row["id"], category)
    n = 12
    want = {
        "acc": 3 / n,                                    # 2 forward + 1 backtrack
        "acc_paper": 5 / n,                              # plus the two dead ends that are not the stored child
        "parse_error_rate": 1 / n,
        "acc_solvable": 2 / 8,
        "acc_unsolvable": 1 / 4,
        "rate_correct": 3 / n,
        "rate_multiple_moves": 1 / n,
        "rate_invalid_move": 1 / n,
        "rate_unsolvable_child": 3 / n,
        "rate_backtracking_failure": 2 / n,
        "rate_sibling": 1 / n,
        "rate_parse_error": 1 / n,
    }
    assert sum(v for k, v in want.items() if k.startswith("rate_")) == pytest.approx(1.0)
    for got in every_path(rows, answers):
        assert set(got) == set(want)
        for name, value in want.items():
            assert got[name] == pytest.approx(value, abs=1e-12), name


# ------------------------------------------------------------------ end to end
def test_end_to_end_table():
    records = read_jsonl(shared_path("finereason_official", "sudoku_questions.jsonl"))[:4]
    rows = [{"id": f"q{k}", "puzzle": "sudoku", "task": "end_to_end", "label": "",
             "inputs": json.dumps(r["inputs"]), "outputs": json.dumps(r["outputs"])} for k, r in enumerate(records)]

    def solution(row):
        return json.loads(row["outputs"])["final"]

    broken = [list(line) for line in solution(rows[2])]
    broken[0][0], broken[0][1] = broken[0][1], broken[0][0]   # two swapped cells: columns 1 and 2 repeat
    answers = [f"Answer: {json.dumps(solution(rows[0]))}", f"Answer: {json.dumps(solution(rows[1]))}",
               f"Answer: {json.dumps(broken)}", "I give up."]
    for got in every_path(rows, answers):
        assert got == pytest.approx({"acc": 2 / 4, "parse_error_rate": 1 / 4})
