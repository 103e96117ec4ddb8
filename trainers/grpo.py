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

The script's pieces live in ``finereason.integrations.training.grpo`` (config, preflight, data,
callbacks, checkpoints), as open-r1 splits its GRPO script; this file is the entry point.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from finereason.common.atomic_io import UnsafeOutput, check_output, write_text
from finereason.integrations.training.grpo.callbacks import per_task, persistent_logs
from finereason.integrations.training.grpo.checkpoints import resume_path
from finereason.integrations.training.grpo.config import GrpoError, ScriptArguments, partial_credit, validate
from finereason.integrations.training.grpo.console import fail, info
from finereason.integrations.training.grpo.data import Pools, load_pools, prompt_fits, to_dataset
from finereason.integrations.training.grpo.preflight import preflight
from finereason.integrations.training.mixing import DataError, columns_of, describe, mix
from finereason.integrations.training.rewards import RewardConfigError, check_columns, get_rewards, prompt_opens_think
from finereason.reading.context import ReadContext

MIX_MANIFEST = "finereason_mix.json"


def thinking_prompt(script_args: ScriptArguments, training_args: Any, tokenizer: Any) -> bool:
    """The rewards' ``starts_in_think``: the script argument when set, else whether the tokenizer's
    chat template (with ``chat_template_kwargs``) ends its generation prompt inside ``<think>``."""
    if script_args.starts_in_think is not None:
        flag, how = bool(script_args.starts_in_think), "set by starts_in_think"
    else:
        flag = prompt_opens_think(tokenizer, getattr(training_args, "chat_template_kwargs", None))
        how = "detected from the chat template"
    info(f"rewards: starts_in_think={flag} ({how})" + (": completions without </think> earn 0" if flag else ""))
    return flag


# ------------------------------------------------------------------ main
def run(script_args: ScriptArguments, training_args: Any, model_args: Any) -> int:
    rewards = validate(script_args, training_args)
    check_output(training_args.output_dir, [("--puzzle_dataset", script_args.puzzle_dataset),
                                            ("--math_dataset", script_args.math_dataset)], option="--output_dir")
    seed = training_args.seed
    pools = load_pools(script_args, seed)
    rows = mix(pools.puzzle, pools.math, script_args.math_ratio, script_args.total_size, seed)
    check_columns(script_args.reward_funcs, columns_of(rows))
    resume = resume_path(training_args.resume_from_checkpoint, training_args.output_dir)
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
            info(f"dropped {dropped[0]} puzzle and {dropped[1]} math rows over max_prompt_length "
                  f"{script_args.max_prompt_length}")
        rows = mix(pools.puzzle, pools.math, script_args.math_ratio, script_args.total_size, seed)
    info(f"training mix ({describe(rows)}), seed {seed}")
    starts_in_think = thinking_prompt(script_args, training_args, tokenizer)
    context = ReadContext(starts_in_think=starts_in_think)  # the run's read context, set once
    rewards = get_rewards(script_args.reward_funcs, partial_credit=partial_credit(script_args.st_partial_credit),
                          context=context)

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
            "starts_in_think": starts_in_think, "read_context": context.to_dict(), "summary": describe(rows),
            "ids": [r["id"] for r in rows],
        }
        write_text(Path(training_args.output_dir, MIX_MANIFEST), json.dumps(manifest, indent=1) + "\n")
        info(f"model saved to {training_args.output_dir}")
    return 0


TRAIN_PACKAGES = ("trl", "transformers", "accelerate", "torch", "datasets")


def missing_train_extra() -> str | None:
    """The one-line error when a package of the ``train`` extra is not installed, else None."""
    import importlib.util

    def absent(name: str) -> bool:
        try:
            return importlib.util.find_spec(name) is None
        except ImportError:
            return True

    missing = [m for m in TRAIN_PACKAGES if absent(m)]
    if not missing:
        return None
    return (f"training needs the train extra: python3 -m pip install \".[train]\" in the finereason checkout "
            f"({', '.join(missing)} missing)")


def main(argv: list[str] | None = None) -> int:
    problem = missing_train_extra()
    if problem:
        return fail(problem)
    from trl import GRPOConfig, ModelConfig, TrlParser

    if not {"-h", "--help"} & set(sys.argv[1:] if argv is None else argv):
        problem = preflight(argv)
        if problem:
            return fail(problem)
    parser = TrlParser((ScriptArguments, GRPOConfig, ModelConfig), prog="grpo")
    try:
        script_args, training_args, model_args = parser.parse_args_and_config(argv)
    except (ValueError, OSError) as err:  # unknown YAML keys, unreadable --config, GRPOConfig checks
        return fail(str(err).splitlines()[0] if str(err) else type(err).__name__)
    try:
        return run(script_args, training_args, model_args)
    except (GrpoError, RewardConfigError, DataError, UnsafeOutput) as err:
        return fail(str(err))


if __name__ == "__main__":
    sys.exit(main())
