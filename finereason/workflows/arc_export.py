"""Outputs of ``finereason arc``: transcripts (one JSON line per item, written whatever the responses
contain) and the SFT data set of successful dialogs in Hub layout, in two configs:

- ``default`` (``data/train-*.parquet``): the whole dialogs (instructions, problem, programs, critic
  feedback), as the actor saw them;
- ``trimmed`` (``trimmed/train-*.parquet``): the traces LLM-ARC trains on: the first user turn is the
  problem alone (the instructions and example are dropped), actor turns lose their ``<think>``
  reasoning, critic feedback stays, so the model learns the write-test-fix loop itself.

SFT data is exported only from a training split: never from the split being evaluated.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence

from ..core.literals import strip_thinking
from .arc import Dialog, clean_text
from ..data.folio import problem_text

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


def write_transcripts(dialogs: Sequence[Dialog], path: Path) -> None:
    """One JSON line per dialog; text that cannot be encoded (lone surrogates) is replaced, never fatal."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", errors="replace") as handle:
        for d in dialogs:
            handle.write(json.dumps(d.transcript(), ensure_ascii=False, sort_keys=True) + "\n")


def trimmed_messages(dialog: Dialog) -> list[dict]:
    """The trimmed trace of a dialog (see the module docstring)."""
    out = []
    for i, m in enumerate(dialog.messages):
        if i == 0 and m["role"] == "user":
            out.append({"role": "user", "content": problem_text(dialog.doc)})
        elif m["role"] == "assistant":
            out.append({"role": "assistant", "content": (strip_thinking(m["content"]) or m["content"]).strip()})
        else:
            out.append(dict(m))
    return out


def export_sft(dialogs: Sequence[Dialog], out: Path, *, split: str = "train", version: str = "") -> int:
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
        (out / folder).mkdir(parents=True, exist_ok=True)
        pq.write_table(pa.Table.from_pylist(rows, schema=schema), str(out / folder / "train-00000-of-00001.parquet"),
                       compression="zstd", write_statistics=False, store_schema=False)
    card = SFT_CARD.replace("{count}", str(len(winners))).replace("{split}", split).replace("{version}", version or "")
    (out / "README.md").write_text(card.replace("FOLIO  ", "FOLIO "), encoding="utf-8")
    return len(winners)
