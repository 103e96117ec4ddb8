"""The plan reader for model text and the PDDL reader, on small inline PDDL (no reference data needed)."""
from __future__ import annotations

import pytest

from finereason.planning import PDDLError, Task, check_plan, committed_plan, plan
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
    value = committed_plan(text, TASK.domain, TASK.problem.objects).value
    return [" ".join((s.name, *s.args)) for s in value or ()]


@pytest.mark.parametrize("text", [
    "(unstack b a)\n(stack b c)\n(pick-up a)\n(stack a b)",
    "(unstack b a) (stack b c) (pick-up a) (stack a b)",
    "(unstack blue red)\n(stack blue orange)\n(pick-up red)\n(stack red blue)",
    "Plan:\n1. Unstack the blue block from on top of the red block.\n2. Stack the blue block on top of the orange block.\n"
    "3. Pick up the red block.\n4. Stack the red block on top of the blue block.\nDone!",
    "- **Step 1:** unstack b from a\n- **Step 2:** stack b on c\n- **Step 3:** pickup a\n- **Step 4:** stack a on b",
    "[PLAN]\n(unstack b a)\n(stack b c)\n(pick-up a)\n(stack a b)\n[PLAN END]\n\n[STATEMENT]\n(put-down a)",
    "My plan is as follows:\n\n[PLAN]\nunstack b a\nthen stack b c\nnext pick up a\nfinally stack a b\n",
])
def test_plan_styles(text):
    assert steps(text) == GOOD
    assert check_plan(TASK, text).valid


def test_articles_and_prose_are_not_objects():
    assert steps("Pick up a red block") == ["pick-up a"]
    assert steps("pick up a block") == []      # naming no object, a line alone is no step
    assert steps("I think this works.\nThe red block is clear.") == []
    assert check_plan(TASK, "pick up a block").reasons == ("plan text: no final plan found",)
    assert check_plan(TASK, "1. (unstack b a)\n2. (stack b c)\n3. pick up a block.").reasons == (
        "step 3 (pick-up): pick-up takes 1 argument(s), got 0",)  # in a plan: a step short of its object (cut off when the text ends there)


def test_ambiguous_steps_get_no_credit():
    verdict = check_plan(TASK, "unstack the blue block from the red block or the orange block")
    assert not verdict.valid and "takes 2 argument(s), got 3" in verdict.reasons[0]


def test_unknown_action_and_object():
    assert check_plan(TASK, "(fly a)").reasons == ("plan text: no final plan found",)  # not an action of the domain
    assert check_plan(TASK, "(pick-up z)").reasons == ("step 1 (pick-up z): unknown object 'z'",)


def test_goal_reasons_and_empty_plan():
    assert check_plan(TASK, "").reasons == ("plan text: no final plan found",)
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


# ---------------------------------------------------------------- plans read under the commitment rule
from finereason.domains.blocksworld.puzzle import pddl_domain  # noqa: E402
from finereason.planning.plan_answers import plan_reading  # noqa: E402
from finereason.planning.plan_text import MAX_STEPS  # noqa: E402

BW = pddl_domain("blocksworld")


def committed(text: str, domain=BW) -> list[str] | None:
    """The committed plan as step strings, or ``None``."""
    reading = plan_reading(text, domain)
    return None if reading.value is None else [str(s) for s in reading.value]


PLAN = ["(unstack b a)", "(stack b c)", "(pick-up a)", "(stack a b)"]


@pytest.mark.parametrize("text", [
    "(unstack b a)\n(stack b c)\n(pick-up a)\n(stack a b)",
    "1. **Unstack blue from red**\n2. **Stack blue on orange**\n3. **Pick up red**\n4. **Stack red on blue**",
    "- unstack(blue, red)\n- stack(blue, orange)\n- pick_up(red)\n- stack(red, blue)",
    "unstack the blue block from the red block, then stack the blue block on the orange block, then pick up the "
    "red block, then stack the red block on top of the blue block.",
    "unstack the blue block from the red block; stack the blue block on the orange block; pick up the red block; "
    "stack the red block on the blue block",
    "First, unstack the blue block from the red block. Then stack the blue block on the orange block. Next, pick "
    "up the red block. Finally, stack the red block on the blue block.",
    "1. Unstack the blue block from the red block (now holding the blue block)\n"
    "2. Stack the blue block on the orange block - the orange block was clear\n"
    "3. Pick up the red block: it is clear and on the table\n4. Stack the red block on the blue block.",
    "Step 1: Unstack B from A.\nStep 2: Stack B on C.\nStep 3: Pick A up.\nStep 4: Stack A on B.",
    "**Answer:** (unstack b a) (stack b c) (pick-up a) (stack a b)",
    "### Final Answer\n1. unstack b from a\n2. stack b on c\n3. pick up a\n4. stack a on b",
    "1. Unstack blue from red → blue in hand\n2. Stack blue on orange ✓\n3. Pick up red -> red in hand\n"
    "4. Stack red on blue => done",
    "| Step | Action | Result |\n|---|---|---|\n| 1 | Unstack blue from red | blue in hand |\n"
    "| 2 | Stack blue on orange | |\n| 3 | Pick up red | |\n| 4 | Stack red on blue | goal |",
    "[PLAN]\nunstack the blue block from on top of the red block\nstack the blue block on top of the orange block\n"
    "pick up the red block\nstack the red block on top of the blue block\n[PLAN END]",
])
def test_plan_notations_are_one_plan(text):
    assert committed(text) == PLAN


def test_a_restated_plan_is_one_plan_never_two_joined():
    numbered = "1. **Unstack blue from red**\n2. **Stack blue on orange**\n3. **Pick up red**\n4. **Stack red on blue**"
    for heading, copy in (("**Plan:**", "- (unstack b a)\n- (stack b c)\n- (pick-up a)\n- (stack a b)"),
                          ("**Actions in the plan:**", "1. unstack(blue, red)\n2. stack(blue, orange)\n"
                                                       "3. pick_up(red)\n4. stack(red, blue)")):
        text = f"{numbered}\n\n{heading}\n{copy}\n"
        reading = plan_reading(text, BW)
        assert [str(s) for s in reading.value] == PLAN and reading.marked and reading.live == 1
    explained = numbered + "\n\n**Explanation:**\n\n" + "\n".join(
        f"{i}. **{s}**: why\n   - Pick up the {c} block from the table." for i, (s, c) in enumerate(
            [("Unstack blue from red", "blue"), ("Stack blue on orange", "blue"), ("Pick up red", "red"),
             ("Stack red on blue", "red")], start=1))
    assert committed(explained) == PLAN
    abbreviated = numbered + "\n\nTherefore, the final plan is: Unstack blue, Stack blue, Pick up red, Stack red."
    assert committed(abbreviated) == PLAN


def test_remarks_and_the_table_are_not_arguments():
    assert committed("Put down yellow on the table") == ["(put-down d)"]
    assert committed("Unstack the blue block from the red block (now holding the blue block)") == ["(unstack b a)"]
    assert committed("Put C down on the table next to the blue block.") == ["(put-down c)"]


def test_later_text_withdraws_or_replaces_the_plan():
    first = "Answer:\n(unstack b a)\n(stack b c)\n"
    assert committed(first + "\nWait, that's wrong.") is None
    assert committed(first + "\nI could not find a valid plan.") is None
    assert committed(first + "\nThis plan does not work.") is None
    assert committed(first + "\nActually, the plan is:\n(unstack b a)\n(put-down b)") == ["(unstack b a)", "(put-down b)"]
    assert committed(first + "\nThis plan reaches the goal because b ends on c.") == ["(unstack b a)", "(stack b c)"]


def test_a_cut_off_correction_is_no_answer_and_never_falls_back():
    first = "Answer:\n(unstack b a)\n(stack b c)\n\nCorrected plan:\n(unstack b a)\n"
    for cut in ("(put-", "2. Stack the blue block on top of the", "(stack b", "Pick"):
        assert committed(first + cut) is None, cut


def test_it_names_the_block_in_hand_and_guesses_never_commit():
    assert committed("Unstack the blue block from the red block, then stack it on the orange block.\n"
                     "Pick up the red block and stack it on top of the blue block.") == PLAN
    assert committed("1. Unstack the blue block from the red block\n2. Put it down") == ["(unstack b a)", "(put-down b)"]
    assert committed("unstack the red block (with the orange block on top of it) from the table\n[PLAN END]") == ["(unstack a)"]
    assert committed("Plan: unstack blue from red, stack on orange, pick up red, stack onto blue.") == PLAN
    for intro in ("My best guess:", "This might work:", "Maybe this:"):
        assert committed(f"{intro}\n1. (unstack b a)\n2. (put-down b)") is None
        assert plan_reading(f"{intro}\n1. (unstack b a)", BW).reason == "the plan is offered as a guess"
    assert committed("Here is a plan that works:\n1. (unstack b a)\n2. (put-down b)") == ["(unstack b a)", "(put-down b)"]


def test_a_correction_inside_a_line_and_list_literals():
    first = "Answer:\n(unstack b a)\n(stack b c)\n"
    assert committed(first + "wait, that's wrong, corrected: (unstack b a) (put-down b)") == ["(unstack b a)", "(put-down b)"]
    assert committed('Answer: ["(unstack b a)", "(put-down b)"]') == ["(unstack b a)", "(put-down b)"]
    assert committed(first + "\n" + "Neutral explanation that goes on and on. " * 600) == ["(unstack b a)", "(stack b c)"]


def test_two_plans_offered_never_commit():
    text = "Answer:\n(unstack b a)\n(stack b c)\n\nAlternatively:\n(unstack b a)\n(put-down b)"
    assert committed(text) is None
    assert plan_reading(text, BW).reason == "the final answer offers more than one plan"


def test_text_on_the_last_step_line_follows_the_plan():
    """A remark after the last step is read after the plan: a retraction there withdraws it, a
    rejection ("<plan> is wrong.") rules it out; a plain remark leaves it standing."""
    first = "Answer:\n(unstack b a)\n(stack b c)"
    assert committed(first + " Wait, that's wrong.") is None
    assert committed(first + " - this reaches the goal") == ["(unstack b a)", "(stack b c)"]
    assert committed(first + "\n\n(unstack b a)\n(stack b c) is wrong.") is None
    assert plan_reading(first + "\n---\n(unstack b a)\n(stack b c) is wrong.", BW).reason == \
        "the plan is ruled out after it is given"
    assert committed("Answer:\n1. Unstack the blue block from the red block\n2. Stack the blue block on the orange "
                     "block is wrong.") is None


def test_a_bare_correction_replaces_the_plan():
    """ "Wait, actually it's <plan>" starts a new plan (bare, without a marker): it is read alone, never
    joined to the plan it replaces."""
    first = "Answer:\n(unstack b a)\n(stack b c)\n\n"
    for lead in ("Wait, actually it's ", "Wait, actually the plan is ", "No wait, the plan should be "):
        assert committed(first + lead + "(unstack b a)\n(put-down b).") == ["(unstack b a)", "(put-down b)"], lead
    assert committed(first + "The key step is (unstack b a), which frees a.") == ["(unstack b a)", "(stack b c)"]


def test_plans_offered_with_or_or_a_condition_never_commit():
    one, two = "(unstack b a)\n(stack b c)", "(unstack b a)\n(put-down b)"
    for text in (f"Answer:\n{one} or {two}", f"Answer:\n{one}, or possibly {two}", f"Answer:\n{one}\nor\n{two}",
                 f"If the constraint holds, then\nAnswer:\n{one}\nOtherwise,\nAnswer:\n{two}",
                 f"If the first check passes: Answer:\n{one}\nIf it fails: Answer:\n{two}"):
        assert committed(text) is None, text
    assert committed(f"Let's look at the plan provided:\n\n{two}") == ["(unstack b a)", "(put-down b)"]


def test_planbench_continuation_ends_at_a_new_statement():
    text = ("unstack the blue block from on top of the red block\nstack the blue block on top of the orange block\n"
            "pick up the red block\nstack the red block on top of the blue block\n[PLAN END]\n\n[STATEMENT]\n"
            "As initial conditions I have that ...\n\nMy plan is as follows:\n\n[PLAN]\npick up the red block\n[PLAN END]")
    assert committed(text) == PLAN


def test_mystery_vocabulary():
    text = "feast object b from object a\novercome object b from object c\nattack object a\novercome object a from object b"
    assert committed(text, pddl_domain("mystery")) == ["(feast b a)", "(overcome b c)", "(attack a)", "(overcome a b)"]


def test_prose_is_not_a_plan():
    assert committed("Stack the blocks as follows:\nI think this is hard.") is None
    assert committed("Pick up is not possible here.") is None
    assert committed("We need to unstack the blue block from the red block first.") is None


def test_reading_is_bounded():
    big = "(unstack b a)\n" * (MAX_STEPS + 5)
    assert committed(big) is None and "more than" in plan_reading(big, BW).reason
    for text in ("then " * 20_000 + "stack a on b", "x\n" * 30_000 + "(unstack b a)", "(" * 50_000,
                 "unstack red, " * 8_000):
        plan_reading(text, BW)  # no error, no blow-up (timing goals live in benchmarks/)
    assert committed("then " * 20_000 + "stack the red block on the blue block") == ["(stack a b)"]


def test_the_engine_reads_the_committed_plan_everywhere():
    from finereason.domains.blocksworld.puzzle import BlocksPuzzle, Plan
    from finereason.core.engine import get_engine
    from finereason.verification.verifiers import format_ok, verify_end_to_end

    engine = get_engine("blocksworld")
    init = frozenset({("handempty",), ("on", "b", "a"), ("ontable", "a"), ("ontable", "c"), ("clear", "b"), ("clear", "c")})
    puzzle = BlocksPuzzle("blocksworld", ("a", "b", "c"), init, (("on", "a", "b"), ("on", "b", "c")), 8)
    numbered = "Here is the plan:\n1. Unstack blue from red\n2. Stack blue on orange\n3. Pick up red\n4. Stack red on blue"
    restated = numbered + "\n\n**Plan:**\n(unstack b a)\n(stack b c)\n(pick-up a)\n(stack a b)"
    for text in (numbered, restated):
        assert verify_end_to_end(engine, puzzle, text).correct
        assert [str(s) for s in engine.read_answer(text, "end_to_end").value] == PLAN
        assert engine.parse_solution_text(puzzle, text) == Plan(engine.read_answer(text, "end_to_end").value)
        assert len(engine.read_steps(puzzle, text)) == 4
        assert format_ok("end_to_end", text, domain="blocksworld")
    withdrawn = restated + "\n\nHmm, I am not sure this works."
    assert not verify_end_to_end(engine, puzzle, withdrawn).correct and engine.read_steps(puzzle, withdrawn) == []
    spam = "Answer: (unstack b a)\n\nAnswer: (pick-up c)\n\nAnswer: (unstack b a)\n\nAnswer: (pick-up c)"
    assert engine.read_answer(spam, "end_to_end").live == 2 and not format_ok("end_to_end", spam, domain="blocksworld")
    thinking = "<think>1. (unstack b a)\n2. (stack b c)\n3. (pick-up a)\n4. (stack a b)</think>\nI could not finish."
    assert not verify_end_to_end(engine, puzzle, thinking).correct


# ---------------------------------------------------------------- properties (Hypothesis)
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_COLOUR = {"a": "red", "b": "blue", "c": "orange", "d": "yellow"}
_ARITY = {"unstack": 2, "stack": 2, "pick-up": 1, "put-down": 1}


@st.composite
def plans(draw):
    steps = []
    for _ in range(draw(st.integers(1, 8))):
        name = draw(st.sampled_from(sorted(_ARITY)))
        args = tuple(draw(st.lists(st.sampled_from("abcd"), min_size=_ARITY[name], max_size=_ARITY[name], unique=True)))
        steps.append((name, args))
    return steps


def render(steps, style: int, bold: bool = False) -> str:
    lines = []
    for name, args in steps:
        if style == 0:
            text = "(" + " ".join((name, *args)) + ")"
        elif style == 1:
            text = name.replace("-", "_") + "(" + ", ".join(_COLOUR[a] for a in args) + ")"
        else:
            block = [f"the {_COLOUR[a]} block" for a in args]
            text = {"pick-up": f"Pick up {block[0]}", "put-down": f"Put down {block[0]}",
                    "stack": f"Stack {block[0]} on top of {block[-1]}",
                    "unstack": f"Unstack {block[0]} from on top of {block[-1]}"}[name]
        lines.append(f"**{text}**" if bold else text)
    if style == 2:
        return "\n".join(f"{i}. {line}" for i, line in enumerate(lines, start=1))
    return "\n".join(("- " if style == 1 else "") + line for line in lines)


def as_strings(steps) -> list[str]:
    return ["(" + " ".join((n, *a)) + ")" for n, a in steps]


@settings(max_examples=150, deadline=None)
@given(plans(), st.integers(0, 2), st.integers(0, 2), st.booleans(), st.sampled_from(["", "Plan:\n", "Answer:\n"]))
def test_property_restating_in_another_notation_keeps_one_plan(steps, first, second, bold, marker):
    text = marker + render(steps, first, bold)
    assert committed(text) == as_strings(steps)
    restated = text + "\n\n**Actions in the plan:**\n" + render(steps, second)
    reading = plan_reading(restated, BW)
    assert [str(s) for s in reading.value] == as_strings(steps) and reading.live == 1


@settings(max_examples=150, deadline=None)
@given(plans(), st.integers(0, 2), st.sampled_from([
    "\n\nThis sequence achieves the goal.", " [PLAN END]", "\n[ANSWER END]", "\n\n---\n", "\n</answer>"]))
def test_property_neutral_text_and_end_tags_change_nothing(steps, style, tail):
    text = "Answer:\n" + render(steps, style)
    assert committed(text + tail) == committed(text) == as_strings(steps)


@settings(max_examples=150, deadline=None)
@given(plans(), st.integers(0, 2), st.sampled_from([
    "\n\nWait, that's wrong.", "\n\nHmm, I'm not sure this works.", "\n\nI could not find a valid plan.",
    "\n\nActually, no.", "\n\nScratch that, let me redo this."]))
def test_property_a_retraction_never_adds_credit(steps, style, retraction):
    assert committed("Answer:\n" + render(steps, style) + retraction) is None


@settings(max_examples=150, deadline=None)
@given(plans(), plans(), st.integers(0, 2), st.integers(0, 2), st.data())
def test_property_a_correction_wins_and_its_cut_never_falls_back(first, second, s1, s2, data):
    body = render(second, s2)
    text = "Answer:\n" + render(first, s1) + "\n\nCorrection, the plan is:\n" + body
    assert committed(text) == as_strings(second)
    cut = data.draw(st.integers(len(text) - len(body), len(text) - 1))
    reading = committed(text[:cut])
    assert reading != as_strings(first) or first == second[:len(first)]


@settings(max_examples=100, deadline=None)
@given(plans(), plans(), st.integers(0, 2))
def test_property_two_plans_offered_never_commit(first, second, style):
    text = "Answer:\n" + render(first, style) + "\n\nAlternatively:\n" + render(second, style)
    assert committed(text) is None or first == second


# ---------------------------------------------------------------- plan-check reads with the end-to-end reader
def test_plan_check_reads_the_committed_plan(tmp_path, capsys):
    """A detailed numbered plan then the same actions as bullets is one plan (not two joined); the
    reader's reason is the reason when nothing commits; PlanBench's one-shot form ends at a new statement."""
    import json

    from finereason.commands import main

    detailed = "\n\n".join(f"{i}. **{s}**\n   - Preconditions: the hand is empty\n   - Effects: the block moves"
                           for i, s in enumerate(["Unstack the blue block from the red block", "Stack the blue block on "
                                                  "the orange block", "Pick up the red block", "Stack the red block on "
                                                  "the blue block"], start=1))
    restated = detailed + "\n\n**Actions in the plan:**\n- unstack blue from red\n- stack blue on orange\n" \
                          "- pick up red\n- stack red on blue\n"
    assert check_plan(TASK, restated).valid and steps(restated) == GOOD
    one_shot = "\n".join(GOOD[i] for i in range(4)).replace("pick-up", "pick up") + \
        "\n[PLAN END]\n\n[STATEMENT]\nAs initial conditions I have that ...\n[PLAN]\n(pick-up c)\n[PLAN END]"
    assert check_plan(TASK, one_shot).valid
    withdrawn = "Answer:\n" + "\n".join(f"({s})" for s in GOOD) + "\n\nWait, that's wrong."
    assert check_plan(TASK, withdrawn).reasons == ("plan text: the plan is withdrawn after it is given ('wait')",)
    assert check_plan(TASK, "<think>(unstack b a)").reasons[0].startswith("plan text: reasoning is unfinished")
    domain, problem = tmp_path / "d.pddl", tmp_path / "p.pddl"
    domain.write_text(DOMAIN)
    problem.write_text(PROBLEM)
    plans = tmp_path / "plans.jsonl"
    plans.write_text("".join(json.dumps({"domain": str(domain), "problem": str(problem), "plan": p}) + "\n"
                             for p in (restated, withdrawn)))
    assert main(["plan-check", "--input", str(plans)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines == [{"valid": True, "reasons": []},
                     {"valid": False, "reasons": ["plan text: the plan is withdrawn after it is given ('wait')"]}]


def test_explanation_bullets_about_steps_are_not_a_plan():
    """Bullets that talk about a step after the plan ("**X** provides ...", "After X, you regain ...") are
    explanation; a plan's own bullets with a remark ("..., we now hold blue") stay steps."""
    plan = "1. Unstack b from a\n2. Put down b\n3. Pick up a\n4. Stack a on c"
    explained = plan + "\n\n**Explanation:**\n- After **Put down b**, you regain an empty hand.\n" \
                       "- **Unstack b from a** provides a clear a.\n- **Stack a on c** enables the goal."
    assert committed(explained) == committed(plan) == ["(unstack b a)", "(put-down b)", "(pick-up a)", "(stack a c)"]
    remarks = "- Unstack the blue block from the red block, we now hold blue\n- Put down the blue block, we now have an empty hand"
    assert committed(remarks) == ["(unstack b a)", "(put-down b)"]


def test_the_goal_declared_out_of_reach_withdraws_the_plan():
    plan = "**Plan:**\n1. (unstack b a)\n2. (put-down b)\n\n"
    for tail in ("However, it is **not possible** to achieve the goal with these actions.",
                 "We cannot proceed further to achieve the full goal.", "Therefore, no plan can achieve the goal.",
                 "A complete plan for all three goals isn't feasible."):
        assert committed(plan + tail) is None, tail
    assert committed("It is not possible to unstack a first.\n\n" + plan) == ["(unstack b a)", "(put-down b)"]
    assert committed(plan + "This is possible because b is clear.") == ["(unstack b a)", "(put-down b)"]
