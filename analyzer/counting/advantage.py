"""The figures advantage players use, from a counting study's summary.

Units are flat bets of one unit on every coup the system bets on.

- win per shoe: the sum of the exact expectations of the coups bet, per shoe (± standard
  error over shoes); per 100 coups: the same per 100 coups dealt.
- sd per shoe: the standard deviation of the result actually dealt per shoe; sd per coup
  bet: of one bet's net result.
- N0 = (sd per coup bet / EV per coup bet)^2: the number of coups bet after which the
  expected win equals one standard deviation of the result.
- risk of ruin for a bankroll of B units: exp(-2 * mu * B / sigma^2), with mu and sigma the
  mean and standard deviation of the win per shoe (the diffusion approximation for a game
  played shoe after shoe until ruin or for ever); 1 when mu <= 0, except that a result that
  never varies (sigma 0: a system that never bets) ruins only when mu < 0.
- per hour: `coups_per_hour` coups dealt, of which the system bets the same share as in
  the study.
- CVData's figures, per 100 coups dealt (a coup not bet counts 0): SD per 100 coups =
  10 x the SD of one coup's result; the desirability index DI = 100 x win per 100 coups /
  SD per 100 coups (= 1000 x EV / SD per coup); SCORE = DI^2 (0 when DI <= 0): the win per
  100 coups, in units, of a 10,000-unit bankroll bet at a 13.5% risk of ruin (the optimal
  bet); 10^6 / SCORE is N0 in coups dealt.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from analyzer.core.errors import AnalyzerError, quoted
from analyzer.counting.summary import SystemEvaluation

__all__ = ["COUPS_PER_HOUR", "RISK_OF_RUIN_FORMULA", "AdvantageFigures", "advantage_figures"]

#: Default coups dealt per hour (a full big-table game deals about 70-80).
COUPS_PER_HOUR = 80
RISK_OF_RUIN_FORMULA = "exp(-2 * mu * B / sigma^2), mu and sigma the mean and SD of the win per shoe"


@dataclass(frozen=True)
class AdvantageFigures:
    """Display values (floats) for one system on its bet; see the module doc."""

    bets_per_shoe: float
    coups_per_shoe: float
    win_per_shoe: float
    win_per_shoe_se: float
    win_per_100_coups: float
    win_per_100_coups_se: float
    sd_per_shoe: float
    sd_per_coup_bet: float
    n0: float | None  # None when the system has no positive expectation per coup bet
    bankroll: float
    risk_of_ruin: float
    coups_per_hour: float
    bets_per_hour: float
    win_per_hour: float
    sd_per_100_coups: float = 0.0
    desirability_index: float | None = None  # None when no coup's result varies
    score: float = 0.0


def advantage_figures(
    result: SystemEvaluation, bankroll: float = 100.0, coups_per_hour: float = COUPS_PER_HOUR
) -> AdvantageFigures:
    """The advantage-play figures of one study result."""
    for value, name in ((bankroll, "bankroll"), (coups_per_hour, "coups per hour")):
        if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
            raise AnalyzerError(f"{name} {quoted(value)}: use a positive number")
    shoes = max(result.shoes, 1)
    coups_per_shoe = result.coups / shoes
    mean, se = result.per_shoe("expected")
    _, sd_shoe = result.shoe_stats("realized")
    bets = result.triggers
    if bets:
        mean_bet = float(result.realized_triggered) / bets
        sd_bet = math.sqrt(max(float(result.realized_squares) / bets - mean_bet * mean_bet, 0.0))
    else:
        sd_bet = 0.0
    edge = result.trigger_edge
    n0 = (sd_bet / float(edge)) ** 2 if edge is not None and edge > 0 else None
    if sd_shoe == 0:  # the same result every shoe (no bets: 0): ruin only from a sure loss
        ruin = 1.0 if mean < 0 else 0.0
    elif mean <= 0:
        ruin = 1.0
    else:
        ruin = math.exp(-2 * mean * bankroll / sd_shoe**2)
    per_coup = 100 / coups_per_shoe if coups_per_shoe else 0.0
    shoes_per_hour = coups_per_hour / coups_per_shoe if coups_per_shoe else 0.0
    coups = max(result.coups, 1)
    dealt = float(result.expectation_triggered) / coups  # EV per coup dealt
    spread = math.sqrt(max(float(result.realized_squares) / coups - dealt * dealt, 0.0))
    index = 1000 * dealt / spread if spread > 0 else None
    return AdvantageFigures(
        bets_per_shoe=bets / shoes,
        coups_per_shoe=coups_per_shoe,
        win_per_shoe=mean,
        win_per_shoe_se=se,
        win_per_100_coups=mean * per_coup,
        win_per_100_coups_se=se * per_coup,
        sd_per_shoe=sd_shoe,
        sd_per_coup_bet=sd_bet,
        n0=n0,
        bankroll=float(bankroll),
        risk_of_ruin=ruin,
        coups_per_hour=float(coups_per_hour),
        bets_per_hour=bets / shoes * shoes_per_hour,
        win_per_hour=mean * shoes_per_hour,
        sd_per_100_coups=10 * spread,
        desirability_index=index,
        score=index * index if index is not None and index > 0 else 0.0,
    )
