"""A Monte Carlo dealer: the independent, physical check on the exact enumerators.

It shares no code with `analyzer.ranks.enumeration`, `analyzer.ranks.plain` or `analyzer.ranks.graph`: it
builds the shoe as a list of cards, deals each coup from a freshly shuffled shoe, and
plays it out card by card with the `Rules` methods. Point values are derived here from
the rank labels, not taken from `analyzer.core.ranks`' tables.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction

from analyzer.core.errors import AnalyzerError, quoted
from analyzer.core.ranks import RANKS, Rank
from analyzer.core.rules import STANDARD, Rules
from analyzer.core.shoe import Shoe

__all__ = ["EVENTS", "MonteCarloResult", "simulate"]

#: Events tallied by `simulate`, by name.
EVENTS = ("banker", "player", "tie", "player_pair", "banker_pair")


def _points(rank: Rank) -> int:
    """Baccarat value read off the rank's label: A = 1, 2-9 face value, 10/J/Q/K = 0."""
    if rank.value == "A":
        return 1
    return int(rank.value) % 10 if rank.value.isdigit() else 0


@dataclass(frozen=True)
class MonteCarloResult:
    """Tallies of `coups` simulated coups, each dealt from a freshly shuffled `shoe`."""

    shoe: Shoe
    rules: Rules
    coups: int
    seed: int | None
    banker: int
    player: int
    tie: int
    player_pair: int
    banker_pair: int

    def count(self, event: str) -> int:
        """Number of coups where `event` (one of `EVENTS`) happened."""
        if event not in EVENTS:
            raise AnalyzerError(f"unknown event {quoted(event)}: use one of {', '.join(EVENTS)}")
        count: int = getattr(self, event)
        return count

    def frequency(self, event: str) -> tuple[float, float]:
        """Observed frequency of `event` and its standard error sqrt(f(1-f)/coups)."""
        f = self.count(event) / self.coups
        return f, math.sqrt(f * (1 - f) / self.coups)

    def z_score(self, event: str, p: Fraction | float) -> float:
        """(frequency - p) in standard errors of a true probability `p` (0 < p < 1)."""
        p = float(p)
        return (self.count(event) / self.coups - p) / math.sqrt(p * (1 - p) / self.coups)


def simulate(
    shoe: Shoe, rules: Rules = STANDARD, coups: int = 100_000, seed: int | None = None
) -> MonteCarloResult:
    """Deal `coups` independent coups, each from a freshly shuffled `shoe` (or the infinite deck).

    Finite shoe: the six cards a coup can use are `rng.sample(cards, 6)`, the top six of a
    uniformly shuffled shoe. Infinite deck: each card is a uniform draw of the 13 ranks.
    Cards go Punto, Banco, Punto, Banco, then third cards in order as the rules ask.
    Same seed, same result.
    """
    if isinstance(coups, bool) or not isinstance(coups, int) or coups < 1:
        raise AnalyzerError(f"coups {quoted(coups)}: use a positive integer")
    rng = random.Random(seed)
    points = {rank: _points(rank) for rank in RANKS}
    if shoe.counts is None:
        ranks = list(RANKS)

        def deal() -> list[Rank]:
            return rng.choices(ranks, k=6)
    else:
        cards = [rank for rank, n in zip(RANKS, shoe.counts, strict=True) for _ in range(n)]

        def deal() -> list[Rank]:
            return rng.sample(cards, 6)

    tally = dict.fromkeys(EVENTS, 0)
    for _ in range(coups):
        c = deal()
        p = (points[c[0]] + points[c[2]]) % 10
        b = (points[c[1]] + points[c[3]]) % 10
        if not (rules.is_natural(p) or rules.is_natural(b)):
            nxt = 4
            third: int | None = None
            if rules.player_draws_on(p):
                third = points[c[4]]
                p = (p + third) % 10
                nxt = 5
            if rules.banker_draws_on(b, third):
                b = (b + points[c[nxt]]) % 10
        tally["player" if p > b else "banker" if b > p else "tie"] += 1
        tally["player_pair"] += c[0] == c[2]
        tally["banker_pair"] += c[1] == c[3]
    return MonteCarloResult(shoe=shoe, rules=rules, coups=coups, seed=seed, **tally)
