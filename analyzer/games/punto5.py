"""The Russian rules (a Russian gambling dictionary, after Lesnoy and Natanson): on a
two-card Punto 5 the Punto bettors draw or stand.

Banco's cards stay closed while the largest Punto bettor chooses; with no Punto bets Punto
draws. If Punto stands on 5, Banco wins at once with 6 or 7 and draws on 0-5 (the tableau's
rule when Punto stood); a Banco natural wins as usual whatever the choice. So each choice is
the tableau with Punto drawing or standing on 5, and the engine's `distribution` gives both
exactly. The choice is made knowing only Punto's total (not its cards), so it is one
decision for the whole shoe; Punto bettors take whichever gives Punto the higher expectation.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache

from analyzer.analyses.pricing import analyze
from analyzer.core.bets import Bet, commission_banker
from analyzer.core.catalogue import BETS
from analyzer.core.errors import AnalyzerError, quoted
from analyzer.core.outcome import Winner
from analyzer.core.rules import STANDARD, Rules
from analyzer.core.shoe import Shoe
from analyzer.games.hands import FREE_TOTAL
from analyzer.ranks.enumeration import Distribution, distribution

__all__ = ["CHOICE_TOTAL", "TIE_PAYS", "Action", "Choice", "Punto5", "solve_punto5"]


class Action(StrEnum):
    """What the Punto bettors do on a two-card 5."""

    DRAW = "draw"
    STAND = "stand"


#: The two-card Punto total on which the Punto bettors choose.
CHOICE_TOTAL = FREE_TOTAL
DEFAULT_COMMISSION = Fraction(1, 20)

#: The catalogue's bets the house edges are priced with: Player 1:1 (Punto), Banker with the
#: commission (Banco; the catalogue's own Banker bet at 5%), Tie 8:1 (égalité).
PLAYER_BET, BANKER_BET, TIE_BET = BETS["player"], BETS["banker"], BETS["tie"]

#: What the Tie bet pays (8 to 1), read from the catalogue.
TIE_PAYS = int(next(line.payout or 0 for line in TIE_BET.lines if line.pays is not None))


@dataclass(frozen=True)
class Choice:
    """One choice on a two-card 5 (Punto is the Player hand, Banco the Banker): what follows, exactly.

    `player`, `banker`, `tie`: P(result | the Player's two-card total is 5). `probability_five`:
    P(two-card 5). Edges are the catalogue bets' house edges over the whole coup, per unit
    bet, positive for the house.
    """

    action: Action
    player: Fraction
    banker: Fraction
    tie: Fraction
    probability_five: Fraction
    edge_player: Fraction
    edge_banker: Fraction
    edge_tie: Fraction

    @property
    def player_expectation(self) -> Fraction:
        """A Player (Punto) bettor's expectation per unit, given the two-card 5."""
        return self.player - self.banker

    @property
    def contribution(self) -> Fraction:
        """The same per coup: expectation given 5 times P(5)."""
        return self.player_expectation * self.probability_five


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
        return self.draw if self.draw.player_expectation >= self.stand.player_expectation else self.stand

    @property
    def gain(self) -> Fraction:
        """What the better choice is worth to a Punto bettor per coup over the other."""
        return abs(self.draw.contribution - self.stand.contribution)


def _banker_bet(commission: Fraction) -> Bet:
    return BANKER_BET if commission == DEFAULT_COMMISSION else commission_banker(commission)


def _choice(dist: Distribution, action: Action, commission: Fraction) -> Choice:
    counts = dist.group(lambda o: (o.player_initial == CHOICE_TOTAL, o.winner))
    five = sum(w for (hit, _), w in counts.items() if hit)
    if five == 0:
        raise AnalyzerError(f"shoe {dist.shoe}: Punto can never hold a two-card {CHOICE_TOTAL}")
    return Choice(
        action=action,
        player=Fraction(counts.get((True, Winner.PLAYER), 0), five),
        banker=Fraction(counts.get((True, Winner.BANKER), 0), five),
        tie=Fraction(counts.get((True, Winner.TIE), 0), five),
        probability_five=Fraction(five, dist.total),
        edge_player=analyze(PLAYER_BET, dist).house_edge,
        edge_banker=analyze(_banker_bet(commission), dist).house_edge,
        edge_tie=analyze(TIE_BET, dist).house_edge,
    )


def solve_punto5(
    shoe: Shoe | None = None, rules: Rules = STANDARD, commission: Fraction | None = None
) -> Punto5:
    """Both choices on a two-card 5 (default: 8 decks, 5% commission on Banco, égalité 8:1)."""
    shoe = Shoe.decks(8) if shoe is None else shoe
    if rules.is_natural(CHOICE_TOTAL):
        raise AnalyzerError(f"rules {quoted(rules.name)}: {CHOICE_TOTAL} is a natural, so there is no choice")
    return _solve(shoe, rules, DEFAULT_COMMISSION if commission is None else Fraction(commission))


@lru_cache(maxsize=16)
def _solve(shoe: Shoe, rules: Rules, commission: Fraction) -> Punto5:
    choices = {
        action: _choice(
            distribution(shoe, rules.with_player(CHOICE_TOTAL, action == Action.DRAW)), action, commission
        )
        for action in Action
    }
    draw, stand = choices[Action.DRAW], choices[Action.STAND]
    return Punto5(shoe=shoe, rules=rules, commission=commission, draw=draw, stand=stand)
