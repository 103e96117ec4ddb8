"""Wall time of the CPU GRPO smoke run (bar: under 120 s), moved here from tests/integrations/test_grpo.py.

    python benchmarks/bench_grpo_smoke.py

Runs ``accelerate launch trainers/grpo.py --config trainers/recipes/tiny-cpu/grpo/config_smoke.yaml``
on a tiny random model, offline, exactly as the smoke test does. Baseline, measured in the same run:
the same launcher starting a script that only imports torch, transformers and TRL (the fixed cost of
any run), so the ratio shows what the two GRPO steps and the data build add on this machine.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SMOKE = REPO / "trainers" / "recipes" / "tiny-cpu" / "grpo" / "config_smoke.yaml"
CPU = REPO / "trainers" / "accelerate_configs" / "cpu.yaml"
BAR_SECONDS = 120.0


def launcher() -> list[str]:
    script = Path(sys.executable).with_name("accelerate")
    found = str(script) if script.is_file() else shutil.which("accelerate")
    base = [found, "launch"] if found else [sys.executable, "-m", "accelerate.commands.launch"]
    return [*base, "--config_file", str(CPU), "--num_processes", "1"]


def seconds(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True)
    took = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd[:4])} ... exited {proc.returncode}:\n{(proc.stdout + proc.stderr)[-3000:]}")
    return took


def main() -> int:
    from finereason.models.tiny import build_tiny_model

    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        env = dict(os.environ, OMP_NUM_THREADS="1", TOKENIZERS_PARALLELISM="false", HF_HUB_OFFLINE="1",
                   HF_DATASETS_OFFLINE="1", TRANSFORMERS_OFFLINE="1", HF_HOME=str(tmp / "hf"),
                   FINEREASON_CACHE=str(tmp / "fr-cache"),
                   PYTHONPATH=os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p))
        model = build_tiny_model(tmp / "tiny")
        imports = tmp / "imports_only.py"
        imports.write_text("import torch, transformers, trl  # noqa: F401\n")
        baseline = seconds([*launcher(), str(imports)], env)
        smoke = seconds([*launcher(), str(REPO / "trainers" / "grpo.py"), "--config", str(SMOKE),
                         "--model_name_or_path", str(model), "--output_dir", str(tmp / "out")], env)
    print(f"launcher + imports only: {baseline:.1f} s")
    print(f"CPU smoke run:           {smoke:.1f} s ({smoke / baseline:.1f}x the baseline; bar: {BAR_SECONDS:.0f} s)")
    if smoke >= BAR_SECONDS:
        print("ERROR: the smoke run is over its budget")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
