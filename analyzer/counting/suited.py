"""Card-level bets in counting studies: valued and settled on the suited shoes that
`analyzer.counting.dealer.deal_batch` deals from 52 card-type counts.

A shoe whose suits are unknown (given by rank counts) is dealt as if every card were a
spade, which only bets that read no suits may use.
"""

from __future__ import annotations

import numpy as np

from analyzer.cards.batch import card_evaluator
from analyzer.cards.engine import settle_cards
from analyzer.core.bets import Bet
from analyzer.core.outcome import unpack_outcomes
from analyzer.core.rules import Rules
from analyzer.counting.dealer import SuitedBatch
from analyzer.ranks.fast import FastEvaluator

__all__ = ["card_lines", "value_suited"]


def value_suited(
    cards: tuple[Bet, ...], evaluator: FastEvaluator | None, batch: SuitedBatch, rules: Rules
) -> tuple[np.ndarray, np.ndarray]:
    """The exact expectation of every coup of `batch` for the rank-level bets of
    `evaluator` (first columns) and the card-level `cards` (last columns): (numerators,
    totals), as `analyzer.counting.simulation.deal_and_value` returns them."""
    numerators, totals = card_evaluator(cards, rules).expectations(batch.types_left)
    if evaluator is not None:
        rank_numerators, _ = evaluator.expectations(batch.left)
        if rank_numerators.dtype == object or numerators.dtype == object:
            rank_numerators, numerators = rank_numerators.astype(object), numerators.astype(object)
        numerators = np.hstack([rank_numerators, numerators])
    return numerators, totals


def card_lines(bet: Bet, batch: SuitedBatch, coups: np.ndarray) -> np.ndarray:
    """The line index (`Bet.no_line` for none) settling card-level `bet` on the chosen
    `coups` (a mask or indices) of `batch`, read off each coup's cards."""
    codes = batch.outcome[coups]
    distinct, which = np.unique(codes, return_inverse=True)
    lines = settle_cards(
        bet, batch.ranks[coups], batch.suits[coups], unpack_outcomes(distinct), which.ravel()
    )
    return np.asarray(lines)
