"""Frozen value classes built without `exec`, for the classes a cold command loads.

`value_class` makes a class what ``@dataclass(frozen=True)`` makes it (a dataclass to
`dataclasses.fields`, `replace` and `asdict`; the same ``__init__`` signature, ``__repr__``,
``__eq__``, ``__hash__``, immutability and pickling; a method the class defines itself is
kept), but its methods are shared functions here rather than source text compiled for each
class: ``dataclass`` runs ``exec`` six times a frozen class, about 0.7 ms on Python 3.11,
which a cold ``baccarat edges`` paid for each class it loads. Fields take a default or a
``default_factory``; ``kw_only``, ``init=False``, ``InitVar`` and ``ClassVar`` fields are refused (use
``dataclass``). Its ``__dataclass_params__`` say what ``dataclass`` itself was asked to add
(no methods), so no dataclass may derive from it.

>>> @value_class
... class Pair:
...     '''Two numbers.'''
...     a: int
...     b: int = 0
>>> Pair(1), Pair(1) == Pair(1, 0), hash(Pair(1)) == hash((1, 0))
(Pair(a=1, b=0), True, True)
>>> Pair(1).a = 2
Traceback (most recent call last):
dataclasses.FrozenInstanceError: cannot assign to field 'a'
"""

from __future__ import annotations

import dataclasses
import inspect  # loaded by dataclasses already
from collections.abc import Callable
from functools import partial
from operator import attrgetter
from reprlib import recursive_repr
from typing import TYPE_CHECKING, Any, TypeVar

__all__ = ["value_class"]

_T = TypeVar("_T")


def _key(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The tuple of an object's attributes `names` (as the dataclass methods compare it)."""
    if not names:
        return lambda obj: ()
    get = attrgetter(*names)
    return (lambda obj: (get(obj),)) if len(names) == 1 else get


class _Factory:
    """The default a signature shows for a field with a default_factory, as dataclass's does."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


def _same(value: Any) -> Any:
    return value


def _listed(missing: list[str]) -> str:
    """Missing arguments as Python's own message names them."""
    quoted = [repr(name) for name in missing]
    if len(quoted) == 1:
        return f"1 required positional argument: {quoted[0]}"
    names = " and ".join(quoted) if len(quoted) == 2 else ", ".join(quoted[:-1]) + f", and {quoted[-1]}"
    return f"{len(quoted)} required positional arguments: {names}"


def _init(cls: type, fields: tuple[dataclasses.Field[Any], ...]) -> Callable[..., None]:
    """``__init__`` of a frozen dataclass of `fields`, its signature included."""
    names = tuple(f.name for f in fields)
    count, where = len(names), f"{cls.__qualname__}.__init__()"
    least = sum(f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING for f in fields)
    takes = f"{count + 1}" if least == count else f"from {least + 1} to {count + 1}"
    missing_value = dataclasses.MISSING
    fill: dict[str, Callable[[], Any]] = {}
    for f in fields:
        if f.default is not missing_value:
            fill[f.name] = partial(_same, f.default)
        elif f.default_factory is not missing_value:
            fill[f.name] = f.default_factory
    post_init = hasattr(cls, "__post_init__")  # called on the instance: a subclass's own runs

    def bind(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
        """Every field's value from the arguments, as Python binds them to a signature."""
        given = len(args)
        if given > count:
            raise TypeError(f"{where} takes {takes} positional arguments but {given + 1} were given")
        values = list(args)
        missing = []
        for name in names[given:]:
            if name in kwargs:
                values.append(kwargs.pop(name))
            elif name in fill:
                values.append(fill[name]())
            else:
                missing.append(name)
        if kwargs:
            name = next(iter(kwargs))
            twice = name in names[:given]
            problem = "multiple values for argument" if twice else "an unexpected keyword argument"
            raise TypeError(f"{where} got {problem} {name!r}")
        if missing:
            raise TypeError(f"{where} missing {_listed(missing)}")
        return tuple(values)

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        # the fields in order, straight into the instance's dict (as object.__setattr__ puts them)
        values = args if len(args) == count and not kwargs else bind(args, kwargs)
        self.__dict__.update(zip(names, values, strict=True))
        if post_init:
            self.__post_init__()

    keyword = inspect.Parameter.POSITIONAL_OR_KEYWORD
    parameters = [inspect.Parameter("self", keyword)] + [
        inspect.Parameter(
            f.name,
            keyword,
            annotation=f.type,
            default=(
                f.default
                if f.default is not missing_value
                else inspect.Parameter.empty
                if f.default_factory is missing_value
                else _FACTORY
            ),
        )
        for f in fields
    ]
    __init__.__signature__ = inspect.Signature(parameters, return_annotation=None)  # type: ignore[attr-defined]
    __init__.__annotations__ = {f.name: f.type for f in fields} | {"return": None}
    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


def _build(cls: type[_T]) -> type[_T]:
    """`cls` as a frozen dataclass with shared methods (see the module)."""
    documented = cls.__dict__.get("__doc__") is not None
    made = dataclasses.dataclass(cls, init=False, repr=False, eq=False)
    fields = dataclasses.fields(made)  # type: ignore[arg-type]
    every = made.__dataclass_fields__  # type: ignore[attr-defined]  # InitVar and ClassVar ones too
    plain = all(f.init and not f.kw_only for f in fields) and len(fields) == len(every)
    if "__slots__" in cls.__dict__ or not plain:
        raise TypeError(f"{cls.__qualname__}: value_class takes plain fields; use dataclass(frozen=True)")
    names = frozenset(f.name for f in fields)
    shown = tuple(f.name for f in fields if f.repr)
    compared = _key(tuple(f.name for f in fields if f.compare))
    hashed = _key(tuple(f.name for f in fields if f.hash or (f.hash is None and f.compare)))

    @recursive_repr()
    def __repr__(self: Any) -> str:
        parts = ", ".join(f"{name}={getattr(self, name)!r}" for name in shown)
        return f"{self.__class__.__qualname__}({parts})"

    def __eq__(self: Any, other: object) -> bool:
        if other.__class__ is self.__class__:
            return bool(compared(self) == compared(other))
        return NotImplemented

    def __hash__(self: Any) -> int:
        return hash(hashed(self))

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is made or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(made, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is made or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(made, self).__delattr__(name)

    own = made.__dict__
    explicit_hash = "__hash__" in own and not (own["__hash__"] is None and "__eq__" in own)
    methods: dict[str, Callable[..., Any]] = {"__init__": _init(made, fields), "__repr__": __repr__}
    methods.update(__eq__=__eq__, __setattr__=__setattr__, __delattr__=__delattr__)
    for name, method in methods.items():
        if name in ("__setattr__", "__delattr__") and name in own:
            raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}")
        if name not in own:
            method.__qualname__ = f"{cls.__qualname__}.{name}"
            setattr(made, name, method)
    if not explicit_hash:
        __hash__.__qualname__ = f"{cls.__qualname__}.__hash__"
        made.__hash__ = __hash__  # type: ignore[method-assign]
    if not documented:  # dataclass's own doc, the signature, read before __init__ was set
        made.__doc__ = made.__name__ + str(inspect.signature(made)).replace(" -> None", "")
    return made


if TYPE_CHECKING:
    from typing import dataclass_transform

    @dataclass_transform(frozen_default=True)
    def value_class(cls: type[_T], /) -> type[_T]:
        """`cls` as a frozen dataclass (see the module)."""
        ...

else:
    value_class = _build
