"""``finereason loop``: an LLM proposes full solutions, a verifier checks them, the back-prompt carries
feedback, for up to ``max_rounds`` rounds (Stechly et al. 2024, "On the self-verification limitations
of large language models on reasoning and planning tasks").

Conditions (one sub-folder of the output each):

- a feedback level of :mod:`finereason.verification.feedback` (``none``, ``binary``, ``first_error``, ``all_errors``):
  the sound verifier (:func:`finereason.verification.verifiers.verify_end_to_end`) checks each answer; the dialog
  continues with the feedback built from the verdict's reasons until the verifier certifies an answer;
- ``self``: the model verifies its own answer in a fresh context (LLM+LLM), asked with the one verify
  request (:func:`finereason.core.prompts.verify_prompt`, which asks for a ``Verdict:`` only); the loop
  stops when it accepts, and its critique is the feedback. The sound verifier still scores every answer;
- ``sampling``: plain re-sampling, the original prompt alone each round, until the verifier certifies.

Round 1 sends the row's prompt, the text the end-to-end lm-eval task sends for the same row; without
``apply_chat_template`` a dialog is rendered by :func:`finereason.core.prompts.plain_dialog` (one user
turn: the prompt as it is), with it by the model's chat template, as ``lm_eval --apply_chat_template``
does. Any domain of the engine registry with an ``<domain>_end_to_end`` data config plugs in. Each request's
document is the data row with ``id = "<row id>@<round>"`` (self-verification: ``"<row id>@<round>/verify"``),
so ``finereason-oracle`` and ``finereason-replay`` drive the loop like any lm-eval model.

Files (``OUT/<condition>/``): ``run.json`` (what the run is), ``transcripts.jsonl`` (one line per
instance and round, appended and fsync'd after every round, so an interrupted run resumes from the
last completed round), ``summary.json`` (that condition's summary); ``OUT/summary.json`` (accuracy by
round per condition, rounds in numeric order, tokens spent: every condition run into ``OUT`` by the
same run) and ``OUT/accuracy_by_round.png`` (Figure 2 of the paper, when matplotlib is installed).
An ``OUT`` holding another run (another model, domain, data, temperature, read context, ...) is refused
unless ``overwrite`` (:func:`prepare_out`). Every response (answers and self-verdicts) is read in the run's
:class:`~finereason.reading.context.ReadContext` (``starts_in_think``), recorded as ``read_context`` in
``run.json`` and the summaries.
"""
from __future__ import annotations

import json
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from ..common.atomic_io import atomic_file, check_output
from ..common.deprecated import renamed_names
from ..common.input_errors import InputError
from ..common.jsonl_log import append_records, cut_torn_line, read_records
from ..core.engine import Engine, get_engine
from ..core.rows import row_domain, row_puzzle
from ..reading.context import DEFAULT, ReadContext
from ..core.prompts import TURN_MAX_GEN_TOKS, verify_prompt
from ..verification.feedback import LEVELS, read_self_verdict, self_feedback, sound_feedback
from ..verification.process import process_score
from ..verification.verifiers import verify_end_to_end
from .loop_plot import PLOT, count, figure, model_title, plot
from .rounds import MAX_RESPONSE_CHARS, SUMMARY, TRANSCRIPTS, accuracy_at_rounds

SAMPLING = "sampling"
CONDITIONS: tuple[str, ...] = (*LEVELS, SAMPLING)
RUN_FILE = "run.json"

Generate = Callable[[list[tuple[dict, list[dict]]]], list[str]]


class LoopError(InputError):
    """A user-facing problem with a loop run (bad data, an output folder of another run)."""


# ------------------------------------------------------------------ data
def end_to_end_config(domain: str) -> str:
    return f"{get_engine(domain).name}_end_to_end"


def load_rows(domain: str, data: str | None = None, limit: int | None = None) -> tuple[list[dict], dict]:
    """The end-to-end rows of ``domain`` (first ``limit``) from a built data folder or the default
    source (:func:`finereason.data.resolve.open_source`), and facts about where they came from."""
    from ..data.folder import DataFolderError, open_data_folder
    from ..data.resolve import open_source

    config = end_to_end_config(domain)
    try:
        if data is not None:
            folder = open_data_folder(Path(data))
            source = {"kind": "local", "path": str(Path(data).resolve()), "fingerprint": folder.fingerprint}
        else:
            folder, src = open_source(config)
            source = src.metadata()
        table = folder.read_table(config)
    except DataFolderError as err:
        raise LoopError(str(err)) from None
    rows = table.to_pylist()
    rows = rows[:limit] if limit else rows
    if not rows:
        raise LoopError(f"config {config} has no rows")
    source.update(config=config, config_fingerprint=folder.config_fingerprint(config))
    return rows, source


# ------------------------------------------------------------------ one instance
@dataclass
class LoopDialog:
    """One instance's loop: its row and the records of the rounds played so far."""

    row: dict
    engine: Engine
    records: list[dict] = field(default_factory=list)

    @property
    def id(self) -> str:
        return str(self.row["id"])

    @property
    def next_round(self) -> int:
        return len(self.records) + 1

    def finished(self, max_rounds: int) -> bool:
        return bool(self.records) and (self.records[-1]["done"] or len(self.records) >= max_rounds)

    def messages(self, condition: str) -> list[dict]:
        """The chat sent for the next round: the prompt, then (except when sampling) every answer and
        the feedback that followed it."""
        out = [{"role": "user", "content": self.row["prompt"]}]
        if condition != SAMPLING:
            for rec in self.records:
                out += [{"role": "assistant", "content": rec["response"]}, {"role": "user", "content": rec["feedback"]}]
        return out

    def correct_at(self, r: int) -> bool:
        """Whether the answer a run capped at ``r`` rounds ends with is correct (sound verifier)."""
        upto = self.records[:r]
        return bool(upto) and upto[-1]["correct"]


class Counter:
    """Characters (always) and tokens (when the model exposes ``tok_encode``) of prompts and responses."""

    def __init__(self, generate: Any) -> None:
        self.render = getattr(generate, "render", None)
        lm = getattr(generate, "lm", None)
        self.encode = getattr(lm, "tok_encode", None)

    def text(self, messages: list[dict]) -> str:
        if self.render is not None:
            return self.render(messages)
        return "\n\n".join(m["content"] for m in messages)

    def tokens(self, text: str) -> int | None:
        if self.encode is None:
            return None
        try:
            return len(self.encode(text))
        except Exception:  # noqa: BLE001  (a tokenizer that cannot encode: count characters only)
            return None


def _ask(generate: Generate, batch: list[tuple[dict, list[dict]]]) -> list[str]:
    responses = generate(batch)
    if len(responses) != len(batch):
        raise RuntimeError(f"the model returned {len(responses)} responses for {len(batch)} requests")
    return [str(t if t is not None else "")[:MAX_RESPONSE_CHARS] for t in responses]


def play_round(dialogs: Sequence[LoopDialog], generate: Generate, condition: str, counter: Counter,
               context: ReadContext = DEFAULT) -> list[dict]:
    """One round for each dialog (each at its own next round): ask, verify, build feedback; the new records.
    Answers and self-verdicts are read in ``context``."""
    requests = [({**d.row, "id": f"{d.id}@{d.next_round}"}, d.messages(condition)) for d in dialogs]
    responses = _ask(generate, requests)
    critiques: list[str | None] = [None] * len(dialogs)
    verify_requests: list[tuple[dict, list[dict]]] = []
    if condition == "self":
        verify_requests = [({**d.row, "id": f"{d.id}@{d.next_round}/verify"},
                            [{"role": "user", "content": verify_prompt(d.row, text)}])
                           for d, text in zip(dialogs, responses)]
        critiques = list(_ask(generate, verify_requests))
    records = []
    for i, (dialog, (_doc, msgs), text) in enumerate(zip(dialogs, requests, responses)):
        puzzle = row_puzzle(dialog.row)
        verdict = verify_end_to_end(dialog.engine, puzzle, text, context=context)
        prompt = counter.text(msgs)
        rec: dict[str, Any] = {"id": dialog.id, "round": dialog.next_round, "condition": condition, "response": text,
                               "correct": verdict.correct, "verdict": verdict.to_dict()}
        prompts, outputs = [prompt], [text]
        if condition == "self":
            critique = critiques[i] or ""
            accepted = None if context.unfinished(critique) else read_self_verdict(critique)
            prompts.append(counter.text(verify_requests[i][1]))
            outputs.append(critique)
            rec.update(critique=critique, accepted=accepted, done=accepted is True,
                       feedback=None if accepted is True else self_feedback(critique))
        elif condition == SAMPLING:
            rec.update(done=verdict.correct, feedback=None)
        else:
            process = (process_score(dialog.engine, puzzle, text, context=context)
                       if condition == "first_error" and not verdict.correct else None)
            rec.update(done=verdict.correct,
                       feedback=None if verdict.correct else sound_feedback(dialog.engine, puzzle, verdict, condition, process))
        ptoks = [counter.tokens(p) for p in prompts]
        rtoks = [counter.tokens(o) for o in outputs]
        rec.update(prompt_chars=sum(map(len, prompts)), response_chars=sum(map(len, outputs)),
                   prompt_tokens=None if None in ptoks else sum(ptoks),  # type: ignore[arg-type]
                   response_tokens=None if None in rtoks else sum(rtoks))  # type: ignore[arg-type]
        records.append(rec)
    return records


# ------------------------------------------------------------------ transcripts (the resumable JSONL log)
def read_transcripts(path: Path, dialogs: dict[str, LoopDialog]) -> int:
    """Load the recorded rounds into ``dialogs``; a torn last line (a crash mid-write) is cut off
    (:mod:`finereason.common.jsonl_log`). Returns the number of rounds read."""
    cut_torn_line(path)
    count = 0
    for lineno, rec in read_records(path, "transcript", LoopError):
        if not isinstance(rec, dict) or str(rec.get("id")) not in dialogs:
            raise LoopError(f"{path}:{lineno}: instance {rec.get('id') if isinstance(rec, dict) else rec!r} "
                            "is not in this run's data")
        dialog = dialogs[str(rec["id"])]
        if rec.get("round") != dialog.next_round:
            raise LoopError(f"{path}:{lineno}: round {rec.get('round')!r} of {dialog.id} follows round "
                            f"{dialog.next_round - 1}; the transcript is damaged")
        dialog.records.append(rec)
        count += 1
    return count


def _check_run(folder: Path, run: dict) -> bool:
    """Write ``run.json`` for a new run; for an existing one, check it is the same run. True when resuming."""
    path = folder / RUN_FILE
    if path.is_file():
        try:
            old = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            raise LoopError(f"{path}: unreadable; use another --out") from None
        differ = sorted(k for k in run if old.get(k) != run[k])
        if differ:
            raise LoopError(f"{folder} holds another run ({', '.join(differ)} differ); use another --out "
                            "or --overwrite")
        return True
    folder.mkdir(parents=True, exist_ok=True)
    with atomic_file(path) as handle:
        handle.write(json.dumps(run, indent=2, sort_keys=True) + "\n")
    return False


def run_condition(rows: Sequence[dict], generate: Generate, condition: str, folder: Path, *, max_rounds: int = 15,
                  run: dict | None = None, progress: Callable[[int], None] | None = None,
                  on_round: Callable[[int, int], None] | None = None, context: ReadContext = DEFAULT) -> list[LoopDialog]:
    """Play (or resume) one condition into ``folder``, reading responses in ``context``; returns every
    instance's dialog. ``on_round(r, active)`` is told the round about to be played and how many instances play it."""
    if condition not in CONDITIONS:
        raise LoopError(f"unknown condition {condition!r} (known: {', '.join(CONDITIONS)})")
    dialogs = {str(r["id"]): LoopDialog(r, get_engine(row_domain(r))) for r in rows}
    if len(dialogs) != len(rows):
        raise LoopError("the data has repeated row ids")
    meta = {**(run or {}), "condition": condition, "ids": sorted(dialogs)}
    if _check_run(folder, meta):
        read_transcripts(folder / TRANSCRIPTS, dialogs)
    counter = Counter(generate)
    while True:
        active = [d for d in dialogs.values() if not d.finished(max_rounds)]
        if not active:
            break
        if on_round:
            on_round(max(d.next_round for d in active), len(active))
        records = play_round(active, generate, condition, counter, context)
        for dialog, rec in zip(active, records):
            dialog.records.append(rec)
        append_records(folder / TRANSCRIPTS, records)
        if progress:
            progress(len(active))
    return list(dialogs.values())


# ------------------------------------------------------------------ summary and plot
def summarize_condition(dialogs: Sequence[LoopDialog], max_rounds: int) -> dict[str, Any]:
    """Accuracy by round (a run capped at r rounds), tokens spent and, for ``self``, the self-verifier's errors."""
    records = [rec for d in dialogs for rec in d.records]
    out: dict[str, Any] = {
        "items": len(dialogs),
        "accuracy_by_round": {str(r): acc for r, acc in accuracy_at_rounds(dialogs, max_rounds, LoopDialog.correct_at).items()},
        "rounds_played": len(records),
        "prompt_chars": sum(r["prompt_chars"] for r in records),
        "response_chars": sum(r["response_chars"] for r in records),
    }
    out["final"] = out["accuracy_by_round"][str(max_rounds)]
    for key in ("prompt_tokens", "response_tokens"):
        values = [r.get(key) for r in records]
        out[key] = None if not values or None in values else sum(values)
    verified = [r for r in records if "accepted" in r]
    if verified:
        out["self_verifier"] = {
            "judgements": len(verified),
            "accepted": sum(r["accepted"] is True for r in verified),
            "false_positives": sum(r["accepted"] is True and not r["correct"] for r in verified),
            "false_negatives": sum(r["accepted"] is not True and r["correct"] for r in verified),
        }
    return out


def _numeric_order(value: Any) -> Any:
    """``value`` with every dict's keys sorted, digit-string keys ("1", "2", ..., "10") by number."""
    if isinstance(value, dict):
        keys = sorted(value, key=lambda k: (0, int(k), "") if str(k).isdigit() else (1, 0, str(k)))
        return {k: _numeric_order(value[k]) for k in keys}
    if isinstance(value, list):
        return [_numeric_order(v) for v in value]
    return value


def _write_json(path: Path, obj: Any) -> Path:
    with atomic_file(path) as handle:
        handle.write(json.dumps(_numeric_order(obj), indent=2) + "\n")
    return path


def same_run(old: dict, new: dict) -> list[str]:
    """The facts (model, domain, data, temperature, ...) in which two summaries' runs differ."""
    keys = {k for k in (*old, *new) if k not in ("conditions", "data")}
    differ = [k for k in sorted(keys) if old.get(k) != new.get(k)]
    data_old, data_new = old.get("data") or {}, new.get("data") or {}
    if any(data_old.get(k) != data_new.get(k) for k in ("config", "config_fingerprint")):
        differ.append("data")
    return differ


def prepare_out(out: Path, facts: dict, *, overwrite: bool = False) -> dict[str, dict]:
    """Check ``out`` before a run with ``facts``; returns the summaries of earlier conditions of the
    same run (kept and merged into the new ``summary.json``), or ``{}``.

    A folder holding another run's summary is refused (:class:`LoopError`). With ``overwrite`` the
    run starts afresh: every condition folder, ``summary.json`` and the plot in ``out`` are removed.
    """
    if overwrite:
        for name in CONDITIONS:
            if (out / name / RUN_FILE).is_file():
                shutil.rmtree(out / name)
        for name in (SUMMARY, PLOT):
            (out / name).unlink(missing_ok=True)
        return {}
    path = out / SUMMARY
    if not path.is_file():
        return {}
    try:
        old = json.loads(path.read_text(encoding="utf-8"))
        conditions = dict(old["conditions"])
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError):
        raise LoopError(f"{path}: unreadable; use another --out or --overwrite") from None
    differ = same_run(old, facts)
    if differ:
        raise LoopError(f"{out} holds another run's summary ({', '.join(differ)} differ); use another --out "
                        "or --overwrite to replace it")
    return conditions


def write_summary(out: Path, summaries: dict[str, dict], facts: dict) -> Path:
    """``OUT/summary.json`` (every condition) and ``OUT/<condition>/summary.json``, rounds in numeric order."""
    for condition, summary in summaries.items():
        if (out / condition).is_dir():
            _write_json(out / condition / SUMMARY, {**facts, "condition": condition, **summary})
    return _write_json(out / SUMMARY, {**facts, "conditions": summaries})


# ------------------------------------------------------------------ a whole run
@dataclass
class LoopRun:
    """What :func:`run_loop` did: the conditions in order, each one's summary, the instances, the plot."""

    domain: str
    conditions: list[str]
    summaries: dict[str, dict]
    instances: int
    plot: Path | None
    seconds: float


def loop_conditions(feedback: Sequence[str] | None, sampling: bool) -> list[str]:
    """The conditions to run: the feedback levels given (default ``all_errors``; none when only
    ``sampling`` is asked), then ``sampling``."""
    conditions = list(dict.fromkeys(feedback or ([] if sampling else ["all_errors"])))
    return conditions + ([SAMPLING] if sampling else [])


def run_loop(model: str, domain: str, load_model: Callable[[float], Generate], out: Path, *, model_args: str = "",
             data: str | None = None, limit: int | None = None, feedback: Sequence[str] | None = None,
             sampling: bool = False, max_rounds: int = 15, temperature: float | None = None, overwrite: bool = False,
             apply_chat_template: bool = False, max_gen_toks: int = TURN_MAX_GEN_TOKS,
             progress: Callable[..., Any] | None = None, context: ReadContext = DEFAULT) -> LoopRun:
    """Run (or resume) every condition of a loop run into ``out``, then write ``summary.json`` and the plot.

    ``load_model(temperature)`` returns the generate function; it is called once the data and ``out``
    are checked. ``temperature`` defaults to 1 when ``sampling`` is the only condition, else 0.
    ``progress(items, total, desc)`` (e.g. :func:`finereason.common.progress.progress_bar`) shows a bar per condition.
    ``context``: the run's read context (recorded in ``run.json`` and the summaries).
    """
    if max_rounds < 1 or (limit is not None and limit < 1):
        raise LoopError("--max-rounds and --limit must be at least 1")
    if temperature is not None and temperature < 0:
        raise LoopError(f"--temperature must be >= 0, got {temperature}")
    conditions = loop_conditions(feedback, sampling)
    if temperature is None:
        temperature = 1.0 if conditions == [SAMPLING] else 0.0
    engine = get_engine(domain)
    out = Path(out)
    check_output(out, [("--data", data)])
    if out.exists() and not out.is_dir():
        raise LoopError(f"--out {out} exists and is not a folder")
    rows, source = load_rows(engine.name, data, limit)
    run = {"model": model, "model_args": model_args, "domain": engine.name, "temperature": temperature,
           "apply_chat_template": apply_chat_template, "max_gen_toks": max_gen_toks,
           "data": {k: source.get(k) for k in ("config", "config_fingerprint")}, "read_context": context.to_dict()}
    facts = {**run, "data": source, "max_rounds": max_rounds, "limit": limit}
    summaries = prepare_out(out, facts, overwrite=overwrite)  # earlier conditions of the same run are kept
    generate = load_model(temperature)
    start = time.perf_counter()
    for condition in conditions:
        total = len(rows) * max_rounds
        bar = progress(range(total), total, f"condition {condition}") if progress else None

        def on_round(r: int, active: int, condition: str = condition, bar: Any = bar) -> None:
            where = f"condition {condition}, round {r}/{max_rounds}"
            if getattr(bar, "disable", True):  # no bar (not a terminal): one line per round
                print(f"finereason loop: {where} ({count(active, 'instance')})", file=sys.stderr, flush=True)
            else:
                bar.set_description(where)

        dialogs = run_condition(rows, generate, condition, out / condition, max_rounds=max_rounds, run=run,
                                progress=getattr(bar, "update", None), on_round=on_round if progress else None,
                                context=context)
        getattr(bar, "close", lambda: None)()
        summaries[condition] = summarize_condition(dialogs, max_rounds)
    write_summary(out, summaries, facts)
    picture = plot(out, summaries, f"{engine.name}: {model_title(model, model_args)}")
    return LoopRun(engine.name, conditions, summaries, len(rows), picture, time.perf_counter() - start)


__all__ = ["CONDITIONS", "SAMPLING", "LoopDialog", "LoopError", "LoopRun", "figure", "load_rows", "loop_conditions", "play_round",
           "plot", "prepare_out", "read_transcripts", "run_condition", "run_loop", "same_run", "summarize_condition", "write_summary"]

_RENAMED = {"Dialog": "LoopDialog", "summarize": "summarize_condition"}
__getattr__ = renamed_names(__name__, _RENAMED, globals())  # deprecated names: they work, with a warning

