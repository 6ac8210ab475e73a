"""Outcome probabilities and the table after the Player's (Punto's) two cards, exact for any
shoe. `punto_table` and `PuntoRow` are the old names of `player_table` and `PlayerRow`
(deprecated)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from analyzer.core.conventions import check_arguments
from analyzer.core.outcome import Outcome, Winner
from analyzer.core.renames import Renamed, renamed_function, warn_renamed
from analyzer.core.rules import STANDARD, Rules
from analyzer.core.shoe import Shoe
from analyzer.ranks.enumeration import Distribution, distribution, winner_weights

__all__ = ["Odds", "PlayerRow", "odds", "player_table", "punto_table"]


@dataclass(frozen=True)
class Odds:
    """P(Banker wins), P(Player wins), P(tie) as exact Fractions.

    `counts` and `total` are ordered 6-card-sequence counts, for finite shoes only.
    """

    shoe: Shoe
    rules: Rules
    banker: Fraction
    player: Fraction
    tie: Fraction
    counts: dict[Winner, int] | None
    total: int | None

    @classmethod
    def from_distribution(cls, dist: Distribution) -> Odds:
        return cls.from_counts(dist.shoe, dist.rules, dist.winner_counts(), dist.total)

    @classmethod
    def from_counts(cls, shoe: Shoe, rules: Rules, counts: dict[Winner, int], total: int) -> Odds:
        """Odds from integer weights of each result over `total` (counts kept for finite shoes)."""
        finite = not shoe.is_infinite
        return cls(
            shoe=shoe,
            rules=rules,
            banker=Fraction(counts[Winner.BANKER], total),
            player=Fraction(counts[Winner.PLAYER], total),
            tie=Fraction(counts[Winner.TIE], total),
            counts=counts if finite else None,
            total=total if finite else None,
        )

    # -- notebook use --------------------------------------------------------------------

    def __repr__(self) -> str:
        shown = ", ".join(f"{name} {float(p):.6f}" for name, p in self._results())
        return f"Odds({self.shoe}, {self.rules.name} rules: {shown})"

    def to_frame(self, exact: bool = True) -> Any:
        """A pandas DataFrame, one row per result: exact probability and (finite shoes) combinations
        (the probability a float with `exact=False`)."""
        from analyzer.core.frames import frame

        counts = self.counts or {}
        rows = [(name, p, counts.get(Winner(name))) for name, p in self._results()]
        return frame(rows, ["result", "probability", "combinations"], index="result", exact=exact)

    def _results(self) -> list[tuple[str, Fraction]]:
        return [("banker", self.banker), ("player", self.player), ("tie", self.tie)]


def odds(shoe: Shoe, rules: Rules = STANDARD) -> Odds:
    """Exact probabilities of the three results of one coup from `shoe` (the same values as
    `Odds.from_distribution(distribution(shoe, rules))`, without the per-outcome weights).

    >>> from analyzer import Shoe, odds
    >>> eight = odds(Shoe.decks(8))
    >>> eight.counts["banker"], eight.total
    (2292252566437888, 4998398275503360)
    >>> eight.banker
    Fraction(8954111587648, 19524993263685)
    """
    check_arguments("odds()", shoe=shoe, rules=rules)
    counts, total = winner_weights(shoe, rules)
    return Odds.from_counts(shoe, rules, counts, total)


@dataclass(frozen=True)
class PlayerRow:
    """Probabilities of a Player (Punto) win, a Banker (Banco) win and a tie (égalité) given
    the Player's two-card total. The old field names (`punto_total`, `punto_action`,
    `punto`, `banco`, `egalite`) read as before, with a DeprecationWarning."""

    player_total: int
    player_action: str  # "draw" or "stand"
    player: Fraction
    banker: Fraction
    tie: Fraction

    punto_total = Renamed("player_total")
    punto_action = Renamed("player_action")
    punto = Renamed("player")
    banco = Renamed("banker")
    egalite = Renamed("tie")


def _initial_and_winner(outcome: Outcome) -> tuple[int, Winner]:
    return outcome.player_initial, outcome.winner


def player_table(shoe: Shoe, rules: Rules = STANDARD) -> tuple[PlayerRow, ...]:
    """A Russian gambling dictionary's "Table 2" (after Lesnoy and Natanson): one row per
    Player (Punto) two-card total, two rows (draw, stand) for 5 (`baccarat punto-table`).

    Rows other than 5 follow `rules`; a natural is listed as "stand". Totals that cannot
    occur with this shoe (probability 0) are left out. The published table is the infinite deck's:

    >>> from analyzer import Shoe, player_table
    >>> fives = [row for row in player_table(Shoe.infinite()) if row.player_total == 5]
    >>> for row in fives:
    ...     exact = (row.player, row.banker, row.tie)
    ...     print(row.player_action, *exact, *(f"{float(p):.4f}" for p in exact))
    draw 10240/28561 15361/28561 2960/28561 0.3585 0.5378 0.1036
    stand 792/2197 1252/2197 153/2197 0.3605 0.5699 0.0696
    """
    check_arguments("player_table()", shoe=shoe, rules=rules)
    rows = []
    grouped: dict[Rules, dict[tuple[int, Winner], int]] = {}  # one distribution per tableau
    for total in range(10):
        if total == 5:
            actions = [("draw", rules.with_player(5, True)), ("stand", rules.with_player(5, False))]
        else:
            draws = rules.player_draws_on(total) and not rules.is_natural(total)
            actions = [("draw" if draws else "stand", rules)]
        for action, variant in actions:
            if variant not in grouped:
                grouped[variant] = distribution(shoe, variant).group(_initial_and_winner)
            given = grouped[variant]
            n = sum(given.get((total, winner), 0) for winner in Winner)
            if n == 0:
                continue
            rows.append(
                PlayerRow(
                    player_total=total,
                    player_action=action,
                    player=Fraction(given.get((total, Winner.PLAYER), 0), n),
                    banker=Fraction(given.get((total, Winner.BANKER), 0), n),
                    tie=Fraction(given.get((total, Winner.TIE), 0), n),
                )
            )
    return tuple(rows)


#: The old name of `player_table` (deprecated).
punto_table = renamed_function(player_table, "punto_table")


def __getattr__(name: str) -> Any:
    if name == "PuntoRow":  # the old name of PlayerRow
        warn_renamed("PuntoRow", "PlayerRow")
        return PlayerRow
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
