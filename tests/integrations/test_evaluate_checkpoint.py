"""trainers/evaluate_checkpoint.py: the Table 5 comparison (reading lm-eval results, the table layout,
commands, offline behaviour) and an offline run on three tiny-model checkpoints with local GSM8K/MATH
files (tests/data/gsm8k_tiny.jsonl, tests/data/math_tiny.jsonl)."""
from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml", reason="needs PyYAML")

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from trainers import evaluate_checkpoint as E  # noqa: E402

GSM8K = REPO / "tests" / "data" / "gsm8k_tiny.jsonl"
MATH_FILE = REPO / "tests" / "data" / "math_tiny.jsonl"


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
    assert lines[0] == "| model | GSM8K | MATH | FineReason SC | FineReason ST | FineReason |"
    assert lines[2] == "| base (`B`) | 80.0 | 27.5 | 60.0 | 30.0 | 45.0 |"
    assert lines[3] == "| trained (`T`) | 85.0 | 60.0 | 70.0 | 45.0 | 57.5 |"
    assert lines[4] == "| Δ trained − base | +5.0 | +32.5 | +10.0 | +15.0 | +12.5 |"
    three = E.comparison_table({"base": base, "math_only": trained, "mixed": base}, notes=["MATH: skipped."])
    assert "| Δ math_only − base | +5.0 | +32.5 | +10.0 | +15.0 | +12.5 |" in three
    assert "| Δ mixed − base | +0.0 | +0.0 | +0.0 | +0.0 | +0.0 |" in three and three.endswith("\nMATH: skipped.\n")
    local = E.scores_from_results([{"results": {"gsm8k_local": {"exact_match,flexible-extract": 0.5},
                                                "math_local": {"math_verify,none": 0.25}}}])
    assert (local["GSM8K"], local["MATH"]) == (0.5, 0.25)
    missing = E.comparison_table({"trained": E.scores_from_results([_results(None, {}, 0.5, 0.5)])})
    assert "| trained | — | — | 50.0 | 50.0 | 50.0 |" in missing and "Δ" not in missing


def test_table_only_reads_output_dir(tmp_path, capsys):
    for label, sc in (("base", 0.5), ("trained", 0.75)):
        folder = tmp_path / label / "model"
        folder.mkdir(parents=True)
        (folder / "results_2026-01-01T00-00-00.json").write_text(json.dumps(_results(0.7, {}, sc, 0.25)))
    code = E.main(["--checkpoint", "ckpt", "--base_model", "base-model", "--output_dir", str(tmp_path), "--table_only"])
    assert code == 0
    assert "| trained (`ckpt`) | 70.0 | — | 75.0 | 25.0 | 50.0 |" in (tmp_path / "comparison.md").read_text()
    assert "+25.0" in capsys.readouterr().out
    assert E.main(["--checkpoint", "ckpt", "--output_dir", str(tmp_path / "empty"), "--table_only"]) == 2


def test_dry_run_prints_the_commands(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "0")  # online: GSM8K and MATH from the Hub (nothing runs here)
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "0")
    code = E.main(["--checkpoint", "out/ckpt", "--base_model", "deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B",
                   "--model", "vllm", "--limit", "10", "--output_dir", str(tmp_path / "ev"), "--dry-run"])
    assert code == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "# base" and out[2] == "# trained"
    for line, path, label in ((out[1], "deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B", "base"), (out[3], "out/ckpt", "trained")):
        assert "-m finereason eval --model vllm" in line
        assert f"--model_args pretrained={path},dtype=bfloat16,gpu_memory_utilization=0.85" in line
        assert "--tasks gsm8k,minerva_math,finereason" in line
        assert "--gen_kwargs max_gen_toks=1024" in line          # the paper's generation length by default
        assert "--limit 10" in line and "--apply_chat_template" in line and "--include_path" not in line
        assert f"--output_path {tmp_path / 'ev' / label}" in line
        assert "--metadata" not in line  # the default read context
    assert not (tmp_path / "ev").exists()


def test_starts_in_think_sets_the_runs_read_context(tmp_path, capsys):
    """An R1-style template opens <think>: every run reads in that context, passed as lm-eval --metadata."""
    code = E.main(["--models", "base=B", "trained=T", "--starts_in_think", "true", "--skip", "GSM8K", "MATH",
                   "--output_dir", str(tmp_path / "ev"), "--dry-run"])
    assert code == 0
    commands = [shlex.split(line) for line in capsys.readouterr().out.splitlines() if not line.startswith("#")]
    assert len(commands) == 2
    for argv in commands:
        assert json.loads(argv[argv.index("--metadata") + 1]) == {"starts_in_think": True}


def test_models_in_order_and_offline_notes(tmp_path, capsys):
    """Any number of models, in table order; offline without local files GSM8K and MATH are skipped
    with a note (tests run with HF_HUB_OFFLINE=1); local files make local tasks."""
    code = E.main(["--models", "base=B", "math_only=M", "mixed=X", "ratio_0.2=R", "--output_dir", str(tmp_path / "ev"),
                   "--max_gen_toks", "8192", "--gen_kwargs", "temperature=0.6,do_sample=true", "--dry-run"])
    assert code == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == ["# GSM8K: skipped: the Hub is offline (HF_HUB_OFFLINE=1) and no --gsm8k_file was given "
                       "(a local JSON Lines copy of the test set).",
                       "# MATH: skipped: the Hub is offline (HF_HUB_OFFLINE=1) and no --math_file was given "
                       "(a local JSON Lines copy of the test set)."]
    assert [line for line in out if line.startswith("# ") and "skipped" not in line] == ["# base", "# math_only", "# mixed", "# ratio_0.2"]
    assert all("--tasks finereason " in line and "--gen_kwargs max_gen_toks=8192,temperature=0.6,do_sample=true" in line
               for line in out if "finereason eval" in line)
    code = E.main(["--models", "base=B", "--gsm8k_file", str(GSM8K), "--math_file", str(MATH_FILE),
                   "--output_dir", str(tmp_path / "ev"), "--dry-run"])
    line = capsys.readouterr().out.splitlines()[1]
    assert "--tasks gsm8k_local,math_local,finereason" in line and f"--include_path {tmp_path / 'ev' / 'local_tasks'}" in line


@pytest.mark.parametrize("argv,message", [
    (["--models", "base"], "--models 'base': use LABEL=PATH"),
    (["--models", "a=x", "a=y"], "label 'a' given twice"),
    ([], "no models"),
    (["--models", "a=x", "--gsm8k_file", "/nonexistent.jsonl"], "GSM8K file /nonexistent.jsonl: no such file"),
    (["--models", "a=x", "--math_file", str(GSM8K)], "rows need problem, solution; the first row lacks problem, solution"),
    (["--models", "a=x", "--max_gen_toks", "0"], "--max_gen_toks must be positive"),
    (["--models", "a=x", "--gsm8k_file", str(GSM8K), "--num_fewshot", "5"], "the local tasks have no few-shot split"),
])
def test_bad_arguments_one_line(argv, message, tmp_path, capsys):
    assert E.main([*argv, "--output_dir", str(tmp_path), "--dry-run"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("evaluate_checkpoint: error:") and message in err[0], err


def test_local_task_files(tmp_path):
    """The local tasks include lm-eval's own GSM8K / Minerva-MATH definitions and read the local files;
    lm-eval's TaskManager finds them next to our tasks and loads them with no Hub access and without
    indexing its built-in tasks (so `finereason eval` skips that index for these runs)."""
    pytest.importorskip("lm_eval")
    from lm_eval.tasks import TaskManager

    from finereason.integrations.lm_eval.cli import needs_only_included_tasks

    args = E.build_parser().parse_args(["--models", "a=x", "--gsm8k_file", str(GSM8K), "--math_file", str(MATH_FILE)])
    folder = E.write_local_tasks(args, tmp_path / "tasks")
    gsm = yaml.safe_load((folder / "gsm8k_local.yaml").read_text())
    assert gsm["dataset_kwargs"]["data_files"]["test"] == str(GSM8K.resolve()) and gsm["num_fewshot"] == 0
    assert gsm["include"].endswith("gsm8k/gsm8k.yaml") and Path(gsm["include"]).is_file()
    manager = TaskManager(include_defaults=False, include_path=str(folder))
    assert {"gsm8k_local", "math_local", "finereason", "finereason_sudoku_state_checking"} <= set(manager.all_tasks)
    loaded = manager.load(["gsm8k_local", "math_local"])["tasks"]
    assert sorted(loaded) == ["gsm8k_local", "math_local"]
    assert [len(list(task.eval_docs)) for task in (loaded["gsm8k_local"], loaded["math_local"])] == [
        sum(1 for line in path.read_text().splitlines() if line.strip()) for path in (GSM8K, MATH_FILE)]
    command = E.eval_command(args, "x", tmp_path / "out", ["gsm8k_local", "math_local", "finereason"], folder)
    assert needs_only_included_tasks(command, str(folder))


def test_harness_task_names_exist():
    """The default GSM8K and MATH tasks are lm-eval 0.4.13's own (checked, not guessed)."""
    pytest.importorskip("lm_eval")
    from lm_eval.tasks import TaskManager

    names = set(TaskManager().all_tasks)
    assert {"gsm8k", "minerva_math", "minerva_math500", "hendrycks_math"} <= names


@pytest.mark.slow
def test_three_tiny_checkpoints_offline(tmp_path, monkeypatch, capsys, warm_python):
    """The bar: offline, three checkpoints (base, math only, mixed) of the tiny model on local GSM8K and
    MATH files and the finereason group; the table has every row and column filled. The script runs
    here; each `finereason eval` it starts is a process of its own, as always (through the warm Python:
    ``tests/warm_python.py``), and the command lines it runs are the ones it prints."""
    for module in ("torch", "transformers", "lm_eval", "tokenizers", "pyarrow"):
        pytest.importorskip(module)
    from finereason.commands import main as finereason_main
    from finereason.models.tiny import build_tiny_model

    data = tmp_path / "data"
    assert finereason_main(["build", "--out", str(data), "--per-task", "1", "--train-size", "0", "--e2e-size", "0"]) == 0
    models = [f"{label}={build_tiny_model(tmp_path / label, seed=seed)}"
              for seed, label in enumerate(("base", "math_only", "mixed"))]
    out = tmp_path / "eval"
    ran = []
    real_run = subprocess.run

    def run(cmd, **kwargs):
        assert cmd[:4] == [sys.executable, "-m", "finereason", "eval"], cmd
        ran.append(cmd)
        return real_run([*warm_python, *cmd[1:]], **kwargs)

    monkeypatch.setattr(E.subprocess, "run", run)
    monkeypatch.chdir(tmp_path)
    code = E.main(["--models", *models, "--model", "hf", "--model_args", "dtype=float32", "--batch_size", "4",
                   "--limit", "1", "--max_gen_toks", "4", "--gsm8k_file", str(GSM8K), "--math_file", str(MATH_FILE),
                   "--data", str(data), "--output_dir", str(out)])
    err = capsys.readouterr().err
    assert code == 0, err[-4000:]
    labels = ("base", "math_only", "mixed")
    printed = [line for line in err.splitlines() if line.startswith(tuple(f"evaluate_checkpoint: {x}: " for x in labels))]
    assert printed == [f"evaluate_checkpoint: {label}: {shlex.join(cmd)}" for label, cmd in zip(labels, ran)]
    table = (out / "comparison.md").read_text().splitlines()
    assert table[0] == "| model | GSM8K | MATH | FineReason SC | FineReason ST | FineReason |"
    rows = [line for line in table if line.startswith("| ") and not line.startswith("| model")]
    assert [r.split(" (")[0] for r in rows[:3]] == ["| base", "| math_only", "| mixed"]
    assert rows[3].startswith("| Δ math_only − base |") and rows[4].startswith("| Δ mixed − base |")
    for row in rows[:3]:
        cells = [c.strip() for c in row.strip("|").split("|")[1:]]
        assert len(cells) == 5 and all(c != "—" for c in cells), row   # every column measured
        assert all(0.0 <= float(c) <= 100.0 for c in cells), row
    scores = json.loads((out / "comparison.json").read_text())
    assert list(scores["models"]) == ["base", "math_only", "mixed"] and scores["max_gen_toks"] == 4
    for label in ("base", "math_only", "mixed"):  # the overall column is the number lm-eval printed for the group
        printed = [json.loads(p.read_text())["groups"]["finereason"]["acc,none"] for p in (out / label).rglob("results_*.json")
                   if "finereason" in (json.loads(p.read_text()).get("groups") or {})]
        assert printed and scores["scores"][label]["FineReason"] == pytest.approx(printed[-1])
    for label in ("base", "math_only", "mixed"):
        samples = list((out / label).rglob("samples_gsm8k_local_*.jsonl"))
        assert samples, f"no logged GSM8K samples for {label}"


@pytest.mark.parametrize("gpu", [False, True])
def test_cpu_sensible_defaults_without_a_gpu(gpu, tmp_path, capsys):
    """hf on a CPU-only machine: batch size 1 and float32, said on stderr; with a GPU: auto and bfloat16;
    explicit options always win."""
    args = E.build_parser().parse_args(["--models", "a=x", "--model", "hf"])
    note = E.device_defaults(args, gpu=gpu)
    if gpu:
        assert note is None and args.batch_size == "auto" and args.model_args == "dtype=bfloat16"
    else:
        assert args.batch_size == "1" and args.model_args == "dtype=float32"
        assert "no GPU" in note and "--batch_size 1" in note and "dtype=float32" in note
    args = E.build_parser().parse_args(["--models", "a=x", "--batch_size", "8", "--model_args", "dtype=float16"])
    E.device_defaults(args, gpu=gpu)
    assert args.batch_size == "8" and args.model_args == "dtype=float16"
    vllm = E.build_parser().parse_args(["--models", "a=x", "--model", "vllm"])
    assert E.device_defaults(vllm, gpu=gpu) is None and "bfloat16" in vllm.model_args


def test_the_cpu_defaults_reach_the_commands(tmp_path, capsys):
    from finereason.common.devices import has_gpu

    if has_gpu():
        pytest.skip("this machine has a GPU: the CPU defaults are not chosen")
    assert E.main(["--models", "base=B", "--output_dir", str(tmp_path / "ev"), "--dry-run"]) == 0
    captured = capsys.readouterr()
    line = next(line for line in captured.out.splitlines() if "finereason eval" in line)
    assert "--model_args pretrained=B,dtype=float32" in line and "--batch_size 1" in line
    assert "no GPU found" in captured.err
