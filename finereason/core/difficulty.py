"""Difficulty knobs of a domain's generator: a frozen dataclass per domain, validated when made.

A domain declares its knobs as a subclass of :class:`DifficultyConfig` (``Engine.difficulty_config``)
whose fields default to ``None`` ("the seeded source's own distribution") and carry their bounds in
the field's metadata (:func:`knob`). Ranges are pairs of fields ``min_<x>`` / ``max_<x>``; a value
for one item is drawn with :meth:`DifficultyConfig.pick` from a random stream seeded per item, so the
same (seed, index, config) always gives the same puzzle. Errors are one line
(:class:`~finereason.common.input_errors.InputError`, a ``ValueError``).
"""
from __future__ import annotations

import random
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, Mapping

from ..common.input_errors import InputError


def knob(low: int | None = None, high: int | None = None, *, choices: tuple[str, ...] = (), doc: str = "") -> Any:
    """A difficulty field defaulting to ``None``: an integer in ``low..high``, or one of ``choices``."""
    return field(default=None, metadata={"range": (low, high), "choices": choices, "doc": doc})


@dataclass(frozen=True)
class DifficultyConfig:
    """No knobs: the domain's seeded source as it is. Subclasses add :func:`knob` fields."""

    def __post_init__(self) -> None:
        self.validate()

    @classmethod
    def knobs(cls) -> tuple[str, ...]:
        """The names of the knobs, in declaration order."""
        return tuple(f.name for f in fields(cls))

    @classmethod
    def from_options(cls, options: Mapping[str, Any], owner: str = "") -> "DifficultyConfig":
        """The config of ``options`` (knob name -> value); an unknown name is a one-line error."""
        known = cls.knobs()
        for name in options:
            if name not in known:
                where = f" of {owner}" if owner else ""
                raise InputError(f"unknown difficulty option {name!r}{where}; known: {', '.join(known) or 'none'}")
        return cls(**dict(options))

    def validate(self) -> None:
        """Raise :class:`InputError` (one line) for a value outside its bounds or a range with min > max."""
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None:
                continue
            choices = f.metadata.get("choices", ())
            if choices:
                if value not in choices:
                    raise InputError(f"{f.name} must be one of {', '.join(choices)}, got {value!r}")
                continue
            low, high = f.metadata.get("range", (None, None))
            if isinstance(value, bool) or not isinstance(value, int) or \
                    (low is not None and value < low) or (high is not None and value > high):
                raise InputError(f"{f.name} must be an integer in {_bounds(low, high)}, got {value!r}")
        for name in self.knobs():
            if name.startswith("min_"):
                top = "max_" + name[4:]
                lo, hi = getattr(self, name), getattr(self, top, None)
                if lo is not None and hi is not None and lo > hi:
                    raise InputError(f"{name} ({lo}) is larger than {top} ({hi})")

    def is_default(self) -> bool:
        """Whether no knob is set (the source's own distribution)."""
        return all(getattr(self, name) is None for name in self.knobs())

    def pick(self, knob_name: str, rng: random.Random) -> int | None:
        """A value of ``knob_name`` drawn uniformly from ``min_<knob>..max_<knob>`` (a missing end is
        the field's bound), or ``None`` when neither end is set."""
        lo_field, hi_field = f"min_{knob_name}", f"max_{knob_name}"
        lo, hi = getattr(self, lo_field), getattr(self, hi_field)
        if lo is None and hi is None:
            return None
        bounds = {f.name: f.metadata.get("range", (None, None)) for f in fields(self)}
        lo = bounds[lo_field][0] if lo is None else lo
        hi = bounds[hi_field][1] if hi is None else hi
        return rng.randint(lo, hi)

    def as_dict(self) -> dict[str, Any]:
        """The knobs that are set (JSON-ready)."""
        return {name: getattr(self, name) for name in self.knobs() if getattr(self, name) is not None}

    @classmethod
    def describe(cls) -> list[tuple[str, str]]:
        """(knob, "bounds: help") pairs for docs and ``--help``."""
        out = []
        for f in fields(cls):
            if f.default is MISSING:
                continue
            choices = f.metadata.get("choices", ())
            what = " | ".join(choices) if choices else _bounds(*f.metadata.get("range", (None, None)))
            out.append((f.name, f"{what}{': ' + f.metadata['doc'] if f.metadata.get('doc') else ''}"))
        return out


def _bounds(low: int | None, high: int | None) -> str:
    if low is None and high is None:
        return "any integer"
    if high is None:
        return f">= {low}"
    if low is None:
        return f"<= {high}"
    return f"{low}..{high}"


__all__ = ["DifficultyConfig", "knob"]
