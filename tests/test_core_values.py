"""`value_class` makes what `dataclass(frozen=True)` makes, without exec: the same fields,
signature, repr, equality, hashing, immutability, pickling and errors, side by side on twins."""

from __future__ import annotations

import dataclasses
import inspect
import pickle
from collections.abc import Callable
from dataclasses import InitVar, dataclass, field
from functools import partial
from typing import Any, ClassVar

import pytest

from analyzer.core import analysis, bets, catalogue
from analyzer.core.values import value_class


@value_class
class ValuePoint:
    """A value class."""

    x: int
    label: str = ""
    tags: list[str] = field(default_factory=list)
    weight: float = field(default=1.0, compare=False)


@dataclass(frozen=True)
class DataPoint:
    """Its dataclass twin."""

    x: int
    label: str = ""
    tags: list[str] = field(default_factory=list)
    weight: float = field(default=1.0, compare=False)


@value_class
class Shown:
    """A class with its own repr and hash, and a check after init."""

    x: int

    def __post_init__(self) -> None:
        if self.x < 0:
            raise ValueError("negative")

    def __repr__(self) -> str:
        return f"<{self.x}>"

    def __hash__(self) -> int:
        return 7


def _outcome(call: Callable[[], object]) -> object:
    """What `call` returns, or its exception's type and message."""
    try:
        return call()
    except Exception as error:  # compared, whatever it is
        return type(error).__name__, str(error).replace("DataPoint", "ValuePoint")


@pytest.mark.parametrize(
    "args, kwargs",
    [
        ((1,), {}),
        ((1, "a", ["t"], 2.0), {}),
        ((), {"x": 3, "tags": ["u"]}),
        ((1,), {"weight": 0.5}),
        ((), {}),
        ((1, "a", [], 1.0, 9), {}),
        ((1,), {"x": 2}),
        ((1,), {"nope": 2}),
        ((), {"label": "a"}),
    ],
)
def test_a_value_class_behaves_as_its_dataclass_twin(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    value = _outcome(lambda: ValuePoint(*args, **kwargs))
    data = _outcome(lambda: DataPoint(*args, **kwargs))
    if isinstance(data, DataPoint):
        assert isinstance(value, ValuePoint)
        assert repr(value) == repr(data).replace("DataPoint", "ValuePoint")
        assert vars(value) == vars(data) and list(vars(value)) == list(vars(data))
        assert dataclasses.asdict(value) == dataclasses.asdict(data)
        assert dataclasses.astuple(value) == dataclasses.astuple(data)
        for change in ({"x": 5}, {"label": "b"}):
            assert vars(dataclasses.replace(value, **change)) == vars(dataclasses.replace(data, **change))
        assert value == ValuePoint(*args, **kwargs) and value != data
        heavier = dataclasses.replace(value, weight=9.0), dataclasses.replace(data, weight=9.0)
        assert (value == heavier[0]) is (data == heavier[1]) is True  # weight is not compared
        assert value != dataclasses.replace(value, x=value.x + 1)
        assert _outcome(lambda: hash(value)) == _outcome(lambda: hash(data))  # the list field: unhashable
        assert hash(ValuePoint(1, "a", (), 2.0)) == hash(DataPoint(1, "a", (), 2.0))  # type: ignore[arg-type]
        for name in ("x", "other"):
            assert _outcome(partial(setattr, value, name, 1)) == _outcome(partial(setattr, data, name, 1))
            assert _outcome(partial(delattr, value, name)) == _outcome(partial(delattr, data, name))
        assert vars(pickle.loads(pickle.dumps(value))) == vars(value)
    else:
        assert value == data  # the same error, word for word


def test_a_value_class_is_a_dataclass_with_the_same_signature() -> None:
    assert dataclasses.is_dataclass(ValuePoint)
    assert [f.name for f in dataclasses.fields(ValuePoint)] == [f.name for f in dataclasses.fields(DataPoint)]
    assert str(inspect.signature(ValuePoint)) == str(inspect.signature(DataPoint))
    assert ValuePoint.__match_args__ == DataPoint.__match_args__
    assert ValuePoint(1).tags is not ValuePoint(1).tags  # a fresh default from the factory
    assert ValuePoint.__init__.__qualname__ == "ValuePoint.__init__"


def test_a_value_class_keeps_its_own_methods() -> None:
    assert repr(Shown(3)) == "<3>" and hash(Shown(3)) == 7 and Shown(3) == Shown(3)
    with pytest.raises(ValueError, match="negative"):
        Shown(-1)


def test_a_value_class_refuses_what_it_does_not_build() -> None:
    class KeywordOnly:
        """kw_only fields."""

        x: int = field(kw_only=True)

    class NotInInit:
        """init=False fields."""

        x: int = field(default=0, init=False)

    class WithInitVar:
        """An InitVar."""

        x: InitVar[int]

    class Slotted:
        """Slots."""

        __slots__ = ("x",)
        x: int

    for cls in (KeywordOnly, NotInInit, WithInitVar, Slotted):
        with pytest.raises(TypeError, match="value_class takes plain fields"):
            value_class(cls)


@pytest.mark.parametrize("module", [bets, catalogue, analysis])
def test_the_classes_only_edges_loads_run_no_exec(module: object) -> None:
    """The value classes of the modules a cold `edges` loads beyond `odds` (issue 28): their
    methods are value_class's, none compiled from source at import (dataclass's are "<string>")."""
    home = vars(module)["__name__"]
    own = [c for c in vars(module).values() if isinstance(c, type) and c.__module__ == home]
    made = [c for c in own if dataclasses.is_dataclass(c)]
    assert made  # Bet, Line, Unknown; Table; LineResult, BetAnalysis
    for cls in made:
        for name in ("__init__", "__eq__", "__hash__", "__setattr__"):
            assert getattr(cls, name).__code__.co_filename != "<string>", (cls, name)


def test_a_value_class_matches_its_twin_in_annotations_doc_and_subclasses() -> None:
    """`__init__`'s annotations (get_type_hints reads them), the doc of a class without
    one (its signature), and a subclass's own `__post_init__`, which `__init__` calls."""
    assert ValuePoint.__init__.__annotations__ == DataPoint.__init__.__annotations__

    @value_class
    class Bare:
        x: int

    @dataclass(frozen=True)
    class BareTwin:
        x: int

    assert Bare.__doc__ == BareTwin.__doc__.replace("BareTwin", "Bare") and "x" in Bare.__doc__

    class Stricter(Shown):
        def __post_init__(self) -> None:
            if self.x > 9:
                raise ValueError("too large")

    with pytest.raises(ValueError, match="too large"):
        Stricter(10)
    assert Stricter(-1).x == -1  # its own check replaces the base's, as in a dataclass


def test_a_value_class_refuses_a_class_variable() -> None:
    class Counted:
        """A ClassVar."""

        x: int
        made: ClassVar[int] = 0

    with pytest.raises(TypeError, match="value_class takes plain fields"):
        value_class(Counted)
