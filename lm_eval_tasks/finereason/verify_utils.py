"""lm-eval hooks for the LLM-as-verifier tasks ``finereason_verify_<domain>``: thin wrappers over
:mod:`finereason.verification.llm_verifier` (candidates, prompt, verdict reader, metrics).

The documents are made from the domain's end-to-end rows when the task loads (same data source as the
end-to-end task). ``--metadata`` options: ``verify_seed`` (int, default 0: which mutations are drawn)
and ``candidates`` (a JSON Lines file of ``{"id": end-to-end row id, "response": text}``: a real model's
answers, added as ``model`` candidates) and ``starts_in_think`` (the chat template opened ``<think>``: a
verdict without ``</think>`` before it is no verdict, and a ``candidates`` answer without it is no
solution), the run's read context, recorded as ``metadata.read_context``.
"""
from __future__ import annotations

from typing import Any

from lm_eval.api.task import ConfigurableTask

from finereason.data.resolve import load_config_with_source
from finereason.reading.context import RECORD_KEY, ReadContext
from finereason.verification.llm_verifier import read_model_answers, score_verify, summarize_verify, verify_docs
from finereason.verification.metrics import VERIFY, VERIFY_RECORD, hook_attributes, set_aggregations, task_metrics


class VerifyTask(ConfigurableTask):
    """A verify task whose documents are candidates made from ``dataset_kwargs.config`` (end-to-end rows)."""

    def __init__(self, config: dict | None = None, **kwargs: Any) -> None:
        super().__init__(config={k: v for k, v in (config or {}).items() if k != "class"}, **kwargs)

    def download(self, dataset_kwargs: dict[str, Any] | None = None, **kwargs: Any) -> None:
        from datasets import Dataset, DatasetDict

        config = (dataset_kwargs or {}).get("config") or self.config.dataset_name
        data, source, facts = load_config_with_source(config)
        meta = self.config.metadata or {}
        seed = int(meta.get("verify_seed", 0))
        answers = read_model_answers(meta["candidates"]) if meta.get("candidates") else None
        self.read_context = ReadContext.from_metadata(meta)  # set once per run, recorded; model candidates read in it
        self.dataset = DatasetDict({split: Dataset.from_list(verify_docs(data[split].to_list(), seed, answers,
                                                                         context=self.read_context))
                                    for split in data})
        self.config.dataset_path = source.repo or source.path
        self.config.dataset_name = config
        self.config.metadata = {**meta, "data_source": facts, RECORD_KEY: self.read_context.to_dict()}

    def process_results(self, doc: dict, results: list[str]) -> dict[str, Any]:
        context = getattr(self, "read_context", None) or ReadContext.from_metadata(self.config.metadata)
        return process_results(doc, results, context=context)


def process_results(doc: dict, results: list[str], *, context: ReadContext | None = None) -> dict[str, Any]:
    """Every verify metric (``finereason.verification.metrics``): a per-row metric (``acc``) gets its
    float value per document, the others the verdict tuple, aggregated by ``agg_<name>`` below;
    ``context``: the run's read context."""
    score = score_verify(doc, results[0] if results else "", context=context)
    record = score.as_tuple()
    return {m.name: m.row_value(score) if m.per_row else record for m in task_metrics(VERIFY)}


_AGGREGATIONS = set_aggregations((VERIFY,), {VERIFY_RECORD: summarize_verify})

# ``agg_<name>``: the YAMLs' ``!function`` aggregations, served as module attributes.
__getattr__, __dir__ = hook_attributes(__name__, _AGGREGATIONS, lambda: globals())
