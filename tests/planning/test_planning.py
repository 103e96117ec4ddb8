"""Blocksworld / Mystery Blocksworld: plan-check against PlanBench's files and an independent simulator.

The simulator below is written from the 4-op Blocksworld rules directly (block positions, not
STRIPS atoms) and shares no code with ``finereason.planning``.
"""
from __future__ import annotations

import csv
import json
import random
import re
from pathlib import Path

import pytest

from conftest import shared_path
from finereason.commands import main
from finereason.planning.check_file import check_plans, read_plan_requests
from finereason.reading import UNFINISHED, ReadContext

COLOURS = "red blue orange yellow white magenta black cyan green violet silver gold".split()
MYSTERY = {"attack": "pick-up", "succumb": "put-down", "overcome": "stack", "feast": "unstack"}
BW_DOMAIN = "blocksworld/generated_domain.pddl"
MY_DOMAIN = "blocksworld/mystery/generated_domain.pddl"


# ---------------------------------------------------------------- the independent simulator
RENAME = {"craves": "on", "planet": "ontable", "province": "clear", "harmony": "handempty", "pain": "holding"}


def _atoms(text: str) -> list[tuple[str, ...]]:
    return [tuple(m.split()) for m in re.findall(r"\(([a-z][a-z0-9\- ]*)\)", text.lower())]


def positions(atoms) -> dict[str, str]:
    """{block: what it stands on | 'table' | 'hand'} from facts in either vocabulary."""
    pos: dict[str, str] = {}
    for name, *args in atoms:
        name = RENAME.get(name, name)
        if name == "on":
            pos[args[0]] = args[1]
        elif name == "ontable":
            pos[args[0]] = "table"
        elif name == "holding":
            pos[args[0]] = "hand"
    return pos


def load_problem(path: Path) -> tuple[dict[str, str], list[tuple[str, ...]]]:
    """Block positions ({block: below | 'table'}) and goal atoms, in 4-op Blocksworld words."""
    text = path.read_text()
    init_text, goal_text = text.lower().split("(:goal", 1)
    goal = [(RENAME.get(a[0], a[0]), *a[1:]) for a in _atoms(goal_text) if a[0] != "and"]
    return positions(_atoms(init_text.split("(:init", 1)[1])), goal


def simulate(pos: dict[str, str], goal: list[tuple[str, ...]], plan: list[tuple[str, ...]]) -> tuple[bool, int | None]:
    """(valid, 1-based number of the first inexecutable step or None)."""
    pos = dict(pos)

    def clear(x: str) -> bool:
        return pos.get(x) not in (None, "hand") and all(below != x for below in pos.values())

    for number, (op, *args) in enumerate(plan, start=1):
        op = MYSTERY.get(op, op)
        hand_empty = "hand" not in pos.values()
        x = args[0]
        if op == "pick-up" and clear(x) and pos[x] == "table" and hand_empty:
            pos[x] = "hand"
        elif op == "put-down" and pos.get(x) == "hand":
            pos[x] = "table"
        elif op == "stack" and pos.get(x) == "hand" and clear(args[1]):
            pos[x] = args[1]
        elif op == "unstack" and pos.get(x) == args[1] and clear(x) and hand_empty:
            pos[x] = "hand"
        else:
            return False, number
    held = "hand" in pos.values()
    for name, *args in goal:
        ok = {"on": lambda: pos.get(args[0]) == args[1], "ontable": lambda: pos.get(args[0]) == "table",
              "clear": lambda: clear(args[0]), "handempty": lambda: not held,
              "holding": lambda: pos.get(args[0]) == "hand"}[name]()
        if not ok:
            return False, None
    return True, None


# ---------------------------------------------------------------- helpers
def rows() -> list[dict[str, str]]:
    with open(shared_path("blocksworld", "ground_truth_plans_task1.csv"), newline="") as handle:
        return list(csv.DictReader(handle))


def domain_of(row: dict[str, str]) -> str:
    return MY_DOMAIN if row["domain"].startswith("mystery") else BW_DOMAIN


def steps_of(plan: str) -> list[tuple[str, ...]]:
    return [tuple(s.split()) for s in re.findall(r"\(([^()]*)\)", plan)]


def as_text(steps: list[tuple[str, ...]], style: str) -> str:
    """A plan written as a model might: letters, colour names, or PlanBench's sentences, numbered."""
    lines = []
    for op, *args in steps:
        if style == "letters":
            lines.append("(" + " ".join((op, *args)) + ")")
        elif style == "colours":
            lines.append("(" + " ".join((op, *(COLOURS[ord(a) - 97] for a in args))) + ")")
        else:
            block = [f"the {COLOURS[ord(a) - 97]} block" for a in args]
            lines.append({"pick-up": f"pick up {block[0]}", "put-down": f"put down {block[0]}",
                          "stack": f"stack {block[0]} on top of {block[-1]}",
                          "unstack": f"unstack {block[0]} from on top of {block[-1]}"}[op])
    if style == "sentences":
        return "Here is my plan:\n" + "\n".join(f"{i}. {line}" for i, line in enumerate(lines, start=1))
    return "\n".join(lines)


def plan_check(tmp_path: Path, capsys, monkeypatch, items: list[dict], optimal: bool = False) -> tuple[list[dict], str]:
    """Run ``plan-check`` from ../shared (paths relative to the working directory)."""
    monkeypatch.chdir(shared_path())
    path = tmp_path / "plans.jsonl"
    path.write_text("".join(json.dumps(item) + "\n" for item in items))
    code = main(["plan-check", "--input", str(path), *(["--optimal"] if optimal else [])])
    captured = capsys.readouterr()
    assert code == 0
    summary = [line for line in captured.err.splitlines() if line.startswith("valid: ")]
    assert len(summary) == 1, captured.err  # the summary goes to the terminal (stderr here), not among the lines
    return [json.loads(line) for line in captured.out.splitlines()], summary[0]


# ---------------------------------------------------------------- the bars of issue 14
def test_every_ground_truth_plan_is_valid_and_optimal(tmp_path, capsys, monkeypatch):
    table = rows()
    assert len(table) == 1200
    items = [{"domain": domain_of(r), "problem": r["instance_file"], "plan": r["ground_truth_plan_as_in_planbench"]}
             for r in table]
    lines, last = plan_check(tmp_path, capsys, monkeypatch, items, optimal=True)
    assert last == "valid: 1200/1200"
    for row, line in zip(table, lines):
        assert line["valid"] and line["reasons"] == [], (row["instance_file"], line)
        assert line["optimal_length"] == int(row["optimal_plan_len_bfs"]), row["instance_file"]


@pytest.mark.parametrize("style", ["letters", "colours", "sentences"])
def test_plan_text_styles(style, tmp_path, capsys, monkeypatch):
    table = [r for r in rows() if not r["domain"].startswith("mystery")][::10]
    items = [{"domain": BW_DOMAIN, "problem": r["instance_file"],
              "plan": as_text(steps_of(r["ground_truth_plan_pddl_objects"]), style)} for r in table]
    lines, last = plan_check(tmp_path, capsys, monkeypatch, items)
    assert last == f"valid: {len(items)}/{len(items)}"


def test_mystery_sentences(tmp_path, capsys, monkeypatch):
    table = [r for r in rows() if r["domain"].startswith("mystery")][::25]
    items = []
    for r in table:
        text = []
        for i, (op, *args) in enumerate(steps_of(r["ground_truth_plan_pddl_objects"]), start=1):
            objs = [f"object {a}" for a in args]
            text.append(f"{i}) {op} {objs[0]}" + (f" from {objs[1]}" if len(objs) > 1 else ""))
        items.append({"domain": MY_DOMAIN, "problem": r["instance_file"], "plan": "\n".join(text)})
    _, last = plan_check(tmp_path, capsys, monkeypatch, items)
    assert last == f"valid: {len(items)}/{len(items)}"


def mutate(steps: list[tuple[str, ...]], objects: list[str], rng: random.Random, kind: str) -> list[tuple[str, ...]]:
    steps = list(steps)
    i = rng.randrange(len(steps))
    if kind == "drop":
        del steps[i]
    elif kind == "swap" and len(steps) > 1:
        j = rng.choice([k for k in range(len(steps)) if k != i])
        steps[i], steps[j] = steps[j], steps[i]
    else:
        op = steps[i][0]
        ops = list(MYSTERY) if op in MYSTERY else list(MYSTERY.values())
        new_op = rng.choice(ops)
        arity = 2 if MYSTERY.get(new_op, new_op) in ("stack", "unstack") else 1
        steps[i] = (new_op, *rng.sample(objects, arity))
    return steps


def test_mutations_agree_with_an_independent_simulator(tmp_path, capsys, monkeypatch):
    rng = random.Random(14)
    items, expected = [], []
    for row in rows():
        pos, goal = load_problem(shared_path(row["instance_file"]))
        base = steps_of(row["ground_truth_plan_pddl_objects"])
        assert simulate(pos, goal, base) == (True, None), row["instance_file"]
        for kind in ("drop", "swap", "alter"):
            steps = mutate(base, sorted(pos), rng, kind)
            style = "letters" if row["domain"].startswith("mystery") else rng.choice(["letters", "colours", "sentences"])
            items.append({"domain": domain_of(row), "problem": row["instance_file"], "plan": as_text(steps, style)})
            expected.append(simulate(pos, goal, steps))
    lines, last = plan_check(tmp_path, capsys, monkeypatch, items)
    invalid = 0
    for item, line, (valid, step) in zip(items, lines, expected):
        assert line["valid"] is valid, (item, line)
        if step is not None:
            assert line["reasons"] and all(r.startswith(f"step {step} (") for r in line["reasons"]), (item, line)
        elif not valid:
            assert line["reasons"] and all(r.startswith("goal not reached: ") for r in line["reasons"]), (item, line)
        invalid += not valid
    assert last == f"valid: {len(items) - invalid}/{len(items)}"
    assert invalid > len(items) // 2  # the mutations really break most plans


@pytest.mark.parametrize("folder", ["unsolvable_blocksworld", "unsolvable_obfuscated_randomized_blocksworld"])
def test_the_101_unsolvable_instances_have_no_plan(folder, tmp_path, capsys, monkeypatch):
    base = shared_path("blocksworld", "llm_planning_analysis", folder)
    files = sorted((base / "generated_basic").glob("instance-*.pddl"))
    assert len(files) == 101
    rel = Path("blocksworld", "llm_planning_analysis", folder)
    items = [{"domain": str(rel / "generated_domain.pddl"), "problem": str(rel / "generated_basic" / f.name), "plan": ""}
             for f in files]
    lines, last = plan_check(tmp_path, capsys, monkeypatch, items, optimal=True)
    assert last == "valid: 0/101"
    assert all(line["optimal_length"] is None and "undecided" not in line for line in lines)


def test_failing_step_reasons_name_each_unmet_precondition(tmp_path, capsys, monkeypatch):
    # instance-2: d on c, a on b, c and b on the table; hand empty; goal (on c a)
    items = [{"domain": BW_DOMAIN, "problem": "blocksworld/generated_basic/instance-2.pddl", "plan": p} for p in (
        "(pick-up d)\n(put-down d)", "(unstack b a)", "(unstack d c)\n(put-down d)", "(pick-up c)")]
    lines, last = plan_check(tmp_path, capsys, monkeypatch, items)
    assert lines[0]["reasons"] == ["step 1 (pick-up d): d is not on the table"]
    assert lines[1]["reasons"] == ["step 1 (unstack b a): b is not clear", "step 1 (unstack b a): b is not on a"]
    assert lines[2]["reasons"] == ["goal not reached: c is not on a"]
    assert lines[3]["reasons"] == ["step 1 (pick-up c): c is not clear"]
    assert last == "valid: 0/4"


HOSTILE = [
    "(" * 100_000 + ")" * 100_000,
    "x" * 1_000_000,
    "(pick-up a)\n" * 5_000,
    bytes(range(256)).decode("latin-1") * 200,
    "[PLAN]\n" * 1000 + "[PLAN END]" * 1000,
    "1. " * 20_000,
    "(unstack " + "a " * 50_000 + ")",
    "\u202e(stack a b)\x00\ufeff",
    {"nested": [[[[["(pick-up a)"]]]]]},
    None,
    12,
]


def test_hostile_plan_text_gets_a_verdict(tmp_path, capsys, monkeypatch):
    items = [{"domain": BW_DOMAIN, "problem": "blocksworld/generated_basic/instance-2.pddl", "plan": p} for p in HOSTILE]
    lines, last = plan_check(tmp_path, capsys, monkeypatch, items)
    assert len(lines) == len(HOSTILE) and last == f"valid: 0/{len(HOSTILE)}"
    assert all(line["valid"] is False and line["reasons"] for line in lines)
    assert all(len(json.dumps(line)) < 2_000 for line in lines)  # reasons are bounded too


@pytest.mark.parametrize("line, message", [
    ('{"domain": "missing.pddl", "problem": "x.pddl", "plan": ""}', "missing.pddl"),
    ('{"domain": "blocksworld/generated_domain.pddl", "plan": ""}', "expected {"),
    ('[1, 2]', "expected {"),
    ('{"domain": "blocksworld/PROVENANCE.md", "problem": "x", "plan": ""}', "PROVENANCE.md: unbalanced"),
    ('{"domain": "blocksworld/generated_domain.pddl", "problem": "blocksworld/mystery/generated_basic/instance-2.pddl", "plan": ""}',
     "mystery-4ops"),
    ('not json', "not valid JSON"),
])
def test_bad_input_is_a_one_line_error(line, message, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(shared_path())
    path = tmp_path / "plans.jsonl"
    path.write_text(line + "\n")
    out = tmp_path / "out.jsonl"
    out.write_text("kept\n")
    assert main(["plan-check", "--input", str(path), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err and f"{path}:1" in err
    assert out.read_text() == "kept\n"  # a failed run leaves the output alone


def test_out_file_holds_only_json_lines(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(shared_path())
    row = rows()[0]
    path = tmp_path / "plans.jsonl"
    path.write_text(json.dumps({"domain": BW_DOMAIN, "problem": row["instance_file"],
                                "plan": row["ground_truth_plan_as_in_planbench"]}) + "\n")
    out = tmp_path / "out.jsonl"
    assert main(["plan-check", "--input", str(path), "--out", str(out), "--optimal"]) == 0
    assert out.read_text().splitlines() == [json.dumps({"valid": True, "reasons": [], "optimal_length": 4})]
    assert capsys.readouterr().out.strip() == "valid: 1/1"  # the summary goes to the terminal, as label and score do


def test_starts_in_think_is_the_read_context(tmp_path, capsys, monkeypatch):
    """``--starts-in-think`` reads each text as ``finereason score --starts-in-think`` does: a valid plan
    after ``</think>`` is read in both contexts, one in a text without ``</think>`` is unfinished reasoning
    (no plan, the reader's reason) only when the prompts opened ``<think>``."""
    monkeypatch.chdir(shared_path())
    row = rows()[0]
    plan = row["ground_truth_plan_as_in_planbench"]
    texts = [f"Let me think.\n</think>\n\n{plan}", f"Let me think.\n\n{plan}"]
    path = tmp_path / "plans.jsonl"
    path.write_text("".join(json.dumps({"domain": BW_DOMAIN, "problem": row["instance_file"], "plan": t}) + "\n"
                            for t in texts))
    for flags, valid in (([], [True, True]), (["--starts-in-think"], [True, False])):
        out = tmp_path / f"out{len(flags)}.jsonl"
        assert main(["plan-check", "--input", str(path), "--out", str(out), *flags]) == 0
        lines = [json.loads(line) for line in out.read_text().splitlines()]
        assert [line["valid"] for line in lines] == valid, flags
        if flags:
            assert lines[1]["reasons"] == [f"plan text: {UNFINISHED}"]
    requests = read_plan_requests(str(path))
    assert [c["valid"] for c in check_plans(requests, context=ReadContext(starts_in_think=True))] == [True, False]
    assert [c["valid"] for c in check_plans(requests, context={"starts_in_think": True})] == [True, False]


def test_blocksworld_hard_planner_plans_are_valid(tmp_path, capsys, monkeypatch):
    base = shared_path("blocksworld", "llm_planning_analysis", "blocksworld_hard")
    info = json.loads((base / "info.json").read_text())
    assert len(info) == 110
    rel = Path("blocksworld", "llm_planning_analysis", "blocksworld_hard")
    items = [{"domain": str(rel / "generated_domain.pddl"), "problem": str(rel / "generated" / name), "plan": entry["plan"]}
             for name, entry in sorted(info.items())]
    lines, last = plan_check(tmp_path, capsys, monkeypatch, items)
    assert last == "valid: 110/110"


def test_node_budget_gives_undecided_not_a_guess(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(shared_path())
    rel = Path("blocksworld", "llm_planning_analysis", "blocksworld_hard")
    path = tmp_path / "plans.jsonl"
    path.write_text(json.dumps({"domain": str(rel / "generated_domain.pddl"),
                                "problem": str(rel / "generated" / "instance-1.pddl"), "plan": ""}) + "\n")
    assert main(["plan-check", "--input", str(path), "--optimal", "--max-nodes", "200"]) == 1
    captured = capsys.readouterr()
    line = json.loads(captured.out.splitlines()[0])
    assert line["optimal_length"] is None and "200" in line["undecided"] and "--max-nodes" in captured.err
    # the budget ran out: said as such, never as "no plan found" (which reads as "the problem has no plan")
    assert "search budget ran out" in line["undecided"] and "no plan found" not in line["undecided"]
    assert "search budget ran out (--max-nodes 200)" in captured.err and "of 1 plan was decided" in captured.err


@pytest.mark.parametrize("text", ["(" * 10_000, "(define (domain x)" + "(a" * 100 + ")" * 101, ")"])
def test_hostile_pddl_is_a_one_line_error(text, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(shared_path())
    (tmp_path / "d.pddl").write_text(text)
    path = tmp_path / "plans.jsonl"
    path.write_text(json.dumps({"domain": str(tmp_path / "d.pddl"), "problem": "x", "plan": ""}) + "\n")
    assert main(["plan-check", "--input", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "d.pddl" in err


def test_max_nodes_must_be_positive(tmp_path, capsys):
    path = tmp_path / "plans.jsonl"
    path.write_text("{}\n")
    assert main(["plan-check", "--input", str(path), "--optimal", "--max-nodes", "0"]) == 2
    assert "--max-nodes must be a positive" in capsys.readouterr().err


@pytest.mark.parametrize("instance", ["instance-1", "instance-7", "instance-30"])
def test_applicable_actions_are_every_action_whose_precondition_holds(instance):
    """The search's successor index gives exactly the actions a scan of all of them would, in the same
    order (so BFS returns the same shortest plan), on every state within four steps of the start."""
    from finereason.planning.pddl import read_domain, read_problem
    from finereason.planning.planner import applicable_actions, bit_task
    from finereason.planning.strips import Task

    folder = shared_path("blocksworld")
    task = Task(read_domain(folder / "generated_domain.pddl"), read_problem(folder / "generated" / f"{instance}.pddl"))
    bits = bit_task(task)
    applicable = applicable_actions(bits)
    rng = random.Random(instance)
    states, frontier = {bits.mask(task.init)}, [bits.mask(task.init)]
    for _ in range(4):
        frontier = [(s & keep) | add for s in frontier for pre, keep, add, _ in bits.actions if s & pre == pre]
        states.update(frontier)
    states.update(rng.getrandbits(len(bits.bit)) for _ in range(200))  # and arbitrary sets of atoms
    for state in states:
        assert applicable(state) == [a for a in bits.actions if state & a[0] == a[0]]
