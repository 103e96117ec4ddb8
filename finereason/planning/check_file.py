"""Checking a JSON Lines file of plans: the library behind ``finereason plan-check``.

Each line is ``{"domain": PDDL path, "problem": PDDL path, "plan": text}``; each (domain, problem)
pair of files is read once. Each text is read by the end-to-end plan reader
(:func:`~finereason.planning.validate.check_plan`) in the run's read context: the verdict is the
end-to-end verdict's.
"""
from __future__ import annotations

from typing import Any, Iterator, Sequence

from ..common.input_errors import InputError
from ..common.jsonl import iter_json_lines
from ..common.progress import Progress, no_progress
from ..reading.context import ReadContext, resolve_context
from .pddl import PDDLError, read_domain, read_problem
from .planner import plan
from .strips import Task
from .validate import check_plan


def _task(cache: dict[tuple[str, str], Task], domain: str, problem: str, where: str) -> Task:
    """The planning task of a (domain, problem) pair of PDDL paths, read once per pair."""
    key = (domain, problem)
    if key not in cache:
        try:
            cache[key] = Task(read_domain(domain), read_problem(problem))
        except (PDDLError, OSError, UnicodeDecodeError) as err:
            message = f"{err.filename}: {err.strerror or err}" if isinstance(err, OSError) else str(err)
            raise InputError(f"{where}: {message}") from None
    return cache[key]


def read_plan_requests(path: str) -> list[tuple[Task, Any]]:
    """``(task, plan text)`` for each line of ``path`` (``-``: standard input); raises
    :class:`~finereason.common.input_errors.InputError` naming the line for a bad line, PDDL file or an empty file."""
    tasks: dict[tuple[str, str], Task] = {}
    rows = []
    for lineno, obj in iter_json_lines(path, "plan", InputError):
        where = f"{path}:{lineno}"
        if not isinstance(obj, dict) or not all(isinstance(obj.get(k), str) for k in ("domain", "problem")) \
                or "plan" not in obj:
            raise InputError(f'{where}: expected {{"domain": PDDL path, "problem": PDDL path, "plan": text}}')
        rows.append((_task(tasks, obj["domain"], obj["problem"], where), obj["plan"]))
    if not rows:
        raise InputError(f"{path}: no plans")
    return rows


def check_max_nodes(max_nodes: int) -> None:
    """Raise :class:`~finereason.common.input_errors.InputError` unless ``max_nodes`` is a usable search budget."""
    if max_nodes < 1:
        raise InputError(f"--max-nodes must be a positive number of search nodes, got {max_nodes}")


def check_plans(requests: Sequence[tuple[Task, Any]], *, optimal: bool = False, max_nodes: int = 1_000_000,
                progress: Progress = no_progress, context: ReadContext | None = None) -> Iterator[dict[str, Any]]:
    """One ``{"valid": bool, "reasons": [...]}`` record per request, in order, each text read in the read
    ``context`` (``ReadContext(starts_in_think=True)``: a text without ``</think>`` commits to no plan). With ``optimal``, also
    ``"optimal_length"`` (an int, or ``None`` when the problem has no plan) and ``"undecided"`` when
    breadth-first search ran out of ``max_nodes`` states (each task is planned once)."""
    check_max_nodes(max_nodes)
    return _check_plans(requests, optimal, max_nodes, progress, resolve_context(context))


def _check_plans(requests: Sequence[tuple[Task, Any]], optimal: bool, max_nodes: int,
                 progress: Progress, context: ReadContext) -> Iterator[dict[str, Any]]:
    lengths: dict[int, Any] = {}
    for task, text in progress(requests, len(requests), "checking plans"):
        verdict = check_plan(task, text, context)
        line: dict[str, Any] = {"valid": verdict.valid, "reasons": list(verdict.reasons)}
        if optimal:
            if id(task) not in lengths:
                lengths[id(task)] = plan(task, max_nodes=max_nodes)
            result = lengths[id(task)]
            line["optimal_length"] = result.length
            if result.status == "undecided":
                line["undecided"] = (f"search budget ran out: {max_nodes:,} states stored (--max-nodes) before "
                                     "a shortest plan or a proof of none was found")
        yield line


def plan_counts(lines: Sequence[dict[str, Any]]) -> dict[str, int]:
    """``valid``, ``total`` and ``undecided`` counts of :func:`check_plans` records."""
    return {"valid": sum(bool(r["valid"]) for r in lines), "total": len(lines),
            "undecided": sum("undecided" in r for r in lines)}


__all__ = ["check_max_nodes", "check_plans", "plan_counts", "read_plan_requests"]
