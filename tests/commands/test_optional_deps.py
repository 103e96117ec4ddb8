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
    assert "finereason[hub]" in result.stderr and result.stderr.count("\n") == 1
