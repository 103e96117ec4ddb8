"""GRPO reward functions: the implementation lives in ``finereason.training.rewards`` (installed with
the wheel); this module re-exports it so ``trainers/grpo.py`` and ``from trainers.rewards import ...``
keep working from a checkout."""
from __future__ import annotations

from finereason.training.rewards import *  # noqa: F401,F403
from finereason.training.rewards import __all__  # noqa: F401
