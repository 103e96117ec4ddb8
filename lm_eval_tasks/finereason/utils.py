"""lm-eval hooks for the FineReason tasks: thin wrappers over ``finereason.evaluation``."""
from __future__ import annotations

from typing import Any

from finereason.data import load_config as _load_config
from finereason.evaluation import RowScore, aggregate, metric_names, score_row


def load_config(config: str, **kwargs: Any) -> Any:
    """``custom_dataset`` hook: local folder, Hub, or the embedded default (see finereason.data)."""
    return _load_config(config, **kwargs)


def doc_to_target(doc: dict) -> str:
    return doc.get("label") or ""


def process_results(doc: dict, results: list[str]) -> dict[str, Any]:
    """Every metric of the row's task; the means are floats, the rest a compact verdict tuple."""
    score = score_row(doc, results[0] if results else "")
    record = score.as_tuple()
    out: dict[str, Any] = {}
    for name in metric_names(doc["task"]):
        if name == "acc":
            out[name] = float(score.verdict.correct)
        elif name == "parse_error_rate":
            out[name] = float(score.verdict.parse_error)
        elif name == "acc_paper":
            out[name] = float(score.paper.correct)
        elif name.startswith("rate_"):
            out[name] = float(score.verdict.category == name[len("rate_"):])
        else:
            out[name] = record
    return out


def _aggregator(name: str):
    def aggregate_metric(items: list) -> float:
        return aggregate(RowScore.from_tuple(t) for t in items).get(name, 0.0)

    aggregate_metric.__name__ = f"agg_{name}"
    return aggregate_metric


agg_precision_unsolvable = _aggregator("precision_unsolvable")
agg_recall_unsolvable = _aggregator("recall_unsolvable")
agg_f1_unsolvable = _aggregator("f1_unsolvable")
agg_acc_solvable = _aggregator("acc_solvable")
agg_acc_unsolvable = _aggregator("acc_unsolvable")
