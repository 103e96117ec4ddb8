"""lm-eval hooks for the FineReason tasks: thin wrappers over ``finereason.verification.scoring``."""
from __future__ import annotations

from typing import Any

from lm_eval.api.task import ConfigurableTask

from finereason.common.vocabulary import TASKS
from finereason.core.prompts import with_prompt_version
from finereason.core.rows import row_domain, row_puzzle
from finereason.data.resolve import load_config_with_source
from finereason.reading.context import RECORD_KEY, ReadContext
from finereason.verification.metrics import PROCESS, VERDICT, hook_attributes, record_of, set_aggregations, task_metrics
from finereason.verification.process import as_record, process_score, summarize_records
from finereason.verification.scoring import RowScore, aggregate, score_row


class FineReasonTask(ConfigurableTask):
    """A YAML task whose rows come from ``finereason.data.resolve`` (local folder, named Hub repo or the
    embedded default, verified by content) and whose results name that source: ``dataset_path``
    is the folder or repo, ``dataset_name`` the config and ``metadata.data_source`` holds the kind,
    revision and fingerprints. Loading here (not through ``custom_dataset``) also avoids lm-eval's
    "Custom kwargs can be passed to `--metadata`" warning for every task.

    ``metadata.prompt_version`` (set by the generated ``..._<version>`` tasks, or for every task by
    ``--metadata '{"prompt_version": "v1"}'``) re-renders each row's ``prompt``, ``messages`` and
    ``prompt_version`` at that version from the row itself (``finereason.core.prompts.with_prompt_version``),
    so logged samples show what the model saw; without it the stored prompt is used.

    The run's read context (:class:`finereason.reading.context.ReadContext`; ``--metadata
    '{"starts_in_think": true}'`` for chat templates whose prompt already opened ``<think>``, as
    R1-distill's) is set once, when the task loads, and recorded as ``metadata.read_context``, so the
    results file says how its samples were read and re-scoring them (reports, the leaderboard) reads them
    the same way."""

    def __init__(self, config: dict | None = None, **kwargs: Any) -> None:
        # lm-eval passes the YAML dict with its `class` key, which TaskConfig does not know
        super().__init__(config={k: v for k, v in (config or {}).items() if k != "class"}, **kwargs)

    def download(self, dataset_kwargs: dict[str, Any] | None = None, **kwargs: Any) -> None:
        config = (dataset_kwargs or {}).get("config") or self.config.dataset_name
        self.dataset, source, facts = load_config_with_source(config)
        self.config.dataset_path = source.repo or source.path
        self.config.dataset_name = config
        self.read_context = ReadContext.from_metadata(self.config.metadata)  # set once per run, recorded
        self.config.metadata = {**(self.config.metadata or {}), "data_source": facts, RECORD_KEY: self.read_context.to_dict()}
        version = self.config.metadata.get("prompt_version")
        if version:
            self.dataset = self.dataset.map(with_prompt_version, fn_kwargs={"version": str(version)},
                                            keep_in_memory=True, desc=f"prompts {version}")

    def process_results(self, doc: dict, results: list[str]) -> dict[str, Any]:
        """Score in the run's read context (recorded in ``metadata.read_context``)."""
        context = getattr(self, "read_context", None) or ReadContext.from_metadata(self.config.metadata)
        return process_results(doc, results, context=context)


def doc_to_target(doc: dict) -> str:
    return doc.get("label") or ""


def process_results(doc: dict, results: list[str], *, context: ReadContext | None = None,
                    starts_in_think: bool | None = None) -> dict[str, Any]:
    """Every metric of the row's task (``finereason.verification.metrics``): a per-row metric gets its
    float value, the rest the row's record (a compact verdict or process tuple) for ``agg_<name>``.
    ``context``: the run's read context (``starts_in_think=`` is an alias)."""
    response = results[0] if results else ""
    score = score_row(doc, response, context=context, starts_in_think=starts_in_think)
    metrics = task_metrics(score.task)
    records = {VERDICT: score.as_tuple()}
    if any(record_of(m, score.task) == PROCESS for m in metrics):  # where a written solution process first goes wrong
        records[PROCESS] = as_record(process_score(row_domain(doc), row_puzzle(doc), response, context=context,
                                                  starts_in_think=starts_in_think))
    return {m.name: m.row_value(score) if m.per_row else records[record_of(m, score.task)] for m in metrics}


_SUMMARIES = {VERDICT: lambda items: aggregate(RowScore.from_tuple(t) for t in items), PROCESS: summarize_records}
_AGGREGATIONS = set_aggregations(TASKS, _SUMMARIES)

# ``agg_<name>``: the YAMLs' ``!function`` aggregations, served as module attributes.
__getattr__, __dir__ = hook_attributes(__name__, _AGGREGATIONS, lambda: globals())
