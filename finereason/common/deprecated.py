"""Renamed public names: the old name keeps working for one version, with a warning naming the new one."""
from __future__ import annotations

import warnings
from typing import Any, Callable, Mapping


def renamed_names(module: str, renamed: Mapping[str, str], namespace: Mapping[str, Any], *,
                  moved_to: str = "") -> Callable[[str], Any]:
    """A module ``__getattr__`` that answers each old name in ``renamed`` (old -> new) with the object
    now called ``namespace[new]``, after a :class:`DeprecationWarning`; any other name is an ``AttributeError``.
    ``moved_to``: the module the new names live in, when it is not ``module``.

    Use: ``__getattr__ = renamed_names(__name__, {"old": "new"}, globals())``.
    """
    def __getattr__(name: str) -> Any:
        if name in renamed:
            new = f"{moved_to}.{renamed[name]}" if moved_to else renamed[name]
            warnings.warn(f"{module}.{name} is deprecated; use {new}", DeprecationWarning, stacklevel=2)
            return namespace[renamed[name]]
        raise AttributeError(f"module {module!r} has no attribute {name!r}")
    return __getattr__


__all__ = ["renamed_names"]
