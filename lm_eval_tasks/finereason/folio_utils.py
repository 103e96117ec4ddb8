"""lm-eval hooks for the FOLIO baselines (``finereason_folio_direct``, ``finereason_folio_cot``).

Data: ``FINEREASON_FOLIO`` (a folder such as ``../shared/folio``, a ``.jsonl`` file or a Hub id),
else the Hub's ``yale-nlp/FOLIO``; split ``validation``. Answers are read by
``finereason.data.folio.read_label``: the last committed True/False/Uncertain after any ``</think>``;
a hedge or no answer scores 0.
"""
from __future__ import annotations

from typing import Any

from finereason.data.folio import cot_prompt, direct_prompt, load_folio_versioned, read_label
from finereason.verification.aggregation import ACC, PARSE_ERROR_RATE


def load_dataset(**kwargs: Any) -> Any:
    """``custom_dataset`` hook: FOLIO validation as a ``DatasetDict`` (``source=`` in metadata overrides).
    Says which release it loaded (v2 or v0.0: accuracies are comparable only within one), and each
    row carries it as ``folio_version``."""
    import sys

    import datasets

    rows, version = load_folio_versioned(kwargs.get("source"), "validation")
    print(f"finereason: FOLIO {version} validation ({len(rows)} items); accuracies are on this release", file=sys.stderr)
    rows = [{**r, "folio_version": version} for r in rows]
    return datasets.DatasetDict({"validation": datasets.Dataset.from_list(rows)})


def doc_to_text_direct(doc: dict) -> str:
    return direct_prompt(doc)


def doc_to_text_cot(doc: dict) -> str:
    return cot_prompt(doc)


def process_results(doc: dict, results: list[str]) -> dict[str, float]:
    answer = read_label(results[0] if results else "")
    return {ACC: float(answer == doc["label"]), PARSE_ERROR_RATE: float(answer is None)}
