"""The GRPO recipe: data mixing (trainers/data.py), argument checks that fail before any model is
loaded, the recipes' hyperparameters, the post-training comparison table, and a CPU smoke run of
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

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from finereason.cli import main as finereason_main  # noqa: E402
from finereason.dataset_builders.layout import read_config  # noqa: E402
from finereason.verdict import TRANSITION_CATEGORIES  # noqa: E402
from trainers import data as D  # noqa: E402
from trainers import evaluate_checkpoint as E  # noqa: E402

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


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """A tiny build: 32 train rows (Sudoku, Game of 24) plus test configs for the disjointness check."""
    out = tmp_path_factory.mktemp("grpo") / "data"
    assert finereason_main(["build", "--out", str(out), "--per-task", "4", "--train-size", "32", "--e2e-size", "1",
                            "--puzzles", "sudoku", "game_of_24"]) == 0
    return out


@pytest.fixture(scope="module")
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
    from trainers.grpo import to_dataset

    rows = D.mix(D.load_puzzle_rows(str(built)), D.load_math_rows(str(math_file), None, 0), 0.5, 8, seed=0)
    ds = to_dataset(rows)
    assert ds.column_names == list(D.MIX_COLUMNS)
    assert ds.to_list() == rows


# ------------------------------------------------------------------ recipes and accelerate configs
def _fields() -> set[str]:
    import dataclasses

    trl = pytest.importorskip("trl")
    from trainers.grpo import ScriptArguments

    return {f.name for cls in (ScriptArguments, trl.GRPOConfig, trl.ModelConfig) for f in dataclasses.fields(cls)}


def test_recipes_follow_table_7():
    fields = _fields()
    assert len(RECIPES) >= 14
    variants = {p.stem for p in RECIPES}
    assert {"config_mix_0.8", "config_1to1_2k", "config_colocate", "config_scale_4k", "config_scale_8k"} <= variants
    for path in RECIPES + [SMOKE]:
        recipe = yaml.safe_load(path.read_text())
        unknown = set(recipe) - fields
        assert not unknown, f"{path}: keys no dataclass knows: {unknown}"
    for path in RECIPES:
        r = yaml.safe_load(path.read_text())
        where = str(path.relative_to(REPO))
        processes = 8 if r["vllm_mode"] == "colocate" else 7
        batch = processes * r["per_device_train_batch_size"] * r["gradient_accumulation_steps"]
        assert batch == 112 and batch % r["num_generations"] == 0, where
        assert (r["learning_rate"], r["warmup_steps"], r["num_train_epochs"]) == (4e-5, 0.1, 1), where
        assert (r["max_prompt_length"], r["max_completion_length"]) == (1024, 1024), where
        assert r["bf16"] is True and r["use_vllm"] is True, where
        assert r["vllm_mode"] == ("colocate" if "colocate" in path.stem else "server"), where
        assert 0 <= r["math_ratio"] <= 1 and r["total_size"] > 0, where
        assert path.parts[-3] in r["model_name_or_path"], where
    mix = yaml.safe_load((RECIPES[0].parent / "config_mix_0.8.yaml").read_text())
    one_to_one = yaml.safe_load((RECIPES[0].parent / "config_1to1_2k.yaml").read_text())
    assert (mix["math_ratio"], mix["total_size"]) == (0.8, 2000)
    assert (one_to_one["math_ratio"], one_to_one["total_size"]) == (0.5, 2000)
    smoke = yaml.safe_load(SMOKE.read_text())
    assert smoke["bf16"] is False and smoke["use_vllm"] is False and smoke["report_to"] == "none"
    assert smoke["max_steps"] in (2, 3) and smoke["num_generations"] == 2 and smoke["save_steps"] == smoke["max_steps"]


def test_accelerate_configs():
    expected = {"ddp": 7, "zero2": 7, "zero3": 7, "colocate": 8, "cpu": 1, "multi_node": 16}
    for name, processes in expected.items():
        config = yaml.safe_load((ACCELERATE / f"{name}.yaml").read_text())
        assert config["num_processes"] == processes, name
        assert config["use_cpu"] is (name == "cpu"), name
        assert config["mixed_precision"] == ("no" if name == "cpu" else "bf16"), name
    assert yaml.safe_load((ACCELERATE / "zero3.yaml").read_text())["deepspeed_config"]["zero_stage"] == 3
    multi = yaml.safe_load((ACCELERATE / "multi_node.yaml").read_text())
    assert multi["num_machines"] == 2 and multi["main_process_ip"] == "MAIN_NODE_IP" and "machine_rank" in multi


# ------------------------------------------------------------------ bad input fails before any model is loaded
def _env(tmp: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(OMP_NUM_THREADS="1", TOKENIZERS_PARALLELISM="false", HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1",
               TRANSFORMERS_OFFLINE="1", HF_DATASETS_CACHE=str(tmp / "hf-datasets"), FINEREASON_CACHE=str(tmp / "fr-cache"),
               PYTHONPATH=os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p))
    return env


def _no_inputs_file(built: Path, tmp: Path) -> Path:
    path = tmp / "puzzles_without_inputs.jsonl"
    rows = read_config(built, "train")
    path.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "inputs"}) + "\n" for r in rows))
    return path


def test_bad_input_fails_with_one_line_before_loading_a_model(built, math_file, tmp_path):
    pytest.importorskip("trl")
    base = [sys.executable, str(GRPO), "--config", str(SMOKE), "--model_name_or_path", "/nonexistent/model",
            "--output_dir", str(tmp_path / "out"), "--puzzle_dataset", str(built), "--math_dataset", str(math_file)]
    cases = {
        "unknown reward": (["--reward_funcs", "puzzle", "accuracy"], "unknown reward 'accuracy'; known rewards:"),
        "missing column": (["--puzzle_dataset", str(_no_inputs_file(built, tmp_path))],
                           "reward 'puzzle' needs dataset column(s) inputs, which the training data lacks"),
        "math_ratio": (["--math_ratio", "1.5"], "math_ratio must be a number in [0, 1], got 1.5"),
    }
    procs = {name: subprocess.Popen(base + extra, cwd=tmp_path, env=_env(tmp_path), stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True) for name, (extra, _) in cases.items()}
    for name, proc in procs.items():
        out, err = proc.communicate(timeout=300)
        lines = [line for line in err.splitlines() if line.strip() and not line.startswith("grpo: warning:")]
        assert proc.returncode == 2, f"{name}: exit {proc.returncode}\n{err[-3000:]}"
        assert len(lines) == 1 and lines[0].startswith(f"grpo: error: {cases[name][1]}"), f"{name}:\n{err[-3000:]}"
        assert "Traceback" not in err and not out.strip(), name
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("extra,message", [
    (["--total_size", "0"], "total_size must be a positive integer, got 0"),
    (["--reward_funcs", "state_transition", "--st_partial_credit", '{"bogus": 1}'],
     "unknown state-transition categories in partial credit: bogus"),
    (["--st_partial_credit", '{"sibling": 0.5}'], "st_partial_credit is set but reward_funcs has no state_transition"),
    (["--reward_weights", "1.0", "0.5"], "reward_weights has 2 values for 3 reward_funcs"),
    (["--math_ratio", "1.0"], "reward 'puzzle' needs dataset column(s) puzzle, inputs, outputs, label"),
    (["--puzzle_dataset", "/nonexistent/data"], "no such folder or file"),
    (["--resume_from_checkpoint", "true"], "no checkpoint-* folder"),
])
def test_more_bad_input_in_process(built, math_file, tmp_path, capsys, extra, message):
    pytest.importorskip("trl")
    from trainers.grpo import main

    argv = ["--config", str(SMOKE), "--model_name_or_path", "/nonexistent/model", "--output_dir", str(tmp_path / "out"),
            "--puzzle_dataset", str(built), "--math_dataset", str(math_file), *extra]
    assert main(argv) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if line.startswith("grpo: error:")]
    assert len(err) == 1 and message in err[0], err


# ------------------------------------------------------------------ the comparison table
def _results(gsm8k: float | None, math_subtasks: dict[str, tuple[float, int]], sc: float, st: float) -> dict:
    """An lm-eval 0.4.13 results file (the layout of `finereason eval` output) with made-up numbers."""
    results, n = {}, {}
    if gsm8k is not None:
        results["gsm8k"] = {"alias": "gsm8k", "exact_match,strict-match": gsm8k - 0.1, "exact_match,flexible-extract": gsm8k}
        n["gsm8k"] = {"original": 1319, "effective": 1319}
    for task, (value, size) in math_subtasks.items():
        results[task] = {"alias": task, "exact_match,none": value - 0.05, "math_verify,none": value}
        n[task] = {"original": size, "effective": size}
    for puzzle in ("sudoku", "graph_coloring", "game_of_24", "grid_puzzle"):
        for task, value in (("state_checking", sc), ("state_transition", st)):
            name = f"finereason_{puzzle}_{task}"
            results[name] = {"alias": name, "acc,none": value, "acc_stderr,none": 0.01}
            n[name] = {"original": 500, "effective": 500}
    results["finereason"] = {"alias": "finereason", "acc,none": (sc + st) / 2}
    return {"results": results, "groups": {"finereason": results["finereason"]}, "n-samples": n,
            "group_subtasks": {"minerva_math": sorted(math_subtasks), "finereason": []}}


def test_scores_and_table():
    base = E.scores_from_results([_results(0.8, {"minerva_math_algebra": (0.5, 100), "minerva_math_geometry": (0.2, 300)},
                                           0.6, 0.3)])
    assert base["GSM8K"] == pytest.approx(0.8)                         # flexible-extract wins
    assert base["MATH"] == pytest.approx((0.5 * 100 + 0.2 * 300) / 400)  # size-weighted over the subtasks
    assert base["FineReason SC"] == pytest.approx(0.6) and base["FineReason ST"] == pytest.approx(0.3)
    # a later file with only the FineReason tasks updates those and keeps GSM8K / MATH
    trained = E.scores_from_results([_results(0.85, {"minerva_math_algebra": (0.6, 100)}, 0.1, 0.1),
                                     _results(None, {}, 0.7, 0.45)])
    table = E.comparison_table({"base": base, "trained": trained}, {"base": "B", "trained": "T"})
    lines = table.strip().splitlines()
    assert lines[0] == "| model | GSM8K | MATH | FineReason SC | FineReason ST |"
    assert lines[2] == "| base (`B`) | 80.0 | 27.5 | 60.0 | 30.0 |"
    assert lines[3] == "| trained (`T`) | 85.0 | 60.0 | 70.0 | 45.0 |"
    assert lines[4] == "| Δ trained − base | +5.0 | +32.5 | +10.0 | +15.0 |"
    missing = E.comparison_table({"trained": E.scores_from_results([_results(None, {}, 0.5, 0.5)])})
    assert "| trained | – | – | 50.0 | 50.0 |" in missing and "Δ" not in missing


def test_table_only_reads_output_dir(tmp_path, capsys):
    for label, sc in (("base", 0.5), ("trained", 0.75)):
        folder = tmp_path / label / "model"
        folder.mkdir(parents=True)
        (folder / "results_2026-01-01T00-00-00.json").write_text(json.dumps(_results(0.7, {}, sc, 0.25)))
    code = E.main(["--checkpoint", "ckpt", "--base_model", "base-model", "--output_dir", str(tmp_path), "--table_only"])
    assert code == 0
    assert "| trained (`ckpt`) | 70.0 | – | 75.0 | 25.0 |" in (tmp_path / "comparison.md").read_text()
    assert "+25.0" in capsys.readouterr().out
    assert E.main(["--checkpoint", "ckpt", "--output_dir", str(tmp_path / "empty"), "--table_only"]) == 2


def test_dry_run_prints_the_commands(tmp_path, capsys):
    code = E.main(["--checkpoint", "out/ckpt", "--base_model", "deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B",
                   "--model", "vllm", "--limit", "10", "--output_dir", str(tmp_path / "ev"), "--dry-run"])
    assert code == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "# base" and out[2] == "# trained"
    for line, path, label in ((out[1], "deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B", "base"), (out[3], "out/ckpt", "trained")):
        assert "-m finereason eval --model vllm" in line
        assert f"--model_args pretrained={path},dtype=bfloat16,gpu_memory_utilization=0.85" in line
        assert "--tasks gsm8k,minerva_math,finereason" in line
        assert "--limit 10" in line and "--apply_chat_template" in line
        assert f"--output_path {tmp_path / 'ev' / label}" in line
    assert not (tmp_path / "ev").exists()


def test_harness_task_names_exist():
    """The default GSM8K and MATH tasks are lm-eval 0.4.13's own (checked, not guessed)."""
    pytest.importorskip("lm_eval")
    from lm_eval.tasks import TaskManager

    names = set(TaskManager().all_tasks)
    assert {"gsm8k", "minerva_math", "minerva_math500", "hendrycks_math"} <= names


# ------------------------------------------------------------------ the smoke run
def _accelerate_launch() -> list[str]:
    """``accelerate launch`` as users type it (the console script beside this Python, else on PATH)."""
    script = Path(sys.executable).with_name("accelerate")
    found = str(script) if script.is_file() else shutil.which("accelerate")
    return [found, "launch"] if found else [sys.executable, "-m", "accelerate.commands.launch"]


def _smoke(built: Path, math_file: Path, tmp: Path, launch: list[str]) -> tuple[Path, float, str]:
    from finereason.tiny_model import build_tiny_model

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
    from trainers.grpo import ScriptArguments, load_pools

    args = ScriptArguments(**{k: v for k, v in recipe.items() if k in ScriptArguments.__dataclass_fields__})
    args.puzzle_dataset, args.math_dataset = str(built), str(math_file)
    pools = load_pools(args, recipe["seed"])
    rows = D.mix(pools.puzzle, pools.math, args.math_ratio, args.total_size, recipe["seed"])
    manifest = json.loads((out / "finereason_mix.json").read_text())
    assert manifest["ids"] == [r["id"] for r in rows]
    assert any(r["task"] == "state_transition" for r in rows), "pick a smoke seed whose mix has ST rows"
    for category in TRANSITION_CATEGORIES:
        assert seen(f"finereason/state_transition/rate_{category}"), category
    for folder in (checkpoint, out):
        model = AutoModelForCausalLM.from_pretrained(folder)
        assert model.config.num_hidden_layers == 2
        AutoTokenizer.from_pretrained(folder)


@pytest.mark.slow
def test_smoke_run_on_cpu(built, math_file, tmp_path):
    for module in ("torch", "transformers", "trl", "accelerate", "datasets", "math_verify", "tokenizers"):
        pytest.importorskip(module)
    launch = [*_accelerate_launch(), "--config_file", str(ACCELERATE / "cpu.yaml"), "--num_processes", "1"]
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
