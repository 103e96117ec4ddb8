"""Launch checks of a GRPO run that need no model: the process count against the batch arithmetic,
bf16/fp16 without a GPU, vLLM and trackers installed. They read the values exactly as TRL's own
``TrlParser`` merges them (``--config`` YAML, then command-line flags), but before ``GRPOConfig`` is
built: its ``__post_init__`` raises deep inside TRL without saying how many processes a recipe needs."""
from __future__ import annotations

import importlib.util
import math
import os
import sys
from typing import Any, Callable, Mapping, Sequence

from finereason.integrations.training.grpo.config import ScriptArguments
from finereason.integrations.training.grpo.console import warn

# The GRPOConfig fields (and script arguments) whose values decide the batch arithmetic, the precision
# and the backends.
_INT_KEYS = ("per_device_train_batch_size", "gradient_accumulation_steps", "generation_batch_size",
             "steps_per_generation", "num_generations", "per_device_eval_batch_size", "num_generations_eval",
             "expected_processes")
_BOOL_KEYS = ("bf16", "fp16", "use_cpu", "use_vllm", "do_eval")
_STR_KEYS = ("eval_strategy", "vllm_mode", "report_to")
_TRUE, _FALSE = ("true", "1", "yes", "on"), ("false", "0", "no", "off")
TRACKERS = {"trackio": "trackio", "tensorboard": "tensorboard", "wandb": "wandb"}  # report_to -> module


class _Unparsable(Exception):
    """The arguments do not parse: the real ``TrlParser`` run reports why."""


def _settings_parser() -> Any:
    """A ``TrlParser`` for the script's three dataclasses that returns the merged argparse namespace
    instead of building the dataclasses, and raises instead of exiting on bad arguments."""
    from trl import GRPOConfig, ModelConfig, TrlParser

    class SettingsParser(TrlParser):
        def parse_args_into_dataclasses(self, args: Any = None, return_remaining_strings: bool = False,
                                        **kwargs: Any) -> tuple:
            namespace, remaining = self.parse_known_args(args=args)
            return (namespace, remaining) if return_remaining_strings else (namespace,)

        def error(self, message: str) -> None:  # argparse would print usage and exit
            raise _Unparsable(message)

    return SettingsParser((ScriptArguments, GRPOConfig, ModelConfig), prog="grpo")


def _as_bool(value: Any) -> bool | None:
    if isinstance(value, bool) or value is None:
        return value
    text = str(value).strip().lower()
    return True if text in _TRUE else False if text in _FALSE else None


def _as_int(value: Any) -> int | None:
    if value is None or isinstance(value, bool):
        return None
    try:
        return int(str(value).strip())
    except ValueError:
        return None

def recipe_settings(argv: Sequence[str] | None) -> dict[str, Any] | None:
    """The values of the pre-flight keys for ``argv``, merged by ``TrlParser.parse_args_and_config``
    (the dataclasses' defaults, then the ``--config`` YAML, then command-line flags); ``None`` when
    the arguments or the YAML do not parse (the real parse reports that)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        namespace, _ = _settings_parser().parse_args_and_config(argv, return_remaining_strings=True)
    except Exception:  # noqa: BLE001  unreadable --config, broken YAML, bad values: TrlParser says which
        return None
    values = vars(namespace)
    out: dict[str, Any] = {k: _as_int(values.get(k)) for k in _INT_KEYS}
    out.update({k: _as_bool(values.get(k)) for k in _BOOL_KEYS})
    out.update({k: values.get(k) for k in _STR_KEYS})
    report = values.get("report_to")
    if isinstance(report, str):
        report = [report]
    out["report_to"] = [str(r).strip() for r in (report or []) if str(r).strip()]
    return out


def world_size() -> int:
    """Training processes of this launch (``WORLD_SIZE``, set by ``accelerate launch``/``torchrun``)."""
    return max(1, _as_int(os.environ.get("WORLD_SIZE")) or 1)


def _processes_that_fit(per_device: int, steps: int, num_generations: int, limit: int = 64) -> list[int]:
    return [n for n in range(1, limit + 1) if (per_device * n * steps) % num_generations == 0]


def batch_problem(s: Mapping[str, Any], processes: int) -> str | None:
    """What is wrong with the batch arithmetic for ``processes`` training processes (computed as TRL
    1.16's ``GRPOConfig.__post_init__`` does), with what to change; ``None`` when it fits."""
    per_device, accumulation = s["per_device_train_batch_size"], s["gradient_accumulation_steps"]
    gen_batch, steps, generations = s["generation_batch_size"], s["steps_per_generation"], s["num_generations"]
    if per_device is None or accumulation is None or generations is None:
        return None  # unparsable numbers: TrlParser reports them
    if generations < 2:
        return f"num_generations must be at least 2 (GRPO compares completions of one prompt), got {generations}"
    global_batch = per_device * processes
    if gen_batch is not None and steps is not None:
        return "set generation_batch_size or steps_per_generation, not both"
    if gen_batch is not None:
        if gen_batch % global_batch:
            return (f"generation_batch_size {gen_batch} is not a multiple of {processes} processes x "
                    f"per_device_train_batch_size {per_device} = {global_batch}: change one of them")
        steps = gen_batch // global_batch
    steps = accumulation if steps is None else steps
    gen_batch = global_batch * steps
    if gen_batch % generations:
        fit = [n for n in _processes_that_fit(per_device, steps, generations) if n != processes]
        need = s.get("expected_processes")
        if need and need != processes and need in fit:
            launch = f"launch {need} training processes (accelerate launch --num_processes {need}; this recipe is written for {need})"
        elif fit:
            launch = f"launch {' or '.join(map(str, fit[:3]))} processes"
        else:
            launch = "no process count fits"
        step = generations // math.gcd(generations, processes * steps)
        return (f"{processes} process{'es' if processes != 1 else ''} x per_device_train_batch_size {per_device} x "
                f"{steps} steps_per_generation = {gen_batch} completions per generation, not a multiple of "
                f"num_generations {generations}: {launch}, or set per_device_train_batch_size to a multiple of {step}")
    if s.get("do_eval") and str(s.get("eval_strategy") or "no") != "no":
        eval_generations = s.get("num_generations_eval") or generations
        eval_batch = (s.get("per_device_eval_batch_size") or 0) * processes
        if eval_batch % eval_generations:
            return (f"{processes} processes x per_device_eval_batch_size {s.get('per_device_eval_batch_size')} = "
                    f"{eval_batch} is not a multiple of num_generations {eval_generations}: change per_device_eval_batch_size")
    return None


def processes_note(s: Mapping[str, Any], processes: int) -> str | None:
    """A warning when the launch has another process count than the recipe was written for."""
    need = s.get("expected_processes")
    if not need or need == processes:
        return None
    per_device, accumulation = s["per_device_train_batch_size"] or 0, s["gradient_accumulation_steps"] or 1
    return (f"this recipe is written for {need} training processes (batch {need * per_device * accumulation}); "
            f"this launch has {processes} (batch {processes * per_device * accumulation}); pass "
            f"--expected_processes {processes} to silence this")


def precision_problem(s: Mapping[str, Any], bf16_gpu: bool, gpu: bool) -> str | None:
    """bf16/fp16 on a machine that cannot run them (transformers would fail after parsing)."""
    if s.get("use_cpu"):
        return None
    if s.get("bf16") and not bf16_gpu:
        return ("bf16: true needs a GPU with bf16 support and none is visible: pass --bf16 false "
                "(CPU runs train in float32; the smoke recipe does)")
    if s.get("fp16") and not gpu:
        return "fp16: true needs a GPU and none is visible: pass --fp16 false"
    return None


def backend_problem(s: Mapping[str, Any], available: Callable[[str], bool]) -> str | None:
    """A generation or logging backend the settings ask for that is not installed."""
    if s.get("use_vllm") and not available("vllm"):
        return (f"use_vllm: true (vllm_mode {s.get('vllm_mode')}) needs vLLM: pip install -e '.[vllm]' on a CUDA "
                f"machine, or pass --use_vllm false to generate with transformers (slow)")
    for tracker in s.get("report_to") or []:
        module = TRACKERS.get(tracker)
        if module and not available(module):
            extra = "the train extra: pip install -e '.[train]'" if tracker != "wandb" else "pip install wandb"
            return f"report_to {tracker} needs the {module} package ({extra}), or pass --report_to none"
    return None


def _installed(module: str) -> bool:
    return importlib.util.find_spec(module) is not None

def preflight(argv: Sequence[str] | None) -> str | None:
    """The first problem of the launch that can be found without a model (or ``None``); warnings go to
    stderr. Runs before the real ``TrlParser`` parse, whose checks fail later and less clearly."""
    settings = recipe_settings(argv)
    if settings is None:
        return None
    processes = world_size()
    problem = batch_problem(settings, processes)
    if problem:
        return problem
    note = processes_note(settings, processes)
    if note:
        warn(note)
    if settings.get("bf16") or settings.get("fp16"):
        import torch
        from transformers.utils import is_torch_bf16_gpu_available

        problem = precision_problem(settings, is_torch_bf16_gpu_available(), torch.cuda.is_available())
        if problem:
            return problem
    return backend_problem(settings, _installed)
