"""The training data of a GRPO run: puzzle and math pools (through the library's mixing), prompt-length
filtering and the ``datasets.Dataset`` handed to TRL."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from finereason.integrations.training.grpo.config import ScriptArguments
from finereason.integrations.training.grpo.console import info, warn
from finereason.integrations.training.mixing import (DataError, check_disjoint, columns_of, load_math_rows, load_puzzle_rows,
                                                     load_test_rows, split_sizes)


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
            warn(f"no test configs of {script_args.puzzle_dataset} available: train/test disjointness not checked")
        elif missing:
            warn(f"test configs not available to check disjointness: {', '.join(missing)}")
        if found:
            report = check_disjoint(puzzle, test_rows)
            if report.overlap:
                warn(f"dropping {len(report.overlap)} puzzle rows that share a puzzle with the test configs")
                dropped = set(report.overlap)
                puzzle = [row for i, row in enumerate(puzzle) if i not in dropped]
            info(f"train/test disjointness checked against {len(found)} configs ({report.test_puzzles} test puzzles)")
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
