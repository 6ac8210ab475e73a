"""Suited shoes for counting studies: the rank dealer's shoes with every card's suit, and
card-level bets valued and settled on them.

Shoe number `index` of a run seeded with `seed` is shuffled with the keys of
`analyzer.counting.dealer.shuffle_keys`, and the unshuffled suited shoe lists its cards rank by
rank in the order of the rank dealer's (each rank's cards by suit), so both give the same
rank sequence card for card: the coups, outcomes and counts are the rank dealer's, and
each card also has a suit. A shoe whose suits are unknown (given by rank counts) is dealt
as if every card were a spade, which only bets that read no suits may use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

import numpy as np

from analyzer.cards.batch import card_evaluator
from analyzer.cards.engine import settle_cards
from analyzer.core.bets import Bet
from analyzer.core.outcome import outcome_digits, unpack_outcomes
from analyzer.core.rules import Rules
from analyzer.core.shoe import Shoe
from analyzer.core.suits import TYPES
from analyzer.counting.dealer import CoupBatch, shuffle_keys
from analyzer.ranks.fast import FastEvaluator

__all__ = [
    "SuitedBatch",
    "card_nets",
    "deal_types",
    "shoe_types",
    "suited_batch",
    "value_suited",
]

_PREFIX_AT_ONCE = 1 << 22  # prefix counts (shoes x cards x 52) computed in one pass


@dataclass(frozen=True, kw_only=True)  # keyword-only: CoupBatch may gain fields with defaults
class SuitedBatch(CoupBatch):
    """A `CoupBatch` with the cards' suits: `types_left` (C, 52) card types left before each
    coup; `ranks`, `suits` (C, 6) its cards in dealing order p1, b1, p2, b2, p3, b3 (-1
    where no card is dealt)."""

    types_left: np.ndarray
    ranks: np.ndarray
    suits: np.ndarray


def shoe_types(shoe: Shoe) -> tuple[int, ...]:
    """The shoe's 52 card-type counts; every card a spade when its suits are not known."""
    if shoe.types is not None:
        return shoe.types
    return (*(shoe.counts or ()), *(0,) * (TYPES - 13))


def deal_types(types: Sequence[int], seed: int, indices: np.ndarray) -> np.ndarray:
    """(shoes, cards) card types of shoes `indices` of a run seeded with `seed`, top card
    first; their ranks (type % 13) are the rank dealer's `shuffled_cards`, card for card."""
    by_rank = [s * 13 + r for r in range(13) for s in range(TYPES // 13)]  # each rank's cards by suit
    deck = np.repeat(np.array(by_rank, dtype=np.int64), [types[t] for t in by_rank])
    order = np.argsort(shuffle_keys(seed, indices, len(deck)), axis=1)  # distinct keys: any sort agrees
    return np.asarray(deck[order])


def suited_batch(batch: CoupBatch, types: Sequence[int], seed: int, indices: range) -> SuitedBatch:
    """`batch` (shoes `indices` dealt by `analyzer.counting.dealer.deal_batch`) with its cards' suits."""
    size = int(sum(types))
    coups = len(batch.shoe)
    at = size - batch.left.sum(axis=1)  # each coup's first card
    digits = outcome_digits(batch.outcome)
    player_third, banker_third = digits[4] == 1, digits[5] == 1  # card counts are stored less 2
    offsets = np.full((coups, 6), -1, dtype=np.int64)
    offsets[:, :4] = np.arange(4)
    offsets[:, 4] = np.where(player_third, 4, -1)
    offsets[:, 5] = np.where(banker_third, 4 + player_third, -1)
    cards = np.full((coups, 6), -1, dtype=np.int64)
    types_left = np.zeros((coups, TYPES), dtype=np.int64)
    step = max(1, _PREFIX_AT_ONCE // ((size + 1) * TYPES))
    full = np.array(types, dtype=np.int64)
    for first in range(0, batch.shoes, step):
        last = min(first + step, batch.shoes)
        decks = deal_types(types, seed, np.arange(indices.start + first, indices.start + last))
        prefix = np.zeros((last - first, size + 1, TYPES), dtype=np.int32)
        np.cumsum(decks[:, :, None] == np.arange(TYPES), axis=1, out=prefix[:, 1:])
        mine = np.flatnonzero((batch.shoe >= first) & (batch.shoe < last))
        shoe = batch.shoe[mine] - first
        types_left[mine] = full - prefix[shoe, at[mine]]
        dealt = offsets[mine] >= 0
        position = np.where(dealt, at[mine, None] + offsets[mine], 0)
        cards[mine] = np.where(dealt, decks[shoe[:, None], position], -1)
    ranks = np.where(cards >= 0, cards % 13, -1)
    suits = np.where(cards >= 0, cards // 13, -1)
    inherited = {item.name: getattr(batch, item.name) for item in fields(batch)}
    return SuitedBatch(**inherited, types_left=types_left, ranks=ranks, suits=suits)


def value_suited(
    cards: tuple[Bet, ...],
    evaluator: FastEvaluator | None,
    batch: CoupBatch,
    shoe: Shoe,
    rules: Rules,
    seed: int,
    indices: range,
) -> tuple[SuitedBatch, np.ndarray, np.ndarray]:
    """`batch` dealt with suits and the exact expectation of every coup for the rank-level
    bets of `evaluator` (first columns) and the card-level `cards` (last columns), as
    `analyzer.counting.simulation.deal_and_value` returns them."""
    suited = suited_batch(batch, shoe_types(shoe), seed, indices)
    numerators, totals = card_evaluator(cards, rules).expectations(suited.types_left)
    if evaluator is not None:
        rank_numerators, _ = evaluator.expectations(batch.left)
        if rank_numerators.dtype == object or numerators.dtype == object:
            rank_numerators, numerators = rank_numerators.astype(object), numerators.astype(object)
        numerators = np.hstack([rank_numerators, numerators])
    return suited, numerators, totals


def card_nets(bet: Bet, denominator: int, batch: SuitedBatch, coups: np.ndarray) -> np.ndarray:
    """Net result of card-level `bet` on the chosen `coups` (a mask or indices) of `batch`,
    times `denominator` (int64)."""
    codes = batch.outcome[coups]
    distinct, which = np.unique(codes, return_inverse=True)
    line = settle_cards(bet, batch.ranks[coups], batch.suits[coups], unpack_outcomes(distinct), which.ravel())
    nets = [int(net * denominator) for net in bet.nets]
    return np.asarray(np.array(nets, dtype=np.int64)[line])
