"""Compare models after GRPO in the layout of FineReason's Table 5: does puzzle training transfer to math?

Runs lm-eval through ``finereason eval`` (our task folder added) once per model on GSM8K, MATH and the
``finereason`` group, then writes ``comparison.md`` / ``comparison.json``: one row per model (base,
math only, mixed, ratio variants, in the order given), columns GSM8K, MATH, FineReason SC, FineReason
ST and FineReason (the overall score of the ``finereason`` group; accuracy in %), then one row per later
model with its difference from the first.

    python trainers/evaluate_checkpoint.py --model vllm --output_dir eval/r1-1.5b \\
        --models base=deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B \\
                 math_only=data/DeepSeek-R1-Distill-Qwen-1.5B-GRPO-finereason-ratio_1.0 \\
                 mixed=data/DeepSeek-R1-Distill-Qwen-1.5B-GRPO-finereason-mix_0.8

GSM8K and MATH come from the Hub (lm-eval's ``gsm8k`` and ``minerva_math``) or, with ``--gsm8k_file`` /
``--math_file``, from local JSON Lines files (GSM8K: ``question``, ``answer`` with ``#### N``; MATH:
``problem``, ``solution`` with a final ``\\boxed{}``), scored by the same task definitions. Offline
(``HF_HUB_OFFLINE=1``) without a local file, that column is skipped with a note; nothing is downloaded.
Generation stops at ``--max_gen_toks`` tokens (default 1024, the paper's length; R1-style reasoning
needs more: try 8192). ``--dry-run`` prints the commands; ``--table_only`` rebuilds the table from the
results already in ``--output_dir``. Metrics read: GSM8K ``exact_match`` (flexible-extract, else
strict-match), MATH ``math_verify`` (else ``exact_match``), size-weighted ``acc`` over the
``finereason_<puzzle>_state_checking`` / ``_state_transition`` tasks, and the overall score of the
``finereason`` group (:func:`finereason.verification.metrics.overall`, the number lm-eval prints for the
group, the leaderboard's Overall and the report's group table; "—" unless every task of the group ran). ``--starts_in_think true`` (chat
templates whose prompt opens ``<think>``: R1-distill, QwQ, Qwen3 thinking) sets the FineReason tasks' read
context (``--metadata '{"starts_in_think": true}'``): an answer without ``</think>`` is unfinished; the
context is recorded in the results and in ``comparison.json``.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Mapping, Sequence

from finereason.common.atomic_io import UnsafeOutput, atomic_dir, check_output, write_text
from finereason.common.intervals import MISSING
from finereason.common.jsonl import iter_json_lines
from finereason.common.vocabulary import STATE_CHECKING, STATE_TRANSITION
from finereason.core.prompts import PAPER_MAX_GEN_TOKS
from finereason.integrations.lm_eval.results import merged, metric_value, read_runs, task_size
from finereason.integrations.leaderboard.suites import group_tasks
from finereason.integrations.training.mixing import hub_offline  # light: no torch
from finereason.reading.context import ReadContext
from finereason.verification.aggregation import ACC
from finereason.verification.metrics import OVERALL_GROUP, json_value, overall

EXIT_BAD_INPUT = 2
COLUMNS = ("GSM8K", "MATH", "FineReason SC", "FineReason ST", "FineReason")
FINEREASON_GROUP = "finereason"
GSM8K_METRICS = (("exact_match", ("flexible-extract", "strict-match", "none")),)
MATH_METRICS = (("math_verify", ("none",)), ("exact_match", ("none",)))
FINEREASON_METRICS = ((ACC, ("none",)),)
DEFAULT_MODEL_ARGS = {"hf": "dtype=bfloat16", "vllm": "dtype=bfloat16,gpu_memory_utilization=0.85"}
DEFAULT_BATCH_SIZE = "auto"
# without a GPU, hf runs on the CPU: bfloat16 matmuls and lm-eval's "auto" batch-size probe (a
# full-length batch, halved until it fits) are slow there; float32 one at a time is ~30x faster
CPU_MODEL_ARGS, CPU_BATCH_SIZE = "dtype=float32", "1"
DEFAULT_MAX_GEN_TOKS = PAPER_MAX_GEN_TOKS  # the paper's length, so that a row compares with its table
LOCAL_TASKS = {"GSM8K": "gsm8k_local", "MATH": "math_local"}
LOCAL_TASK_DIR = "local_tasks"
# lm-eval 0.4.13's own task files the local tasks include (prompt, filters and metrics unchanged)
LOCAL_BASES = {"GSM8K": ("gsm8k", "gsm8k.yaml"), "MATH": ("minerva_math", "minerva_math_algebra.yaml")}


class EvalError(Exception):
    """A user-facing error: one line, exit status 2."""


# ------------------------------------------------------------------ reading results
# lm-eval results are read by the one reader (finereason.integrations.lm_eval.results): newest result per
# task wins, one filter rule (the first filter named here that has a number, else the alphabetically first)
def _first_metric(metrics: Mapping[str, Any] | None, names: Sequence[tuple[str, Sequence[str]]]) -> float | None:
    """The first of ``names`` (``(metric, filters)`` pairs, in order of preference) that ``metrics`` has."""
    for name, filters in names:
        value = metric_value(metrics, name, filters)
        if value is not None:
            return value
    return None


def _weighted(data: Mapping[str, Any], tasks: Sequence[str], names: Sequence[tuple[str, Sequence[str]]]) -> float | None:
    """Size-weighted mean of a metric over ``tasks`` (the registry's :func:`overall`; tasks without the
    metric are skipped, a task of unknown size weighs 1)."""
    results = data.get("results") or {}
    parts = [(value, task_size(data, task) or 1) for task in tasks
             if (value := _first_metric(results.get(task), names)) is not None]
    return json_value(overall(parts))


def _overall(data: Mapping[str, Any]) -> float | None:
    """The overall score of the ``finereason`` group (the registry's :func:`overall` over every task of the
    group); ``None`` when the file has none of them, or a task of the group is missing or undefined."""
    results = data.get("results") or {}
    tasks = group_tasks(OVERALL_GROUP)
    if not any(task in results for task in tasks):
        return None
    return json_value(overall((metric_value(results.get(task), ACC), task_size(data, task)) for task in tasks))


def _task_score(data: Mapping[str, Any], task: str, names: Sequence[tuple[str, Sequence[str]]]) -> float | None:
    """A task's metric, or for a group without an aggregate, the size-weighted mean of its subtasks."""
    for section in ("results", "groups"):
        value = _first_metric((data.get(section) or {}).get(task), names)
        if value is not None:
            return value
    subtasks = (data.get("group_subtasks") or {}).get(task) or []
    return _weighted(data, subtasks, names) if subtasks else None


def _finereason(data: Mapping[str, Any], task_kind: str) -> float | None:
    tasks = [t for t in (data.get("results") or {})
             if t.startswith("finereason_") and not t.startswith("finereason_official_") and t.endswith(f"_{task_kind}")
             and t != f"finereason_{task_kind}"]
    return _weighted(data, sorted(tasks), FINEREASON_METRICS)


def scores_from_results(results: Sequence[Mapping[str, Any]], gsm8k_task: str = "gsm8k",
                        math_task: str = "minerva_math") -> dict[str, float | None]:
    """The Table-5 numbers and the overall FineReason score (fractions) of one model from its lm-eval results
    files, oldest first (the newest result of each task wins, as everywhere results are read:
    :func:`finereason.integrations.lm_eval.results.merged`). The local tasks (``gsm8k_local``,
    ``math_local``) count too."""
    data = merged(results)

    def hub_or_local(column: str, task: str, names: Sequence[tuple[str, Sequence[str]]]) -> float | None:
        value = _task_score(data, task, names)
        return _task_score(data, LOCAL_TASKS[column], names) if value is None else value

    return {
        "GSM8K": hub_or_local("GSM8K", gsm8k_task, GSM8K_METRICS),
        "MATH": hub_or_local("MATH", math_task, MATH_METRICS),
        "FineReason SC": _finereason(data, STATE_CHECKING),
        "FineReason ST": _finereason(data, STATE_TRANSITION),
        "FineReason": _overall(data),
    }


def _cell(value: float | None) -> str:
    return MISSING if value is None else f"{100 * value:.1f}"


def _delta(a: float | None, b: float | None) -> str:
    return MISSING if a is None or b is None else f"{100 * (b - a):+.1f}"


def comparison_table(rows: Mapping[str, Mapping[str, float | None]], names: Mapping[str, str] | None = None,
                     notes: Sequence[str] = ()) -> str:
    """Markdown in the layout of Table 5: one row per model in order, then ``Δ <model> − <first>``
    for every later model; accuracies in %; ``notes`` (skipped columns, ...) below the table."""
    names = dict(names or {})
    lines = ["| model | " + " | ".join(COLUMNS) + " |", "|---|" + "---:|" * len(COLUMNS)]
    for label, scores in rows.items():
        title = f"{label} (`{names[label]}`)" if label in names else label
        lines.append(f"| {title} | " + " | ".join(_cell(scores.get(c)) for c in COLUMNS) + " |")
    labels = list(rows)
    for label in labels[1:]:
        first = labels[0]
        lines.append(f"| Δ {label} − {first} | " + " | ".join(_delta(rows[first].get(c), rows[label].get(c))
                                                            for c in COLUMNS) + " |")
    return "\n".join(lines) + "\n" + "".join(f"\n{note}\n" for note in notes)


def read_results(folder: Path) -> list[dict]:
    """Every lm-eval results file under ``folder``, oldest first (the one reader's search and order:
    :func:`finereason.integrations.lm_eval.results.read_runs`); :class:`EvalError` when there is none."""
    return [run.data for run in read_runs([folder], EvalError, skip_other_json=True)]


# ------------------------------------------------------------------ which benchmarks, from where
def math_tasks(args: argparse.Namespace) -> tuple[dict[str, str], list[str]]:
    """``({column: lm-eval task}, notes)``: GSM8K and MATH from local files, else from the Hub, else
    (offline, or ``--skip``) left out with a note saying how to include them."""
    tasks: dict[str, str] = {}
    notes: list[str] = []
    for column, local, hub, flag in (("GSM8K", args.gsm8k_file, args.gsm8k_task, "--gsm8k_file"),
                                     ("MATH", args.math_file, args.math_task, "--math_file")):
        if column in (args.skip or []):
            notes.append(f"{column}: skipped (--skip {column}).")
        elif local:
            tasks[column] = LOCAL_TASKS[column]
        elif hub_offline():
            notes.append(f"{column}: skipped: the Hub is offline (HF_HUB_OFFLINE=1) and no {flag} was given "
                         f"(a local JSON Lines copy of the test set).")
        else:
            tasks[column] = hub
    return tasks, notes


def _yaml_string(value: str) -> str:
    return json.dumps(value)  # a JSON string is a valid YAML scalar


def write_local_tasks(args: argparse.Namespace, folder: Path) -> Path:
    """A task folder for ``lm_eval --include_path``: ``gsm8k_local``/``math_local`` (lm-eval's own GSM8K
    and Minerva-MATH definitions on local JSON Lines files, zero-shot) plus a copy of our task folder
    (the CLI takes one include path)."""
    from lm_eval import tasks as lm_tasks

    from finereason.integrations.lm_eval.cli import tasks_dir

    with atomic_dir(folder, replace=True, shown=str(folder)) as tmp:
        shutil.copytree(tasks_dir(), tmp, ignore=shutil.ignore_patterns("__pycache__"), dirs_exist_ok=True)
        base_dir = Path(lm_tasks.__file__).parent
        for column, path in (("GSM8K", args.gsm8k_file), ("MATH", args.math_file)):
            if not path:
                continue
            sub, name = LOCAL_BASES[column]
            text = "\n".join([
                f"include: {_yaml_string(str(base_dir / sub / name))}",
                f"task: {LOCAL_TASKS[column]}",
                "tag: []",
                "dataset_path: json",
                "dataset_name: null",
                "dataset_kwargs:",
                "  data_files:",
                f"    test: {_yaml_string(str(Path(path).resolve()))}",
                "training_split: null",
                "fewshot_split: null",
                "test_split: test",
                "num_fewshot: 0",
                "",
            ])
            (tmp / f"{LOCAL_TASKS[column]}.yaml").write_text(text, encoding="utf-8")
    return folder


def check_local_file(path: str, column: str) -> None:
    """A local benchmark file exists and its first row has the fields the task reads."""
    need = {"GSM8K": ("question", "answer"), "MATH": ("problem", "solution")}[column]
    file = Path(path)
    if not file.is_file():
        raise EvalError(f"{column} file {path}: no such file")
    first = next(iter_json_lines(str(file), f"{column} file", EvalError), None)  # the one JSON Lines reader
    if first is None:
        raise EvalError(f"{column} file {path}: empty (JSON Lines expected)")
    row = first[1]
    missing = [k for k in need if not isinstance(row, dict) or k not in row]
    if missing:
        raise EvalError(f"{column} file {path}: rows need {', '.join(need)}; the first row lacks {', '.join(missing)}")


# ------------------------------------------------------------------ commands
def device_defaults(args: argparse.Namespace, gpu: bool | None = None) -> str | None:
    """Fill ``--batch_size`` and ``--model_args`` left unset: on a machine without a GPU (``gpu``:
    default, ask torch) the hf backend gets ``batch_size 1`` and ``dtype=float32``, else ``auto`` and
    the backend's default (bfloat16). Returns a note saying so when the CPU defaults were chosen."""
    from finereason.common.devices import has_gpu

    cpu = args.model == "hf" and not (has_gpu() if gpu is None else gpu)
    chosen = []
    if args.batch_size is None:
        args.batch_size = CPU_BATCH_SIZE if cpu else DEFAULT_BATCH_SIZE
        chosen.append(f"--batch_size {args.batch_size}")
    if args.model_args is None:
        args.model_args = CPU_MODEL_ARGS if cpu else DEFAULT_MODEL_ARGS[args.model]
        chosen.append(args.model_args)
    if cpu and chosen:
        return (f"no GPU found: running on the CPU with {' and '.join(chosen)} "
                "(set --batch_size / --model_args to choose otherwise)")
    return None


def eval_command(args: argparse.Namespace, model_path: str, output_path: Path, tasks: Sequence[str],
                 include_path: Path | None = None) -> list[str]:
    """The ``finereason eval`` command line for one model."""
    model_args = f"pretrained={model_path}"
    extra = args.model_args if args.model_args is not None else DEFAULT_MODEL_ARGS[args.model]
    if extra:
        model_args += f",{extra}"
    cmd = [sys.executable, "-m", "finereason", "eval", "--model", args.model, "--model_args", model_args,
           "--tasks", ",".join(tasks), "--output_path", str(output_path), "--log_samples", "--batch_size", str(args.batch_size)]
    if include_path is not None:
        cmd += ["--include_path", str(include_path)]
    if args.chat_template:
        cmd += ["--apply_chat_template", "--fewshot_as_multiturn"]
    if args.num_fewshot is not None:
        cmd += ["--num_fewshot", str(args.num_fewshot)]
    gen = [f"max_gen_toks={args.max_gen_toks}"] + ([args.gen_kwargs] if args.gen_kwargs else [])
    cmd += ["--gen_kwargs", ",".join(gen)]
    if read_context(args).starts_in_think:
        cmd += ["--metadata", json.dumps({"starts_in_think": True})]
    if args.limit is not None:
        cmd += ["--limit", str(int(args.limit)) if float(args.limit).is_integer() else str(args.limit)]
    return cmd


def read_context(args: argparse.Namespace) -> ReadContext:
    """The runs' read context (``--starts_in_think``)."""
    return ReadContext(starts_in_think=getattr(args, "starts_in_think", "false") == "true")


def models_to_run(args: argparse.Namespace) -> dict[str, str]:
    """``{label: model path or Hub id}`` in table order: ``--models`` pairs, else ``--base_model`` as
    ``base`` and ``--checkpoint`` as ``trained``."""
    models: dict[str, str] = {}
    for pair in args.models or []:
        label, sep, path = pair.partition("=")
        if not sep or not label.strip() or not path.strip():
            raise EvalError(f"--models {pair!r}: use LABEL=PATH (e.g. base=deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B)")
        if label in models:
            raise EvalError(f"--models: label {label!r} given twice")
        models[label.strip()] = path.strip()
    if args.base_model:
        models = {"base": args.base_model, **models}
    if args.checkpoint:
        models["trained"] = args.checkpoint
    if not models:
        raise EvalError("no models: pass --models LABEL=PATH ... (or --checkpoint, with --base_model)")
    return models


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="evaluate_checkpoint", description=__doc__.split("\n\n")[0])
    p.add_argument("--models", nargs="+", metavar="LABEL=PATH",
                   help="models in table order, e.g. base=MODEL math_only=DIR mixed=DIR (the first is the reference)")
    p.add_argument("--checkpoint", help="one trained model folder (or Hub id), labelled 'trained'")
    p.add_argument("--base_model", help="the model training started from, labelled 'base' (first row)")
    p.add_argument("--model", choices=("hf", "vllm"), default="hf", help="lm-eval backend (default hf)")
    p.add_argument("--model_args", help="extra lm-eval model_args after pretrained=... "
                   "(default: dtype=bfloat16, plus gpu_memory_utilization=0.85 for vllm; hf without a GPU: dtype=float32)")
    p.add_argument("--max_gen_toks", type=int, default=DEFAULT_MAX_GEN_TOKS,
                   help=f"generation length in tokens (default {DEFAULT_MAX_GEN_TOKS}, the paper's; R1 reasoning needs more, e.g. 8192)")
    p.add_argument("--gsm8k_file", help="local GSM8K test set, JSON Lines with question/answer (else the Hub's gsm8k)")
    p.add_argument("--math_file", help="local MATH test set, JSON Lines with problem/solution (else the Hub's minerva_math)")
    p.add_argument("--skip", nargs="+", choices=("GSM8K", "MATH"), help="leave these columns out")
    p.add_argument("--limit", type=float, help="documents per task (lm-eval --limit; for quick checks)")
    p.add_argument("--output_dir", default="finereason_eval", help="where runs and comparison.md go")
    p.add_argument("--gsm8k_task", default="gsm8k", help="lm-eval task for GSM8K from the Hub (default gsm8k)")
    p.add_argument("--math_task", default="minerva_math",
                   help="lm-eval task or group for MATH from the Hub (default minerva_math; minerva_math500 is faster)")
    p.add_argument("--num_fewshot", type=int, help="override the tasks' few-shot count (the local tasks are zero-shot)")
    p.add_argument("--gen_kwargs", help="more lm-eval --gen_kwargs, e.g. temperature=0.6,do_sample=true")
    p.add_argument("--batch_size", help="lm-eval --batch_size (default auto; hf without a GPU: 1)")
    p.add_argument("--no_chat_template", dest="chat_template", action="store_false",
                   help="do not pass --apply_chat_template --fewshot_as_multiturn (on by default: R1-style models need it)")
    p.add_argument("--data", help="FineReason dataset folder (sets FINEREASON_DATA_DIR for the runs)")
    p.add_argument("--starts_in_think", choices=("true", "false"), default="false",
                   help="the chat template's prompt opens <think> (R1-distill, QwQ, Qwen3 thinking): FineReason answers "
                        "without </think> are unfinished (lm-eval --metadata starts_in_think; default false)")
    p.add_argument("--dry-run", "--dry_run", dest="dry_run", action="store_true", help="print the commands, run nothing")
    p.add_argument("--table_only", action="store_true", help="only rebuild comparison.md from --output_dir")
    return p


def _env(args: argparse.Namespace) -> dict[str, str]:
    env = dict(os.environ)
    if args.data:
        env["FINEREASON_DATA_DIR"] = str(Path(args.data).resolve())
    return env


def validate(args: argparse.Namespace) -> None:
    if args.data and not Path(args.data).is_dir():
        raise EvalError(f"--data {args.data}: no such folder")
    if args.max_gen_toks <= 0:
        raise EvalError(f"--max_gen_toks must be positive, got {args.max_gen_toks}")
    for column, path in (("GSM8K", args.gsm8k_file), ("MATH", args.math_file)):
        if path:
            check_local_file(path, column)
    if (args.gsm8k_file or args.math_file) and args.num_fewshot:
        raise EvalError("--num_fewshot with --gsm8k_file/--math_file: the local tasks have no few-shot split (use 0)")


def run(args: argparse.Namespace) -> int:
    out = Path(args.output_dir)
    models = models_to_run(args)
    validate(args)
    try:  # before anything is opened for writing
        check_output(out, [("--data", args.data), ("--gsm8k_file", args.gsm8k_file), ("--math_file", args.math_file)],
                     option="--output_dir")
    except UnsafeOutput as err:
        raise EvalError(str(err)) from None
    device_note = device_defaults(args)
    if device_note:
        print(f"evaluate_checkpoint: {device_note}", file=sys.stderr)
    tasks, notes = math_tasks(args)
    task_list = [*tasks.values(), FINEREASON_GROUP]
    local = args.gsm8k_file or args.math_file
    include = out / LOCAL_TASK_DIR if local else None
    if args.dry_run:
        prefix = f"FINEREASON_DATA_DIR={shlex.quote(str(Path(args.data).resolve()))} " if args.data else ""
        for note in notes:
            print(f"# {note}")
        for label, path in models.items():
            print(f"# {label}")
            print(prefix + shlex.join(eval_command(args, path, out / label, task_list, include)))
        return 0
    if not args.table_only:
        if include is not None:
            write_local_tasks(args, include)
        for note in notes:
            print(f"evaluate_checkpoint: {note}", file=sys.stderr)
        for label, path in models.items():
            cmd = eval_command(args, path, out / label, task_list, include)
            print(f"evaluate_checkpoint: {label}: {shlex.join(cmd)}", file=sys.stderr)
            code = subprocess.run(cmd, env=_env(args)).returncode
            if code:
                raise EvalError(f"lm-eval on the {label} model ({path}) exited with status {code}")
    rows = {}
    for label in models:
        rows[label] = scores_from_results(read_results(out / label), args.gsm8k_task, args.math_task)
    settings = (f"Generation: up to {args.max_gen_toks} new tokens"
                f"{', limit ' + str(args.limit) + ' documents per task' if args.limit else ''}; backend {args.model}.")
    table = comparison_table(rows, models, [*notes, settings])
    write_text(out / "comparison.md", table)
    write_text(out / "comparison.json", json.dumps({"models": models, "scores": rows, "notes": notes,
                                                    "max_gen_toks": args.max_gen_toks, "limit": args.limit,
                                                    "read_context": read_context(args).to_dict()}, indent=2) + "\n")
    sys.stdout.write(table)
    print(f"evaluate_checkpoint: wrote {out / 'comparison.md'}", file=sys.stderr)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return run(args)
    except EvalError as err:
        print(f"evaluate_checkpoint: error: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
