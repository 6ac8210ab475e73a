"""Outcome probabilities and the table after Punto's two cards, exact for any shoe."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import partial

from analyzer.enumerate import Distribution, Outcome, Winner, distribution
from analyzer.rules import STANDARD, Rules
from analyzer.shoe import Shoe

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
        counts = dist.winner_counts()
        probs = dist.winner_probabilities()
        finite = not dist.shoe.is_infinite
        return cls(
            shoe=dist.shoe,
            rules=dist.rules,
            banker=probs[Winner.BANKER],
            player=probs[Winner.PLAYER],
            tie=probs[Winner.TIE],
            counts=counts if finite else None,
            total=dist.total if finite else None,
        )


def odds(shoe: Shoe, rules: Rules = STANDARD) -> Odds:
    """Exact probabilities of the three results of one coup from `shoe`."""
    return Odds.from_distribution(distribution(shoe, rules))


@dataclass(frozen=True)
class PuntoRow:
    """Probabilities of a Punto win, a Banco win and égalité given Punto's two-card total."""

    punto_total: int
    punto_action: str  # "draw" or "stand"
    punto: Fraction
    banco: Fraction
    egalite: Fraction


def _given_total(total: int, outcome: Outcome) -> tuple[bool, Winner]:
    return outcome.punto_initial == total, outcome.winner


def punto_table(shoe: Shoe, rules: Rules = STANDARD) -> tuple[PuntoRow, ...]:
    """Seed 003's "Table 2": one row per Punto two-card total, two rows (draw, stand) for 5.

    Rows other than 5 follow `rules`; a natural is listed as "stand". Totals that cannot
    occur with this shoe (probability 0) are left out.
    """
    rows = []
    for total in range(10):
        if total == 5:
            actions = [("draw", rules.with_punto(5, True)), ("stand", rules.with_punto(5, False))]
        else:
            draws = rules.punto_draws_on(total) and not rules.is_natural(total)
            actions = [("draw" if draws else "stand", rules)]
        for action, variant in actions:
            dist = distribution(shoe, variant)
            given = dist.group(partial(_given_total, total))
            n = sum(w for (hit, _), w in given.items() if hit)
            if n == 0:
                continue
            rows.append(
                PuntoRow(
                    punto_total=total,
                    punto_action=action,
                    punto=Fraction(given.get((True, Winner.PLAYER), 0), n),
                    banco=Fraction(given.get((True, Winner.BANKER), 0), n),
                    egalite=Fraction(given.get((True, Winner.TIE), 0), n),
                )
            )
    return tuple(rows)
