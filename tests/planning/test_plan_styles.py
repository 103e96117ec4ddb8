"""A plan written twice, in any two of twelve styles joined by a summary heading, is read as one plan.

Models often give a detailed plan (numbered steps with sub-bullets of preconditions and effects, state
notes, a table) and then the same actions again under a heading (``**Actions in the plan:**``,
``Summary:``, ``Final plan:``). The property: whatever the two styles and the heading, the end-to-end
reader reads that one action sequence, never the two joined, and ``plan-check`` validates exactly it.
Both vocabularies: Blocksworld (PlanBench's colour names in sentences) and Mystery Blocksworld.
"""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from finereason.domains.blocksworld.puzzle import pddl_domain
from finereason.planning import PlanAction, Task, check_plan, committed_plan, validate
from finereason.planning.pddl import parse_problem

COLOUR = {"a": "red", "b": "blue", "c": "orange", "d": "yellow", "e": "white"}
ARITY = {"unstack": 2, "stack": 2, "pick-up": 1, "put-down": 1}
MYSTERY = {"pick-up": "attack", "put-down": "succumb", "stack": "overcome", "unstack": "feast"}
OBJECTS = tuple(COLOUR)
HEADINGS = ["**Actions in the plan:**", "Summary:", "Final plan:", "**Plan Summary:**", "### Final Answer",
            "In summary, the plan is:", "**Summary of Actions:**", "So the actions in your plan are:",
            "Therefore, the plan is:", "**Final Plan:**"]


@st.composite
def plans(draw) -> list[tuple[str, ...]]:
    """Two to six Blocksworld actions over a..e (any; validity is the validator's business)."""
    steps = []
    for _ in range(draw(st.integers(2, 6))):
        name = draw(st.sampled_from(sorted(ARITY)))
        args = draw(st.lists(st.sampled_from(OBJECTS), min_size=ARITY[name], max_size=ARITY[name], unique=True))
        steps.append((name, *args))
    return steps


def words(step: tuple[str, ...], mystery: bool, colours: bool) -> str:
    """A step as a sentence: PlanBench's ("unstack the blue block from on top of the red block") or
    Mystery's ("feast object b from object a"), or short ("Unstack b from a")."""
    name, *args = step
    if mystery:
        objs = [f"object {a}" for a in args]
        return f"{MYSTERY[name].capitalize()} {objs[0]}" + (f" from {objs[1]}" if len(objs) > 1 else "")
    objs = [f"the {COLOUR[a]} block" for a in args] if colours else list(args)
    return {"pick-up": f"Pick up {objs[0]}", "put-down": f"Put down {objs[0]}",
            "stack": f"Stack {objs[0]} on top of {objs[-1]}",
            "unstack": f"Unstack {objs[0]} from on top of {objs[-1]}"}[name]


def render(steps: list[tuple[str, ...]], style: str, mystery: bool) -> str:
    """``steps`` written in ``style``."""
    sentence = [words(s, mystery, colours=True) for s in steps]
    short = [words(s, mystery, colours=False) for s in steps]
    names = [MYSTERY[s[0]] if mystery else s[0] for s in steps]
    if style == "planbench":
        return "\n".join(w.lower() for w in sentence)
    if style == "numbered":
        return "\n".join(f"{i}. {w}" for i, w in enumerate(short, start=1))
    if style == "bulleted":
        return "\n".join(f"- {w}" for w in sentence)
    if style == "bold":
        return "\n".join(f"{i}. **{w}**" for i, w in enumerate(short, start=1))
    if style == "sub-bullets":
        return "\n\n".join(f"{i}. **{w}**\n   - Preconditions:\n     - the hand is empty (given)\n"
                           f"   - Effects:\n     - Adds: the new facts\n     - Deletes: the old facts"
                           for i, w in enumerate(sentence, start=1))
    if style == "bulleted sub-bullets":
        return "\n\n".join(f"- **{w}**\n  - Preconditions: the hand is empty (from the previous action)\n"
                           f"  - Effects: the new facts become true" for w in short)
    if style == "state notes":
        return "\n".join(f"{i}. {w} (state: the hand now changes)" for i, w in enumerate(sentence, start=1))
    if style == "function":
        return "\n".join(f"{n.replace('-', '_')}({', '.join(s[1:])})" for n, s in zip(names, steps))
    if style == "pddl":
        return "\n".join(f"({' '.join((n, *s[1:]))})" for n, s in zip(names, steps))
    if style == "table":
        rows = "\n".join(f"| {i} | {w} | done |" for i, w in enumerate(short, start=1))
        return f"| Step | Action | Result |\n|---|---|---|\n{rows}"
    if style == "then":
        return ", then ".join(w if i == 0 else w[0].lower() + w[1:] for i, w in enumerate(sentence)) + "."
    if style == "step labels":
        return "\n".join(f"Step {i}: {w}." for i, w in enumerate(short, start=1))
    raise ValueError(style)


STYLES = ["planbench", "numbered", "bulleted", "bold", "sub-bullets", "bulleted sub-bullets", "state notes", "function",
          "pddl", "table", "then", "step labels"]


def task_for(mystery: bool) -> Task:
    """A small problem over a..e in the vocabulary (any plan above is checked against it)."""
    on, ontable, clear, empty = ("craves", "planet", "province", "harmony") if mystery else ("on", "ontable", "clear", "handempty")
    problem = (f"(define (problem p) (:domain {'mystery-4ops' if mystery else 'blocksworld-4ops'}) (:objects a b c d e)"
               f" (:init ({empty}) ({on} b a) ({ontable} a) ({ontable} c) ({ontable} d) ({ontable} e) ({clear} b)"
               f" ({clear} c) ({clear} d) ({clear} e)) (:goal (and ({on} a b))))")
    return Task(pddl_domain("mystery" if mystery else "blocksworld"), parse_problem(problem))


def expected(steps: list[tuple[str, ...]], mystery: bool) -> list[PlanAction]:
    return [PlanAction(MYSTERY[s[0]] if mystery else s[0], tuple(s[1:]), "") for s in steps]


def key(plan) -> list[tuple]:
    return [(s.name, tuple(s.args)) for s in plan]


@settings(max_examples=400, deadline=None)
@given(plans(), st.sampled_from(STYLES), st.sampled_from(STYLES), st.sampled_from(HEADINGS), st.booleans())
def test_a_plan_in_two_styles_under_a_summary_heading_is_one_plan(steps, first, second, heading, mystery):
    text = f"To reach the goal, do this:\n\n{render(steps, first, mystery)}\n\n{heading}\n{render(steps, second, mystery)}\n"
    task = task_for(mystery)
    want = expected(steps, mystery)
    reading = committed_plan(text, task.domain, task.problem.objects)
    assert reading.value is not None, (reading.reason, text)
    assert key(reading.value) == key(want), text
    verdict = check_plan(task, text)  # plan-check's reader and validator
    reference = validate(task, want)
    assert (verdict.valid, verdict.reasons, verdict.failed_step) == (reference.valid, reference.reasons,
                                                                     reference.failed_step), text


@settings(max_examples=150, deadline=None)
@given(plans(), st.sampled_from(STYLES), st.booleans())
def test_every_style_alone_is_the_plan(steps, style, mystery):
    task = task_for(mystery)
    reading = committed_plan(render(steps, style, mystery), task.domain, task.problem.objects)
    assert reading.value is not None and key(reading.value) == key(expected(steps, mystery)), render(steps, style, mystery)


def test_the_styles_differ():
    """The twelve renderings of one plan are twelve different texts (the property covers twelve styles)."""
    steps = [("unstack", "b", "a"), ("put-down", "b"), ("pick-up", "a"), ("stack", "a", "c")]
    for mystery in (False, True):
        assert len({render(steps, style, mystery) for style in STYLES}) == len(STYLES) >= 10
