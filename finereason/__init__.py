"""finereason: sound, step-level evaluation and training of LLM reasoning on logic puzzles.

The core (engines, solvers, verifiers, parsers) is pure Python; Hugging Face, lm-eval and TRL
layers are thin adapters over :mod:`finereason.verifiers`.
"""
__version__ = "0.1.0"

from .verdict import Category, ParseError, StateError, Verdict  # noqa: E402

__all__ = ["Category", "ParseError", "StateError", "Verdict", "__version__"]
