"""Recorded back-prompting dialogs in gpt-and-i's layout: a domain names its format
(``Engine.recorded_dialogs``; the Game of 24's is ``stechly-game24``, the runs of Stechly, Marquez and
Kambhampati's gpt-and-i, ``data/responses/game24/<model>/<condition>/*responses.json*``).

Each file is a JSON object, either one instance (``{"prompts": [...], "responses": [...], "stopped": ...}``,
its id the file name's last suffix) or a dict of instance id -> such an instance. ``responses[i]``
answers ``prompts[i]``; they alternate the model's answer and, in the LLM-verifier conditions, the
same model's verdict on it, JSON ``{"feedback": ..., "correct": ...}`` (a response is a verdict when its
prompt asks to "check" the expression). The numbers are the first prompt's (``Input: 1 4 6 8``, or
"Using [each of] the numbers 1 4 6 8").

Records: one per answer, grouped by model (the folder above the condition) and condition (the
condition's folder and the round: the answer's place among the instance's answers). The recorded
verdict of an answer is the model's own verdict on it (none when the run stops before one); ours is
Game-of-24's verifier. The verifier table counts distinct (numbers, checked answer, verdict) records
once per model and condition (answers compared with their whitespace collapsed).
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

from ...common.input_errors import InputError
from ...common.progress import Progress
from ...core.engine import engines
from .records import load_json, Rescored, recorded_bool, verify_text

_CHECK = re.compile(r"please check|respond only in json|\"correct\"\s{0,4}:", re.I)
_SUFFIX = re.compile(r"\.(\d{1,12})\Z")
MAX_VERDICT = 20_000


class DialogFormat:
    """The rescore format of one domain's recorded back-prompting dialogs (the gpt-and-i layout): the
    domain names it (``Engine.recorded_dialogs``) and reads each instance's puzzle from its first prompt
    (``Engine.inputs_from_recorded``)."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self.NAME, self.HELP = engine.recorded_dialogs

    def read(self, paths: list[str], options: Any, progress: Progress) -> Iterator[Rescored]:
        """One :class:`~.records.Rescored` per answer in the files of ``paths``."""
        return read(self.engine, paths, progress)


def dialog_formats() -> list[DialogFormat]:
    """One format per registered domain that names a recorded dialog format."""
    return [DialogFormat(e) for e in engines() if e.recorded_dialogs]


def verdict_of(response: Any) -> bool | None:
    """The ``correct`` field of a verifier reply (JSON, possibly inside a code fence), or ``None``."""
    if not isinstance(response, str):
        return None
    text = response[:MAX_VERDICT]
    lo, hi = text.find("{"), text.rfind("}")
    if lo < 0 or hi < lo:
        return None
    try:
        value = json.loads(text[lo:hi + 1])
    except (json.JSONDecodeError, RecursionError):
        return None
    return recorded_bool(value.get("correct")) if isinstance(value, dict) else None


def _instances(path: str) -> list[tuple[str, dict]]:
    data = load_json(path, "a gpt-and-i responses file")
    if isinstance(data, dict) and isinstance(data.get("prompts"), list):
        suffix = _SUFFIX.search(path)
        return [(suffix.group(1) if suffix else Path(path).name, data)]
    if not isinstance(data, dict) or not all(isinstance(v, dict) and isinstance(v.get("prompts"), list) for v in data.values()):
        raise InputError(f'{path}: not a gpt-and-i responses file (expected {{"prompts": [...], "responses": [...]}} '
                         'or a dict of instance id -> that)')
    return sorted(data.items(), key=lambda item: (len(item[0]), item[0]))


def _answers(instance: dict) -> Iterator[tuple[int, int, str, bool | None]]:
    """``(round, response index, answer text, recorded verdict)`` of each answer of one instance."""
    prompts, responses = instance.get("prompts") or [], instance.get("responses") or []
    if not isinstance(responses, list):
        return
    rounds = 0
    for i, response in enumerate(responses):
        prompt = prompts[i] if i < len(prompts) else ""
        if isinstance(prompt, str) and _CHECK.search(prompt[-3000:]):
            continue
        rounds += 1
        recorded = None
        nxt = i + 1
        if nxt < len(responses) and nxt < len(prompts) and isinstance(prompts[nxt], str) and _CHECK.search(prompts[nxt][-3000:]):
            recorded = verdict_of(responses[nxt])
        yield rounds, i, response if isinstance(response, str) else "", recorded


def read(engine: Any, paths: list[str], progress: Progress) -> Iterator[Rescored]:
    """One :class:`~.records.Rescored` per answer of ``engine``'s puzzles in the dialog files of ``paths``."""
    for path in progress(paths, len(paths), "rescoring files"):
        folder = Path(path).resolve().parent
        model, run = folder.parent.name, folder.name
        for instance_id, instance in _instances(path):
            inputs = engine.inputs_from_recorded((instance.get("prompts") or [""])[0])
            for round_, index, text, recorded in _answers(instance):
                ids = {"file": path, "instance": instance_id, "round": round_, "response": index}
                if inputs is None:
                    yield Rescored(ids, model, f"{run}, round {round_}", recorded, None,
                                   "the first prompt names no puzzle", False, run=run, response=text)
                    continue
                sound, reason, fields = verify_text(engine, inputs, text)
                key = (json.dumps(inputs, sort_keys=True), " ".join(text.split()), recorded)
                yield Rescored(ids, model, f"{run}, round {round_}", recorded, sound, reason, run=run,
                               verifier_key=key, response=text, **fields)


__all__ = ["DialogFormat", "dialog_formats", "read", "verdict_of"]
