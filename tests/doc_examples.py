"""Doc examples: every fenced ```bash / ```python block of the README, the guides in ``docs/``, the task
guide and the metrics guide, split into commands, with a short allow-list of commands that cannot run
here and why (a GPU, the network, a module another branch adds).

``tests/test_doc_examples.py`` runs them; usage synopses (options in brackets) are ```text blocks and
not run. A skip names the doc, a substring of the command and the reason.
"""
from __future__ import annotations

import importlib.util
import re
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GUIDES = tuple(sorted(str(p.relative_to(REPO)) for p in (REPO / "docs").glob("*.md")))
DOCS = ("README.md", *GUIDES, "lm_eval_tasks/finereason/README.md", "metrics/README.md")
LANGUAGES = {"bash": "bash", "sh": "bash", "shell": "bash", "python": "python"}
GPU = "needs a GPU"
NETWORK = "needs the network"
PENDING = "needs a module that another issue-24 branch adds"
# (doc, substring of the command, reason): the only commands not run
SKIPS: tuple[tuple[str, str, str], ...] = (
    ("README.md", "pip install", f"{NETWORK} (installs packages from PyPI or download.pytorch.org)"),
    ("docs/install.md", "pip install", f"{NETWORK} (installs packages from PyPI or download.pytorch.org)"),
    ("docs/tasks-and-metrics.md", "--model vllm", f"{GPU} (vLLM)"),
    ("docs/tasks-and-metrics.md", "local-chat-completions", f"{NETWORK} (an OpenAI-compatible server you started)"),
    ("docs/tasks-and-metrics.md", "openai-chat-completions", f"{NETWORK} (a hosted API and its key)"),
    ("docs/training.md", "vllm-serve", f"{GPU} (a vLLM server on GPU 7)"),
    ("docs/training.md", "zero2.yaml --num_processes 7", f"{GPU} (7 training GPUs)"),
    ("docs/datasets.md", "finereason push", f"{NETWORK} (uploads to the Hugging Face Hub)"),
    ("docs/asp-critic.md", "--data ~/folio_v2", f"{NETWORK} (a local copy of the gated FOLIO v2, downloaded with a Hub login)"),
    ("lm_eval_tasks/finereason/README.md", "--model vllm", f"{GPU} (vLLM)"),
    ("docs/rl-frameworks.md", "zero2.yaml --num_processes 7", f"{GPU} (7 training GPUs)"),
    ("docs/rl-frameworks.md", "grpo_r1_distill_qwen_1.5b.sh", f"{GPU} (verl on 8 GPUs)"),
    ("docs/rl-frameworks.md", "import reasoning_gym", f"{NETWORK} (installs reasoning-gym from PyPI; "
                                                       "tests/integrations/test_reasoning_gym.py runs this with the real package)"),
)
# (doc, substring of the command, module): skipped only while the module is absent (the guide was
# written to its design before the merge); once it exists the example runs like any other
WAITING: tuple[tuple[str, str, str], ...] = (
    ("docs/adding-a-metric.md", "finereason.verification.metrics", "finereason.verification.metrics"),
    ("docs/adding-a-reward.md", "finereason.integrations.training.rewards", "finereason.integrations.training.rewards"),
    ("docs/adding-a-command.md", "finereason.commands.table", "finereason.commands.table"),
)


def _absent(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is None
    except ModuleNotFoundError:  # a parent package is absent
        return True


def skip_reason(doc: str, command: str) -> str | None:
    """Why ``command`` of ``doc`` is not run, or None."""
    reason = next((r for d, needle, r in SKIPS if d == doc and needle in command), None)
    if reason is None:
        reason = next((f"{PENDING} ({m}: runs once it is merged)" for d, needle, m in WAITING
                       if d == doc and needle in command and _absent(m)), None)
    return reason


_WHOLE_SUITE = re.compile(r"python3? -m pytest$")  # the whole suite (no file named)
_FENCE = re.compile(r"^( *)```(\w+)[^\n]*\n(.*?)^\1```", re.S | re.M)


@dataclass
class Example:
    """One fenced block: where it is, its language and its commands (continuations joined)."""

    doc: str
    line: int
    language: str
    commands: list[str]
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (command, reason)

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.line}"

    def script(self) -> str:
        return "\n".join(c for c in self.commands if c not in {s for s, _ in self.skipped}) + "\n"


def _commands(language: str, code: str) -> list[str]:
    """Shell: one command per line, ``\\``-continuations joined, comments and blank lines dropped.
    Python: the block as one program."""
    if language == "python":
        return [code]
    out, current = [], ""
    for raw in code.splitlines():
        line = raw.strip()
        if not current and (not line or line.startswith("#")):
            continue
        current = f"{current} {line}" if current else line
        if current.endswith("\\"):
            current = current[:-1].rstrip()
            continue
        out.append(current)
        current = ""
    out += [current] if current else []
    # "A && B" runs as two commands, so that a skip (a pip install) drops only its own part; the
    # README's test command runs the whole suite, which is this test's own run: it is collected only
    # (without rewriting the asserts of 190 modules, which only changes how a failure is reported)
    split = [part.strip() for command in out for part in command.split(" && ")]
    return [f"{part} --collect-only -q --assert=plain {REPO / 'tests'}" if _WHOLE_SUITE.search(part) else part
            for part in split]


def extract(doc: str) -> list[Example]:
    """The runnable blocks of ``doc`` (a path relative to the repository), skips applied."""
    text = (REPO / doc).read_text(encoding="utf-8")
    examples = []
    for m in _FENCE.finditer(text):
        language = LANGUAGES.get(m.group(2))
        if language is None:
            continue
        example = Example(doc, text[: m.start()].count("\n") + 1, language, _commands(language, m.group(3)))
        for command in example.commands:
            reason = skip_reason(doc, command)
            if reason is not None:
                example.skipped.append((command, reason))
        examples.append(example)
    return examples


def all_examples() -> list[Example]:
    return [e for doc in DOCS for e in extract(doc)]
