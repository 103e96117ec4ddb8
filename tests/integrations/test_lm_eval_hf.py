"""End to end on CPU: a tiny random model (``finereason tiny-model``) evaluated with lm-eval's ``hf``
backend on FineReason tasks through ``finereason eval``, with and without the chat template.

Nothing is downloaded: the dataset is built locally, the model and tokenizer are made on the spot,
and the runs have ``HF_HUB_OFFLINE=1``. Each lm-eval run is a subprocess, so lm-eval's global
registries do not leak between runs or into other tests.
"""
from __future__ import annotations

import glob
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# skipped, not imported, at collection (importing torch and transformers costs every worker ~3 CPU s)
_MISSING = [m for m in ("torch", "transformers", "tokenizers", "lm_eval", "accelerate", "datasets", "pyarrow")
            if importlib.util.find_spec(m) is None]
pytestmark = pytest.mark.skipif(bool(_MISSING), reason=f"needs {', '.join(_MISSING)} (pip install 'finereason[eval,train]')")

from finereason.commands import main  # noqa: E402
from finereason.models.tiny import CHAT_TEMPLATE, MAX_POSITIONS, build_tiny_model  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
TASKS = ("finereason_sudoku_state_checking", "finereason_game_of_24_state_transition")
LIMIT = 2
MAX_GEN_TOKS = 16


@pytest.fixture(scope="session")
def data_dir(small_dataset) -> Path:
    return small_dataset


@pytest.fixture(scope="session")
def tiny(tmp_path_factory) -> Path:
    return build_tiny_model(tmp_path_factory.mktemp("tiny") / "model")


def _env(data_dir: Path, scratch: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        FINEREASON_DATA_DIR=str(data_dir),
        FINEREASON_CACHE=str(scratch / "finereason-cache"),  # never build the embedded default here
        HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1", TRANSFORMERS_OFFLINE="1",
        OMP_NUM_THREADS="1", TOKENIZERS_PARALLELISM="false",
        PYTHONPATH=os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p),
    )
    return env


def _run_eval(python: list[str], tiny: Path, data_dir: Path, out: Path, *extra: str) -> tuple[dict, dict[str, list[dict]]]:
    cmd = [
        *python, "-m", "finereason", "eval",
        "--model", "hf", "--model_args", f"pretrained={tiny},dtype=float32",
        "--tasks", ",".join(TASKS), "--limit", str(LIMIT),
        "--gen_kwargs", f"max_gen_toks={MAX_GEN_TOKS}",
        "--output_path", str(out), "--log_samples", "--batch_size", "1", *extra,
    ]
    proc = subprocess.run(cmd, cwd=REPO, env=_env(data_dir, out.parent), capture_output=True, text=True, timeout=600)
    log = (proc.stdout + proc.stderr)[-6000:]
    assert proc.returncode == 0, f"finereason eval exited {proc.returncode}:\n{log}"
    results = glob.glob(str(out / "**" / "results_*.json"), recursive=True)
    assert len(results) == 1, f"expected one results_*.json under {out}, found {results}\n{log}"
    samples = {}
    for task in TASKS:
        files = glob.glob(str(out / "**" / f"samples_{task}_*.jsonl"), recursive=True)
        assert len(files) == 1, f"no samples file for {task}: {files}"
        samples[task] = [json.loads(line) for line in Path(files[0]).read_text().splitlines() if line.strip()]
    return json.loads(Path(results[0]).read_text()), samples


def _check_metrics(results: dict, samples: dict[str, list[dict]]) -> None:
    from finereason.verification.scoring import score_row

    for task in TASKS:
        metrics = results["results"][task]
        assert results["configs"][task]["generation_kwargs"]["max_gen_toks"] == MAX_GEN_TOKS
        assert len(samples[task]) == LIMIT
        for sample in samples[task]:
            # the logged generation, judged again from the logged row, gives the logged per-row numbers
            response = sample["resps"][0][0]
            assert isinstance(response, str)
            verdict = score_row(sample["doc"], response).verdict
            assert (sample["acc"], sample["parse_error_rate"]) == (float(verdict.correct), float(verdict.parse_error))
        # and the task's numbers are the means of the per-row numbers
        for name in ("acc", "parse_error_rate"):
            assert metrics[f"{name},none"] == pytest.approx(sum(s[name] for s in samples[task]) / LIMIT), (task, name)
    transition = results["results"]["finereason_game_of_24_state_transition"]
    assert {"acc_paper,none", "rate_correct,none", "rate_parse_error,none"} <= set(transition)
    checking = results["results"]["finereason_sudoku_state_checking"]
    assert {"f1_unsolvable,none", "precision_unsolvable,none", "recall_unsolvable,none"} <= set(checking)
    assert results["max_length"] == MAX_POSITIONS


def test_eval_hf_plain_prompts(tiny, data_dir, tmp_path, warm_python):
    results, samples = _run_eval(warm_python, tiny, data_dir, tmp_path / "out")
    _check_metrics(results, samples)
    for task in TASKS:
        for sample in samples[task]:
            prompt = sample["arguments"]["gen_args_0"]["arg_0"]
            assert prompt == sample["doc"]["prompt"]  # raw prompt, no template


def test_eval_hf_chat_template(tiny, data_dir, tmp_path, warm_python):
    results, samples = _run_eval(warm_python, tiny, data_dir, tmp_path / "out", "--apply_chat_template")
    _check_metrics(results, samples)
    assert results["chat_template"] == CHAT_TEMPLATE
    for task in TASKS:
        for sample in samples[task]:
            prompt = sample["arguments"]["gen_args_0"]["arg_0"]
            assert prompt.startswith("<|bos|><|user|>\n" + sample["doc"]["prompt"][:40])
            assert prompt.endswith("<|eos|>\n<|assistant|>\n")


# ------------------------------------------------------------------ the tiny model itself
def test_tiny_model_reloads_and_generates(tiny):
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(tiny)
    model = AutoModelForCausalLM.from_pretrained(tiny)
    assert model.config.model_type == "llama" and model.config.num_hidden_layers == 2
    assert model.config.max_position_embeddings == MAX_POSITIONS
    assert model.config.tie_word_embeddings
    assert 500 <= len(tok) <= 1000 and model.config.vocab_size == len(tok)
    assert (tok.bos_token, tok.eos_token, tok.pad_token) == ("<|bos|>", "<|eos|>", "<|pad|>")
    assert (tiny / "model.safetensors").stat().st_size < 5_000_000
    inputs = tok("Answer: (A)", return_tensors="pt")
    with torch.no_grad():
        out = model.generate(**inputs, max_new_tokens=4, do_sample=False)
    assert out.shape[1] <= inputs["input_ids"].shape[1] + 4


def test_tiny_tokenizer_round_trips(tiny):
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(tiny)
    for text in ("Next state: [[1, 2], [3, 4]]", "Answer: (A)", "['(13 - 11)', '7', '10']",
                 "[['times', 'names'], [9, 'Edgar'], [10, '']]", "<think>row 3 has two 7s</think> Answer: (B)"):
        ids = tok.encode(text, add_special_tokens=False)
        assert tok.decode(ids, skip_special_tokens=True) == text
    assert len(tok.encode("<think>", add_special_tokens=False)) == 1
    assert len(tok.encode("Next state:", add_special_tokens=False)) <= 4  # the corpus taught it


def test_tiny_chat_template_renders(tiny):
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(tiny)
    messages = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Is it solvable?"}]
    text = tok.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
    assert text == "<|bos|><|system|>\nBe brief.<|eos|>\n<|user|>\nIs it solvable?<|eos|>\n<|assistant|>\n"
    closed = tok.apply_chat_template(messages + [{"role": "assistant", "content": "Answer: (A)"}], tokenize=False)
    assert closed.endswith("<|assistant|>\nAnswer: (A)<|eos|>\n")


def test_context_fits_the_longest_prompt(tiny, data_dir):
    """Every built prompt plus the tasks' default 4096 generated tokens fits the position range."""
    import datasets
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(tiny)
    longest = 0
    for config in sorted(p.name for p in data_dir.iterdir() if p.is_dir()):
        for row in datasets.load_dataset(str(data_dir), config, cache_dir=str(data_dir.parent / "cache"))["test"]:
            longest = max(longest, len(tok(row["prompt"])["input_ids"]))
    assert 0 < longest and longest + 4096 < MAX_POSITIONS


def test_tiny_model_is_seeded_and_qwen2_works(tiny, tmp_path):
    import torch
    from safetensors.torch import load_file
    from transformers import AutoModelForCausalLM

    again = build_tiny_model(tmp_path / "again")
    a, b = load_file(tiny / "model.safetensors"), load_file(again / "model.safetensors")
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)
    assert (tiny / "tokenizer.json").read_text() == (again / "tokenizer.json").read_text()
    qwen = build_tiny_model(tmp_path / "qwen", arch="qwen2")
    assert AutoModelForCausalLM.from_pretrained(qwen).config.model_type == "qwen2"


def test_tiny_model_cli_refuses_a_non_empty_folder(tmp_path, capsys):
    (tmp_path / "x").write_text("keep me")
    assert main(["tiny-model", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not an empty folder" in err
    assert (tmp_path / "x").read_text() == "keep me"


def test_nothing_imports_vllm():
    """The vllm backend is lm-eval's (``--model vllm``, GPU only); our code must not need it."""
    code = ("import sys, finereason.commands, finereason.models.tiny, finereason.integrations.lm_eval.models, finereason.data.resolve, "
            "finereason.verification.scoring; sys.exit('vllm' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], cwd=REPO, timeout=120).returncode == 0
