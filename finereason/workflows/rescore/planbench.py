"""``planbench``: PlanBench (LLMs-Planning) plan-generation result files.

Layout: ``results/<domain>/<engine>/task_1_plan_generation[_zero_shot].json``, one JSON object
``{"task", "engine", "domain", "prompt_type", "instances": [...]}``; each instance has ``instance_id``,
``llm_raw_response`` (the model's text), ``ground_truth_plan`` (PDDL steps, a list or newline-separated)
and the recorder's verdict ``llm_correct`` (or ``correct``). ``--instances DIR`` is the folder with the
domain PDDL (``generated_domain.pddl``, or the one ``*domain*.pddl``) and instance folders
(``generated_basic/instance-K.pddl``, ``generated/``, ...). An instance's problem file is the
``instance-K.pddl`` (K its ``instance_id``) of the folder whose problem the recorded ground-truth plan
solves: it is found by validating that plan, never guessed; when no folder's problem fits, or two
different ones do and our verdict differs between them, the record is undecided and says so.

Our verdict: the plan the response commits to (the end-to-end plan reader,
:func:`~finereason.planning.plan_answers.committed_plan`) validated on that problem
(:func:`~finereason.planning.validate.validate`), as ``plan-check`` does.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

from ...common.input_errors import InputError
from ...common.progress import Progress
from ...planning.pddl import Domain, PDDLError, read_domain, read_problem
from ...planning.plan_answers import committed_plan
from ...planning.plan_text import PlanAction
from ...planning.strips import Task
from ...planning.validate import validate
from ...reading import final_region
from .records import load_json, Rescored, reading_fields, recorded_bool

NAME = "planbench"
HELP = "PlanBench (LLMs-Planning) task_1_plan_generation*.json result files; needs --instances DIR"

_PLAIN_ID = re.compile(r"[A-Za-z0-9_-]{1,40}\Z")
_STEP = re.compile(r"\(\s*([A-Za-z][\w-]{0,60})((?:\s+[\w-]{1,60}){0,12})\s*\)")


def _domain_file(folder: Path) -> Path:
    named = folder / "generated_domain.pddl"
    if named.is_file():
        return named
    found = sorted(p for p in folder.glob("*domain*.pddl") if p.is_file())
    if len(found) != 1:
        raise InputError(f"--instances {folder}: expected generated_domain.pddl or one *domain*.pddl file, found {len(found)}")
    return found[0]


class Instances:
    """The domain and instance folders of ``--instances DIR``; problems read once each."""

    def __init__(self, folder: str | None) -> None:
        if not folder:
            raise InputError("the planbench format needs --instances DIR (the folder with the domain PDDL and instance folders)")
        root = Path(folder)
        if not root.is_dir():
            raise InputError(f"--instances {folder}: not a folder")
        try:
            self.domain: Domain = read_domain(_domain_file(root))
        except (PDDLError, OSError, UnicodeDecodeError) as err:
            raise InputError(f"--instances {folder}: {err}") from None
        self.folders = sorted(p for p in root.iterdir() if p.is_dir() and any(p.glob("instance-*.pddl")))
        if not self.folders:
            raise InputError(f"--instances {folder}: no instance folders (folders of instance-K.pddl files)")
        self.root = root
        self._tasks: dict[Path, Task | None] = {}
        self._fits: dict[tuple[str, tuple[str, ...]], list[tuple[Path, Task]]] = {}

    def _task(self, path: Path) -> Task | None:
        if path not in self._tasks:
            try:
                self._tasks[path] = Task(self.domain, read_problem(path)) if path.is_file() else None
            except (PDDLError, OSError, UnicodeDecodeError):
                self._tasks[path] = None
        return self._tasks[path]

    def fitting(self, instance_id: str, plan: tuple[PlanAction, ...]) -> list[tuple[Path, Task]]:
        """The ``(file, task)`` of every instance folder's ``instance-<id>.pddl`` that ``plan`` solves."""
        key = (instance_id, tuple(str(s) for s in plan))
        if key not in self._fits:
            fits = []
            for folder in self.folders:
                path = folder / f"instance-{instance_id}.pddl"
                task = self._task(path)
                if task is not None and validate(task, list(plan)).valid:
                    fits.append((path, task))
            self._fits[key] = fits
        return self._fits[key]


def ground_truth(value: Any) -> tuple[PlanAction, ...]:
    """The recorded ground-truth plan (a list of ``(action args)`` strings, or one newline-separated string)."""
    lines = value if isinstance(value, list) else str(value or "").splitlines()
    steps = []
    for line in lines[:1000]:
        for m in _STEP.finditer(str(line)[:2000]):
            steps.append(PlanAction(m.group(1).lower(), tuple(a.lower() for a in m.group(2).split()), m.group(0)))
    return tuple(steps)


def _load(path: str) -> dict:
    data = load_json(path, "a PlanBench result file")
    if not isinstance(data, dict) or not isinstance(data.get("instances"), list):
        raise InputError(f'{path}: not a PlanBench result file (no "instances" list)')
    return data


def _verdict(instances: Instances, record: dict, text: Any) -> tuple[bool | None, str, str, dict[str, Any]]:
    """``(sound, reason, problem file, reading fields)`` of one instance."""
    instance_id = str(record.get("instance_id", ""))
    if not _PLAIN_ID.match(instance_id):
        return None, f"instance_id {instance_id[:40]!r} is not a plain id (letters, digits, - and _)", "", \
            {"answered": False, "span": None, "signal": None}
    plan = ground_truth(record.get("ground_truth_plan"))
    fits = instances.fitting(instance_id, plan) if plan and instance_id else []
    where = ", ".join(str(f.relative_to(instances.root)) for f in instances.folders[:4])
    if not fits:
        why = "no ground-truth plan recorded" if not plan else \
            f"the recorded ground-truth plan solves no instance-{instance_id}.pddl under {instances.root} ({where})"
        return None, why, "", {"answered": False, "span": None, "signal": None}
    text = text if isinstance(text, str) else ""
    region = final_region(text)
    verdicts = []
    for path, task in fits:
        reading = committed_plan(text, task.domain, task.problem.objects)
        if reading.value is None:
            verdicts.append((False, f"plan text: {reading.reason}", path, reading))
        else:
            result = validate(task, list(reading.value))
            verdicts.append((result.valid, "; ".join(result.reasons), path, reading))
    if len({v[:2] for v in verdicts}) > 1:
        names = ", ".join(str(v[2].relative_to(instances.root)) for v in verdicts)
        return None, f"the recorded ground-truth plan solves several problems ({names}) and the verdicts differ", "", \
            {"answered": False, "span": None, "signal": None}
    valid, reason, path, reading = verdicts[0]
    return valid, reason, str(path.relative_to(instances.root)), reading_fields(text, region, reading)


def read(paths: list[str], options: Any, progress: Progress) -> Iterator[Rescored]:
    """One :class:`~.records.Rescored` per instance of each result file in ``paths``."""
    instances = Instances(getattr(options, "instances", None))
    for path in paths:
        data = _load(path)
        model = str(data.get("engine") or Path(path).parent.name)
        condition = " ".join(str(data[k]) for k in ("domain", "prompt_type", "task") if data.get(k))
        for record in progress(data["instances"], len(data["instances"]), f"rescoring {Path(path).name}"):
            if not isinstance(record, dict):
                continue
            text = record.get("llm_raw_response")
            recorded = recorded_bool(record.get("llm_correct", record.get("correct")))
            sound, reason, problem, fields = _verdict(instances, record, text)
            ids = {"file": path, "instance_id": record.get("instance_id"), "problem": problem}
            yield Rescored(ids, model, condition, recorded, sound, reason, response=text if isinstance(text, str) else "",
                           **fields)


__all__ = ["HELP", "NAME", "Instances", "ground_truth", "read"]
