"""Which bets a command values and under which rules: a table's bets, named bets (the
table's own or built-ins), a Banker bet of a given commission, or by default every built-in
the shoe can price; the rules given, else the table's, else the standard tableau.

>>> from analyzer.analyses.choice import choose_bets
>>> chosen = choose_bets(table="super6")
>>> chosen.rules.name, [bet.name for bet in chosen.bets]
('standard', ['player', 'super6-banker', 'tie'])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from analyzer.core.errors import AnalyzerError, mention, quoted
from analyzer.core.rules import STANDARD, Rules

if TYPE_CHECKING:
    from analyzer.core.bets import Bet
    from analyzer.core.catalogue import Table
    from analyzer.core.shoe import Shoe

__all__ = ["BetChoice", "choose_bets", "load_table", "used_rules"]


@dataclass(frozen=True)
class BetChoice:
    """The bets chosen, in order, the rules they are valued under, the table (if any)
    they came from, and the default bets left out because the shoe does not say their suits."""

    bets: tuple[Bet, ...]
    rules: Rules
    table: Table | None = None
    left_out: tuple[Bet, ...] = ()


def load_table(table: str | Table | None) -> Table | None:
    """`table` as a Table: a built-in's name or a table file's path is read once, here."""
    if table is None or not isinstance(table, str):
        return table
    from analyzer.core.catalogue import get_table

    return get_table(table)


def used_rules(rules: Rules | None, table: Table | None) -> Rules:
    """The rules a command uses: `rules` when given, else the table's, else the standard tableau."""
    if rules is not None:
        return rules
    return table.rules if table is not None else STANDARD


def choose_bets(
    table: str | Table | None = None,
    bets: Sequence[str] | None = None,
    commission: Fraction | None = None,
    rules: Rules | None = None,
    shoe: Shoe | None = None,
    default: Iterable[Bet] | None = None,
) -> BetChoice:
    """The bets of `table` (a built-in's name, a table file or a Table), or those `bets`
    names (the table's own bets by name, else built-ins; a bet with payouts still to find is
    refused); with neither, `default` (every built-in bet, less those whose suits `shoe` does
    not say: the choice's `left_out`). `commission` adds a Banker bet paying 1 - commission.
    Two different bets of one name are refused. The rules: `rules`, else the table's, else
    standard."""
    from analyzer.core.catalogue import BETS, select_bets

    found = load_table(table)
    chosen = list(found.bets) if found else []
    left_out: list[Bet] = []
    if bets is not None:
        chosen = select_bets(",".join(bets), found)
    if found is None and bets is None:
        from analyzer.core.bets import can_price  # numpy-free: full decks price from polynomials

        every = list(BETS.values() if default is None else default)
        priced = [shoe is None or can_price(bet, shoe) for bet in every]
        chosen = [bet for bet, ok in zip(every, priced, strict=True) if ok]
        left_out = [bet for bet, ok in zip(every, priced, strict=True) if not ok]
    if commission is not None:
        from analyzer.core.bets import commission_banker

        chosen.append(commission_banker(commission))
    names = [bet.name for bet in chosen]
    for name in names:
        if names.count(name) > 1 and commission is not None and name == names[-1]:
            raise AnalyzerError(
                f"{mention('commission')} adds a bet named {quoted(name)}, and another bet chosen has that "
                "name: leave one of them out"
            )
        if names.count(name) > 1:
            raise AnalyzerError(f"two different bets are named {quoted(name)}: rename one in the table file")
    return BetChoice(tuple(chosen), used_rules(rules, found), found, tuple(left_out))
