"""The plan reader for model text and the PDDL reader, on small inline PDDL (no reference data needed)."""
from __future__ import annotations

import pytest

from finereason.planning import PDDLError, Task, check_plan, plan, read_plan
from finereason.planning.pddl import parse_domain, parse_problem

DOMAIN = """(define (domain blocksworld-4ops) (:requirements :strips)
(:predicates (clear ?x) (ontable ?x) (handempty) (holding ?x) (on ?x ?y))
(:action pick-up :parameters (?ob) :precondition (and (clear ?ob) (ontable ?ob) (handempty))
  :effect (and (holding ?ob) (not (clear ?ob)) (not (ontable ?ob)) (not (handempty))))
(:action put-down :parameters (?ob) :precondition (holding ?ob)
  :effect (and (clear ?ob) (handempty) (ontable ?ob) (not (holding ?ob))))
(:action stack :parameters (?ob ?underob) :precondition (and (clear ?underob) (holding ?ob))
  :effect (and (handempty) (clear ?ob) (on ?ob ?underob) (not (clear ?underob)) (not (holding ?ob))))
(:action unstack :parameters (?ob ?underob) :precondition (and (on ?ob ?underob) (clear ?ob) (handempty))
  :effect (and (holding ?ob) (clear ?underob) (not (on ?ob ?underob)) (not (clear ?ob)) (not (handempty)))))"""
# b on a, c and a on the table; goal: a on b on c
PROBLEM = """(define (problem p) (:domain blocksworld-4ops) (:objects a b c)
(:init (handempty) (on b a) (ontable a) (ontable c) (clear b) (clear c))
(:goal (and (on a b) (on b c))))"""

TASK = Task(parse_domain(DOMAIN), parse_problem(PROBLEM))
GOOD = ["unstack b a", "stack b c", "pick-up a", "stack a b"]


def steps(text: str) -> list[str]:
    return [" ".join((s.name, *s.args)) for s in read_plan(text, TASK.domain, TASK.problem)]


@pytest.mark.parametrize("text", [
    "(unstack b a)\n(stack b c)\n(pick-up a)\n(stack a b)",
    "(unstack b a) (stack b c) (pick-up a) (stack a b)",
    "(unstack blue red)\n(stack blue orange)\n(pick-up red)\n(stack red blue)",
    "Plan:\n1. Unstack the blue block from on top of the red block.\n2. Stack the blue block on top of the orange block.\n"
    "3. Pick up the red block.\n4. Stack the red block on top of the blue block.\nDone!",
    "- **Step 1:** unstack b from a\n- **Step 2:** stack b on c\n- **Step 3:** pickup a\n- **Step 4:** stack a on b",
    "[PLAN]\n(unstack b a)\n(stack b c)\n(pick-up a)\n(stack a b)\n[PLAN END]\n(put-down a)",
    "My plan is as follows:\n\n[PLAN]\nunstack b a\nthen stack b c\nnext pick up a\nfinally stack a b\n",
])
def test_plan_styles(text):
    assert steps(text) == GOOD
    assert check_plan(TASK, text).valid


def test_articles_and_prose_are_not_objects():
    assert steps("Pick up a red block") == ["pick-up a"]
    assert steps("pick up a block") == ["pick-up"]      # no object named: the step is invalid
    assert steps("I think this works.\nThe red block is clear.") == []
    verdict = check_plan(TASK, "pick up a block")
    assert verdict.reasons == ("step 1 (pick-up): pick-up takes 1 argument(s), got 0",)


def test_ambiguous_steps_get_no_credit():
    verdict = check_plan(TASK, "unstack the blue block from the red block or the orange block")
    assert not verdict.valid and "takes 2 argument(s), got 3" in verdict.reasons[0]


def test_unknown_action_and_object():
    assert check_plan(TASK, "(fly a)").reasons == ("step 1 (fly a): unknown action 'fly'",)
    assert check_plan(TASK, "(pick-up z)").reasons == ("step 1 (pick-up z): unknown object 'z'",)


def test_goal_reasons_and_empty_plan():
    assert check_plan(TASK, "").reasons == ("no actions found in the plan text", "goal not reached: a is not on b",
                                            "goal not reached: b is not on c")
    assert check_plan(TASK, "(unstack b a)\n(stack b c)").reasons == ("goal not reached: a is not on b",)


def test_planner_is_optimal_and_proves_unsolvable():
    assert plan(TASK).length == 4
    impossible = Task(TASK.domain, parse_problem(PROBLEM.replace("(on b c)", "(on b c) (on c a) (on c b)")))
    result = plan(impossible)
    assert result.status == "unsolvable" and result.plan is None
    assert plan(TASK, max_nodes=2).status == "undecided"


@pytest.mark.parametrize("text, message", [
    ("(define (domain d) (:action a :parameters (?x) :precondition (not (p ?x)) :effect (p ?x)))", "negation"),
    ("(define (domain d) (:action a :parameters (?x) :effect (p ?y)))", "?y is not a parameter"),
    ("(define (domain d) (:functions (f)))", "unsupported section :functions"),
    ("(define (domain d)", "unbalanced"),
    ("(define (problem p))", "no (define (domain"),
    ("(" * 100, "nested too deeply"),
])
def test_pddl_errors(text, message):
    with pytest.raises(PDDLError, match=message.replace("(", r"\(").replace("?", r"\?")):
        parse_domain(text)


def test_long_steps_are_reported_short_and_exactly():
    for text in ("(stack " + "a " * 5_000 + ")", "stack " + "red " * 5_000, "then " * 30_000 + "stack a on b"):
        verdict = check_plan(TASK, text)
        assert not verdict.valid and all(len(r) < 300 for r in verdict.reasons)
    assert "got 5000" in check_plan(TASK, "stack " + "red " * 5_000).reasons[0]
    assert check_plan(TASK, "then " * 30_000 + "stack a on b").reasons[0] == "step 1 (stack a b): the hand is not holding a"
