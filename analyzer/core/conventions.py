"""The conventional arguments of the entry points (shoe, rules, bet, bets), checked by name:
a wrong type raises an AnalyzerError naming the argument and what is allowed
(`analyzer.core.checks`).

>>> from analyzer import AnalyzerError, get_bet
>>> try:
...     check_arguments("analyze_bets()", bets=get_bet("tie"))
... except AnalyzerError as error:
...     print(error)
analyze_bets(): bets is the Bet 'tie'; give a list of Bets, e.g. [get_bet('banker')]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from analyzer.core.checks import check_list, check_type
from analyzer.core.rules import Rules
from analyzer.core.shoe import Shoe

__all__ = ["check_arguments"]

#: Each conventional argument but the bets: its type and what to say is allowed.
_CONVENTIONS: dict[str, tuple[type, str]] = {
    "shoe": (Shoe, "a Shoe, e.g. Shoe.decks(8) or Shoe.infinite()"),
    "rules": (Rules, "a Rules, e.g. STANDARD or get_rules('standard')"),
}
_BET = "one Bet, e.g. get_bet('banker')"
_BETS = "a list of Bets, e.g. [get_bet('banker')]"


def check_arguments(where: str, **arguments: Any) -> None:
    """`check_type` of each conventional argument of `where` by its name: `shoe`, `rules`,
    `bet` and `bets` (a list or tuple of Bets, never one Bet); a bet whose payouts are still
    to be found (`check_priced`) is refused too."""
    for argument, value in arguments.items():
        if argument == "bets":
            check_list(where, argument, value, _BETS, Sequence)
            for i, bet in enumerate(value):
                _check_bet(where, f"bets[{i}]", bet, _BETS)
        elif argument == "bet":
            _check_bet(where, argument, value, _BET)
        else:
            kind, allowed = _CONVENTIONS[argument]
            check_type(where, argument, value, kind, allowed)


def _check_bet(where: str, argument: str, value: Any, allowed: str) -> None:
    """`value` is a priced Bet (the bets load here: a cold `baccarat odds` checks none)."""
    from analyzer.core.bets import Bet, check_priced

    check_type(where, argument, value, Bet, allowed)
    check_priced(value)
