"""Back-prompt feedback from plan verdicts: the four levels, and never a valid plan inside."""
from __future__ import annotations

import csv
import random
import re

import pytest

from conftest import shared_path
from finereason.planning import Task, check_plan, read_domain, read_problem
from finereason.planning.feedback import FEEDBACK_LEVELS, INVALID, VALID, plan_feedback
from finereason.planning.pddl import parse_problem

HOLD_A = """(define (problem hold-a) (:domain blocksworld-4ops) (:objects a b)
(:init (handempty) (ontable a) (ontable b) (clear a) (clear b)) (:goal (and (holding a))))"""


def bw_domain():
    return read_domain(shared_path("blocksworld", "generated_domain.pddl"))


def reads_as_valid(task: Task, text: str) -> bool:
    return check_plan(task, text).valid


def test_levels():
    task = Task(bw_domain(), read_problem(shared_path("blocksworld", "generated_basic", "instance-2.pddl")))
    bad = check_plan(task, "(unstack b a)")
    assert plan_feedback(task, bad, "none") == ""
    assert plan_feedback(task, bad, "binary") == INVALID
    assert plan_feedback(task, bad, "first_error") == INVALID + "\nstep 1 (unstack b a): b is not clear"
    assert plan_feedback(task, bad, "all_errors").splitlines()[1:] == list(bad.reasons)
    good = check_plan(task, "(unstack d c)\n(put-down d)\n(pick-up c)\n(stack c a)")
    assert good.valid and plan_feedback(task, good, "all_errors") == VALID
    with pytest.raises(ValueError, match="unknown feedback level"):
        plan_feedback(task, bad, "self")


def test_a_quoted_step_that_would_be_a_valid_plan_is_not_quoted():
    task = Task(bw_domain(), parse_problem(HOLD_A))
    verdict = check_plan(task, "(pick-up a)\n(pick-up a)")
    assert verdict.failed_step == 2 and reads_as_valid(task, verdict.reasons[0])  # the raw reason would leak
    text = plan_feedback(task, verdict, "first_error")
    assert text == INVALID + "\nstep 2: a is not clear"
    assert not reads_as_valid(task, text)


def test_feedback_never_contains_a_valid_plan():
    rng = random.Random(7)
    with open(shared_path("blocksworld", "ground_truth_plans_task1.csv"), newline="") as handle:
        table = [r for r in csv.DictReader(handle) if not r["domain"].startswith("mystery")][::5]
    domain = bw_domain()
    checked = 0
    for row in table:
        task = Task(domain, read_problem(shared_path(row["instance_file"])))
        steps = re.findall(r"\([^()]*\)", row["ground_truth_plan_pddl_objects"])
        for _ in range(3):
            mutated = list(steps)
            k = rng.randrange(len(mutated))
            if rng.random() < 0.5:
                del mutated[k]
            else:
                mutated.insert(k, mutated[rng.randrange(len(mutated))])
            verdict = check_plan(task, "\n".join(mutated))
            for level in FEEDBACK_LEVELS:
                text = plan_feedback(task, verdict, level)
                assert not reads_as_valid(task, text), (row["instance_file"], level, text)
                checked += 1
    assert checked >= 1000
