"""Argument type checks of the public entry points: the package's own error for a wrong type.

A wrong type (a str where a Shoe is wanted, one Bet where a list of bets is) raises an
`AnalyzerError` naming the function, the argument and what is allowed, rather than an
AttributeError from deep inside an engine. The entry points check their conventional
arguments (shoe, rules, bet, bets) with `analyzer.core.conventions.check_arguments`.

>>> from analyzer import AnalyzerError, odds
>>> try:
...     odds("8 decks")
... except AnalyzerError as error:
...     print(error)
odds(): shoe is the str '8 decks'; give a Shoe, e.g. Shoe.decks(8) or Shoe.infinite()
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from analyzer.core.errors import AnalyzerError

__all__ = ["check_list", "check_type"]


def _shown(value: Any) -> str:
    """The value as an error shows it: its type and repr, or name (a Bet, Rules), kept short."""
    name = getattr(value, "name", None)
    text = repr(name if isinstance(name, str) else value)
    text = text if len(text) <= 40 else text[:37] + "..."
    return f"the {type(value).__name__} {text}"


def check_type(where: str, argument: str, value: Any, kind: type | tuple[type, ...], allowed: str) -> None:
    """An AnalyzerError unless `value`, the argument `argument` of `where`, is a `kind`."""
    if not isinstance(value, kind):
        raise AnalyzerError(f"{where}: {argument} is {_shown(value)}; give {allowed}")


def check_list(where: str, argument: str, value: Any, allowed: str, kind: type = Iterable) -> None:
    """An AnalyzerError unless `value` is a list-like `kind` (an Iterable, or a Sequence to
    be read more than once): never a str, bytes or mapping, nor one item in place of a list."""
    if not isinstance(value, kind) or isinstance(value, (str, bytes, Mapping)):
        raise AnalyzerError(f"{where}: {argument} is {_shown(value)}; give {allowed}")
