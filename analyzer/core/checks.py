"""Argument type checks of the public entry points: the package's own error for a wrong type.

A wrong type (a str where a Shoe is wanted, one Bet where a list of bets is) raises an
`AnalyzerError` naming the function, the argument and what is allowed, rather than an
AttributeError from deep inside an engine.

>>> from analyzer import AnalyzerError, odds
>>> try:
...     odds("8 decks")
... except AnalyzerError as error:
...     print(error)
odds(): shoe is the str '8 decks'; give a Shoe, e.g. Shoe.decks(8) or Shoe.infinite()
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from analyzer.core.errors import AnalyzerError

__all__ = ["check_arguments", "check_list", "check_type"]


def _shown(value: Any) -> str:
    text = repr(value)
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


def check_arguments(where: str, **arguments: Any) -> None:
    """`check_type` of each conventional argument of `where` by its name: `shoe`, `rules`,
    `bet` and `bets` (a list or tuple of Bets, never one Bet)."""
    from analyzer.core.bets import Bet  # here, not above: the Shoe constructors use check_type
    from analyzer.core.rules import Rules
    from analyzer.core.shoe import Shoe

    conventions: dict[str, tuple[type, str]] = {
        "shoe": (Shoe, "a Shoe, e.g. Shoe.decks(8) or Shoe.infinite()"),
        "rules": (Rules, "a Rules, e.g. STANDARD or get_rules('standard')"),
        "bet": (Bet, "one Bet, e.g. get_bet('banker')"),
    }
    for argument, value in arguments.items():
        if argument == "bets":
            allowed = "a list of Bets, e.g. [get_bet('banker')]"
            check_list(where, argument, value, allowed, Sequence)
            for i, bet in enumerate(value):
                check_type(where, f"bets[{i}]", bet, Bet, allowed)
        else:
            kind, allowed = conventions[argument]
            check_type(where, argument, value, kind, allowed)
