"""lm-eval hooks for the FineReason tasks: thin wrappers over ``finereason.verification.scoring``."""
from __future__ import annotations

from typing import Any

from lm_eval.api.task import ConfigurableTask

from finereason.common.vocabulary import TASKS
from finereason.core.prompts import with_prompt_version
from finereason.core.rows import row_puzzle
from finereason.data.resolve import load_config_with_source
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
    so logged samples show what the model saw; without it the stored prompt is used."""

    def __init__(self, config: dict | None = None, **kwargs: Any) -> None:
        # lm-eval passes the YAML dict with its `class` key, which TaskConfig does not know
        super().__init__(config={k: v for k, v in (config or {}).items() if k != "class"}, **kwargs)

    def download(self, dataset_kwargs: dict[str, Any] | None = None, **kwargs: Any) -> None:
        config = (dataset_kwargs or {}).get("config") or self.config.dataset_name
        self.dataset, source, facts = load_config_with_source(config)
        self.config.dataset_path = source.repo or source.path
        self.config.dataset_name = config
        self.config.metadata = {**(self.config.metadata or {}), "data_source": facts}
        version = self.config.metadata.get("prompt_version")
        if version:
            self.dataset = self.dataset.map(with_prompt_version, fn_kwargs={"version": str(version)},
                                            keep_in_memory=True, desc=f"prompts {version}")

    def process_results(self, doc: dict, results: list[str]) -> dict[str, Any]:
        """Score with ``starts_in_think`` from the run's metadata (``--metadata '{"starts_in_think":
        true}'`` for chat templates whose prompt already opened ``<think>``, as R1-distill's)."""
        return process_results(doc, results, starts_in_think=bool((self.config.metadata or {}).get("starts_in_think")))


def doc_to_target(doc: dict) -> str:
    return doc.get("label") or ""


def process_results(doc: dict, results: list[str], *, starts_in_think: bool = False) -> dict[str, Any]:
    """Every metric of the row's task (``finereason.verification.metrics``): a per-row metric gets its
    float value, the rest the row's record (a compact verdict or process tuple) for ``agg_<name>``."""
    response = results[0] if results else ""
    score = score_row(doc, response, starts_in_think=starts_in_think)
    metrics = task_metrics(score.task)
    records = {VERDICT: score.as_tuple()}
    if any(record_of(m, score.task) == PROCESS for m in metrics):  # where a written solution process first goes wrong
        records[PROCESS] = as_record(process_score(doc["puzzle"], row_puzzle(doc), response, starts_in_think=starts_in_think))
    return {m.name: m.row_value(score) if m.per_row else records[record_of(m, score.task)] for m in metrics}


_SUMMARIES = {VERDICT: lambda items: aggregate(RowScore.from_tuple(t) for t in items), PROCESS: summarize_records}
_AGGREGATIONS = set_aggregations(TASKS, _SUMMARIES)

# ``agg_<name>``: the YAMLs' ``!function`` aggregations, served as module attributes.
__getattr__, __dir__ = hook_attributes(__name__, _AGGREGATIONS, lambda: globals())
