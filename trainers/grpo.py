"""GRPO on FineReason puzzles mixed with math (TRL), after FineReason (ACL 2025), Section 6.

    accelerate launch --config_file trainers/accelerate_configs/zero2.yaml --num_processes 7 \\
        trainers/grpo.py --config trainers/recipes/DeepSeek-R1-Distill-Qwen-1.5B/grpo/config_mix_0.8.yaml

Arguments are TRL's ``GRPOConfig`` and ``ModelConfig`` plus :class:`ScriptArguments` (data and
rewards); a ``--config`` YAML sets defaults and command-line flags override it. ``--seed`` seeds
both the data mix and training. Bad arguments (a process count the batch arithmetic does not fit,
bf16 without a GPU, an unknown reward, a ratio outside [0, 1], a column the rewards need but the data
lacks, a Hub dataset while offline, ...) fail with one line on stderr and exit status 2 before any
model is loaded. Logs last: every logged step is appended to ``log_history.jsonl`` in ``output_dir``,
the trainer state is written there at every checkpoint and at the end, with ``train_results.json``.
See trainers/README.md.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

_REPO = Path(__file__).resolve().parents[1]
if str(_REPO) not in sys.path:  # run as a script: make `trainers.*` importable
    sys.path.insert(0, str(_REPO))

from finereason.training.mixing import (  # noqa: E402  (light: no torch, no datasets at import time)
    DataError,
    check_disjoint,
    columns_of,
    describe,
    load_math_rows,
    load_puzzle_rows,
    load_test_rows,
    mix,
    split_sizes,
)
from finereason.common.vocabulary import STATE_TRANSITION  # noqa: E402
from trainers.rewards import RewardConfigError, check_columns, get_rewards, prompt_opens_think  # noqa: E402

EXIT_BAD_INPUT = 2
MIX_MANIFEST = "finereason_mix.json"
LOG_HISTORY = "log_history.jsonl"


@dataclass
class ScriptArguments:
    """Data and rewards of a FineReason GRPO run."""

    puzzle_dataset: str = field(default="finereason/finereason", metadata={
        "help": "a `finereason build` folder, a .jsonl/.json/.parquet file, or a Hub dataset id"})
    puzzle_config: str = field(default="train", metadata={"help": "config of puzzle_dataset to train on"})
    math_dataset: str = field(default="meta-math/MetaMathQA", metadata={
        "help": "a Hub dataset id or a local .jsonl/.json/.parquet file with question/answer columns "
                "(MetaMathQA's query/response also work)"})
    math_ratio: float = field(default=0.8, metadata={"help": "share of math rows in the mix, in [0, 1]"})
    total_size: int = field(default=2000, metadata={"help": "rows in the mix (puzzle + math)"})
    reward_funcs: list[str] = field(default_factory=lambda: ["puzzle", "math", "format"], metadata={
        "help": "reward names from trainers/rewards.py's registry (weights: --reward_weights)"})
    st_partial_credit: dict | str | None = field(default=None, metadata={
        "help": "state_transition reward credit per error category, e.g. '{\"sibling\": 0.5}'"})
    eval_configs: list[str] | None = field(default=None, metadata={
        "help": "test configs the puzzle rows must not share a puzzle with (default: every test config "
                "of a local puzzle_dataset; the 12 generated ones for a Hub id)"})
    max_prompt_length: int | None = field(default=None, metadata={
        "help": "drop rows whose templated prompt is longer (tokens) before mixing; unset keeps all"})
    math_pool_size: int | None = field(default=None, metadata={
        "help": "math rows to read before mixing (default: as many as the mix needs, plus 25% when "
                "max_prompt_length may drop some)"})
    expected_processes: int | None = field(default=None, metadata={
        "help": "training processes the recipe's batch arithmetic was written for (a run with another count "
                "is told so before any model is loaded)"})
    starts_in_think: bool | None = field(default=None, metadata={
        "help": "the chat template's generation prompt opens <think> (R1-distill, QwQ, Qwen3 thinking), so a "
                "completion without </think> is unfinished and earns 0 from every reward (default: detected "
                "from the tokenizer's chat template)"})


class GrpoError(Exception):
    """A user-facing error: one line on stderr, exit status 2."""


# ------------------------------------------------------------------ pre-flight (before TrlParser, no model)
# GRPOConfig fields whose values decide the batch arithmetic, the precision and the backends; read from
# the --config YAML and the command line exactly as TrlParser will see them, before GRPOConfig's own
# __post_init__ runs (which raises deep inside TRL, without saying how many processes a recipe needs).
_INT_KEYS = ("per_device_train_batch_size", "gradient_accumulation_steps", "generation_batch_size",
             "steps_per_generation", "num_generations", "per_device_eval_batch_size", "num_generations_eval",
             "expected_processes")
_BOOL_KEYS = ("bf16", "fp16", "use_cpu", "use_vllm", "do_eval")
_STR_KEYS = ("eval_strategy", "vllm_mode", "report_to")
_TRUE, _FALSE = ("true", "1", "yes", "on"), ("false", "0", "no", "off")
TRACKERS = {"trackio": "trackio", "tensorboard": "tensorboard", "wandb": "wandb"}  # report_to -> module


def _defaults() -> dict[str, Any]:
    import dataclasses

    from trl import GRPOConfig

    known = {f.name: f.default for f in dataclasses.fields(GRPOConfig)}
    known.update({f.name: f.default for f in dataclasses.fields(ScriptArguments)})
    return {k: known.get(k) for k in (*_INT_KEYS, *_BOOL_KEYS, *_STR_KEYS)}


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


def recipe_settings(argv: Sequence[str] | None) -> dict[str, Any]:
    """The values of the pre-flight keys for ``argv``: GRPOConfig's defaults, then the ``--config``
    YAML, then command-line flags (``--key value``, ``--key=value``, bare ``--flag`` = true)."""
    import yaml

    argv = list(sys.argv[1:] if argv is None else argv)
    values = _defaults()
    pre = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    pre.add_argument("--config")
    config = pre.parse_known_args(argv)[0].config
    if config and os.path.isfile(config):
        try:
            loaded = yaml.safe_load(Path(config).read_text(encoding="utf-8")) or {}
        except yaml.YAMLError:
            loaded = {}  # TrlParser reports the broken YAML itself
        if isinstance(loaded, Mapping):
            values.update({k: v for k, v in loaded.items() if k in values})
    cli = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    for key in values:
        flags = [f"--{key}"] + ([f"--{key.replace('_', '-')}"] if "_" in key else [])
        if key == "report_to":
            cli.add_argument(*flags, dest=key, nargs="*", default=argparse.SUPPRESS)
        else:
            cli.add_argument(*flags, dest=key, nargs="?", const="true", default=argparse.SUPPRESS)
    values.update(vars(cli.parse_known_args(argv)[0]))
    out: dict[str, Any] = {k: _as_int(values[k]) for k in _INT_KEYS}
    out.update({k: _as_bool(values[k]) for k in _BOOL_KEYS})
    out.update({k: values[k] for k in _STR_KEYS})
    report = values["report_to"]
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
    stderr. Runs before TrlParser, whose checks fail later and less clearly."""
    settings = recipe_settings(argv)
    processes = world_size()
    problem = batch_problem(settings, processes)
    if problem:
        return problem
    note = processes_note(settings, processes)
    if note:
        _warn(note)
    if settings.get("bf16") or settings.get("fp16"):
        from transformers.utils import is_torch_bf16_gpu_available

        import torch

        problem = precision_problem(settings, is_torch_bf16_gpu_available(), torch.cuda.is_available())
        if problem:
            return problem
    return backend_problem(settings, _installed)


# ------------------------------------------------------------------ validation (no model, no torch)
def partial_credit(value: Any) -> dict | None:
    """``st_partial_credit`` as a dict (YAML gives a mapping, the command line a JSON string)."""
    if value is None or value == "":
        return None
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError as err:
            raise GrpoError(f"st_partial_credit is not a JSON object ({err.msg}): {value!r}") from None
    if not isinstance(value, dict):
        raise GrpoError(f"st_partial_credit must be a mapping of category to credit, got {value!r}")
    return value


def validate(script_args: ScriptArguments, training_args: Any) -> list:
    """Check every argument that does not need data; return the reward functions."""
    credit = partial_credit(script_args.st_partial_credit)
    rewards = get_rewards(script_args.reward_funcs, partial_credit=credit)  # RewardConfigError on unknown names
    if credit and STATE_TRANSITION not in script_args.reward_funcs:
        raise GrpoError("st_partial_credit is set but reward_funcs has no state_transition reward")
    split_sizes(script_args.math_ratio, script_args.total_size)  # DataError on a bad ratio or size
    weights = getattr(training_args, "reward_weights", None)
    if weights is not None and len(weights) != len(script_args.reward_funcs):
        raise GrpoError(f"reward_weights has {len(weights)} values for {len(script_args.reward_funcs)} reward_funcs")
    if script_args.max_prompt_length is not None and script_args.max_prompt_length <= 0:
        raise GrpoError(f"max_prompt_length must be positive, got {script_args.max_prompt_length}")
    return rewards


def _warn(message: str) -> None:
    if _is_main_process():
        print(f"grpo: warning: {message}", file=sys.stderr)


def _info(message: str) -> None:
    if _is_main_process():
        print(f"grpo: {message}", file=sys.stderr)


def _is_main_process() -> bool:
    return os.environ.get("RANK", os.environ.get("LOCAL_RANK", "0")) in ("0", "")


@dataclass
class Pools:
    puzzle: list[dict]
    math: list[dict]


def load_pools(script_args: ScriptArguments, seed: int) -> Pools:
    """The puzzle and math rows a mix draws from, puzzle rows that share a puzzle with a test config
    removed (with a warning)."""
    n_puzzle, n_math = split_sizes(script_args.math_ratio, script_args.total_size)
    puzzle: list[dict] = []
    if n_puzzle:
        puzzle = load_puzzle_rows(script_args.puzzle_dataset, script_args.puzzle_config)
        test_rows, found, missing = load_test_rows(script_args.puzzle_dataset, script_args.eval_configs)
        if not found:
            _warn(f"no test configs of {script_args.puzzle_dataset} available: train/test disjointness not checked")
        elif missing:
            _warn(f"test configs not available to check disjointness: {', '.join(missing)}")
        if found:
            report = check_disjoint(puzzle, test_rows)
            if report.overlap:
                _warn(f"dropping {len(report.overlap)} puzzle rows that share a puzzle with the test configs")
                dropped = set(report.overlap)
                puzzle = [row for i, row in enumerate(puzzle) if i not in dropped]
            _info(f"train/test disjointness checked against {len(found)} configs ({report.test_puzzles} test puzzles)")
    math: list[dict] = []
    if n_math:
        want = script_args.math_pool_size
        if want is None:
            want = n_math + (n_math // 4 if script_args.max_prompt_length else 0)
        try:
            math = load_math_rows(script_args.math_dataset, want, seed)
        except DataError:
            if want == n_math:
                raise
            math = load_math_rows(script_args.math_dataset, None, seed)
    return Pools(puzzle, math)


def prompt_fits(tokenizer: Any, limit: int):
    """A predicate: the row's chat-templated prompt has at most ``limit`` tokens."""

    def fits(row: dict) -> bool:
        ids = tokenizer.apply_chat_template(row["prompt"], tokenize=True, add_generation_prompt=True)
        if isinstance(ids, dict) or hasattr(ids, "keys"):
            ids = ids["input_ids"]
        return len(ids) <= limit

    return fits


def to_dataset(rows: list[dict]):
    """A ``datasets.Dataset`` with one fixed schema (strings, ``None`` allowed; ``prompt`` as messages)."""
    import datasets

    features = {c: datasets.Value("string") for c in columns_of(rows)}
    features["prompt"] = datasets.List({"role": datasets.Value("string"), "content": datasets.Value("string")})
    return datasets.Dataset.from_list(rows, features=datasets.Features({c: features[c] for c in columns_of(rows)}))


# ------------------------------------------------------------------ logs that last
def _json_value(value: Any) -> Any:
    """A log value as strict JSON (NaN and infinities become ``None``)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def read_log_history(output_dir: str | Path) -> list[dict]:
    """The entries of ``log_history.jsonl`` in ``output_dir`` (one dict per logged step)."""
    path = Path(output_dir) / LOG_HISTORY
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def persistent_logs(output_dir: str):
    """A ``TrainerCallback`` that appends every log entry to ``output_dir/log_history.jsonl`` as it is
    logged (so a crash loses nothing that was logged), writes ``trainer_state.json`` to ``output_dir``
    at every checkpoint, and on a resume drops the entries after the restored step (they are re-run)."""
    from transformers import TrainerCallback

    path = Path(output_dir) / LOG_HISTORY

    class PersistentLogs(TrainerCallback):
        def on_train_begin(self, args, state, control, **kwargs):
            if not state.is_world_process_zero:
                return
            path.parent.mkdir(parents=True, exist_ok=True)
            kept = [e for e in read_log_history(output_dir) if (e.get("step") or 0) <= state.global_step]
            path.write_text("".join(json.dumps(e) + "\n" for e in kept), encoding="utf-8")

        def on_log(self, args, state, control, logs=None, **kwargs):
            if state.is_world_process_zero and logs:
                entry = {"step": state.global_step, "epoch": state.epoch,
                         **{k: _json_value(v) for k, v in logs.items()}}
                with path.open("a", encoding="utf-8") as f:
                    f.write(json.dumps(entry) + "\n")

        def on_save(self, args, state, control, **kwargs):
            if state.is_world_process_zero:
                state.save_to_json(str(Path(output_dir) / "trainer_state.json"))

    return PersistentLogs()


def per_task(reward: Callable[..., list], name: str, log_task_column: bool = False) -> Callable[..., list]:
    """``reward`` that also logs its mean per row kind (``finereason/reward/<task>/<name>``: math,
    state_checking, ...) and, for the first reward, a ``task`` column in the completions table."""

    def wrapped(completions: list, **kwargs: Any) -> list:
        values = reward(completions, **kwargs)
        tasks = list(kwargs.get("task") or [None] * len(values))
        log_metric = kwargs.get("log_metric")
        if log_metric is not None:
            by_task: dict[str, list[float]] = {}
            for task, value in zip(tasks, values):
                if value is not None:
                    by_task.setdefault(str(task), []).append(float(value))
            for task, got in sorted(by_task.items()):
                log_metric(f"finereason/reward/{task}/{name}", sum(got) / len(got))
        if log_task_column and kwargs.get("log_extra") is not None:
            kwargs["log_extra"]("task", tasks)
        return values

    wrapped.__name__ = getattr(reward, "__name__", name)  # TRL logs rewards/<__name__>/mean
    return wrapped


def _resume_path(value: Any, output_dir: str) -> Any:
    """``--resume_from_checkpoint true`` resumes from the last checkpoint in ``output_dir``."""
    if isinstance(value, str) and value.lower() in ("true", "last"):
        from transformers.trainer_utils import get_last_checkpoint

        last = get_last_checkpoint(output_dir) if os.path.isdir(output_dir) else None
        if last is None:
            raise GrpoError(f"--resume_from_checkpoint {value}: no checkpoint-* folder in {output_dir}")
        value = last
    if isinstance(value, str) and value and not os.path.isdir(value):
        raise GrpoError(f"--resume_from_checkpoint {value}: no such folder")
    if isinstance(value, str) and value and not has_optimizer_state(value):
        raise GrpoError(f"{value} holds only the model (save_only_model: true), so training cannot resume exactly: "
                        f"start a new run from its weights with --model_name_or_path {value}, or train with "
                        f"--save_only_model false to write resumable checkpoints")
    return value


def has_optimizer_state(checkpoint: str | Path) -> bool:
    """Whether a checkpoint folder can resume training: optimizer state from the Trainer
    (``optimizer.pt``/``.bin``), DeepSpeed (``global_step*``) or FSDP (``optimizer_0``)."""
    folder = Path(checkpoint)
    return any((folder / name).exists() for name in ("optimizer.pt", "optimizer.bin", "optimizer_0")) or \
        any(folder.glob("global_step*"))


def thinking_prompt(script_args: ScriptArguments, training_args: Any, tokenizer: Any) -> bool:
    """The rewards' ``starts_in_think``: the script argument when set, else whether the tokenizer's
    chat template (with ``chat_template_kwargs``) ends its generation prompt inside ``<think>``."""
    if script_args.starts_in_think is not None:
        flag, how = bool(script_args.starts_in_think), "set by starts_in_think"
    else:
        flag = prompt_opens_think(tokenizer, getattr(training_args, "chat_template_kwargs", None))
        how = "detected from the chat template"
    _info(f"rewards: starts_in_think={flag} ({how})" + (": completions without </think> earn 0" if flag else ""))
    return flag


# ------------------------------------------------------------------ main
def run(script_args: ScriptArguments, training_args: Any, model_args: Any) -> int:
    rewards = validate(script_args, training_args)
    seed = training_args.seed
    pools = load_pools(script_args, seed)
    rows = mix(pools.puzzle, pools.math, script_args.math_ratio, script_args.total_size, seed)
    check_columns(script_args.reward_funcs, columns_of(rows))
    resume = _resume_path(training_args.resume_from_checkpoint, training_args.output_dir)
    # Everything above is cheap and model-free: bad input has failed by now.

    from transformers import AutoTokenizer
    from trl import GRPOTrainer, get_peft_config

    tokenizer = AutoTokenizer.from_pretrained(
        model_args.model_name_or_path, revision=model_args.model_revision,
        trust_remote_code=getattr(training_args, "trust_remote_code", False),
    )
    if script_args.max_prompt_length:
        fits = prompt_fits(tokenizer, script_args.max_prompt_length)
        before = (len(pools.puzzle), len(pools.math))
        pools = Pools([r for r in pools.puzzle if fits(r)], [r for r in pools.math if fits(r)])
        dropped = (before[0] - len(pools.puzzle), before[1] - len(pools.math))
        if any(dropped):
            _info(f"dropped {dropped[0]} puzzle and {dropped[1]} math rows over max_prompt_length "
                  f"{script_args.max_prompt_length}")
        rows = mix(pools.puzzle, pools.math, script_args.math_ratio, script_args.total_size, seed)
    _info(f"training mix ({describe(rows)}), seed {seed}")
    starts_in_think = thinking_prompt(script_args, training_args, tokenizer)
    rewards = get_rewards(script_args.reward_funcs, partial_credit=partial_credit(script_args.st_partial_credit),
                          starts_in_think=starts_in_think)

    model_init_kwargs = dict(revision=model_args.model_revision, attn_implementation=model_args.attn_implementation,
                             dtype=model_args.dtype)
    model_init_kwargs.update(training_args.model_init_kwargs or {})
    training_args.model_init_kwargs = model_init_kwargs
    if training_args.project == "huggingface":  # TrainingArguments' placeholder: name the trackio project
        training_args.project = "finereason-grpo"
    if not training_args.run_name:
        training_args.run_name = Path(training_args.output_dir).name
    rewards = [per_task(r, n, i == 0) for i, (r, n) in enumerate(zip(rewards, script_args.reward_funcs))]
    trainer = GRPOTrainer(
        model=model_args.model_name_or_path,
        reward_funcs=rewards,
        args=training_args,
        train_dataset=to_dataset(rows),
        processing_class=tokenizer,
        peft_config=get_peft_config(model_args),
        callbacks=[persistent_logs(training_args.output_dir)],
    )
    result = trainer.train(resume_from_checkpoint=resume)
    trainer.save_model(training_args.output_dir)
    trainer.log_metrics("train", result.metrics)
    trainer.save_metrics("train", result.metrics)   # train_results.json, all_results.json
    trainer.save_state()                            # trainer_state.json with the whole log history
    if trainer.accelerator.is_main_process:
        tokenizer.save_pretrained(training_args.output_dir)
        manifest = {
            "seed": seed, "puzzle_dataset": script_args.puzzle_dataset, "puzzle_config": script_args.puzzle_config,
            "math_dataset": script_args.math_dataset, "math_ratio": script_args.math_ratio,
            "total_size": script_args.total_size, "reward_funcs": list(script_args.reward_funcs),
            "starts_in_think": starts_in_think, "summary": describe(rows), "ids": [r["id"] for r in rows],
        }
        Path(training_args.output_dir, MIX_MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
        _info(f"model saved to {training_args.output_dir}")
    return 0


def _fail(message: str) -> int:
    if _is_main_process():
        print(f"grpo: error: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def main(argv: list[str] | None = None) -> int:
    from trl import GRPOConfig, ModelConfig, TrlParser

    if not {"-h", "--help"} & set(sys.argv[1:] if argv is None else argv):
        problem = preflight(argv)
        if problem:
            return _fail(problem)
    parser = TrlParser((ScriptArguments, GRPOConfig, ModelConfig), prog="grpo")
    try:
        script_args, training_args, model_args = parser.parse_args_and_config(argv)
    except (ValueError, OSError) as err:  # unknown YAML keys, unreadable --config, GRPOConfig checks
        return _fail(str(err).splitlines()[0] if str(err) else type(err).__name__)
    try:
        return run(script_args, training_args, model_args)
    except (GrpoError, RewardConfigError, DataError) as err:
        return _fail(str(err))


if __name__ == "__main__":
    sys.exit(main())
