"""The vectorised dealer against the scalar reference dealer, shoe by shoe."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer import STANDARD, Shoe
from analyzer.core.outcome import Outcome, pack_codes, unpack_outcomes
from analyzer.core.rules import get_rules
from analyzer.counting.dealer import deal_batch, shuffled_cards
from analyzer.counting.simulation import Procedure, deal_cards, deal_shoe


@pytest.mark.parametrize(
    ("decks", "cut_card", "extra_coup", "burn", "rules"),
    [
        (8, 14, False, True, "standard"),
        (8, 14, True, True, "standard"),
        (8, 16, True, False, "standard"),
        (1, 7, True, True, "standard"),
        (2, 0, False, True, "seed004"),
        (1, 46, True, True, "standard"),
    ],
)
def test_batch_deals_what_the_scalar_dealer_deals(
    decks: int, cut_card: int, extra_coup: bool, burn: bool, rules: str
) -> None:
    procedure = Procedure(shoe=Shoe.decks(decks), cut_card=cut_card, extra_coup=extra_coup, burn=burn)
    ruleset = get_rules(rules)
    batch = deal_batch(procedure.shoe.counts or (), ruleset, 7, range(30, 70), cut_card, extra_coup, burn)
    for s in range(40):
        record = deal_shoe(procedure, ruleset, 7, 30 + s)
        mine = batch.shoe == s
        assert (batch.left[mine] == record.left).all()
        assert (batch.seen("first" if burn else "none")[mine] == record.seen).all()
        assert [unpack_outcomes(np.array([c]))[0] for c in batch.outcome[mine]] == list(record.outcomes)
        if extra_coup:  # the extra coup is the last one, when the shoe had cards for it
            assert batch.extra[mine].sum() <= 1 and not batch.extra[mine][:-1].any()
        else:
            assert not batch.extra[mine].any()


def test_shoes_do_not_depend_on_their_batch() -> None:
    whole = deal_batch((4,) * 13, STANDARD, 3, range(0, 12), 7)
    part = deal_batch((4,) * 13, STANDARD, 3, range(5, 9), 7)
    for s in range(4):
        assert (whole.left[whole.shoe == 5 + s] == part.left[part.shoe == s]).all()
    cards = shuffled_cards((4,) * 13, 3, 5)
    assert sorted(cards.tolist()) == [r for r in range(13) for _ in range(4)]
    assert (
        deal_cards(cards.tolist(), Procedure(shoe=Shoe.decks(1)), STANDARD).left == part.left[part.shoe == 0]
    ).all()
    assert (
        not (shuffled_cards((4,) * 13, 4, 5) == cards).all()
        and not (shuffled_cards((4,) * 13, 3, 6) == cards).all()
    )
    assert not (shuffled_cards((4,) * 13, -3, 5) == cards).all()


def test_burned_cards_and_what_the_counter_sees() -> None:
    batch = deal_batch((4,) * 13, STANDARD, 1, range(0, 20), 7)
    first_cards = np.array([shuffled_cards((4,) * 13, 1, i)[0] for i in range(20)])
    assert (batch.first.argmax(axis=1) == first_cards).all() and (batch.first.sum(axis=1) == 1).all()
    burned = batch.burned.sum(axis=1)
    assert ((burned >= 2) & (burned <= 11)).all()
    none, first, every = batch.seen("none"), batch.seen("first"), batch.seen("all")
    assert ((first - none).sum(axis=1) == 1).all()
    assert ((every - none).sum(axis=1) == burned[batch.shoe]).all()
    # seen (all) + left = the whole shoe
    assert ((every + batch.left) == 4).all()
    tags = np.array([1, 1, 1, 1, 2, -1, 0, -2, -2, 0, 0, 0, 3], dtype=np.int64)
    for burn, seen in (("none", none), ("first", first), ("all", every)):
        assert (batch.seen_total(tags, burn) == seen @ tags).all(), burn


def test_outcome_codes_round_trip() -> None:
    outcome = Outcome(5, 3, 9, 3, 3, 2, False, True, False)
    fields = [np.array([v]) for v in (5, 3, 9, 3, 1, 0, 0, 1, 0)]
    assert unpack_outcomes(np.array([pack_codes(fields)[0]]))[0] == outcome


def test_big_shoes_are_dealt_in_parts_alike() -> None:
    counts = (40 * 4,) * 13  # 40 decks: 13,000-card shoes exceed one pass of the dealer
    batch = deal_batch(counts, STANDARD, 2, range(0, 170), 14)
    procedure = Procedure(shoe=Shoe.decks(40), cut_card=14)
    for s in (0, 169):
        assert (batch.left[batch.shoe == s] == deal_shoe(procedure, STANDARD, 2, s).left).all()


def test_the_shuffle_sorts_its_keys_as_an_argsort_does() -> None:
    from analyzer.counting.dealer import _key_order, shuffle_keys

    for size in (1, 6, 52, 416, 1000):  # the keys of real shoes
        keys = shuffle_keys(7, np.arange(30, 60), size)
        assert (_key_order(keys) == np.argsort(keys, axis=1)).all()
    # Keys equal above the low bits that carry their positions: packed, the later position
    # would sort first; the argsort's order is kept.
    tie = np.array([[(5 << 9) | 300, (5 << 9) | 2, 7 << 9, 1 << 9]], dtype=np.uint64)
    assert _key_order(np.tile(tie, (3, 1))).tolist() == [[3, 1, 0, 2]] * 3
