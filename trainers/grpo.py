"""GRPO on FineReason puzzles mixed with math (TRL), after FineReason (ACL 2025), Section 6.

    accelerate launch --config_file trainers/accelerate_configs/zero2.yaml --num_processes 7 \\
        trainers/grpo.py --config trainers/recipes/DeepSeek-R1-Distill-Qwen-1.5B/grpo/config_mix_0.8.yaml

Arguments are TRL's ``GRPOConfig`` and ``ModelConfig`` plus :class:`ScriptArguments` (data and
rewards); a ``--config`` YAML sets defaults and command-line flags override it. ``--seed`` seeds
both the data mix and training. Bad arguments (an unknown reward, a ratio outside [0, 1], a column
the rewards need but the data lacks, ...) fail with one line on stderr and exit status 2 before any
model is loaded. See trainers/README.md.
"""
from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_REPO = Path(__file__).resolve().parents[1]
if str(_REPO) not in sys.path:  # run as a script: make `trainers.*` importable
    sys.path.insert(0, str(_REPO))

from trainers.data import (  # noqa: E402  (light: no torch, no datasets at import time)
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
from trainers.rewards import RewardConfigError, check_columns, get_rewards  # noqa: E402

EXIT_BAD_INPUT = 2
MIX_MANIFEST = "finereason_mix.json"


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


class GrpoError(Exception):
    """A user-facing error: one line on stderr, exit status 2."""


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
    if credit and "state_transition" not in script_args.reward_funcs:
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


def _resume_path(value: Any, output_dir: str) -> Any:
    """``--resume_from_checkpoint true`` resumes from the last checkpoint in ``output_dir``."""
    if isinstance(value, str) and value.lower() in ("true", "last"):
        from transformers.trainer_utils import get_last_checkpoint

        last = get_last_checkpoint(output_dir) if os.path.isdir(output_dir) else None
        if last is None:
            raise GrpoError(f"--resume_from_checkpoint {value}: no checkpoint-* folder in {output_dir}")
        return last
    if isinstance(value, str) and value and not os.path.isdir(value):
        raise GrpoError(f"--resume_from_checkpoint {value}: no such folder")
    return value


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

    model_init_kwargs = dict(revision=model_args.model_revision, attn_implementation=model_args.attn_implementation,
                             dtype=model_args.dtype)
    model_init_kwargs.update(training_args.model_init_kwargs or {})
    training_args.model_init_kwargs = model_init_kwargs
    trainer = GRPOTrainer(
        model=model_args.model_name_or_path,
        reward_funcs=rewards,
        args=training_args,
        train_dataset=to_dataset(rows),
        processing_class=tokenizer,
        peft_config=get_peft_config(model_args),
    )
    trainer.train(resume_from_checkpoint=resume)
    trainer.save_model(training_args.output_dir)
    if trainer.accelerator.is_main_process:
        tokenizer.save_pretrained(training_args.output_dir)
        manifest = {
            "seed": seed, "puzzle_dataset": script_args.puzzle_dataset, "puzzle_config": script_args.puzzle_config,
            "math_dataset": script_args.math_dataset, "math_ratio": script_args.math_ratio,
            "total_size": script_args.total_size, "reward_funcs": list(script_args.reward_funcs),
            "summary": describe(rows), "ids": [r["id"] for r in rows],
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
