"""Outcome probabilities and the table after Punto's two cards, exact for any shoe."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from analyzer.core.conventions import check_arguments
from analyzer.core.outcome import Outcome, Winner
from analyzer.core.rules import STANDARD, Rules
from analyzer.core.shoe import Shoe
from analyzer.ranks.enumeration import Distribution, distribution, winner_weights

__all__ = ["Odds", "PuntoRow", "odds", "punto_table"]


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

    def to_frame(self) -> Any:
        """A pandas DataFrame, one row per result: exact probability and (finite shoes) combinations."""
        from analyzer.core.frames import frame

        counts = self.counts or {}
        rows = [(name, p, counts.get(Winner(name))) for name, p in self._results()]
        return frame(rows, ["result", "probability", "combinations"], index="result")

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
class PuntoRow:
    """Probabilities of a Punto win, a Banco win and égalité given Punto's two-card total."""

    punto_total: int
    punto_action: str  # "draw" or "stand"
    punto: Fraction
    banco: Fraction
    egalite: Fraction


def _initial_and_winner(outcome: Outcome) -> tuple[int, Winner]:
    return outcome.punto_initial, outcome.winner


def punto_table(shoe: Shoe, rules: Rules = STANDARD) -> tuple[PuntoRow, ...]:
    """A Russian gambling dictionary's "Table 2" (after Lesnoy and Natanson): one row per Punto
    two-card total, two rows (draw, stand) for 5.

    Rows other than 5 follow `rules`; a natural is listed as "stand". Totals that cannot
    occur with this shoe (probability 0) are left out. The published table is the infinite deck's:

    >>> from analyzer import Shoe, punto_table
    >>> fives = [row for row in punto_table(Shoe.infinite()) if row.punto_total == 5]
    >>> for row in fives:
    ...     exact = (row.punto, row.banco, row.egalite)
    ...     print(row.punto_action, *exact, *(f"{float(p):.4f}" for p in exact))
    draw 10240/28561 15361/28561 2960/28561 0.3585 0.5378 0.1036
    stand 792/2197 1252/2197 153/2197 0.3605 0.5699 0.0696
    """
    check_arguments("punto_table()", shoe=shoe, rules=rules)
    rows = []
    grouped: dict[Rules, dict[tuple[int, Winner], int]] = {}  # one distribution per tableau
    for total in range(10):
        if total == 5:
            actions = [("draw", rules.with_punto(5, True)), ("stand", rules.with_punto(5, False))]
        else:
            draws = rules.punto_draws_on(total) and not rules.is_natural(total)
            actions = [("draw" if draws else "stand", rules)]
        for action, variant in actions:
            if variant not in grouped:
                grouped[variant] = distribution(shoe, variant).group(_initial_and_winner)
            given = grouped[variant]
            n = sum(given.get((total, winner), 0) for winner in Winner)
            if n == 0:
                continue
            rows.append(
                PuntoRow(
                    punto_total=total,
                    punto_action=action,
                    punto=Fraction(given.get((total, Winner.PLAYER), 0), n),
                    banco=Fraction(given.get((total, Winner.BANKER), 0), n),
                    egalite=Fraction(given.get((total, Winner.TIE), 0), n),
                )
            )
    return tuple(rows)
