"""Known cards for any bets: rank-level bets from the tensor of `known_tensor`, card-level
bets (reading ranks, suits or colours) from the card engine's line weights given the rank at
the known position, every rank from one plan per bet (`analyzer.cards.byrank`: the card
engine's shown cards, `analyzer.analyses.shown`, one rank at a time); a sort of suits or
colours from the shown cards, one card type at a time.

A card-level bet's state expectation E (given the ranks at the known positions, any suits)
becomes the integer numerator E * W * scale over the state's weight W, `scale` the lcm of the
denominators of every E * W; sorts then sum numerators as for the rank-level bets. The card
engine's shown cards are the first four positions (p1, b1, p2, b2 are positions 1, 2, 3, 4),
so card-level bets take positions 1-4, at most `CARD_POSITIONS` of them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from analyzer.analyses.known_tensor import KnownTensor, known_tensor
from analyzer.core.analysis import analysis_from_weights
from analyzer.core.bets import Bet, check_card_bets
from analyzer.core.errors import AnalyzerError, mention, quoted
from analyzer.core.ranks import RANKS
from analyzer.core.rules import Rules
from analyzer.core.shoe import Shoe

__all__ = ["CARD_POSITIONS", "SHOWN_NAMES", "numerators", "suited_classes"]

#: The card engine's name of each shoe position it shows.
SHOWN_NAMES = {1: "p1", 2: "b1", 3: "p2", 4: "b2"}
#: The most positions known for card-level bets.
CARD_POSITIONS = 1


def numerators(shoe: Shoe, rules: Rules, bets: Sequence[Bet], positions: Sequence[int]) -> KnownTensor:
    """Every bet's numerators and the weights over the ranks at `positions`, in bet order."""
    carded = [bet for bet in bets if bet.card_level]
    ranked = [bet for bet in bets if not bet.card_level]
    tensor = known_tensor(shoe, rules, ranked, positions)
    if not carded:
        return tensor
    _check(shoe, carded, positions)
    from analyzer.cards.byrank import rank_line_weights  # the card engine, only now

    weights = tensor.weights.reshape(-1).tolist()
    by_rank = rank_line_weights(carded, shoe, positions[0] - 1, rules)
    found: list[list[Fraction]] = []
    for bet, lines in zip(carded, by_rank, strict=True):
        row = []
        for weight, (line_weights, total) in zip(weights, lines, strict=True):
            if not weight:
                row.append(Fraction(0))
                continue
            assert total, "a rank the shoe deals at a position is a card the engine shows there"
            expectation = analysis_from_weights(bet, line_weights, total, not shoe.is_infinite).expectation
            row.append(expectation * int(weight))
        found.append(row)
    scaled = {bet.name: _scaled(row, tensor.weights.shape) for bet, row in zip(carded, found, strict=True)}
    ranked_at = {bet.name: i for i, bet in enumerate(ranked)}
    nums, scales = [], []
    for bet in bets:
        if bet.card_level:
            array, scale = scaled[bet.name]
        else:
            array, scale = tensor.nums[ranked_at[bet.name]], tensor.scales[ranked_at[bet.name]]
        nums.append(array)
        scales.append(scale)
    return KnownTensor(
        tensor.positions, tuple(bets), tuple(scales), tuple(nums), tensor.weights, tensor.total
    )


def _scaled(row: list[Fraction], shape: tuple[int, ...]) -> tuple[np.ndarray, int]:
    """The numerators E * W * scale of one bet (Python integers) and the scale."""
    scale = math.lcm(*(value.denominator for value in row))
    array = np.empty(len(row), dtype=object)
    array[:] = [int(value * scale) for value in row]
    return array.reshape(shape), scale


def _check(shoe: Shoe, carded: Sequence[Bet], positions: Sequence[int]) -> None:
    names = ", ".join(quoted(bet.name) for bet in carded)
    if any(p not in SHOWN_NAMES for p in positions) or len(positions) > CARD_POSITIONS:
        raise AnalyzerError(
            f"{mention('positions')} {','.join(map(str, positions))}: the card-level bets {names} are "
            f"valued at {CARD_POSITIONS} of positions 1-4; give one of those, or rank-level bets"
        )
    check_card_bets(carded, shoe)


def suited_classes(
    shoe: Shoe, rules: Rules, bets: Sequence[Bet], positions: Sequence[int], types: frozenset[int]
) -> KnownTensor:
    """Every bet's numerators and the weights of a sort of card types (`types`) at one of
    positions 1-4, by class (sorted, other): the card engine's shown card for each card
    type, weighted by its count (the total is the shoe's size; 52 for the infinite deck)."""
    from analyzer.analyses.shown import parse_shown, shown_analyses
    from analyzer.core.suits import SUITS

    names = mention("sort")
    if len(positions) != 1 or positions[0] not in SHOWN_NAMES:
        raise AnalyzerError(
            f"{names} of suits or colours: know one of positions 1-4, not {','.join(map(str, positions))}"
        )
    if shoe.counts is not None and shoe.types is None:
        raise AnalyzerError(
            f"{names} of suits or colours: the suits of the shoe ({shoe}) are not known; "
            f"give the shoe with {mention('decks')} or {mention('cards')}"
        )
    counts = [1] * 52 if shoe.types is None else list(shoe.types)
    sums = [[Fraction(0), Fraction(0)] for _ in bets]
    weights = [0, 0]
    for t, count in enumerate(counts):
        if not count:
            continue
        side = 0 if t in types else 1
        shown = parse_shown(f"{SHOWN_NAMES[positions[0]]}={RANKS[t % 13]}{SUITS[t // 13]}")
        for row, analysis in zip(sums, shown_analyses(bets, shoe, shown, rules), strict=True):
            row[side] += analysis.expectation * count
        weights[side] += count
    nums, scales = [], []
    for row in sums:
        array, scale = _scaled(row, (2,))
        nums.append(array)
        scales.append(scale)
    weight = np.empty(2, dtype=object)
    weight[:] = weights
    return KnownTensor(tuple(positions), tuple(bets), tuple(scales), tuple(nums), weight, sum(counts))
