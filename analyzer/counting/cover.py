"""Cover bets: a side bet many tables allow only with a main bet on the same coup.

A study with a cover (`--cover BET[:UNITS]`, e.g. ``banker:1``) stakes `units` on `bet`
(a rank-level bet: player, banker, tie, ...) on every coup its count bets the side bet, and
values that stake exactly for the cards left, as the side bet is valued: the results then
show the side bet alone, the cover's expected win (a cost when negative) and the net.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from analyzer.core.errors import AnalyzerError, mention, quoted
from analyzer.core.parsing import read_fraction

if TYPE_CHECKING:
    from analyzer.core.bets import Bet
    from analyzer.core.catalogue import Table

__all__ = ["MAX_UNITS", "Cover", "parse_cover"]

#: The largest cover stake, in units of the side bet.
MAX_UNITS = 1000


@dataclass(frozen=True)
class Cover:
    """`units` staked on `bet` on each coup the side bet is made."""

    bet: Bet
    units: Fraction = Fraction(1)

    @property
    def text(self) -> str:
        """The cover in words, e.g. "1 unit on banker"."""
        units = f"{self.units}"
        return f"{units} unit{'' if self.units == 1 else 's'} on {self.bet.name}"


def parse_cover(spec: str, table: Table | None = None) -> Cover:
    """A cover from "BET" or "BET:UNITS" (units a positive number, default 1): a rank-level
    bet, built-in or of `table`."""
    from analyzer.core.catalogue import select_bets

    if not isinstance(spec, str) or not spec.strip():
        raise AnalyzerError(f"{mention('cover')} {quoted(spec)}: give BET or BET:UNITS, e.g. banker:1")
    name, colon, amount = spec.strip().partition(":")
    units = Fraction(1)
    if colon:  # "banker:" names no units: refused as "banker:x" is
        found = read_fraction(amount, "cover")
        if found is None or found <= 0 or found > MAX_UNITS:
            raise AnalyzerError(
                f"{mention('cover')} {quoted(spec)}: units {quoted(amount)} is not allowed; "
                f"use a number above 0 and at most {MAX_UNITS}"
            )
        units = found
    try:
        [bet] = select_bets(name, table)
    except AnalyzerError as error:
        raise AnalyzerError(f"{mention('cover')} {quoted(spec)}: {error.template}") from None
    except ValueError:
        raise AnalyzerError(f"{mention('cover')} {quoted(spec)}: give one bet") from None
    if bet.card_level:
        raise AnalyzerError(
            f"{mention('cover')} {quoted(spec)}: {quoted(bet.name)} reads individual cards; "
            "a cover is a rank-level bet (player, banker, tie, ...)"
        )
    return Cover(bet, units)
