"""A completion, in any shape TRL or a chat model hands it over, as the model's raw text."""
from __future__ import annotations

from collections.abc import Mapping  # not typing.Mapping: its isinstance check is several times slower
from typing import Any

from finereason.reading import final_region

REASONING_KEYS = ("reasoning_content", "reasoning", "thinking")  # parsed-out reasoning in a message


def _content_text(content: Any) -> str:
    """A message's content: a string, or a list of parts whose text parts are joined in order."""
    if isinstance(content, str):  # the common case first
        return content
    if isinstance(content, list):
        return "".join(str(part.get("text") or "") for part in content
                       if isinstance(part, Mapping) and part.get("type", "text") == "text")
    if isinstance(content, Mapping):  # a single part
        return _content_text([content])
    return "" if content is None else str(content)


def _is_part(item: Any) -> bool:
    return isinstance(item, Mapping) and "type" in item and "role" not in item and "content" not in item


def _message_text(message: Mapping) -> str:
    """One assistant message as raw model text: reasoning that a response parser split off
    (``reasoning_content``/``reasoning``/``thinking``) goes back inside ``<think>...</think>``."""
    content = _content_text(message.get("content"))
    for key in REASONING_KEYS:
        reasoning = message.get(key)
        if isinstance(reasoning, str) and reasoning:
            return f"<think>{reasoning}</think>{content}"
    return content


def completion_text(completion: Any) -> str:
    """The model's text in a completion: a string; one message (dict); or a conversation (list of
    messages, whose assistant turns are joined in order: tool and user turns are not the model's
    words). Content may be a string or a list of ``{"type": "text", "text": ...}`` parts."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, Mapping):
        return _content_text([completion]) if _is_part(completion) else _message_text(completion)
    if isinstance(completion, (list, tuple)):
        if all(_is_part(m) for m in completion):  # the content parts themselves
            return _content_text(list(completion))
        turns = [_message_text(m) for m in completion
                 if isinstance(m, Mapping) and m.get("role", "assistant") == "assistant"]
        return "\n".join(turns)
    return "" if completion is None else str(completion)


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
