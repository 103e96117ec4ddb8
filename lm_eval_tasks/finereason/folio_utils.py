"""lm-eval hooks for the FOLIO baselines (``finereason_folio_direct``, ``finereason_folio_cot``).

Data: ``FINEREASON_FOLIO`` (a folder such as ``../shared/folio``, a ``.jsonl`` file or a Hub id),
else the Hub's ``yale-nlp/FOLIO``; split ``validation``. Answers are verified by
``finereason.verification.verifiers.verify_folio``: the last committed True/False/Uncertain after any
``</think>`` against the record's; a hedge or no answer scores 0. The metrics are the metric registry's
(``finereason.verification.metrics``, task ``folio``). The run's read context
(``--metadata '{"starts_in_think": true}'``: the chat template opened ``<think>``, so an answer without
``</think>`` before it is unfinished) is set once when the task loads and recorded as ``metadata.read_context``.
"""
from __future__ import annotations

from typing import Any

from lm_eval.api.task import ConfigurableTask

from finereason.data.folio import cot_prompt, direct_prompt, load_folio_versioned
from finereason.reading.context import RECORD_KEY, ReadContext
from finereason.verification.metrics import FOLIO, task_metrics
from finereason.verification.scoring import RowScore
from finereason.verification.verifiers import verify_folio


class FolioTask(ConfigurableTask):
    """A FOLIO task that reads its answers in the run's read context (recorded in its metadata)."""

    def __init__(self, config: dict | None = None, **kwargs: Any) -> None:
        super().__init__(config={k: v for k, v in (config or {}).items() if k != "class"}, **kwargs)

    def download(self, dataset_kwargs: dict[str, Any] | None = None, **kwargs: Any) -> None:
        self.read_context = ReadContext.from_metadata(self.config.metadata)  # set once per run, recorded
        self.config.metadata = {**(self.config.metadata or {}), RECORD_KEY: self.read_context.to_dict()}
        super().download(dataset_kwargs, **kwargs)

    def process_results(self, doc: dict, results: list[str]) -> dict[str, float]:
        context = getattr(self, "read_context", None) or ReadContext.from_metadata(self.config.metadata)
        return process_results(doc, results, context=context)


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


def process_results(doc: dict, results: list[str], *, context: ReadContext | None = None) -> dict[str, float]:
    """The registry's FOLIO metrics (``acc``, ``parse_error_rate``) of one answer, read in the run's ``context``."""
    verdict = verify_folio(results[0] if results else "", doc["label"], context=context)
    score = RowScore(task=FOLIO, verdict=verdict, paper=None, solvable=None)
    return {m.name: m.row_value(score) for m in task_metrics(FOLIO)}
