"""The GRPO script's own arguments (:class:`ScriptArguments`, parsed by TRL's ``TrlParser`` beside
``GRPOConfig`` and ``ModelConfig``) and the checks that need no data and no model."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from finereason.common.vocabulary import STATE_TRANSITION
from finereason.integrations.training.mixing import split_sizes
from finereason.integrations.training.rewards import get_rewards


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
        "help": "reward names from the reward registry (finereason.integrations.training.rewards) (weights: --reward_weights)"})
    st_partial_credit: dict | str | None = field(default=None, metadata={
        "help": "state_transition reward credit per error category, e.g. '{\"sibling\": 0.5}'"})
    eval_configs: list[str] | None = field(default=None, metadata={
        "help": "test configs the puzzle rows must not share a puzzle with (default: every test config "
                "of a local puzzle_dataset; the 12 generated ones for a Hub id)"})
    max_prompt_length: int | None = field(default=None, metadata={
        "help": "drop rows whose templated prompt is longer (tokens) before mixing; unset keeps all"})
    math_pool_size: int | None = field(default=None, metadata={
        "help": "math rows to read before mixing (default: as many as the mix needs, plus 25%% when "
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
