"""What exact knowledge of every coup could gain on Banker and Player: their exact
expectations averaged over shoes dealt by the casino procedure of
`analyzer.counting.simulation`, with the better side and the favourable coups."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from analyzer.core.bets import Bet
from analyzer.core.rules import STANDARD, Rules
from analyzer.counting.simulation import CHUNK, Procedure, deal_chunk
from analyzer.counting.summary import ExactSum
from analyzer.ranks.fast import FastEvaluator

__all__ = ["ChoiceValue", "banker_player_choice"]


@dataclass(frozen=True)
class ChoiceValue:
    """Exact averages per coup over simulated shoes of the Banker and Player expectations,
    and of what perfect knowledge of each coup's composition could take from them."""

    coups: int
    banker: Fraction  # mean expectation of always betting Banker
    player: Fraction
    better: Fraction  # mean of max(Banker, Player): betting the better side every coup
    banker_positive: Fraction  # mean of max(Banker, 0): betting Banker only when favourable
    player_positive: Fraction
    banker_favourable: int  # coups where the Banker bet has positive expectation
    player_favourable: int


def banker_player_choice(
    banker: Bet, player: Bet, procedure: Procedure, rules: Rules = STANDARD, shoes: int = 100, seed: int = 1
) -> ChoiceValue:
    """How much exact knowledge of every coup could gain on Banker and Player (exact sums)."""
    evaluator = FastEvaluator([banker, player], rules)
    db, dp = evaluator.denominators
    lcm_d = math.lcm(db, dp)
    sums = {key: ExactSum() for key in ("b", "p", "max", "b+", "p+")}
    coups = fav_b = fav_p = 0
    for start in range(0, shoes, CHUNK):
        batch = deal_chunk(procedure, rules, seed, range(start, min(start + CHUNK, shoes)))
        numerators, totals = evaluator.expectations(batch.left)
        nb, np_ = numerators[:, 0] * (lcm_d // db), numerators[:, 1] * (lcm_d // dp)
        sums["b"].add(nb, totals, lcm_d)
        sums["p"].add(np_, totals, lcm_d)
        sums["max"].add(np.maximum(nb, np_), totals, lcm_d)
        sums["b+"].add(np.maximum(nb, 0), totals, lcm_d)
        sums["p+"].add(np.maximum(np_, 0), totals, lcm_d)
        coups += len(nb)
        fav_b += int((nb > 0).sum())
        fav_p += int((np_ > 0).sum())
    means = {key: total.value() / coups for key, total in sums.items()}
    return ChoiceValue(
        coups, means["b"], means["p"], means["max"], means["b+"], means["p+"],
        banker_favourable=fav_b, player_favourable=fav_p,
    )  # fmt: skip
