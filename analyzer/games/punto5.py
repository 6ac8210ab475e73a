"""Seed 003's Russian rules: on a two-card Punto 5 the Punto bettors draw or stand.

Banco's cards stay closed while the largest Punto bettor chooses; with no Punto bets Punto
draws. If Punto stands on 5, Banco wins at once with 6 or 7 and draws on 0-5 (the tableau's
rule when Punto stood); a Banco natural wins as usual whatever the choice. So each choice is
the tableau with Punto drawing or standing on 5, and the engine's `distribution` gives both
exactly. The choice is made knowing only Punto's total (not its cards), so it is one
decision for the whole shoe; Punto bettors take whichever gives Punto the higher expectation.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from analyzer.enumerate import Distribution, Winner, distribution
from analyzer.errors import AnalyzerError
from analyzer.rules import STANDARD, Rules
from analyzer.shoe import Shoe

__all__ = ["CHOICE_TOTAL", "Choice", "Punto5", "solve_punto5"]

CHOICE_TOTAL = 5
DEFAULT_COMMISSION = Fraction(1, 20)
TIE_PAYS = 8


@dataclass(frozen=True)
class Choice:
    """One choice on a two-card 5: what follows, exactly.

    `punto`, `banco`, `egalite`: P(result | Punto's two-card total is 5). `probability_five`:
    P(two-card 5). Edges are per unit bet over the whole coup, positive for the house.
    """

    action: str
    punto: Fraction
    banco: Fraction
    egalite: Fraction
    probability_five: Fraction
    edge_punto: Fraction
    edge_banco: Fraction
    edge_egalite: Fraction

    @property
    def punto_expectation(self) -> Fraction:
        """A Punto bettor's expectation per unit, given the two-card 5."""
        return self.punto - self.banco

    @property
    def contribution(self) -> Fraction:
        """The same per coup: expectation given 5 times P(5)."""
        return self.punto_expectation * self.probability_five


@dataclass(frozen=True)
class Punto5:
    """Both choices on one shoe; `better` is the one Punto bettors take (draw on a tie)."""

    shoe: Shoe
    rules: Rules
    commission: Fraction
    draw: Choice
    stand: Choice

    @property
    def better(self) -> Choice:
        return self.draw if self.draw.punto_expectation >= self.stand.punto_expectation else self.stand

    @property
    def gain(self) -> Fraction:
        """What the better choice is worth to a Punto bettor per coup over the other."""
        return abs(self.draw.contribution - self.stand.contribution)


def _choice(dist: Distribution, action: str, commission: Fraction) -> Choice:
    counts = dist.group(lambda o: (o.punto_initial == CHOICE_TOTAL, o.winner))
    five = sum(w for (hit, _), w in counts.items() if hit)
    if five == 0:
        raise AnalyzerError(f"shoe {dist.shoe}: Punto can never hold a two-card {CHOICE_TOTAL}")
    probs = dist.winner_probabilities()
    p, b, t = probs[Winner.PLAYER], probs[Winner.BANKER], probs[Winner.TIE]
    return Choice(
        action=action,
        punto=Fraction(counts.get((True, Winner.PLAYER), 0), five),
        banco=Fraction(counts.get((True, Winner.BANKER), 0), five),
        egalite=Fraction(counts.get((True, Winner.TIE), 0), five),
        probability_five=Fraction(five, dist.total),
        edge_punto=b - p,
        edge_banco=p - (1 - commission) * b,
        edge_egalite=(1 - t) - TIE_PAYS * t,
    )


def solve_punto5(
    shoe: Shoe | None = None, rules: Rules = STANDARD, commission: Fraction | None = None
) -> Punto5:
    """Both choices on a two-card 5 (default: 8 decks, 5% commission on Banco, égalité 8:1)."""
    shoe = Shoe.decks(8) if shoe is None else shoe
    if rules.is_natural(CHOICE_TOTAL):
        raise AnalyzerError(f"rules {rules.name!r}: {CHOICE_TOTAL} is a natural, so there is no choice")
    return _solve(shoe, rules, DEFAULT_COMMISSION if commission is None else Fraction(commission))


@lru_cache(maxsize=16)
def _solve(shoe: Shoe, rules: Rules, commission: Fraction) -> Punto5:
    choices = {
        action: _choice(
            distribution(shoe, rules.with_punto(CHOICE_TOTAL, action == "draw")), action, commission
        )
        for action in ("draw", "stand")
    }
    return Punto5(shoe=shoe, rules=rules, commission=commission, draw=choices["draw"], stand=choices["stand"])
