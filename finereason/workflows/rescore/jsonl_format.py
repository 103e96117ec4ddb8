"""``jsonl``: any recorded JSON Lines file, read by field names.

Each line is one response. ``--response-field`` (default ``response``) holds the text,
``--verdict-field`` (default ``correct``) the recorder's verdict (a boolean, 0/1 or a word such as
correct/incorrect), ``--model-field`` the model (optional: one model ``-`` otherwise), ``--id-field``
the id (default ``id``; the line number when absent). The puzzle: with ``--domain`` a registered puzzle
domain (``finereason domains``), ``--puzzle-field`` holds the official ``inputs`` record of that domain,
or, for Game of 24, the numbers (a list, or a string such as ``"1 4 6 8"``); ``--domain folio``: the gold
label (True, False, Uncertain or Unknown), the response read by the FOLIO label reader; with ``--domain-file
DOMAIN.pddl``, ``--problem-field`` holds the path of each line's PDDL problem file (relative paths are
read from the JSON Lines file's folder), and the plan the response commits to is validated as
``plan-check`` does.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

from ...common.input_errors import InputError
from ...common.jsonl import iter_json_lines
from ...common.progress import Progress
from ...core.engine import engine_names, get_engine
from ...planning.pddl import PDDLError, read_domain, read_problem
from ...planning.strips import Task
from ...planning.validate import check_plan
from ...reading.truth_values import TRUTH_VALUE_WORDS, truth_value_reading
from ...verification.verifiers import verify_folio
from ...planning.plan_answers import committed_plan
from ...reading import final_region
from .records import Rescored, reading_fields, recorded_bool, verify_text

NAME = "jsonl"
HELP = "any recorded JSON Lines file, by field names (--domain with --puzzle-field, or --domain-file with --problem-field)"

FOLIO = "folio"  # FOLIO items: the puzzle field holds the gold label


def _get(options: Any, name: str, default: Any = None) -> Any:
    value = getattr(options, name, None)
    return default if value is None else value


def _inputs(engine: Any, value: Any, where: str) -> dict[str, Any]:
    """The official ``inputs`` record of a recorded puzzle field (the domain reads its compact forms)."""
    inputs = engine.inputs_from_recorded(value)
    if inputs is None:
        raise InputError(f"{where}: the puzzle field must be the domain's official inputs record or a form "
                         f"{engine.name} reads (e.g. its numbers)")
    return inputs


class _Plans:
    def __init__(self, domain_file: str, base: Path) -> None:
        try:
            self.domain = read_domain(domain_file)
        except (PDDLError, OSError, UnicodeDecodeError) as err:
            raise InputError(f"--domain-file {domain_file}: {err}") from None
        self.base = base
        self.tasks: dict[str, Task] = {}

    def task(self, problem: Any, where: str) -> Task:
        if not isinstance(problem, str) or not problem:
            raise InputError(f"{where}: the problem field must be the path of a PDDL problem file")
        if problem not in self.tasks:
            path = Path(problem) if Path(problem).is_absolute() else self.base / problem
            try:
                self.tasks[problem] = Task(self.domain, read_problem(path))
            except (PDDLError, OSError, UnicodeDecodeError) as err:
                raise InputError(f"{where}: {path}: {getattr(err, 'strerror', None) or err}") from None
        return self.tasks[problem]


def _folio(gold: Any, text: Any, where: str) -> tuple[bool, str, dict[str, Any]]:
    """A FOLIO answer against its gold truth value (FOLIO's ``label``), verified as the FOLIO tasks verify it
    (:func:`~finereason.verification.verifiers.verify_folio`)."""
    value = TRUTH_VALUE_WORDS.get(str(gold).strip().lower()[:20]) if isinstance(gold, (str, bool)) else None
    if value is None:
        raise InputError(f"{where}: the gold label must be True, False, Uncertain or Unknown, not {str(gold)[:40]!r}")
    text = text if isinstance(text, str) else ""
    verdict = verify_folio(text, value)
    return verdict.correct, "; ".join(verdict.reasons), reading_fields(text, final_region(text), truth_value_reading(text))


def _check(options: Any) -> None:
    domain, domain_file = _get(options, "domain"), _get(options, "domain_file")
    if bool(domain) == bool(domain_file):
        raise InputError("the jsonl format needs --domain NAME with --puzzle-field, or --domain-file PDDL with --problem-field")
    if domain and domain not in (*engine_names(), FOLIO):
        raise InputError(f"--domain {domain!r} is not a registered domain (known: {', '.join((*engine_names(), FOLIO))})")
    if domain and not _get(options, "puzzle_field"):
        raise InputError("--domain needs --puzzle-field (the field holding each line's puzzle)")
    if domain_file and not _get(options, "problem_field"):
        raise InputError("--domain-file needs --problem-field (the field holding each line's PDDL problem path)")


def read(paths: list[str], options: Any, progress: Progress) -> Iterator[Rescored]:
    """One :class:`~.records.Rescored` per line of the files in ``paths``."""
    _check(options)
    domain = _get(options, "domain")
    response_field, verdict_field = _get(options, "response_field", "response"), _get(options, "verdict_field", "correct")
    model_field, id_field = _get(options, "model_field"), _get(options, "id_field", "id")
    engine = get_engine(domain) if domain and domain != FOLIO else None
    for path in paths:
        plans = None if domain else _Plans(_get(options, "domain_file"), Path(path).parent)
        for lineno, obj in progress(iter_json_lines(path, "recorded results", InputError), None, f"rescoring {Path(path).name}"):
            where = f"{path}:{lineno}"
            if not isinstance(obj, dict):
                raise InputError(f"{where}: expected a JSON object")
            text = obj.get(response_field)
            model = str(obj.get(model_field, "-")) if model_field else "-"
            ids = {"file": path, "line": lineno, "id": obj.get(id_field, lineno)}
            recorded = recorded_bool(obj.get(verdict_field))
            if domain == FOLIO:
                sound, reason, fields = _folio(obj.get(_get(options, "puzzle_field")), text, where)
            elif engine is not None:
                inputs = _inputs(engine, obj.get(_get(options, "puzzle_field")), where)
                try:
                    engine.puzzle_from_official({"inputs": inputs, "outputs": {}})
                except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as err:
                    raise InputError(f"{where}: not a {engine.name} puzzle ({str(err)[:120] or type(err).__name__})") from None
                sound, reason, fields = verify_text(engine, inputs, text)
            else:
                task = plans.task(obj.get(_get(options, "problem_field")), where)
                verdict = check_plan(task, text)
                sound, reason = verdict.valid, "; ".join(verdict.reasons)
                text = text if isinstance(text, str) else ""
                region = final_region(text)
                fields = reading_fields(text, region, committed_plan(text, task.domain, task.problem.objects))
            yield Rescored(ids, model, domain or Path(_get(options, "domain_file")).stem, recorded, sound, reason,
                           response=text if isinstance(text, str) else "", **fields)


__all__ = ["HELP", "NAME", "read"]
