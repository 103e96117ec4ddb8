"""``finereason rescore``: sound verdicts for responses other tools recorded, beside the recorded ones.

Each source format is one adapter module of this package, registered by name in :data:`FORMATS`:
``NAME``, ``HELP`` and ``read(paths, options, progress)``, which yields one
:class:`~.records.Rescored` record per recorded response, streaming. :func:`rescore` writes the run's
outputs into a folder (atomically): ``verdicts.jsonl`` (one line per response), ``summary.md``,
``summary.csv``, ``summary.json`` and ``verifier.csv`` (:mod:`.summary`), ``disagreements.html`` and
``accuracy.png`` (:mod:`.page`; the picture only with matplotlib). Identical inputs give identical bytes.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ...common.atomic_io import atomic_dir
from ...common.input_errors import InputError
from ...common.progress import Progress, no_progress
from . import jsonl_format, lm_eval_samples, planbench
from .dialogs import dialog_formats
from .page import PAGE, PLOT, item, write_page, write_plot
from .records import Rescored
from .summary import VERIFIER_COLUMNS, Tally, summary_csv, summary_json, summary_markdown

#: every format by name: the adapters of this package, and each domain's recorded dialogs (e.g. gpt-and-i)
FORMATS: dict[str, Any] = {m.NAME: m for m in (planbench, *dialog_formats(), lm_eval_samples, jsonl_format)}
OUTPUTS = ("verdicts.jsonl", "summary.md", "summary.csv", "summary.json", "verifier.csv", PAGE, PLOT)


def get_format(name: str) -> Any:
    """The adapter registered as ``name``; :class:`InputError` naming the known ones otherwise."""
    try:
        return FORMATS[name]
    except KeyError:
        raise InputError(f"unknown rescore format {name!r} (known: {', '.join(FORMATS)})") from None


def rescore(fmt: str, paths: list[str], out: str | Path, options: Any = None, *,
            progress: Progress = no_progress) -> dict[str, Any]:
    """Rescore the recorded responses of ``paths`` (format ``fmt``) into the folder ``out`` (which must be
    absent or empty); ``options``: the adapter's options (an object with attributes, e.g. the command's
    ``argparse.Namespace``). Returns ``{"summary": [...], "verifier": [...], "responses": n}``."""
    adapter = get_format(fmt)
    if not paths:
        raise InputError("rescore needs at least one input file")
    tally = Tally()
    count = 0
    with atomic_dir(out) as folder:
        pending = folder / ".disagreements.jsonl"  # the page's records, kept on disk while the input streams
        with open(folder / "verdicts.jsonl", "w", encoding="utf-8", newline="\n") as lines, \
                open(pending, "w", encoding="utf-8", newline="\n") as differing:
            for record in adapter.read(list(paths), options, progress):
                tally.add(record)
                line = record.line()
                lines.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")
                if record.recorded is not None and record.sound is not None and record.recorded != record.sound:
                    differing.write(json.dumps(item(line, record.response), sort_keys=True) + "\n")
                count += 1
        if not count:
            raise InputError(f"no recorded responses found in {', '.join(paths)} (format {fmt})")
        summary, verifier = tally.summary(), tally.verifier()
        title = f"Rescored {fmt} results"
        _write(folder / "summary.md", summary_markdown(summary, verifier, title))
        _write(folder / "summary.csv", summary_csv(summary))
        _write(folder / "verifier.csv", summary_csv(verifier, VERIFIER_COLUMNS))
        _write(folder / "summary.json", summary_json(summary, verifier, {"format": fmt, "responses": count}))
        with open(pending, encoding="utf-8") as records, open(folder / PAGE, "w", encoding="utf-8", newline="\n") as page:
            write_page(page, (json.loads(x) for x in records), f"{title}: disagreements")
        pending.unlink()
        write_plot(folder / PLOT, summary, title)
    return {"summary": summary, "verifier": verifier, "responses": count}


def _write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8", newline="\n")


__all__ = ["FORMATS", "OUTPUTS", "Rescored", "get_format", "rescore"]
