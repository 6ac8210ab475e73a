"""Card-level bets given the rank at one of the first four positions, every rank at once:
the same line weights as the card engine's shown card, one rank at a time."""

from __future__ import annotations

import pytest

from analyzer.cards.byrank import rank_line_weights
from analyzer.cards.engine import card_line_weights
from analyzer.core.catalogue import get_bet
from analyzer.core.rules import BANCO_4_DRAWS_ON_0_1, STANDARD
from analyzer.core.shoe import Shoe

#: A bet of each plan's shape: rows of the first four cards by rank (Perfect Pairs, Lucky
#: Nines), whole coups by point value with suits read where a ten lies at the position
#: (Super Tie: the rows by rank) and with none read (Tie Max: the tens' shares).
BETS = [get_bet(name) for name in ("perfect-pairs-v1", "lucky-nines", "super-tie", "tie-max-low")]
LOPSIDED = Shoe.from_cards([(t * 7) % 3 + (t % 13 == 11) for t in range(52)])  # queens of a suit apart


@pytest.mark.parametrize(
    ("shoe", "position"),
    [
        (Shoe.decks(1).remove("9H,KS,5D,QC"), 0),
        (LOPSIDED, 3),
        (Shoe.decks(2), 1),
        (Shoe.infinite(), 2),
        (Shoe.decks(1).remove("9H,5D,10S,JS,QS,KS"), 0),  # the tens alike, spades gone
    ],
)
def test_every_rank_is_the_shown_card(shoe: Shoe, position: int) -> None:
    found = rank_line_weights(BETS, shoe, position, STANDARD)
    for bet, by_rank in zip(BETS, found, strict=True):
        for rank, weights in enumerate(by_rank):
            expected = card_line_weights(bet, shoe, STANDARD, {position: (rank, None)})
            assert weights == expected, (bet.name, rank)


def test_a_small_shoe_and_other_rules() -> None:
    """A shoe of fewer than 52 cards (rows it cannot deal left out), ranks missing from it,
    another tableau."""
    shoe = Shoe.from_cards([(t % 3) * (t % 13 not in (1, 3, 6, 11)) for t in range(52)])
    bets = [get_bet(name) for name in ("tie-max-high", "perfect-pairs-v2", "super-tie")]
    found = rank_line_weights(bets, shoe, 0, BANCO_4_DRAWS_ON_0_1)
    for bet, by_rank in zip(bets, found, strict=True):
        for rank, weights in enumerate(by_rank):
            expected = card_line_weights(bet, shoe, BANCO_4_DRAWS_ON_0_1, {0: (rank, None)})
            assert weights == expected, (bet.name, rank)
