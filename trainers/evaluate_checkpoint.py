"""Evaluate a GRPO checkpoint against its base model (Table 5 of FineReason: does puzzle training
transfer to math?).

Runs lm-eval through ``finereason eval`` (our task folder added) once per model on GSM8K, MATH (the
harness's own ``gsm8k`` and ``minerva_math`` by default) and the ``finereason`` group, then writes
``comparison.md``: rows = base / trained / difference, columns = GSM8K, MATH, FineReason SC, ST
(accuracy in %).

    python trainers/evaluate_checkpoint.py --checkpoint data/R1-1.5B-finereason \\
        --base_model deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B --model vllm --output_dir eval/r1-1.5b

``--dry-run`` prints the commands instead of running them; ``--table_only`` rebuilds the table from
the results already in ``--output_dir``. Metrics read: GSM8K ``exact_match`` (flexible-extract, else
strict-match), MATH ``math_verify`` (else ``exact_match``), and size-weighted ``acc`` over the
``finereason_<puzzle>_state_checking`` / ``_state_transition`` tasks.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any, Mapping, Sequence

EXIT_BAD_INPUT = 2
COLUMNS = ("GSM8K", "MATH", "FineReason SC", "FineReason ST")
FINEREASON_GROUP = "finereason"
GSM8K_METRICS = ("exact_match,flexible-extract", "exact_match,strict-match", "exact_match,none")
MATH_METRICS = ("math_verify,none", "exact_match,none")
DEFAULT_MODEL_ARGS = {"hf": "dtype=bfloat16", "vllm": "dtype=bfloat16,gpu_memory_utilization=0.85"}


class EvalError(Exception):
    """A user-facing error: one line, exit status 2."""


# ------------------------------------------------------------------ reading results
def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
        return None
    return float(value)


def _first_metric(metrics: Mapping[str, Any] | None, names: Sequence[str]) -> float | None:
    if not isinstance(metrics, Mapping):
        return None
    for name in names:
        value = _number(metrics.get(name))
        if value is not None:
            return value
    return None


def _size(data: Mapping[str, Any], task: str) -> int | None:
    n = (data.get("n-samples") or {}).get(task)
    if isinstance(n, Mapping):
        n = n.get("effective", n.get("original"))
    return n if isinstance(n, int) and not isinstance(n, bool) and n > 0 else None


def _weighted(data: Mapping[str, Any], tasks: Sequence[str], names: Sequence[str]) -> float | None:
    """Size-weighted mean of a metric over ``tasks`` (tasks without it are skipped)."""
    total = weight = 0.0
    for task in tasks:
        value = _first_metric(data.get("results", {}).get(task), names)
        if value is None:
            continue
        n = _size(data, task) or 1
        total += value * n
        weight += n
    return total / weight if weight else None


def _task_score(data: Mapping[str, Any], task: str, names: Sequence[str]) -> float | None:
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
    return _weighted(data, sorted(tasks), ("acc,none",))


def scores_from_results(results: Sequence[Mapping[str, Any]], gsm8k_task: str = "gsm8k",
                        math_task: str = "minerva_math") -> dict[str, float | None]:
    """The four Table-5 numbers (fractions) of one model from its lm-eval results files (later files
    win where several have a number)."""
    out: dict[str, float | None] = dict.fromkeys(COLUMNS)
    for data in results:
        found = {
            "GSM8K": _task_score(data, gsm8k_task, GSM8K_METRICS),
            "MATH": _task_score(data, math_task, MATH_METRICS),
            "FineReason SC": _finereason(data, "state_checking"),
            "FineReason ST": _finereason(data, "state_transition"),
        }
        out.update({k: v for k, v in found.items() if v is not None})
    return out


def _cell(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}"


def _delta(a: float | None, b: float | None) -> str:
    return "–" if a is None or b is None else f"{100 * (b - a):+.1f}"


def comparison_table(rows: Mapping[str, Mapping[str, float | None]], names: Mapping[str, str] | None = None) -> str:
    """Markdown in the layout of Table 5: one row per model (``base``, ``trained``), then the
    difference when both are present; accuracies in %."""
    names = dict(names or {})
    lines = ["| model | " + " | ".join(COLUMNS) + " |", "|---|" + "---:|" * len(COLUMNS)]
    for label, scores in rows.items():
        title = f"{label} (`{names[label]}`)" if label in names else label
        lines.append(f"| {title} | " + " | ".join(_cell(scores.get(c)) for c in COLUMNS) + " |")
    if "base" in rows and "trained" in rows:
        lines.append("| Δ trained − base | " + " | ".join(_delta(rows["base"].get(c), rows["trained"].get(c))
                                                       for c in COLUMNS) + " |")
    return "\n".join(lines) + "\n"


def read_results(folder: Path) -> list[dict]:
    """Every lm-eval ``results_*.json`` under ``folder``, oldest first."""
    files = sorted(folder.rglob("results_*.json"), key=lambda p: (p.stat().st_mtime, p.name))
    out = []
    for path in files:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as err:
            raise EvalError(f"{path}: not a readable lm-eval results file ({err})") from None
        if isinstance(data, dict) and isinstance(data.get("results"), dict):
            out.append(data)
    return out


# ------------------------------------------------------------------ commands
def eval_command(args: argparse.Namespace, model_path: str, output_path: Path) -> list[str]:
    """The ``finereason eval`` command line for one model."""
    model_args = f"pretrained={model_path}"
    extra = args.model_args if args.model_args is not None else DEFAULT_MODEL_ARGS[args.model]
    if extra:
        model_args += f",{extra}"
    tasks = ",".join([args.gsm8k_task, args.math_task, FINEREASON_GROUP])
    cmd = [sys.executable, "-m", "finereason", "eval", "--model", args.model, "--model_args", model_args,
           "--tasks", tasks, "--output_path", str(output_path), "--log_samples", "--batch_size", str(args.batch_size)]
    if args.chat_template:
        cmd += ["--apply_chat_template", "--fewshot_as_multiturn"]
    if args.num_fewshot is not None:
        cmd += ["--num_fewshot", str(args.num_fewshot)]
    if args.gen_kwargs:
        cmd += ["--gen_kwargs", args.gen_kwargs]
    if args.limit is not None:
        cmd += ["--limit", str(int(args.limit)) if float(args.limit).is_integer() else str(args.limit)]
    return cmd


def models_to_run(args: argparse.Namespace) -> dict[str, str]:
    models = {}
    if args.base_model:
        models["base"] = args.base_model
    models["trained"] = args.checkpoint
    return models


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="evaluate_checkpoint", description=__doc__.split("\n\n")[0])
    p.add_argument("--checkpoint", required=True, help="the trained model folder (or Hub id)")
    p.add_argument("--base_model", help="the model training started from (omit to evaluate the checkpoint only)")
    p.add_argument("--model", choices=("hf", "vllm"), default="hf", help="lm-eval backend (default hf)")
    p.add_argument("--model_args", help="extra lm-eval model_args after pretrained=... "
                   "(default: dtype=bfloat16, plus gpu_memory_utilization=0.85 for vllm)")
    p.add_argument("--limit", type=float, help="documents per task (lm-eval --limit; for quick checks)")
    p.add_argument("--output_dir", default="finereason_eval", help="where runs and comparison.md go")
    p.add_argument("--gsm8k_task", default="gsm8k", help="lm-eval task for GSM8K (default gsm8k)")
    p.add_argument("--math_task", default="minerva_math",
                   help="lm-eval task or group for MATH (default minerva_math; minerva_math500 is faster)")
    p.add_argument("--num_fewshot", type=int, help="override the tasks' few-shot count (e.g. 0)")
    p.add_argument("--gen_kwargs", help="lm-eval --gen_kwargs, e.g. max_gen_toks=8192")
    p.add_argument("--batch_size", default="auto", help="lm-eval --batch_size (default auto)")
    p.add_argument("--no_chat_template", dest="chat_template", action="store_false",
                   help="do not pass --apply_chat_template --fewshot_as_multiturn (on by default: R1-style models need it)")
    p.add_argument("--data", help="FineReason dataset folder (sets FINEREASON_DATA_DIR for the runs)")
    p.add_argument("--dry-run", "--dry_run", dest="dry_run", action="store_true", help="print the commands, run nothing")
    p.add_argument("--table_only", action="store_true", help="only rebuild comparison.md from --output_dir")
    return p


def _env(args: argparse.Namespace) -> dict[str, str]:
    env = dict(os.environ)
    if args.data:
        env["FINEREASON_DATA_DIR"] = str(Path(args.data).resolve())
    return env


def run(args: argparse.Namespace) -> int:
    out = Path(args.output_dir)
    models = models_to_run(args)
    if args.data and not Path(args.data).is_dir():
        raise EvalError(f"--data {args.data}: no such folder")
    if args.dry_run:
        prefix = f"FINEREASON_DATA_DIR={shlex.quote(str(Path(args.data).resolve()))} " if args.data else ""
        for label, path in models.items():
            print(f"# {label}")
            print(prefix + shlex.join(eval_command(args, path, out / label)))
        return 0
    if not args.table_only:
        for label, path in models.items():
            cmd = eval_command(args, path, out / label)
            print(f"evaluate_checkpoint: {label}: {shlex.join(cmd)}", file=sys.stderr)
            code = subprocess.run(cmd, env=_env(args)).returncode
            if code:
                raise EvalError(f"lm-eval on the {label} model ({path}) exited with status {code}")
    rows = {}
    for label in models:
        results = read_results(out / label) if (out / label).is_dir() else []
        if not results:
            raise EvalError(f"no lm-eval results under {out / label}")
        rows[label] = scores_from_results(results, args.gsm8k_task, args.math_task)
    table = comparison_table(rows, models)
    out.mkdir(parents=True, exist_ok=True)
    (out / "comparison.md").write_text(table, encoding="utf-8")
    (out / "comparison.json").write_text(json.dumps({"models": models, "scores": rows}, indent=2) + "\n", encoding="utf-8")
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
