"""Old names kept working: a renamed function or attribute stays reachable by its old name,
which warns (`DeprecationWarning`, naming the new one) and gives what the new name gives.

>>> import warnings
>>> def new(x: int) -> int:
...     return x + 1
>>> old = renamed_function(new, "old")
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     value = old(1)
>>> value, str(caught[0].message)
(2, 'old() is deprecated: use new()')
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

__all__ = ["Renamed", "renamed_function", "warn_renamed"]

_P = ParamSpec("_P")
_R = TypeVar("_R")


def warn_renamed(old: str, new: str, stacklevel: int = 3) -> None:
    """A DeprecationWarning that `old` is now `new`, pointing at the caller's caller (the
    line that used the old name) by default."""
    warnings.warn(f"{old} is deprecated: use {new}", DeprecationWarning, stacklevel=stacklevel)


def renamed_function(function: Callable[_P, _R], old: str) -> Callable[_P, _R]:
    """`function` under its old name `old`: each call warns, then calls it."""

    @functools.wraps(function)
    def alias(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        warn_renamed(f"{old}()", f"{function.__name__}()")
        return function(*args, **kwargs)

    alias.__name__ = alias.__qualname__ = old
    alias.__doc__ = f"Deprecated: the old name of `{function.__name__}`, which see."
    return alias


class Renamed:
    """A read-only class attribute aliasing the attribute `new` under its old name (the name
    it is assigned to): reading it warns and gives `new`'s value; a method is given bound,
    so an old method name calls the new method."""

    def __init__(self, new: str) -> None:
        self.new = new
        self.old = new
        self.owner = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.old, self.owner = name, owner.__name__

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        if instance is None:
            return self
        warn_renamed(f"{self.owner}.{self.old}", f"{self.owner}.{self.new}")
        return getattr(instance, self.new)

    def __set__(self, instance: object, value: object) -> None:
        raise AttributeError(f"{self.owner}.{self.old} is a read-only alias of {self.new}")
