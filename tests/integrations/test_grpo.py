"""The GRPO recipe: data mixing (finereason.integrations.training.mixing), pre-flight and
argument checks that fail before any model is loaded, the recipes (parsed by TrlParser), persistent
logs, and a CPU smoke run of
``accelerate launch trainers/grpo.py`` exactly as users run it (tiny random model, 2 steps).

Nothing is downloaded: the puzzle data is built locally, the math data is a JSONL written here, the
model comes from ``build_tiny_model``, and subprocesses run with ``HF_HUB_OFFLINE=1``.
"""
from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("pyarrow", reason="needs pyarrow (pip install 'finereason[hub]')")
yaml = pytest.importorskip("yaml", reason="needs PyYAML")

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from finereason.commands import main as finereason_main  # noqa: E402
from finereason.dataset_builders.layout import read_config  # noqa: E402
from finereason.common.verdict import TRANSITION_CATEGORIES  # noqa: E402
from finereason.integrations.training import mixing as D  # noqa: E402

GRPO = REPO / "trainers" / "grpo.py"
SMOKE = REPO / "trainers" / "recipes" / "tiny-cpu" / "grpo" / "config_smoke.yaml"
RECIPES = sorted((REPO / "trainers" / "recipes").glob("DeepSeek-*/grpo/config_*.yaml"))
ACCELERATE = REPO / "trainers" / "accelerate_configs"
MATH_ROWS = [
    {"question": "What is 1 + 2?", "answer": "3"},
    {"question": "What is 3 + 4?", "answer": "7"},
    {"question": "What is 5 + 6?", "answer": "11"},
    {"query": "What is half of one?", "response": "Half of 1 is 0.5.\nThe answer is: \\frac{1}{2}"},   # MetaMathQA
    {"question": "Tom has 2 apples and buys 1,000 more.", "answer": "2 + 1000 = 1002\n#### 1,002"},     # GSM8K
    {"problem": "Compute 2^3.", "solution": "We have $2^3 = 8$, so the answer is $\\boxed{8}$."},       # MATH
    {"question": "", "answer": "5"},                                                                     # no question
    {"question": "What is x?", "answer": "We cannot say anything about x without more information. " * 5},  # no answer
]


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    """A tiny build: 32 train rows (Sudoku, Game of 24) plus test configs for the disjointness check."""
    out = tmp_path_factory.mktemp("grpo") / "data"
    assert finereason_main(["build", "--out", str(out), "--per-task", "4", "--train-size", "32", "--e2e-size", "1",
                            "--domains", "sudoku", "game_of_24"]) == 0
    return out


@pytest.fixture(scope="session")
def math_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("math") / "math.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in MATH_ROWS), encoding="utf-8")
    return path


# ------------------------------------------------------------------ data
def test_math_rows_from_every_format(math_file):
    rows = D.load_math_rows(str(math_file), None, seed=0)
    answers = sorted(r["answer"] for r in rows)
    assert answers == sorted(["3", "7", "11", "\\frac{1}{2}", "1002", "8"])  # the two unusable rows are skipped
    for row in rows:
        assert row["task"] == "math"
        assert row["prompt"][0]["role"] == "user"
        assert row["prompt"][0]["content"].endswith("\nPlease reason step by step, and put your final answer within \\boxed{}.")
    assert D.load_math_rows(str(math_file), 3, seed=1) == D.load_math_rows(str(math_file), 3, seed=1)
    with pytest.raises(D.DataError, match="6 usable rows; 7 are needed"):
        D.load_math_rows(str(math_file), 7, seed=0)


@pytest.mark.parametrize("text,want", [
    ("Step one. The answer is: 18", "18"),              # MetaMathQA
    ("so 3 + 4 = 7\n#### 1,234", "1234"),               # GSM8K, thousands separator dropped
    ("thus $\\boxed{\\frac{1}{2}}$.", "\\frac{1}{2}"),  # MATH, balanced braces
    ("42", "42"),                                       # a bare answer
    ("", None), (None, None),
])
def test_final_answer(text, want):
    assert D.final_answer(text) == want


def test_mix_is_deterministic_and_sized(built, math_file):
    puzzle = D.load_puzzle_rows(str(built), "train")
    maths = D.load_math_rows(str(math_file), None, seed=0)
    a = D.mix(puzzle, maths, 0.5, 8, seed=3)
    assert a == D.mix(puzzle, maths, 0.5, 8, seed=3)                   # same seed, same rows, same order
    assert a != D.mix(puzzle, maths, 0.5, 8, seed=4)
    assert sum(r["task"] == "math" for r in a) == 4
    assert D.columns_of(a) == list(D.MIX_COLUMNS)
    assert all(list(r) == list(D.MIX_COLUMNS) for r in a)              # one schema for every row
    for row in a:
        assert all(isinstance(m["content"], str) for m in row["prompt"])
        assert all(row[c] is None or isinstance(row[c], str) for c in D.MIX_COLUMNS if c != "prompt")
        if row["task"] == "math":
            assert row["puzzle"] is None and row["inputs"] is None and row["answer"]
        else:
            assert row["answer"] is None and row["puzzle"] in ("sudoku", "game_of_24")
    assert sum(r["task"] == "math" for r in D.mix(puzzle, maths, 0.8, 5, seed=0)) == 4
    only_puzzle = D.mix(puzzle, maths, 0.0, 6, seed=0)
    assert "answer" not in D.columns_of(only_puzzle)                   # no math rows, no math column
    assert "inputs" not in D.columns_of(D.mix(puzzle, maths, 1.0, 6, seed=0))


@pytest.mark.parametrize("ratio,size,message", [
    (1.5, 10, "math_ratio must be a number in \\[0, 1\\]"),
    (-0.1, 10, "math_ratio"),
    (0.5, 0, "total_size must be a positive integer"),
    (0.5, 1000, "the puzzle data has 32 rows; 500 are needed"),
    (1.0, 7, "the math data has 6 rows; 7 are needed"),
])
def test_mix_rejects(built, math_file, ratio, size, message):
    puzzle = D.load_puzzle_rows(str(built), "train")
    maths = D.load_math_rows(str(math_file), None, seed=0)
    with pytest.raises(D.DataError, match=message):
        D.mix(puzzle, maths, ratio, size, seed=0)


def test_disjointness_by_puzzle_identity(built):
    train = D.load_puzzle_rows(str(built), "train")
    test_rows, found, missing = D.load_test_rows(str(built))
    assert "sudoku_state_transition" in found and not missing
    assert D.check_disjoint(train, test_rows).clean                    # the build keeps them apart
    # a test puzzle sneaked into the training rows is found, whatever state or task the row shows
    leaked = [dict(r, id="leak") for r in read_config(built, "sudoku_state_checking")[:2]]
    report = D.check_disjoint(train + D.puzzle_rows_from(leaked), test_rows)
    assert report.overlap == (len(train), len(train) + 1)
    # Game of 24: the same numbers in another order are the same puzzle
    g = json.loads(read_config(built, "game_of_24_end_to_end")[0]["inputs"])
    shuffled = {"puzzle": "game_of_24", "inputs": json.dumps({"initial_state": g["initial_state"][::-1]})}
    assert D.puzzle_identity(shuffled) == D.puzzle_identity({"puzzle": "game_of_24", "inputs": json.dumps(g)})
    assert D.puzzle_identity({"task": "math", "answer": "3"}) is None
    # a file source has no test configs beside it
    assert D.load_test_rows(str(built / "train" / "train-00000-of-00001.parquet"))[1] == []


def test_dataset_schema(built, math_file):
    pytest.importorskip("datasets")
    from finereason.integrations.training.grpo.data import to_dataset

    rows = D.mix(D.load_puzzle_rows(str(built)), D.load_math_rows(str(math_file), None, 0), 0.5, 8, seed=0)
    ds = to_dataset(rows)
    assert ds.column_names == list(D.MIX_COLUMNS)
    assert ds.to_list() == rows


# ------------------------------------------------------------------ recipes and accelerate configs
def _fields() -> set[str]:
    import dataclasses

    trl = pytest.importorskip("trl")
    from finereason.integrations.training.grpo.config import ScriptArguments

    return {f.name for cls in (ScriptArguments, trl.GRPOConfig, trl.ModelConfig) for f in dataclasses.fields(cls)}


def test_recipes_follow_table_7():
    fields = _fields()
    assert len(RECIPES) >= 14
    variants = {p.stem for p in RECIPES}
    assert {"config_mix_0.8", "config_1to1_2k", "config_colocate", "config_scale_4k", "config_scale_8k",
            "config_ratio_1.0"} <= variants
    for path in RECIPES + [SMOKE]:
        recipe = yaml.safe_load(path.read_text())
        unknown = set(recipe) - fields
        assert not unknown, f"{path}: keys no dataclass knows: {unknown}"
    for path in RECIPES:
        r = yaml.safe_load(path.read_text())
        where = str(path.relative_to(REPO))
        processes = r["expected_processes"]
        assert processes == (8 if r["vllm_mode"] == "colocate" else 7), where
        batch = processes * r["per_device_train_batch_size"] * r["gradient_accumulation_steps"]
        assert batch == 112 and batch % r["num_generations"] == 0, where
        assert (r["learning_rate"], r["warmup_steps"], r["num_train_epochs"]) == (4e-5, 0.1, 1), where
        assert (r["max_prompt_length"], r["max_completion_length"]) == (1024, 1024), where
        assert r["bf16"] is True and r["use_vllm"] is True, where
        assert r["vllm_mode"] == ("colocate" if "colocate" in path.stem else "server"), where
        assert 0 <= r["math_ratio"] <= 1 and r["total_size"] > 0, where
        assert path.parts[-3] in r["model_name_or_path"], where
        # logs that last, checkpoints that fit, unfinished completions masked
        assert r["report_to"] == "trackio" and r["logging_first_step"] is True and r["log_completions"] is True, where
        assert r["save_only_model"] is True and r["mask_truncated_completions"] is True, where
        assert "Table 5 row" in path.read_text(), where
    for model in ("DeepSeek-R1-Distill-Qwen-1.5B", "DeepSeek-R1-Distill-Qwen-7B"):
        folder = REPO / "trainers" / "recipes" / model / "grpo"
        mix = yaml.safe_load((folder / "config_mix_0.8.yaml").read_text())
        math_only = yaml.safe_load((folder / "config_ratio_1.0.yaml").read_text())
        one_to_one = yaml.safe_load((folder / "config_1to1_2k.yaml").read_text())
        assert (mix["math_ratio"], mix["total_size"]) == (0.8, 2000)
        assert (math_only["math_ratio"], math_only["reward_funcs"]) == (1.0, ["math", "format"])
        assert (one_to_one["math_ratio"], one_to_one["total_size"]) == (0.5, 2000)
    # 7B colocated: ZeRO-3 launcher, sleep mode, and the utilization derived in the header
    colocate_7b = REPO / "trainers" / "recipes" / "DeepSeek-R1-Distill-Qwen-7B" / "grpo" / "config_colocate.yaml"
    r = yaml.safe_load(colocate_7b.read_text())
    assert r["vllm_enable_sleep_mode"] is True and r["vllm_gpu_memory_utilization"] == 0.25
    assert r["vllm_max_model_length"] == 2048 and "colocate_zero3.yaml" in colocate_7b.read_text()
    kv_gib = 14 * 2048 * (2 * 28 * 4 * 128 * 2) / 2**30   # sequences x tokens x KV bytes per token
    need_gib = 7.62e9 * 2 / 2**30 + 2 * kv_gib + 2.0       # weights + 2 x KV + activations/graphs (assumed)
    assert round(kv_gib, 2) == 1.53 and need_gib / 95.6 < r["vllm_gpu_memory_utilization"]
    smoke = yaml.safe_load(SMOKE.read_text())
    assert smoke["bf16"] is False and smoke["use_vllm"] is False and smoke["report_to"] == "trackio"
    assert smoke["max_steps"] in (2, 3) and smoke["num_generations"] == 2 and smoke["save_steps"] == smoke["max_steps"]
    assert smoke["save_only_model"] is True and smoke["log_completions"] is True


def _parse_recipe(path: Path, monkeypatch, processes: int, extra: list[str] = ()):
    """TrlParser on a recipe as ``processes`` training processes with bf16 allowed (no GPU here)."""
    import transformers
    import transformers.training_args as training_args
    from trl import GRPOConfig, ModelConfig, TrlParser

    from finereason.integrations.training.grpo.config import ScriptArguments

    monkeypatch.setattr(transformers.TrainingArguments, "world_size", property(lambda self: processes))
    monkeypatch.setattr(training_args, "is_torch_bf16_gpu_available", lambda: True)
    parser = TrlParser((ScriptArguments, GRPOConfig, ModelConfig))
    return parser.parse_args_and_config(["--config", str(path), *extra])


@pytest.mark.parametrize("path", RECIPES + [SMOKE], ids=lambda p: f"{p.parts[-3]}/{p.stem}")
def test_every_recipe_parses_with_trlparser(path, monkeypatch):
    """Every recipe parses with TRL's own parser (GRPOConfig's checks included) at its process count,
    and the pre-flight check, which runs before the parser, agrees."""
    pytest.importorskip("trl")
    from finereason.integrations.training.grpo.preflight import batch_problem, recipe_settings

    recipe = yaml.safe_load(path.read_text())
    processes = recipe["expected_processes"]
    script_args, training_args, model_args = _parse_recipe(path, monkeypatch, processes)
    for key, value in recipe.items():
        parsed = next((getattr(a, key) for a in (script_args, training_args, model_args) if hasattr(a, key)))
        if key == "report_to":
            assert parsed == [value], path
        elif key != "dtype":
            assert parsed == value or str(parsed) == str(value), f"{path}: {key} {parsed!r} != {value!r}"
    assert training_args.generation_batch_size == processes * recipe["per_device_train_batch_size"] * recipe["gradient_accumulation_steps"]
    settings = recipe_settings(["--config", str(path)])
    assert batch_problem(settings, processes) is None
    for other in {1, processes - 1, processes + 1} - {0, processes}:  # TRL and the pre-flight check agree
        problem = batch_problem(settings, other)
        try:
            _parse_recipe(path, monkeypatch, other)
            trl_refuses = False
        except ValueError as err:
            trl_refuses = "must be divisible by num_generations" in str(err)
        assert trl_refuses == (problem is not None), (path, other, problem)
        if problem:
            assert problem.startswith(f"{other} process") and f"launch {processes} training processes" in problem


def test_recipe_settings_read_yaml_then_command_line(tmp_path):
    pytest.importorskip("trl")
    from finereason.integrations.training.grpo.preflight import recipe_settings

    config = tmp_path / "r.yaml"
    config.write_text("per_device_train_batch_size: 16\nnum_generations: 7\nbf16: true\nreport_to: trackio\n")
    s = recipe_settings(["--config", str(config)])
    assert (s["per_device_train_batch_size"], s["num_generations"], s["bf16"], s["report_to"]) == (16, 7, True, ["trackio"])
    assert s["gradient_accumulation_steps"] == 1 and s["generation_batch_size"] is None   # GRPOConfig's defaults
    s = recipe_settings(["--config", str(config), "--per_device_train_batch_size=14", "--bf16", "false",
                         "--num-generations", "2", "--report_to", "tensorboard", "--use_vllm"])
    assert (s["per_device_train_batch_size"], s["num_generations"], s["bf16"]) == (14, 2, False)
    assert s["report_to"] == ["tensorboard"] and s["use_vllm"] is True
    # TrlParser's own merging: what it cannot parse is left to the real parse to report
    assert recipe_settings(["--config", str(tmp_path / "missing.yaml")]) is None
    assert recipe_settings(["--per_device_train_batch_size", "many"]) is None


@pytest.mark.parametrize("settings,processes,expected", [
    ({"per_device_train_batch_size": 16, "gradient_accumulation_steps": 1, "num_generations": 7}, 7, None),
    ({"per_device_train_batch_size": 16, "gradient_accumulation_steps": 1, "num_generations": 7}, 1,
     "1 process x per_device_train_batch_size 16 x 1 steps_per_generation = 16 completions per generation, "
     "not a multiple of num_generations 7: launch 7 or 14 or 21 processes, or set per_device_train_batch_size to a multiple of 7"),
    ({"per_device_train_batch_size": 7, "gradient_accumulation_steps": 2, "num_generations": 7}, 3, None),
    ({"per_device_train_batch_size": 6, "gradient_accumulation_steps": 1, "num_generations": 4}, 3,
     "3 processes x per_device_train_batch_size 6 x 1 steps_per_generation = 18 completions per generation, "
     "not a multiple of num_generations 4: launch 2 or 4 or 6 processes, or set per_device_train_batch_size to a multiple of 4"),
    ({"per_device_train_batch_size": 8, "gradient_accumulation_steps": 1, "num_generations": 8,
      "generation_batch_size": 20}, 2, "generation_batch_size 20 is not a multiple of 2 processes x per_device_train_batch_size 8 = 16"),
    ({"per_device_train_batch_size": 8, "gradient_accumulation_steps": 1, "num_generations": 8,
      "generation_batch_size": 32, "steps_per_generation": 2}, 2, "set generation_batch_size or steps_per_generation, not both"),
    ({"per_device_train_batch_size": 4, "gradient_accumulation_steps": 1, "num_generations": 1}, 1, "num_generations must be at least 2"),
])
def test_batch_problem_matches_trl(settings, processes, expected, monkeypatch):
    """The pre-flight arithmetic refuses exactly what TRL 1.16's GRPOConfig refuses."""
    trl = pytest.importorskip("trl")
    import transformers

    from finereason.integrations.training.grpo.preflight import batch_problem

    full = {"generation_batch_size": None, "steps_per_generation": None, **settings}
    problem = batch_problem(full, processes)
    assert (problem is None) == (expected is None) and (expected is None or problem.startswith(expected)), problem
    monkeypatch.setattr(transformers.TrainingArguments, "world_size", property(lambda self: processes))
    kwargs = {k: v for k, v in full.items() if v is not None}
    try:
        trl.GRPOConfig(output_dir="unused", bf16=False, use_cpu=True, report_to="none", **kwargs)
        trl_refuses = False
    except ValueError:
        trl_refuses = True
    assert trl_refuses == (expected is not None)


def test_precision_and_backend_problems():
    from finereason.integrations.training.grpo.preflight import backend_problem, precision_problem

    assert precision_problem({"bf16": True}, bf16_gpu=False, gpu=False).startswith("bf16: true needs a GPU")
    assert "--bf16 false" in precision_problem({"bf16": True}, bf16_gpu=False, gpu=False)
    assert precision_problem({"bf16": True}, bf16_gpu=True, gpu=True) is None
    assert precision_problem({"bf16": True, "use_cpu": True}, bf16_gpu=False, gpu=False) is None
    assert precision_problem({"fp16": True}, bf16_gpu=False, gpu=False).startswith("fp16: true needs a GPU")
    nothing = lambda module: False  # noqa: E731
    assert "--use_vllm false" in backend_problem({"use_vllm": True, "vllm_mode": "server"}, nothing)
    assert "--report_to none" in backend_problem({"use_vllm": False, "report_to": ["trackio"]}, nothing)
    assert backend_problem({"use_vllm": True, "report_to": ["trackio", "none"]}, lambda module: True) is None


def test_wrong_process_count_fails_before_loading_a_model(tmp_path, warm_python):
    """A server recipe (7 processes) started as one process: one line naming the process count, exit 2,
    before any data, tokenizer or model is touched (the model path does not exist)."""
    pytest.importorskip("trl")
    recipe = REPO / "trainers" / "recipes" / "DeepSeek-R1-Distill-Qwen-1.5B" / "grpo" / "config_mix_0.8.yaml"
    env = _env(tmp_path)
    for key in ("WORLD_SIZE", "RANK", "LOCAL_RANK"):
        env.pop(key, None)
    proc = subprocess.run([*warm_python, str(GRPO), "--config", str(recipe), "--model_name_or_path", "/nonexistent/model",
                           "--output_dir", str(tmp_path / "out")], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300)
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert proc.returncode == 2, proc.stderr[-3000:]
    assert lines == [
        "grpo: error: 1 process x per_device_train_batch_size 16 x 1 steps_per_generation = 16 completions per "
        "generation, not a multiple of num_generations 7: launch 7 training processes (accelerate launch "
        "--num_processes 7; this recipe is written for 7), or set per_device_train_batch_size to a multiple of 7"], lines
    assert not (tmp_path / "out").exists()


def test_eight_processes_for_a_seven_process_recipe(monkeypatch, capsys, tmp_path):
    pytest.importorskip("trl")
    from trainers.grpo import main

    recipe = REPO / "trainers" / "recipes" / "DeepSeek-R1-Distill-Qwen-7B" / "grpo" / "config_mix_0.8.yaml"
    monkeypatch.setenv("WORLD_SIZE", "8")
    monkeypatch.delenv("RANK", raising=False)
    assert main(["--config", str(recipe), "--output_dir", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("grpo: error: 8 processes x per_device_train_batch_size 8 x 2 "
                                               "steps_per_generation = 128 completions"), err
    assert "launch 7 training processes" in err[0]


def test_accelerate_configs():
    expected = {"ddp": 7, "zero2": 7, "zero3": 7, "colocate": 8, "colocate_zero3": 8, "cpu": 1, "multi_node": 16}
    for name, processes in expected.items():
        config = yaml.safe_load((ACCELERATE / f"{name}.yaml").read_text())
        assert config["num_processes"] == processes, name
        assert config["use_cpu"] is (name == "cpu"), name
        assert config["mixed_precision"] == ("no" if name == "cpu" else "bf16"), name
    for name in ("zero3", "colocate_zero3"):
        assert yaml.safe_load((ACCELERATE / f"{name}.yaml").read_text())["deepspeed_config"]["zero_stage"] == 3
    multi = yaml.safe_load((ACCELERATE / "multi_node.yaml").read_text())
    assert multi["num_machines"] == 2 and multi["main_process_ip"] == "MAIN_NODE_IP" and "machine_rank" in multi


# ------------------------------------------------------------------ bad input fails before any model is loaded
def _env(tmp: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(OMP_NUM_THREADS="1", TOKENIZERS_PARALLELISM="false", HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1",
               TRANSFORMERS_OFFLINE="1", FINEREASON_CACHE=str(tmp / "fr-cache"),
               PYTHONPATH=os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p))
    return env


def _no_inputs_file(built: Path, tmp: Path) -> Path:
    path = tmp / "puzzles_without_inputs.jsonl"
    rows = read_config(built, "train")
    path.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "inputs"}) + "\n" for r in rows))
    return path


def test_bad_input_fails_with_one_line_before_loading_a_model(built, math_file, tmp_path, warm_python):
    """As a user runs it (a process of its own): one line, exit 2, nothing on stdout, no traceback, no
    output folder. The other bad inputs are checked in-process below (each process costs ~6 CPU s of imports)."""
    pytest.importorskip("trl")
    proc = subprocess.run([*warm_python, str(GRPO), "--config", str(SMOKE), "--model_name_or_path", "/nonexistent/model",
                           "--output_dir", str(tmp_path / "out"), "--puzzle_dataset", str(built), "--math_dataset",
                           str(math_file), "--reward_funcs", "puzzle", "accuracy"],
                          cwd=tmp_path, env=_env(tmp_path), capture_output=True, text=True, timeout=300)
    lines = [line for line in proc.stderr.splitlines() if line.strip() and not line.startswith("grpo: warning:")]
    assert proc.returncode == 2, f"exit {proc.returncode}\n{proc.stderr[-3000:]}"
    assert len(lines) == 1 and lines[0].startswith("grpo: error: unknown reward 'accuracy'; known rewards:"), proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr and not proc.stdout.strip()
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("extra,message", [
    (["--puzzle_dataset", "NO_INPUTS"], "reward 'puzzle' needs dataset column(s) inputs, which the training data lacks"),
    (["--math_ratio", "1.5"], "math_ratio must be a number in [0, 1], got 1.5"),
    (["--total_size", "0"], "total_size must be a positive integer, got 0"),
    (["--reward_funcs", "state_transition", "--st_partial_credit", '{"bogus": 1}'],
     "unknown state-transition categories in partial credit: bogus"),
    (["--st_partial_credit", '{"sibling": 0.5}'], "st_partial_credit is set but reward_funcs has no state_transition"),
    (["--reward_weights", "1.0", "0.5"], "reward_weights has 2 values for 3 reward_funcs"),
    (["--math_ratio", "1.0"], "reward 'puzzle' needs dataset column(s) domain, inputs, outputs, label"),
    (["--puzzle_dataset", "/nonexistent/data"], "no such folder or file"),
    (["--resume_from_checkpoint", "true"], "no checkpoint-* folder"),
    (["--output_dir", "BUILT_OUT"], "is inside --puzzle_dataset"),  # checked before anything is written
    # offline (tests run with HF_HUB_OFFLINE=1): Hub datasets fail with the local alternatives named
    (["--puzzle_dataset", "finereason/finereason"], "the Hub is offline (HF_HUB_OFFLINE=1) and no cached copy "
     "exists; build it locally (`finereason build --out data/finereason`, then --puzzle_dataset data/finereason) "
     "or use --puzzle_dataset embedded"),
    (["--math_dataset", "meta-math/MetaMathQA"], "or --math_dataset embedded (seeded arithmetic word problems)"),
])
def test_more_bad_input_in_process(built, math_file, tmp_path, capsys, extra, message):
    pytest.importorskip("trl")
    from trainers.grpo import main

    extra = [str(_no_inputs_file(built, tmp_path)) if arg == "NO_INPUTS" else str(built / "out") if arg == "BUILT_OUT" else arg
             for arg in extra]
    argv = ["--config", str(SMOKE), "--model_name_or_path", "/nonexistent/model", "--output_dir", str(tmp_path / "out"),
            "--puzzle_dataset", str(built), "--math_dataset", str(math_file), *extra]
    assert main(argv) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if line.startswith("grpo: error:")]
    assert len(err) == 1 and message in err[0], err
    assert not (tmp_path / "out").exists() and not (built / "out").exists()


def test_resume_needs_optimizer_state(built, math_file, tmp_path, capsys):
    """save_only_model checkpoints cannot resume exactly: say so, and how to continue, before loading."""
    pytest.importorskip("trl")
    from finereason.integrations.training.grpo.checkpoints import has_optimizer_state
    from trainers.grpo import main

    checkpoint = tmp_path / "out" / "checkpoint-50"
    checkpoint.mkdir(parents=True)
    (checkpoint / "config.json").write_text("{}")
    (checkpoint / "trainer_state.json").write_text("{}")
    argv = ["--config", str(SMOKE), "--model_name_or_path", "/nonexistent/model", "--output_dir", str(tmp_path / "out"),
            "--puzzle_dataset", str(built), "--math_dataset", str(math_file), "--resume_from_checkpoint", "true"]
    assert main(argv) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if line.startswith("grpo: error:")]
    assert err == [f"grpo: error: {checkpoint} holds only the model (save_only_model: true), so training cannot "
                   f"resume exactly: start a new run from its weights with --model_name_or_path {checkpoint}, or "
                   f"train with --save_only_model false to write resumable checkpoints"]
    assert not has_optimizer_state(checkpoint)
    (checkpoint / "global_step50").mkdir()  # DeepSpeed's optimizer shards
    assert has_optimizer_state(checkpoint)


def test_persistent_logs_survive_and_resume(tmp_path):
    """Every log entry is on disk as soon as it is logged; a resume drops the entries after the
    restored step (they are logged again) and keeps the rest."""
    pytest.importorskip("transformers")
    from types import SimpleNamespace

    from finereason.integrations.training.grpo.callbacks import LOG_HISTORY, persistent_logs, read_log_history

    callback = persistent_logs(str(tmp_path))
    state = SimpleNamespace(is_world_process_zero=True, global_step=0, epoch=0.0)
    callback.on_train_begin(None, state, None)
    for step in (1, 2, 3):
        state.global_step, state.epoch = step, step / 3
        callback.on_log(None, state, None, logs={"loss": 0.5 / step, "rewards/format_reward/mean": float("nan")})
        assert [e["step"] for e in read_log_history(tmp_path)] == list(range(1, step + 1))  # written at once
    assert read_log_history(tmp_path)[0] == {"step": 1, "epoch": 1 / 3, "loss": 0.5, "rewards/format_reward/mean": None}
    json.loads((tmp_path / LOG_HISTORY).read_text().splitlines()[0])  # strict JSON (NaN became null)
    state.save_to_json = lambda path: Path(path).write_text("{}")
    callback.on_save(None, state, None)
    assert (tmp_path / "trainer_state.json").is_file()
    resumed = SimpleNamespace(is_world_process_zero=True, global_step=2, epoch=2 / 3)
    persistent_logs(str(tmp_path)).on_train_begin(None, resumed, None)
    assert [e["step"] for e in read_log_history(tmp_path)] == [1, 2]
    other_rank = SimpleNamespace(is_world_process_zero=False, global_step=9, epoch=3.0)
    callback.on_log(None, other_rank, None, logs={"loss": 1.0})
    assert [e["step"] for e in read_log_history(tmp_path)] == [1, 2]


def test_a_checkpoint_state_is_written_whole_or_not_at_all(tmp_path):
    """A kill (here: an error) while the trainer state is written keeps the previous trainer_state.json."""
    pytest.importorskip("transformers")
    from types import SimpleNamespace

    from finereason.integrations.training.grpo.callbacks import persistent_logs

    callback = persistent_logs(str(tmp_path))
    state = SimpleNamespace(is_world_process_zero=True, global_step=1, epoch=1.0)
    state.save_to_json = lambda path: Path(path).write_text('{"global_step": 1}\n')
    callback.on_save(None, state, None)

    def torn(path):
        Path(path).write_text('{"global_st')
        raise OSError(28, "No space left on device")

    state.save_to_json = torn
    with pytest.raises(OSError):
        callback.on_save(None, state, None)
    assert json.loads((tmp_path / "trainer_state.json").read_text()) == {"global_step": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["trainer_state.json"]  # no temporary left


def test_a_grpo_log_torn_by_a_kill_resumes(tmp_path):
    """A run killed in the middle of writing a log line: the log still reads (the complete lines), a
    resume keeps them, and the next entry starts on a fresh line."""
    pytest.importorskip("transformers")
    from types import SimpleNamespace

    from finereason.integrations.training.grpo.callbacks import LOG_HISTORY, persistent_logs, read_log_history

    log = tmp_path / LOG_HISTORY
    log.write_text('{"step": 1, "loss": 0.5}\n{"step": 2, "loss": 0.25}\n{"step": 3, "lo', encoding="utf-8")
    assert read_log_history(tmp_path) == [{"step": 1, "loss": 0.5}, {"step": 2, "loss": 0.25}]
    callback = persistent_logs(str(tmp_path))
    state = SimpleNamespace(is_world_process_zero=True, global_step=2, epoch=1.0)
    callback.on_train_begin(None, state, None)  # resumed from the checkpoint of step 2
    state.global_step = 3
    callback.on_log(None, state, None, logs={"loss": 0.125})
    assert [(e["step"], e["loss"]) for e in read_log_history(tmp_path)] == [(1, 0.5), (2, 0.25), (3, 0.125)]
    # killed again mid-line, then the next entry is logged without a restart of the callback
    with log.open("a", encoding="utf-8") as handle:
        handle.write('{"step": 4, "lo')
    state.global_step = 4
    callback.on_log(None, state, None, logs={"loss": 0.0625})
    lines = log.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["step"] for line in lines] == [1, 2, 3, 4]


def test_per_task_reward_means():
    from finereason.integrations.training.grpo.callbacks import per_task

    def reward(completions, **kwargs):
        return [1.0, 0.0, None, 1.0]

    logged, extra = [], []
    wrapped = per_task(reward, "format", log_task_column=True)
    values = wrapped(["a", "b", "c", "d"], task=["math", "math", "state_checking", "state_checking"],
                     log_metric=lambda name, value: logged.append((name, value)),
                     log_extra=lambda column, values: extra.append((column, values)))
    assert values == [1.0, 0.0, None, 1.0] and wrapped.__name__ == "reward"
    assert logged == [("finereason/reward/math/format", 0.5), ("finereason/reward/state_checking/format", 1.0)]
    assert extra == [("task", ["math", "math", "state_checking", "state_checking"])]


# ------------------------------------------------------------------ the smoke run
def _accelerate_launch() -> list[str]:
    """``accelerate launch`` as users type it (the console script beside this Python, else on PATH)."""
    script = Path(sys.executable).with_name("accelerate")
    found = str(script) if script.is_file() else shutil.which("accelerate")
    return [found, "launch"] if found else [sys.executable, "-m", "accelerate.commands.launch"]


def _smoke(built: Path, math_file: Path, tmp: Path, launch: list[str]) -> tuple[Path, float, str]:
    from finereason.models.tiny import build_tiny_model

    model = build_tiny_model(tmp / "tiny")
    out = tmp / "out"
    cmd = [*launch, str(GRPO), "--config", str(SMOKE), "--model_name_or_path", str(model), "--output_dir", str(out),
           "--puzzle_dataset", str(built), "--math_dataset", str(math_file)]
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=REPO, env=_env(tmp), capture_output=True, text=True, timeout=600)
    seconds = time.perf_counter() - start
    log = (proc.stdout + proc.stderr)[-6000:]
    assert proc.returncode == 0, f"smoke run exited {proc.returncode}:\n{log}"
    return out, seconds, log


def _check_smoke(out: Path, built: Path, math_file: Path) -> None:
    from transformers import AutoModelForCausalLM, AutoTokenizer

    recipe = yaml.safe_load(SMOKE.read_text())
    steps = recipe["max_steps"]
    checkpoint = out / f"checkpoint-{steps}"
    state = json.loads((checkpoint / "trainer_state.json").read_text())
    logs = [e for e in state["log_history"] if "loss" in e]
    assert [e["step"] for e in logs] == list(range(1, steps + 1))

    def seen(key: str) -> list[float]:
        return [e[key] for e in logs if isinstance(e.get(key), (int, float)) and not math.isnan(e[key])]

    for name in ("puzzle_reward", "math_reward", "format_reward"):
        assert all(f"rewards/{name}/mean" in e for e in logs), name
        assert seen(f"rewards/{name}/mean"), f"{name} never judged a row"  # puzzle and math rows were both sampled
    # the mix the run trained on, recomputed: with this seed it holds state-transition rows
    from finereason.integrations.training.grpo.config import ScriptArguments
    from finereason.integrations.training.grpo.data import load_pools

    args = ScriptArguments(**{k: v for k, v in recipe.items() if k in ScriptArguments.__dataclass_fields__})
    args.puzzle_dataset, args.math_dataset = str(built), str(math_file)
    pools = load_pools(args, recipe["seed"])
    rows = D.mix(pools.puzzle, pools.math, args.math_ratio, args.total_size, recipe["seed"])
    manifest = json.loads((out / "finereason_mix.json").read_text())
    assert manifest["ids"] == [r["id"] for r in rows]
    assert any(r["task"] == "state_transition" for r in rows), "pick a smoke seed whose mix has ST rows"
    for category in TRANSITION_CATEGORIES:
        assert seen(f"finereason/state_transition/rate_{category}"), category
    # logs that last: every logged step on disk in the output folder, state and metrics at the end
    from finereason.integrations.training.grpo.callbacks import read_log_history

    history = read_log_history(out)
    assert [e["step"] for e in history if "loss" in e] == list(range(1, steps + 1))
    assert "train_runtime" in history[-1]
    for entry in (e for e in history if "loss" in e):
        assert 0.0 <= entry["completions/clipped_ratio"] <= 1.0
        assert any(k.startswith("finereason/reward/") for k in entry), entry  # per-task reward means
    assert json.loads((out / "trainer_state.json").read_text())["global_step"] == steps
    assert "train_runtime" in json.loads((out / "train_results.json").read_text())
    import pyarrow.parquet as pq

    tables = sorted((out / "completions").glob("completions_*.parquet"))
    assert len(tables) == steps
    columns = set(pq.read_table(tables[-1]).column_names)
    assert {"step", "prompt", "completion", "puzzle_reward", "math_reward", "format_reward", "task", "advantage"} <= columns
    assert not any(checkpoint.glob("optimizer*"))  # save_only_model: weights only
    for folder in (checkpoint, out):
        model = AutoModelForCausalLM.from_pretrained(folder)
        assert model.config.num_hidden_layers == 2
        AutoTokenizer.from_pretrained(folder)


@pytest.mark.slow
def test_smoke_run_on_cpu(built, math_file, tmp_path, warm_python):
    """``accelerate launch`` (its console script's module, in the warm Python; the README's example runs
    the console script itself) with the CPU config."""
    for module in ("torch", "transformers", "trl", "accelerate", "datasets", "math_verify", "tokenizers"):
        pytest.importorskip(module)
    launch = [*warm_python, "-m", "accelerate.commands.accelerate_cli", "launch", "--config_file", str(ACCELERATE / "cpu.yaml"), "--num_processes", "1"]
    out, seconds, log = _smoke(built, math_file, tmp_path, launch)
    _check_smoke(out, built, math_file)
    print(f"CPU smoke run: {seconds:.1f} s (the 120 s budget is checked in benchmarks/bench_grpo_smoke.py)")


@pytest.mark.gpu
def test_smoke_run_on_gpu(built, math_file, tmp_path):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA GPU")
    launch = [*_accelerate_launch(), "--num_processes", "1", "--num_machines", "1", "--mixed_precision", "no",
              "--dynamo_backend", "no"]
    out, _, _ = _smoke(built, math_file, tmp_path, launch)
    _check_smoke(out, built, math_file)


# ------------------------------------------------------------------ the SLURM launcher
@pytest.mark.parametrize("nodes,mode,expect", [
    (3, "server", ["srun --nodes=1 --ntasks=1 --nodelist=node3 trl vllm-serve --model deepseek-ai/DeepSeek-R1-Distill-Qwen-7B "
                   "--max_model_len 2048 --data_parallel_size 8",
                   "--num_machines 2 --num_processes 16", "--per_device_train_batch_size 7 --gradient_accumulation_steps 1 "
                   "--expected_processes 16", "--vllm_server_host node3", "accelerate_configs/zero3.yaml"]),
    (2, "colocate", ["--num_machines 2 --num_processes 16", "config_colocate.yaml", "accelerate_configs/colocate_zero3.yaml",
                     "--per_device_train_batch_size 7"]),
    (1, "server", ["trl vllm-serve --model deepseek-ai/DeepSeek-R1-Distill-Qwen-7B --max_model_len 2048",
                   "accelerate launch --config_file trainers/accelerate_configs/zero3.yaml --num_processes 7 trainers/grpo.py "
                   "--config trainers/recipes/DeepSeek-R1-Distill-Qwen-7B/grpo/config_mix_0.8.yaml --seed 1"]),
])
def test_slurm_script_commands(tmp_path, nodes, mode, expect):
    """trainers/slurm/train_grpo.slurm with stand-ins for scontrol, srun, trl and accelerate: the
    commands it would run on N nodes (server on its own node, or colocated)."""
    if shutil.which("bash") is None:
        pytest.skip("needs bash")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "calls.log"
    for name in ("srun", "trl", "accelerate"):
        (bin_dir / name).write_text(f'#!/bin/bash\necho "{name} $*" >> {log}\n')
    (bin_dir / "scontrol").write_text("#!/bin/bash\nfor i in $(seq 1 $FAKE_NODES); do echo node$i; done\n")
    for path in bin_dir.iterdir():
        path.chmod(0o755)
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
               SLURM_JOB_NODELIST="node[1-3]", FAKE_NODES=str(nodes))
    variant = "colocate" if mode == "colocate" else "mix_0.8"
    proc = subprocess.run(["bash", str(REPO / "trainers" / "slurm" / "train_grpo.slurm"), "DeepSeek-R1-Distill-Qwen-7B",
                           variant, mode, "--", "--seed", "1"], cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    calls = log.read_text()
    for fragment in expect:
        assert fragment in calls, f"{fragment!r} not in\n{calls}"
    if nodes > 1:
        assert "trainers/grpo.py --config trainers/recipes/DeepSeek-R1-Distill-Qwen-7B/grpo/config_" in calls
        assert "--seed 1" in calls


# ------------------------------------------------------------------ the learning benchmark's data
def test_learning_benchmark_states():
    """benchmarks/bench_grpo_learning.py trains on Game-of-24 states with one expression left, half
    solvable (the expression is 24) and half not, in the train schema the rewards read."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        import bench_grpo_learning as B
    finally:
        sys.path.remove(str(REPO / "benchmarks"))
    from finereason.domains.game_of_24.arith import evaluate, parse
    from finereason.core.engine import get_engine

    engine = get_engine("game_of_24")
    rows = B.easiest_rows(12, seed=3)
    assert [r["label"] for r in rows] == ["Solvable", "Unsolvable"] * 6
    assert rows == B.easiest_rows(12, seed=3)  # seeded
    for row in rows:
        item = engine.item_from_official({"inputs": json.loads(row["inputs"]), "outputs": json.loads(row["outputs"])})
        assert len(item.current) == 1 and row["task"] == "state_checking" and row["puzzle"] == "game_of_24"
        assert engine.is_solvable(item.puzzle, item.current) == (row["label"] == "Solvable")
        (expression,) = json.loads(row["inputs"])["current"]   # the official schema: a list of expression strings
        assert (evaluate(parse(expression)) == 24) == (row["label"] == "Solvable"), expression
    assert B.names_both("Answer: (A) or (B)") and B.names_both("A) ... B)") and not B.names_both("Answer: (B)\nAnswer: (B)")
    assert B.final_names_both("Answer: (A) Note: (B)") and not B.final_names_both("Answer: (B)\nAnswer: (A)")


def test_help_lists_every_script_option(capsys):
    """``grpo.py --help`` is TrlParser's help: every ScriptArguments option, with its help text."""
    import dataclasses

    pytest.importorskip("trl")
    from finereason.integrations.training.grpo.config import ScriptArguments
    from trainers.grpo import main

    with pytest.raises(SystemExit) as stopped:
        main(["--help"])
    assert stopped.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    for field in dataclasses.fields(ScriptArguments):
        assert f"--{field.name}" in out, field.name
    assert "plus 25% when max_prompt_length" in out and "--num_generations" in out
