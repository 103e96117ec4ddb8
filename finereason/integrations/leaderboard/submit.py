"""``finereason leaderboard submit``: a validated request file and results file in the layout of the
Hugging Face leaderboard template (``ORG/requests`` and ``ORG/results`` data sets).

A submission is keyed by (model, revision, precision); each suite is its own request::

    requests/<org>/<name>_eval_request_False_<precision>_<weight_type>_<revision>_<suite>.json
    {"model": ..., "base_model": ..., "revision": ..., "precision": ..., "weight_type": ..., "suite": ...,
     "status": "PENDING", "submitted_time": "2026-01-01T00:00:00Z", ...}

Results (with the logged samples beside them, when the run has them)::

    results/<org>/<name>/<revision>_<precision>_<suite>/results_<time>.json
    {"config": {"model_name": ..., "model_sha": ..., "model_dtype": ..., "revision": ..., "precision": ...,
                "suite": ..., "data_source": ..., "read_context": {...}, "n_samples": {task: n},
                "counts": {task: {...}}},
     "results": {task: {metric: value}}}

A submission is refused (one line naming the reason) unless every task of the suite is present, the
run had no ``--limit``, every task version and the prompt version are current, and every task names
the same data fingerprint in its ``metadata.data_source`` and was read in the same read context
(``read_context``: how responses were read, e.g. ``starts_in_think``; recorded in the request and results).
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Sequence

from ...common.atomic_io import owned_files, write_text
from ...common.deprecated import renamed_names
from ...common.redact import redact
from ...core.prompts import PROMPT_VERSION
from ...reading.context import ReadContext
from ..lm_eval.results import clean_metrics as _clean_metrics
from . import LeaderboardError
from .stats import sample_counts
from .suites import DEFAULT_SUITE, suite_tasks, task_version

PRECISIONS = ("float16", "bfloat16", "float32", "8bit", "4bit", "GPTQ", "Missing")
WEIGHT_TYPES = ("Original", "Delta", "Adapter")


@dataclass
class Submission:
    """What ``submit`` wrote (or would upload)."""

    request: dict[str, Any]
    results: dict[str, Any]
    request_path: Path
    results_path: Path
    samples: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    uploaded: list[str] = field(default_factory=list)


def recorded_starts_in_think(meta: Any) -> bool:
    """``starts_in_think`` of the read context recorded with a run: a task's lm-eval metadata
    (:meth:`ReadContext.from_metadata`) or a submission's ``read_context`` record; false when absent."""
    if not isinstance(meta, dict):
        return False
    if "read_context_version" in meta:
        return ReadContext.from_dict(meta).starts_in_think
    return ReadContext.from_metadata(meta).starts_in_think


def _model_choice(models: list, wanted: str | None):
    if wanted is None:
        if len(models) > 1:
            raise LeaderboardError(f"the results hold {len(models)} models ({', '.join(m.title for m in models)}); "
                                   "choose one with --model")
        return models[0]
    for model in models:
        if wanted in (model.title, model.key[0]):
            return model
    raise LeaderboardError(f"no model {wanted!r} in the results (found: {', '.join(m.title for m in models)})")


def _precision(args: str) -> str:
    dtype = dict(p.split("=", 1) for p in args.split(",") if "=" in p).get("dtype", "")
    for name in PRECISIONS:
        if name.lower() in dtype.lower():
            return name
    return {"half": "float16", "fp16": "float16", "bf16": "bfloat16", "float": "float32"}.get(dtype.lower(), "Missing")


def _check_samples(path: Path | None, task: str) -> int:
    """Rows whose prompt version is not current (0 when all are current)."""
    from ...common.jsonl import iter_json_lines

    stale = 0
    for _, record in iter_json_lines(str(path), f"samples of {task}", LeaderboardError):
        doc = record.get("doc") if isinstance(record, dict) else None
        if isinstance(doc, dict) and doc.get("prompt_version") not in (None, PROMPT_VERSION):
            stale += 1
    return stale


def validate(model, suite: str) -> tuple[dict[str, dict[str, float]], dict[str, Any], list[str]]:
    """(results per task, data-source facts, warnings) for ``model`` on ``suite``; raises on anything
    that makes the numbers incomparable."""
    tasks = suite_tasks(suite)
    missing = [t for t in tasks if t not in model.tasks]
    if missing:
        raise LeaderboardError(f"{model.title}: suite {suite} needs all {len(tasks)} tasks; missing {', '.join(missing)}")
    results: dict[str, dict[str, float]] = {}
    sources: dict[str, dict] = {}
    warnings: list[str] = []
    unchecked: list[str] = []
    for task in tasks:
        result = model.tasks[task]
        data = result.run
        limit = (data.get("config") or {}).get("limit")
        counts = (data.get("n-samples") or {}).get(task) or {}
        if limit not in (None, 0) or (counts and counts.get("effective") != counts.get("original")):
            shown = int(limit) if isinstance(limit, float) and limit.is_integer() else limit
            raise LeaderboardError(f"{task}: refused: the run used --limit {shown} ({counts.get('effective')} of "
                                   f"{counts.get('original')} items; lm-eval config.limit in {result.results_file.name}); "
                                   "a leaderboard entry must cover every item")
        version, current = (data.get("versions") or {}).get(task), task_version(task)
        if current is not None and str(version) != current:
            raise LeaderboardError(f"{task}: task version {version} is not the current {current}; re-run with this finereason")
        meta = ((data.get("configs") or {}).get(task) or {}).get("metadata") or {}
        source = meta.get("data_source")
        if not isinstance(source, dict) or not source.get("fingerprint"):
            raise LeaderboardError(f"{task}: no data fingerprint in the results (metadata.data_source); "
                                   "re-run with this finereason, which records it")
        sources[task] = source
        if result.samples_file is None:
            unchecked.append(task)
        else:
            stale = _check_samples(result.samples_file, task)
            if stale:
                raise LeaderboardError(f"{task}: {stale} rows were made with an old prompt version (current {PROMPT_VERSION}); "
                                       "rebuild the data and re-run")
        results[task] = _clean_metrics(result.metrics)
    prints = {s["fingerprint"] for s in sources.values()}
    if len(prints) > 1:
        raise LeaderboardError(f"the tasks were run on {len(prints)} different data sets (fingerprints "
                               f"{', '.join(sorted(p[:12] for p in prints))}); run the whole suite on one")
    if unchecked:
        warnings.append(f"prompt version not checked for {len(unchecked)} tasks without samples "
                        "(run lm-eval with --log_samples to check it)")
    first = next(iter(sources.values()))
    facts = {k: first[k] for k in ("kind", "fingerprint", "repo", "revision") if first.get(k) is not None}
    facts["config_fingerprints"] = {t: s.get("config_fingerprint") for t, s in sources.items()}
    return results, facts, warnings


def _read_context(model, tasks) -> Any:
    """The one read context the suite's tasks were scored in (a submission records it)."""
    contexts = {model.tasks[t].context for t in tasks}
    if len(contexts) > 1:
        raise LeaderboardError(f"the tasks were read in {len(contexts)} different read contexts "
                               f"({', '.join(sorted(c.describe() for c in contexts))}); run the whole suite in one")
    return contexts.pop()


def _safe(part: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", part).strip("._") or "model"


def submit(paths: Sequence[str | os.PathLike], repo_id: str, *, out: str | os.PathLike = "finereason_submission",
           suite: str = DEFAULT_SUITE, model: str | None = None, model_name: str | None = None,
           base_model: str = "", revision: str = "main", precision: str | None = None,
           weight_type: str | None = None, model_type: str | None = None, params: float | None = None,
           results_repo_id: str | None = None, dry_run: bool = False,
           now: datetime | None = None) -> Submission:
    """Validate ``paths`` (lm-eval output) and write the request and results files under ``out``;
    upload them when not ``dry_run`` and the Hub is reachable (``HF_HUB_OFFLINE`` unset)."""
    from ..report.results import ReportError, load_models

    if not re.fullmatch(r"[A-Za-z0-9][\w.-]*/[\w.-]+", repo_id or ""):
        raise LeaderboardError(f"--repo-id must be ORG/NAME, got {repo_id!r}")
    try:
        models, _ = load_models(paths)
    except ReportError as err:
        raise LeaderboardError(str(err)) from None
    chosen = _model_choice(models, model)
    results, facts, warnings = validate(chosen, suite)
    name = model_name or chosen.title
    args = chosen.key[1]
    precision = precision or _precision(args)
    weight_type = weight_type or ("Adapter" if "peft=" in args else "Delta" if "delta=" in args else "Original")
    model_type = model_type or ("baseline" if chosen.key[0].startswith("finereason-") else "")
    if params is not None and not (params > 0 and params == params):
        raise LeaderboardError(f"--params must be a positive number of billions, got {params}")
    context = _read_context(chosen, results)
    counts = {t: c for t in results if (c := sample_counts(chosen.tasks[t].samples_file, chosen.tasks[t].task,
                                                             chosen.tasks[t].suite, chosen.tasks[t].puzzle, context))}
    when = (now or datetime.now(timezone.utc)).strftime("%Y-%m-%dT%H:%M:%SZ")
    org, _, short = name.rpartition("/")
    request = {"model": name, "base_model": base_model, "revision": revision, "precision": precision,
               "weight_type": weight_type, "status": "PENDING", "submitted_time": when, "model_type": model_type,
               "likes": 0, "params": params or 0, "license": "", "private": False, "suite": suite,
               "lm_eval_model": chosen.key[0], "model_args": redact(args), "prompt_version": PROMPT_VERSION,
               "data_fingerprint": facts["fingerprint"], "read_context": context.to_dict()}
    payload = {"config": {"model_name": name, "model_sha": revision, "model_dtype": f"torch.{precision}"
                          if precision in ("float16", "bfloat16", "float32") else precision,
                          "revision": revision, "precision": precision, "weight_type": weight_type,
                          "model_type": model_type, "params": params, "submitted_time": when,
                          "suite": suite, "prompt_version": PROMPT_VERSION, "task_versions":
                          {t: task_version(t) for t in results}, "data_source": facts,
                          "read_context": context.to_dict(),
                          "n_samples": {t: chosen.tasks[t].n for t in results}, "counts": counts},
               "results": results}
    root = Path(out)
    sub = [_safe(org)] if org else []
    stamp = when.replace(":", "-")
    request_path = root.joinpath("requests", *sub, f"{_safe(short)}_eval_request_False_{precision}_{weight_type}_"
                                 f"{_safe(revision)}_{suite}.json")
    results_path = root.joinpath("results", *sub, _safe(short), f"{_safe(revision)}_{precision}_{suite}",
                                 f"results_{stamp}.json")
    samples = []
    # The suite's results folder is owned through a manifest: a re-submission replaces the files the
    # earlier one wrote there and never touches a file it did not write.
    with owned_files(results_path.parent) as files:
        files.write_text(results_path.name, json.dumps(payload, indent=2, sort_keys=False) + "\n")
        for task in results:
            source = chosen.tasks[task].samples_file
            if source is not None:
                samples.append(results_path.parent / f"samples_{task}_{stamp}.jsonl")
                files.copy(source, samples[-1].name)
    request_path.parent.mkdir(parents=True, exist_ok=True)
    write_text(request_path, json.dumps(request, indent=2, sort_keys=False) + "\n")
    done = Submission(request, payload, request_path, results_path, samples, warnings)
    if not dry_run and not _offline():
        done.uploaded = _upload(done, root, repo_id, results_repo_id or _results_repo(repo_id))
    return done


def _offline() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in ("1", "true", "yes", "on")


def _results_repo(repo_id: str) -> str:
    org, _, name = repo_id.partition("/")
    return f"{org}/{name[:-len('requests')]}results" if name.endswith("requests") else repo_id


def _upload(done: Submission, root: Path, requests_repo: str, results_repo: str) -> list[str]:
    try:
        from huggingface_hub import HfApi
    except ImportError as err:
        raise LeaderboardError(f"uploading needs huggingface_hub: pip install '.[hub]' in the finereason checkout ({err.name} missing)") from None
    api = HfApi()
    urls = []
    files = [(done.request_path, root / "requests", requests_repo), (done.results_path, root / "results", results_repo)]
    files += [(path, root / "results", results_repo) for path in done.samples]
    for path, base, repo in files:
        try:
            api.upload_file(path_or_fileobj=str(path), path_in_repo=path.relative_to(base).as_posix(), repo_id=repo,
                            repo_type="dataset", commit_message=f"Add {done.request['model']} ({done.request['suite']})")
        except Exception as err:  # noqa: BLE001  (network, auth, missing repo: one line)
            raise LeaderboardError(f"upload to {repo} failed ({type(err).__name__}: {redact(str(err).splitlines()[0] if str(err) else '')}); "
                                   f"the files are in {root}") from None
        if path.suffix == ".json":
            urls.append(f"https://huggingface.co/datasets/{repo}/blob/main/{path.relative_to(base).as_posix()}")
    return urls


# deprecated: the one reader's clean_metrics, under its old name here
__getattr__ = renamed_names(__name__, {"clean_metrics": "clean_metrics"}, {"clean_metrics": _clean_metrics},
                            moved_to="finereason.integrations.lm_eval.results")
