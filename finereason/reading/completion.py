"""A completion, in any shape a generator, TRL or a chat model hands it over, as the model's raw text.

:func:`completion_text` is the one conversion: scoring (``score_row``), the rewards, the ``evaluate``
metric modules and ``finereason score`` all read a chat-message completion the same way.
"""
from __future__ import annotations

from collections.abc import Mapping  # not typing.Mapping: its isinstance check is several times slower
from typing import Any

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
    words). Content may be a string or a list of ``{"type": "text", "text": ...}`` parts; bytes are
    decoded as UTF-8 and ``None`` is the empty answer."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, bytes):
        return completion.decode("utf-8", errors="replace")
    if isinstance(completion, Mapping):
        return _content_text([completion]) if _is_part(completion) else _message_text(completion)
    if isinstance(completion, (list, tuple)):
        if all(_is_part(m) for m in completion):  # the content parts themselves
            return _content_text(list(completion))
        turns = [_message_text(m) for m in completion
                 if isinstance(m, Mapping) and m.get("role", "assistant") == "assistant"]
        return "\n".join(turns)
    return "" if completion is None else str(completion)


__all__ = ["REASONING_KEYS", "completion_text"]
