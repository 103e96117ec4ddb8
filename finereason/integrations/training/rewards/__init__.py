"""GRPO reward functions for TRL, one module per reward family, looked up by name from one registry.

Every function has TRL's signature ``f(completions, **columns) -> list[float | None]``: dataset
columns arrive as keyword arguments, and ``None`` means "not applicable" (a puzzle reward on a math
row and vice versa). Rewards read model text exactly as evaluation does: puzzle verdicts come from
``finereason.verification.scoring.score_row`` and the format check from ``finereason.verification.verifiers.format_ok`` (the
one answer reader), so a reward never pays for what a published score would not credit.

Modules: :mod:`.registry` (``@register_reward(name, columns=...)``, :func:`get_rewards`,
:func:`check_columns`), :mod:`.completions` (any completion shape as text), :mod:`.puzzle`
(``state_checking``, ``state_transition``, ``end_to_end``, ``puzzle``), :mod:`.format` (``format``),
:mod:`.math` (``math``), :mod:`.math_reading` (the committed ``\\boxed{}`` answer, read by the math
answer kind of the reader, :mod:`finereason.reading.boxed`) and :mod:`.math_worker` (bounded, silent
math-verify). :func:`get_rewards` takes ``partial_credit`` (state-transition credit per error
category) and the run's read ``context`` (a :class:`finereason.reading.ReadContext`; ``starts_in_think=``
is an alias): with ``starts_in_think`` the chat template's generation prompt already opened ``<think>``,
as for R1-distill, QwQ and Qwen3 thinking models (see :func:`prompt_opens_think`).

Rules, for every reward:

* Text up to the last ``</think>`` is reasoning and is never graded; unfinished reasoning (``<think>``
  without ``</think>``, or no ``</think>`` at all with ``starts_in_think``) earns 0 from every reward.
* ``format``: 1.0 only for exactly one committed final answer in the form the prompt asks for
  (``Answer: (A)``, ``Next state: [...]``, ``Answer: <solution>``, a final ``\\boxed{}`` for math).
  Hedging (``(A) or (B)``) and keyword spam earn 0.
* ``math``: only ``\\boxed{}`` answers after the reasoning count (no last-number fallback), read by the
  commitment rule (the math answer kind, :mod:`finereason.reading.boxed`): a later corrected box is the
  answer; two boxes offered at once (``\\boxed{3} or \\boxed{5}``) or a hedged box earn 0. Verification is bounded (see :func:`math_answer`): the
  boxed text is capped, plain numbers and fractions are compared exactly without math-verify, explosive
  constructs are refused, math-verify runs under its own 1-second timeouts (signal-based; off the
  main thread in a worker process that is killed when it overruns) with its loggers silenced, so no
  completion text is ever logged.
"""
from __future__ import annotations

from finereason.integrations.training.mixing import MATH_TASK
from finereason.integrations.training.rewards.completions import completion_text, prompt_opens_think
from finereason.integrations.training.rewards.format import format_reward
from finereason.integrations.training.rewards.math import math_reward
from finereason.integrations.training.rewards.math_reading import MAX_BOXED_CHARS, MAX_BOXES, math_answer
from finereason.integrations.training.rewards.math_worker import MATH_TIMEOUT_S, math_correct
# Importing a family registers its rewards; the order of these imports is the order of the registry
# (and of "known rewards: ..." in errors): puzzle, format, math.
from finereason.integrations.training.rewards.puzzle import (PUZZLE_TASKS, ROW_COLUMNS, end_to_end_reward, puzzle_reward,
                                                             state_checking_reward, state_transition_reward)
from finereason.integrations.training.rewards.registry import (REGISTRY, Reward, RewardConfigError, RewardSpec, check_columns,
                                                               get_rewards, register_reward)

__all__ = ["MATH_TASK", "MATH_TIMEOUT_S", "MAX_BOXED_CHARS", "MAX_BOXES", "PUZZLE_TASKS", "REGISTRY", "ROW_COLUMNS",
           "Reward", "RewardConfigError", "RewardSpec", "check_columns", "completion_text", "end_to_end_reward",
           "format_reward", "get_rewards", "math_answer", "math_correct", "math_reward", "prompt_opens_think",
           "puzzle_reward", "register_reward", "state_checking_reward", "state_transition_reward"]
