"""The one reward registry: ``@register_reward(name, columns=...)`` declares a reward and the dataset
columns it reads; :func:`get_rewards` builds the named ones and :func:`check_columns` checks a
training set against them before any model is loaded."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

from finereason.core.rows import DOMAIN, has_domain_column
from finereason.reading.context import ReadContext, resolve_context

Reward = Callable[..., list]


class RewardConfigError(ValueError):
    """An unknown reward name or bad reward parameters (reported before any model is loaded)."""


@dataclass(frozen=True)
class RewardSpec:
    """One registered reward: its name, the dataset columns it needs, and how to build it."""

    name: str
    columns: tuple[str, ...]
    func: Callable[..., Any]
    factory: bool = False  # func(partial_credit, *, starts_in_think) returns the reward

    def build(self, *, partial_credit: Mapping[str, float] | None = None, starts_in_think: bool = False) -> Reward:
        """The reward function, with ``starts_in_think`` fixed (and ``partial_credit`` for a factory)."""
        if self.factory:
            return self.func(partial_credit, starts_in_think=starts_in_think)
        return _bound(self.func, starts_in_think)


REGISTRY: dict[str, RewardSpec] = {}


def register_reward(name: str, *, columns: Iterable[str], factory: bool = False) -> Callable:
    """Register the decorated reward under ``name`` (returned unchanged). ``columns``: the dataset
    columns it reads (checked by :func:`check_columns`). A plain reward has TRL's signature plus a
    keyword ``starts_in_think``; with ``factory=True`` the decorated function takes
    ``(partial_credit, *, starts_in_think)`` and returns the reward."""
    columns = tuple(columns)
    if not columns or not all(isinstance(c, str) and c for c in columns):
        raise ValueError(f"reward {name!r}: columns must be non-empty column names, got {columns!r}")

    def register(func: Callable) -> Callable:
        if name in REGISTRY:
            raise ValueError(f"reward {name!r} is registered twice ({REGISTRY[name].func.__module__} and {func.__module__})")
        REGISTRY[name] = RewardSpec(name, columns, func, factory)
        return func

    return register


def _bound(func: Callable[..., list], starts_in_think: bool) -> Reward:
    """``func`` with ``starts_in_think`` fixed, under its own name (TRL logs ``rewards/<name>/mean``)."""
    if not starts_in_think:
        return func

    def reward(completions: list, **kwargs: Any) -> list:
        return func(completions, starts_in_think=True, **kwargs)

    reward.__name__ = reward.__qualname__ = func.__name__
    reward.__doc__ = func.__doc__
    return reward


def get_rewards(names: Iterable[str], *, partial_credit: Mapping[str, float] | None = None,
                context: ReadContext | None = None, starts_in_think: bool | None = None) -> list[Reward]:
    """Reward functions for ``names``; an unknown name fails with one clear line.

    ``context``: the run's :class:`~finereason.reading.context.ReadContext` (``starts_in_think=`` is an
    alias). With ``starts_in_think`` the prompt already opened ``<think>`` (see ``prompt_opens_think``),
    so a completion without ``</think>`` is unfinished reasoning and earns 0 from every reward; each
    reward gets it as its keyword ``starts_in_think``.
    """
    starts_in_think = resolve_context(context, starts_in_think).starts_in_think
    names = list(names)
    if not names:
        raise RewardConfigError("no reward functions named (reward_funcs is empty)")
    unknown = [n for n in names if n not in REGISTRY]
    if unknown:
        raise RewardConfigError(f"unknown reward {unknown[0]!r}; known rewards: {', '.join(REGISTRY)}")
    return [REGISTRY[n].build(partial_credit=partial_credit, starts_in_think=bool(starts_in_think)) for n in names]


def check_columns(names: Iterable[str], columns: Iterable[str]) -> None:
    """Fail early when the training data lacks a column a named reward reads (``domain``: either it or
    ``puzzle``, its old name)."""
    have = set(columns)
    for name in names:
        spec = REGISTRY.get(name)
        missing = [c for c in (spec.columns if spec else ())
                   if c not in have and not (c == DOMAIN and has_domain_column(have))]
        if missing:
            raise RewardConfigError(f"reward {name!r} needs dataset column(s) {', '.join(missing)}, which the training data lacks")
