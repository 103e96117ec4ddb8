"""finereason: sound, step-level evaluation and training of LLM reasoning on logic puzzles.

The core (engines, solvers, verifiers, parsers) is pure Python; Hugging Face, lm-eval and TRL
layers are thin adapters over :mod:`finereason.verification.verifiers`.
"""
__version__ = "0.1.0"

from .common.verdict import Category, ParseError, StateError, Verdict  # noqa: E402

__all__ = ["Category", "ParseError", "StateError", "Verdict", "__version__", "create_dataset", "list_datasets", "metric_path"]

_LAZY = {"create_dataset", "list_datasets"}  # the RL datasets API (finereason.integrations.rl), imported on first use


def __getattr__(name: str):
    if name in _LAZY:  # by name: the root package sits below every layer, so it names the API, never imports it
        import importlib

        return getattr(importlib.import_module("finereason.integrations.rl"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def metric_path(task: str) -> str:
    """The installed folder of the ``evaluate`` module for ``task`` (``state_checking``,
    ``state_transition``, ``end_to_end``): ``evaluate.load(finereason.metric_path("state_checking"))``."""
    from importlib import resources

    name = task if task.startswith("finereason_") else f"finereason_{task}"
    folder = resources.files("finereason.metrics").joinpath(name)
    if not folder.joinpath(f"{name}.py").is_file():
        raise ValueError(f"no metric module for {task!r}; choose state_checking, state_transition or end_to_end")
    return str(folder)
