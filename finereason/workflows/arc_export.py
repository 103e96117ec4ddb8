"""Outputs of ``finereason arc``: transcripts (one JSON line per item, written whatever the responses
contain) and the SFT data set of successful dialogs in Hub layout, in two configs:

- ``default`` (``data/train-*.parquet``): the whole dialogs (instructions, problem, programs, critic
  feedback), as the actor saw them;
- ``trimmed`` (``trimmed/train-*.parquet``): the traces LLM-ARC trains on: the first user turn is the
  problem alone (the instructions and example are dropped), actor turns lose their ``<think>``
  reasoning, critic feedback stays, so the model learns the write-test-fix loop itself.

SFT data is exported only from a training split: never from the split being evaluated.
:func:`run_folio` is the whole ``finereason arc`` job: load FOLIO, play the dialogs, write the outputs.
Every file goes through :mod:`finereason.common.atomic_io` (replaced only when complete).
"""
from __future__ import annotations

import io
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from ..asp.critic import Limits
from ..common.atomic_io import atomic_file, write_bytes, write_text
from ..common.jsonl_log import append_records, cut_torn_line, read_records
from ..core.literals import strip_thinking
from ..core.prompts import folio_problem_text
from ..data.folio import FolioError, load_folio_versioned
from ..reading.context import DEFAULT, ReadContext
from .arc import ArcError, ArcDialog, clean_text, round_statistics, run_arc, summarize_arc
from .rounds import SUMMARY, TRANSCRIPTS

RESPONSES = "responses.jsonl"
"""The run's resumable log in OUT: its settings, then every actor response as it arrives (fsync'd)."""


SFT_CARD = """---
license: cc-by-sa-4.0
configs:
- config_name: default
  data_files:
  - split: train
    path: data/train-*.parquet
- config_name: trimmed
  data_files:
  - split: train
    path: trimmed/train-*.parquet
---
# LLM-ARC successful dialogs (FOLIO {version}, {split} split)

{count} actor-critic dialogs written by `finereason arc` on the FOLIO {version} {split} split whose final
program passed every one of its tests and answered the conclusion correctly (the LLM-ARC-Trained
setting). Columns: `id`, `story_id`, `label`, `rounds` (actor turns), `messages` (user/assistant turns).

- `default`: the whole dialogs: instructions and problem, programs, critic feedback.
- `trimmed`: the first turn is the problem alone; actor turns without their `<think>` reasoning.

Derived from FOLIO (Han et al. 2022), CC BY-SA 4.0: this data set is shared under the same license.
"""


def write_transcripts(dialogs: Sequence[ArcDialog], path: Path) -> None:
    """One JSON line per dialog; text that cannot be encoded (lone surrogates) is replaced, never fatal."""
    with atomic_file(path, errors="replace") as handle:
        for d in dialogs:
            handle.write(json.dumps(d.transcript(), ensure_ascii=False, sort_keys=True) + "\n")


def trimmed_messages(dialog: ArcDialog) -> list[dict]:
    """The trimmed trace of a dialog (see the module docstring)."""
    out = []
    for i, m in enumerate(dialog.messages):
        if i == 0 and m["role"] == "user":
            out.append({"role": "user", "content": folio_problem_text(dialog.doc)})
        elif m["role"] == "assistant":
            out.append({"role": "assistant", "content": (strip_thinking(m["content"]) or m["content"]).strip()})
        else:
            out.append(dict(m))
    return out


def export_sft(dialogs: Sequence[ArcDialog], out: Path, *, split: str = "train", version: str = "") -> int:
    """Write the successful dialogs in Hub layout (both configs); returns how many were written."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pa.schema([("id", pa.string()), ("story_id", pa.string()), ("label", pa.string()), ("rounds", pa.int32()),
                        ("messages", pa.list_(pa.struct([("role", pa.string()), ("content", pa.string())])))])
    winners = [d for d in dialogs if d.success]
    for folder, messages in (("data", lambda d: d.messages), ("trimmed", trimmed_messages)):
        rows = [{"id": d.doc["id"], "story_id": str(d.doc.get("story_id", "")), "label": d.doc["label"],
                 "rounds": len(d.rounds),
                 "messages": [{"role": m["role"], "content": clean_text(m["content"])} for m in messages(d)]}
                for d in winners]
        buffer = io.BytesIO()
        pq.write_table(pa.Table.from_pylist(rows, schema=schema), buffer,
                       compression="zstd", write_statistics=False, store_schema=False)
        write_bytes(out / folder / "train-00000-of-00001.parquet", buffer.getvalue())
    card = SFT_CARD.replace("{count}", str(len(winners))).replace("{split}", split).replace("{version}", version or "")
    write_text(out / "README.md", card.replace("FOLIO  ", "FOLIO "))
    return len(winners)


def read_responses(path: Path, settings: dict) -> dict[tuple[str, int], str]:
    """The responses an interrupted run with the same ``settings`` recorded in ``path`` (``{(id, round):
    response}``), after cutting a torn last line; a new log (its first record: the settings) when there is
    none. A log of other settings is refused (:class:`ArcError`): use another ``--out`` or delete it."""
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        append_records(path, [{"settings": settings}])
        return {}
    cut_torn_line(path)
    records = read_records(path, "arc responses log", ArcError)
    old = records[0][1].get("settings") if records and isinstance(records[0][1], dict) else None
    if old != json.loads(json.dumps(settings)):
        differ = sorted(k for k in settings if not isinstance(old, dict) or old.get(k) != settings[k]) or ["settings"]
        raise ArcError(f"{path} holds another run ({', '.join(differ)} differ): use another --out or delete it")
    recorded: dict[tuple[str, int], str] = {}
    for lineno, rec in records[1:]:
        if not (isinstance(rec, dict) and isinstance(rec.get("id"), str) and isinstance(rec.get("round"), int)
                and isinstance(rec.get("response"), str)):
            raise ArcError(f"{path}:{lineno}: not an arc response record (id, round, response)")
        recorded[(rec["id"], rec["round"])] = rec["response"]
    return recorded


@dataclass
class ArcRun:
    """What :func:`run_folio` did: the summary written to ``summary.json`` (accuracy by round, round
    statistics, run facts, ``sft_exported``), the dialogs, the FOLIO release and the time taken."""

    summary: dict[str, Any]
    dialogs: list[ArcDialog]
    version: str
    seconds: float


def run_folio(load_model: Callable[[], Callable], out: Path, *, model: str, model_args: str = "", data: str | None = None,
              split: str = "validation", limit: int | None = None, rounds: int = 4, time_limit: float = 10.0,
              jobs: int = 1, tests: bool = True, sft_out: Path | None = None, progress: Callable[..., Any] | None = None,
              context: ReadContext = DEFAULT) -> ArcRun:
    """LLM-ARC on FOLIO ``split``: ``OUT/transcripts.jsonl``, ``OUT/summary.json`` and, when
    ``sft_out`` is given, the successful dialogs there (:func:`export_sft`).

    ``load_model()`` returns the generate function; it is called once FOLIO is loaded.
    ``progress(items, total, desc)`` (e.g. :func:`finereason.common.progress.progress_bar`) shows the rounds.
    ``context``: the run's read context (the actor's responses are read in it; recorded in the summary).
    """
    try:
        docs, version = load_folio_versioned(data, split)
    except (FolioError, OSError) as err:
        raise ArcError(str(err)) from None
    docs = docs[:limit] if limit else docs
    generate = load_model()
    bar = progress(range(rounds), rounds, "arc rounds") if progress else None
    update = getattr(bar, "update", None)
    start = time.perf_counter()
    out = Path(out)
    settings = {"model": model, "model_args": model_args, "split": split, "folio_version": version, "limit": limit,
                "rounds": rounds, "tests": tests, "read_context": context.to_dict()}
    recorded = read_responses(out / RESPONSES, settings)
    dialogs = run_arc(docs, generate, rounds=rounds, limits=Limits(time_s=time_limit), jobs=jobs, tests=tests,
                      progress=(lambda r, n: update(1)) if update else None, context=context, recorded=recorded,
                      record=lambda records: append_records(out / RESPONSES, records))
    getattr(bar, "close", lambda: None)()
    write_transcripts(dialogs, out / TRANSCRIPTS)
    summary: dict[str, Any] = summarize_arc(dialogs, rounds)
    summary.update({"model": model, "model_args": model_args, "split": split, "rounds": rounds,
                    "folio_version": version, "tests": tests, "read_context": context.to_dict(),
                    "round_statistics": round_statistics(dialogs, rounds)})
    summary["sft_exported"] = export_sft(dialogs, Path(sft_out), split=split, version=version) if sft_out else None
    write_text(out / SUMMARY, json.dumps(summary, indent=2, sort_keys=True) + "\n")
    return ArcRun(summary, dialogs, version, time.perf_counter() - start)
