"""Completions in GRPO: the model's raw text (:func:`finereason.reading.completion.completion_text`, the one
conversion every scorer uses) and whether a chat template opens ``<think>``."""
from __future__ import annotations

from collections.abc import Mapping  # not typing.Mapping: its isinstance check is several times slower
from typing import Any

from finereason.reading import final_region
from finereason.reading.completion import REASONING_KEYS, completion_text

__all__ = ["REASONING_KEYS", "completion_text", "prompt_opens_think"]


def prompt_opens_think(tokenizer: Any, chat_template_kwargs: Mapping[str, Any] | None = None) -> bool:
    """Whether the tokenizer's chat template ends its generation prompt inside an open ``<think>``
    (R1-distill, QwQ, Qwen3 thinking models), so completions never contain the opening tag and a
    completion without ``</think>`` is unfinished. False without a chat template."""
    messages = [{"role": "user", "content": "Is the state solvable?"}]
    kwargs = dict(chat_template_kwargs or {})
    try:
        with_prompt = tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True, **kwargs)
        without = tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=False, **kwargs)
    except Exception:  # no chat template (plain prompts) or one that needs other messages
        return False
    if not isinstance(with_prompt, str):
        return False
    suffix = with_prompt[len(without):] if isinstance(without, str) and with_prompt.startswith(without) else with_prompt
    return "<think>" in suffix.lower() and final_region(suffix) is None
