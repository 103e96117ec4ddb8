"""Every shell and Python example of the README, the guides in ``docs/``, the lm-eval task guide and
the metrics guide runs as written (``tests/doc_examples.py`` extracts them; only commands needing a GPU
or the network are skipped, each with its reason, and the examples of guides written ahead of a module
another issue-24 branch adds, only while it is absent), and the README's command table is the one the
parser generates.

Each block runs in its own folder under a temporary ``HOME`` / ``XDG_CACHE_HOME``, offline, with
``../shared`` beside it (and as ``FINEREASON_REFERENCE``, in the layout ``finereason reference fetch``
writes) and the placeholders the docs use present there: ``DIR`` (a small built
dataset folder, also ``FINEREASON_DATA_DIR``, the documented way to point every command at one),
``MODEL`` and ``ORG/MODEL`` (a tiny local model that ends every answer at once, so generation is
quick), and the small input files the commands name (``RESP.jsonl``, ``R.jsonl``, ``STATES.jsonl``,
``PLANS.jsonl``, ``turns.jsonl``, ``dialogs.jsonl``).
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from conftest import SHARED, once_per_run
from doc_examples import REPO, all_examples

EXAMPLES = all_examples()
TIMEOUT_S = 900


def _key(example) -> str:
    return hashlib.sha256(f"{example.language}\n{example.script()}".encode()).hexdigest()[:16]


# a script that several docs show word for word (the README's front-page example and its guide's) runs
# once per test run: the others wait for that run and check its result
_SHARED_SCRIPTS = {k for k, n in Counter(_key(e) for e in EXAMPLES).items() if n > 1}
CHECKOUT = ("trainers", "benchmarks", "tests", "metrics", "lm_eval_tasks")


def _fast_model(out: Path) -> None:
    """The tiny model with its final norm zeroed (every logit 0: it always picks token 0) and token 0
    made an end of sequence, so every answer ends after one token."""
    import torch
    from transformers import AutoModelForCausalLM

    from finereason.models.tiny import build_tiny_model

    build_tiny_model(out)
    model = AutoModelForCausalLM.from_pretrained(out)
    with torch.no_grad():
        model.model.norm.weight.zero_()
    eos = model.generation_config.eos_token_id
    model.generation_config.eos_token_id = [*([eos] if isinstance(eos, int) else eos), 0]
    model.save_pretrained(out)


@pytest.fixture(scope="session")
def workspace(request) -> Path:
    """The placeholder files the examples name (copied into each example's folder; made once per run)."""
    for module in ("lm_eval", "torch", "transformers", "pyarrow", "clingo", "matplotlib", "evaluate"):
        pytest.importorskip(module)
    if not SHARED.is_dir():
        pytest.skip(f"reference data {SHARED} is absent (expected ../shared beside the checkout)")
    return Path(once_per_run(request, "doc-workspace", _make_workspace))


def _make_workspace(ws: Path) -> str:
    from finereason.data.folder import open_data_folder
    from finereason.dataset_builders.build import BuildConfig, build
    from finereason.models.baselines import oracle
    from finereason.data.folio import load_folio
    from finereason.workflows.loop import load_rows

    build(BuildConfig(out=ws / "DIR", per_task=4, train_size=8, e2e_size=2, progress=False))
    _fast_model(ws / "MODEL")
    shutil.copytree(ws / "MODEL", ws / "ORG" / "MODEL")
    rows = open_data_folder(ws / "DIR").read_table("sudoku_state_transition").to_pylist()
    lines = {
        "RESP.jsonl": [{"index": i, "response": "Answer: (A)"} for i in range(3)],
        "R.jsonl": [{"id": r["id"], "response": oracle(r)} for r in rows],
        "STATES.jsonl": ["." * 81, "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"],
        "PLANS.jsonl": [{"domain": "../shared/blocksworld/generated_domain.pddl",
                         "problem": "../shared/blocksworld/generated/instance-14.pddl",  # optimal: 20 states searched
                         "plan": "(unstack b a)"}],
        # replay files answer every "<id>@<round>" the examples request (a missing id is an error): empty answers
        "turns.jsonl": [{"id": f"{r['id']}@{k}", "response": ""}
                        for r in load_rows("graph_coloring", str(ws / "DIR"))[0] for k in range(1, 16)],
        "dialogs.jsonl": [{"id": f"{d['id']}@{k}", "response": ""}
                          for d in load_folio(SHARED / "folio", "train") for k in range(1, 5)],
    }
    for name, items in lines.items():
        (ws / name).write_text("".join(json.dumps(x) + "\n" for x in items), encoding="utf-8")
    # a plugin for `generate_configs --import my_plugin`: the tests' demo domain
    (ws / "my_plugin.py").write_text("from demo_domain import DEMO\nfrom finereason.core.engine import register\n\n"
                                     "register(DEMO)\n", encoding="utf-8")
    return str(ws)


# console scripts of the installed packages the docs call, as `python -m` (the test's interpreter)
SCRIPTS = {"lm_eval": "lm_eval", "accelerate": "accelerate.commands.accelerate_cli", "finereason": "finereason"}


def _bin(home: Path, python: list[str]) -> Path:
    """A folder of the console scripts the docs call and of ``python``/``python3``, each running
    ``python`` (this interpreter, through the worker's warm server: ``tests/warm_python.py``)."""
    folder = home / "bin"
    folder.mkdir(exist_ok=True)
    run = " ".join(f'"{part}"' for part in python)
    scripts = {name: f'exec {run} -m {module} "$@"' for name, module in SCRIPTS.items()}
    scripts.update(python=f'exec {run} "$@"', python3=f'exec {run} "$@"')
    for name, line in scripts.items():
        path = folder / name
        path.write_text(f"#!/bin/sh\n{line}\n", encoding="utf-8")
        path.chmod(0o755)
    return folder


def _reference(folder: Path) -> Path:
    """``FINEREASON_REFERENCE`` for the examples: ../shared in the layout ``finereason reference fetch``
    writes (links; the official release's states are the samples ../shared holds)."""
    folder.mkdir()
    for entry in SHARED.iterdir():
        if entry.name != "finereason_official":
            (folder / entry.name).symlink_to(entry)
    official = folder / "finereason_official"
    official.mkdir()
    for entry in (SHARED / "finereason_official").iterdir():
        name = entry.name.replace("_states_sample.jsonl", "_states.jsonl")
        (official / name).symlink_to(entry)
    return folder


def _environment(home: Path, work: Path) -> dict[str, str]:
    """An example's environment, apart from the scripts folder on ``PATH``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FINEREASON_", "PYTEST_"))}
    env.update(HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"), FINEREASON_DATA_DIR=str(work / "DIR"),
               FINEREASON_REFERENCE=str(home.parent / "reference"),
               HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1", TRANSFORMERS_OFFLINE="1", OMP_NUM_THREADS="1",
               TOKENIZERS_PARALLELISM="false",
               PYTHONPATH=os.pathsep.join((str(REPO), str(REPO / "tests"), str(work))))
    return env


def _env(home: Path, work: Path, python: list[str]) -> dict[str, str]:
    env = _environment(home, work)
    env["PATH"] = os.pathsep.join((str(_bin(home, python)), str(Path(sys.executable).parent), os.environ.get("PATH", "")))
    return env


@pytest.mark.slow
@pytest.mark.parametrize("example", EXAMPLES, ids=[e.id for e in EXAMPLES])
def test_doc_example_runs(example, workspace, tmp_path, request, warm_python):
    if len(example.skipped) == len(example.commands):
        pytest.skip("; ".join(sorted({reason for _, reason in example.skipped})))
    (tmp_path / "shared").symlink_to(SHARED)
    work = tmp_path / "work"
    shutil.copytree(workspace, work)
    for folder in CHECKOUT:  # the examples run from the root of a checkout
        (work / folder).symlink_to(REPO / folder)
    home = tmp_path / "home"
    home.mkdir()
    _reference(tmp_path / "reference")
    if example.language == "python":
        argv = [*warm_python, "-c", example.script()]
    else:
        argv = ["bash", "-e", "-o", "pipefail", "-c", example.script()]

    def run() -> dict:
        proc = subprocess.run(argv, cwd=work, env=_env(home, work, warm_python), capture_output=True, text=True, timeout=TIMEOUT_S)
        return {"id": example.id, "returncode": proc.returncode, "stdout": proc.stdout[-3000:], "stderr": proc.stderr[-5000:]}

    result = once_per_run(request, f"doc-example-{_key(example)}", lambda _folder: run()) if _key(example) in _SHARED_SCRIPTS else run()
    ran = "" if result["id"] == example.id else f" (the same script as {result['id']}, run once)"
    assert result["returncode"] == 0, (f"{example.id}{ran}:\n{example.script()}\n--- stdout\n{result['stdout']}"
                                       f"\n--- stderr\n{result['stderr']}")


def test_every_skip_has_a_gpu_or_network_reason():
    from doc_examples import GPU, NETWORK, SKIPS, WAITING

    assert all(reason.startswith((GPU, NETWORK)) for _, _, reason in SKIPS)
    commands = [(e.doc, c) for e in EXAMPLES for c in e.commands]
    for d, needle, _ in (*SKIPS, *WAITING):
        assert any(doc == d and needle in c for doc, c in commands), f"a skip that matches no command: remove it ({d}: {needle})"


def test_the_readme_command_table_is_generated_from_the_parser():
    from finereason.commands.table import command_table, table_in

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert table_in(readme) == command_table(), "run: python -m finereason.commands.table --write README.md"


def test_a_script_shown_in_several_docs_runs_once(request):
    calls = []

    def run(_folder) -> dict:
        calls.append(1)
        return {"id": "README.md:1", "returncode": len(calls), "stdout": "", "stderr": ""}

    name = f"doc-example-check-{os.getpid()}-{len(EXAMPLES)}"
    assert once_per_run(request, name, run) == once_per_run(request, name, run) == {**run(None), "returncode": 1}
    assert len(calls) == 2  # the two `once_per_run` calls ran it once (the third call is the comparison's)
    shared = [sorted(e.id for e in EXAMPLES if _key(e) == key) for key in _SHARED_SCRIPTS]
    readme = next(e.id for e in EXAMPLES if e.doc == "README.md" and any("trainers/grpo.py" in c for c in e.commands))
    assert [readme, "docs/training.md:3"] in shared  # the GRPO smoke run: front page and guide
