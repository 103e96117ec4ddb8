"""The core imports and runs without the heavy optional dependencies."""
from __future__ import annotations

import subprocess
import sys
import textwrap

BLOCKED = ("torch", "transformers", "trl", "accelerate", "lm_eval", "datasets", "pyarrow", "evaluate", "matplotlib", "vllm")


def test_core_imports_without_heavy_dependencies():
    code = textwrap.dedent(f"""
        import importlib.abc, sys

        class Block(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in {BLOCKED!r}:
                    raise ImportError("blocked: " + name)
                return None

        sys.meta_path.insert(0, Block())
        import finereason, finereason.core.engine, finereason.verification.verifiers, finereason.verification.scoring
        import finereason.models.baselines, finereason.data.sampling, finereason.data.trees, finereason.core.prompts, finereason.commands
        from finereason.commands import main
        assert main(["domains"]) == 0
        heavy = sorted(m for m in sys.modules if m.split(".")[0] in {BLOCKED!r})
        assert not heavy, heavy
        print("ok")
    """)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("ok")


def test_build_without_pyarrow_says_what_to_install():
    code = textwrap.dedent("""
        import importlib.abc, sys

        class Block(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] == "pyarrow":
                    raise ImportError("blocked", name="pyarrow")
                return None

        sys.meta_path.insert(0, Block())
        from finereason.commands import main
        sys.exit(main(["build", "--out", "/tmp/finereason-never-built"]))
    """)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 2
    assert "'.[hub]'" in result.stderr and result.stderr.count("\n") == 1


def test_training_without_the_train_extra_says_which_extra_to_install():
    """With only the eval extra (no trl), the GRPO script names the extra in one line, exit 2."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    code = textwrap.dedent(f"""
        import importlib.abc, runpy, sys

        class Block(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] == "trl":
                    raise ModuleNotFoundError("No module named 'trl'", name="trl")
                return None

        sys.meta_path.insert(0, Block())
        sys.argv = ["trainers/grpo.py", "--config", "trainers/recipes/tiny-cpu/grpo/config_smoke.yaml"]
        runpy.run_path("trainers/grpo.py", run_name="__main__")
    """)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root)
    assert result.returncode == 2, result.stderr[-2000:]
    assert result.stderr.count("\n") == 1 and '".[train]"' in result.stderr and "trl missing" in result.stderr


def test_tiny_model_help_names_an_extra_it_needs():
    """tiny-model needs torch and transformers, which the eval extra has; it never needed [train] alone."""
    from finereason.commands import tiny_model

    assert "[eval]" in tiny_model.HELP and "(needs [train])" not in tiny_model.HELP


def test_tiny_model_files_are_readable_like_other_outputs(tmp_path):
    """Every file gets the bits a new file gets under the umask (safetensors alone writes ``0o600``)."""
    import os
    import stat

    import pytest

    pytest.importorskip("transformers")
    from finereason.commands import main

    assert main(["tiny-model", "--out", str(tmp_path / "m")]) == 0
    umask = os.umask(0)
    os.umask(umask)
    modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in (tmp_path / "m").iterdir()}
    assert modes["model.safetensors"] == 0o666 & ~umask and set(modes.values()) == {0o666 & ~umask}, modes
