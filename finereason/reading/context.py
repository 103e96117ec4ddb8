"""The read context: everything outside a response's text that changes how it is read.

One :class:`ReadContext` is set once per run (``finereason score --starts-in-think``, lm-eval's
``--metadata '{"starts_in_think": true}'``, the GRPO recipe, ``loop``/``arc`` options), recorded with
the run's results (lm-eval ``configs.<task>.metadata.read_context``, leaderboard submissions'
``config.read_context``), and passed to every reader of that run's text, so a logged response re-read
later (reports, the leaderboard, replays) gets the verdict it got when it was scored.

Today it holds one field: ``starts_in_think``, the chat template's generation prompt already opened
``<think>`` (R1-distill, QwQ, Qwen3 thinking), so a response without ``</think>`` is unfinished
reasoning and has no final answer.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from .region import final_region

VERSION = 1
VERSION_KEY = "read_context_version"
RECORD_KEY = "read_context"  # the key a results file or submission records the context under
_FIELDS = ("starts_in_think",)
_TRUE = ("true", "1", "yes", "on")
_FALSE = ("false", "0", "no", "off", "")


def _flag(value: Any, name: str) -> bool:
    """A boolean setting, strictly: ``True``/``False``, 0/1, or their usual spellings ("true", "no", ...)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in _TRUE + _FALSE:
        return value.strip().lower() in _TRUE
    if value is None:
        return False
    raise ValueError(f"{name} must be true or false, got {value!r}")


@dataclass(frozen=True)
class ReadContext:
    """How a run's responses are read (see the module docstring); immutable and hashable."""

    starts_in_think: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.starts_in_think, bool):
            object.__setattr__(self, "starts_in_think", _flag(self.starts_in_think, "starts_in_think"))

    # ---------------------------------------------------------------- reading
    def region(self, text: str) -> str | None:
        """The final region of ``text`` under this context (``None``: reasoning is unfinished)."""
        return final_region(text, starts_in_think=self.starts_in_think)

    def unfinished(self, text: Any) -> bool:
        """Whether ``text`` has no final answer under this context (its reasoning never closed)."""
        return not isinstance(text, str) or self.region(text) is None

    # ---------------------------------------------------------------- records
    def to_dict(self) -> dict[str, Any]:
        """The JSON record of this context (versioned keys)."""
        return {VERSION_KEY: VERSION, "starts_in_think": self.starts_in_think}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> "ReadContext":
        """The context a :meth:`to_dict` record names; ``None`` or ``{}`` is the default context.
        Raises ``ValueError`` for a record of a newer version or with keys this version cannot honour."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise ValueError(f"a read context must be a JSON object, got {type(data).__name__}")
        version = data.get(VERSION_KEY, VERSION)
        if version != VERSION:
            raise ValueError(f"read context version {version!r} is not known here (this finereason reads version "
                             f"{VERSION}); upgrade finereason")
        unknown = sorted(set(data) - {VERSION_KEY, *_FIELDS})
        if unknown:
            raise ValueError(f"read context has unknown settings {', '.join(map(repr, unknown))} "
                             f"(known: {', '.join(_FIELDS)})")
        return cls(**{name: _flag(data[name], name) for name in _FIELDS if name in data})

    @classmethod
    def from_metadata(cls, metadata: Mapping[str, Any] | None) -> "ReadContext":
        """The context of an lm-eval task's ``metadata``: its recorded ``read_context`` when present,
        else the ``starts_in_think`` flag (``--metadata '{"starts_in_think": true}'``), else the default."""
        if not isinstance(metadata, Mapping):
            return cls()
        recorded = metadata.get(RECORD_KEY)
        if isinstance(recorded, Mapping):
            return cls.from_dict(recorded)
        return cls(_flag(metadata.get("starts_in_think"), "starts_in_think"))

    def describe(self) -> str:
        """One line for logs: ``starts_in_think=true``."""
        return f"starts_in_think={'true' if self.starts_in_think else 'false'}"


DEFAULT = ReadContext()


def resolve_context(context: ReadContext | Mapping[str, Any] | None = None,
                    starts_in_think: bool | None = None) -> ReadContext:
    """The context a reader was given: ``context`` (a :class:`ReadContext` or its record), or the older
    ``starts_in_think=`` keyword (an alias); both at once must agree."""
    if context is not None and not isinstance(context, ReadContext):
        context = ReadContext.from_dict(context)
    if starts_in_think is None:
        return context or DEFAULT
    flag = _flag(starts_in_think, "starts_in_think")
    if context is not None and context.starts_in_think != flag:
        raise ValueError(f"starts_in_think={flag} contradicts the read context ({context.describe()})")
    return context or ReadContext(flag)


def read_context_of(results: Mapping[str, Any], task: str | None = None) -> ReadContext:
    """The read context a results file recorded: an lm-eval results file (``configs.<task>.metadata``)
    or a leaderboard submission (``config.read_context``). ``task``: that task's context; without it
    every task of the file must agree (``ValueError`` when they do not). Files written before contexts
    were recorded read as the default context unless their metadata set ``starts_in_think``."""
    if not isinstance(results, Mapping):
        raise ValueError("a results file must be a JSON object")
    config = results.get("config")
    if isinstance(config, Mapping) and isinstance(config.get(RECORD_KEY), Mapping):
        return ReadContext.from_dict(config[RECORD_KEY])
    configs = results.get("configs")
    if not isinstance(configs, Mapping):
        return DEFAULT
    if task is not None:
        entry = configs.get(task)
        return ReadContext.from_metadata(entry.get("metadata") if isinstance(entry, Mapping) else None)
    found = {name: ReadContext.from_metadata(entry.get("metadata"))
             for name, entry in configs.items() if isinstance(entry, Mapping)}
    distinct = set(found.values())
    if len(distinct) > 1:
        shown = "; ".join(f"{name}: {ctx.describe()}" for name, ctx in sorted(found.items()))
        raise ValueError(f"the tasks of this results file were read with different contexts ({shown})")
    return distinct.pop() if distinct else DEFAULT


__all__ = ["DEFAULT", "RECORD_KEY", "ReadContext", "read_context_of", "resolve_context"]
