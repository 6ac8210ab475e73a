"""Suited dealing for counting studies, and card-level bets judged in `count`."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from analyzer import STANDARD, Shoe
from analyzer.cards.batch import analyze_cards
from analyzer.cards.plain import _settle as plain_settle
from analyzer.core.catalogue import CARD_BETS, RANK_BETS
from analyzer.core.errors import AnalyzerError
from analyzer.core.outcome import unpack_outcomes
from analyzer.counting.dealer import SuitedBatch, deal_batch, shuffled_cards, shuffled_deck
from analyzer.counting.simulation import (
    Procedure,
    _Job,
    deal_and_value,
    deal_coup,
    evaluate_systems,
    net_numerators,
)
from analyzer.counting.systems import SYSTEMS

LOPSIDED = [1 + (t * 7) % 5 for t in range(52)]  # 1 to 5 cards of each type


@pytest.mark.parametrize("types", [[8] * 52, LOPSIDED], ids=["8 decks", "lopsided"])
def test_suited_shoes_have_the_rank_dealers_ranks(types: list[int]) -> None:
    counts = Shoe.from_cards(types).counts or ()
    decks = shuffled_deck(types, 11, np.arange(40, 46))
    for row, index in enumerate(range(40, 46)):
        assert (decks[row] % 13 == shuffled_cards(counts, 11, index)).all()
        assert np.bincount(decks[row], minlength=52).tolist() == types


def test_suited_coups_are_the_cards_dealt() -> None:
    """Each coup's cards replay its outcome, and the card types left drop by exactly them."""
    shoe = Shoe.from_cards(LOPSIDED)
    batch = deal_batch(shoe.counts or (), STANDARD, 4, range(10, 16), 7)
    suited = deal_batch(LOPSIDED, STANDARD, 4, range(10, 16), 7)
    assert isinstance(suited, SuitedBatch) and not isinstance(batch, SuitedBatch)
    for name in ("shoe", "left", "dealt", "outcome", "extra", "first", "burned"):
        assert (getattr(suited, name) == getattr(batch, name)).all()
    assert (suited.types_left.reshape(-1, 4, 13).sum(axis=1) == batch.left).all()
    decks = shuffled_deck(LOPSIDED, 4, np.arange(10, 16))
    size = sum(LOPSIDED)
    for c in range(len(batch.shoe)):  # the card types left: the shoe less the cards above the coup's
        above = decks[batch.shoe[c], : size - int(batch.left[c].sum())]
        assert (suited.types_left[c] == np.array(LOPSIDED) - np.bincount(above, minlength=52)).all()
    for c in range(len(batch.shoe)):
        dealt = [int(r) for r in suited.ranks[c] if r >= 0]
        outcome, used = deal_coup(dealt + [0] * 2, 0, STANDARD)
        assert outcome == unpack_outcomes(np.array([batch.outcome[c]]))[0] and used == len(dealt)
        if c + 1 < len(batch.shoe) and batch.shoe[c + 1] == batch.shoe[c]:
            taken = suited.types_left[c] - suited.types_left[c + 1]
            cards = suited.suits[c] * 13 + suited.ranks[c]
            assert taken.tolist() == np.bincount(cards[cards >= 0], minlength=52).tolist()


def test_suited_shoes_are_dealt_in_parts_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    from analyzer.counting import dealer

    whole = deal_batch(LOPSIDED, STANDARD, 3, range(0, 9), 7, True)
    monkeypatch.setattr(dealer, "_CARDS_AT_ONCE", 2 * sum(LOPSIDED))  # two shoes a part
    monkeypatch.setattr(dealer, "_TYPES_AT_ONCE", 1)  # card types left one shoe at a time
    parts = deal_batch(LOPSIDED, STANDARD, 3, range(0, 9), 7, True)
    assert isinstance(whole, SuitedBatch) and isinstance(parts, SuitedBatch)
    assert vars(whole).keys() == vars(parts).keys() and parts.shoes == 9
    for name, value in vars(whole).items():
        assert (np.asarray(getattr(parts, name)) == np.asarray(value)).all(), name


def test_study_values_every_coup_as_analyze_cards() -> None:
    """A small study's per-coup exact values equal the one-shoe engine on the same depleted
    shoes, and each coup is settled on its cards as the plain card-by-card path settles it."""
    bets = (
        RANK_BETS["dragon7"],
        CARD_BETS["perfect-pairs-v2"],
        CARD_BETS["super-tie"],
        CARD_BETS["lucky-nines"],
    )
    cards = bets[1:]
    procedure = Procedure(shoe=Shoe.decks(2), cut_card=14)
    from analyzer.ranks.fast import FastEvaluator

    job = _Job("test", FastEvaluator(bets[:1]), (), (), procedure, STANDARD, 9, range(3, 5), cards)
    batch, numerators, totals = deal_and_value(job)
    assert isinstance(batch, SuitedBatch)
    from analyzer.cards.batch import card_evaluator

    denominators = card_evaluator(cards, STANDARD).denominators
    for c in range(0, len(batch.shoe), 7):
        shoe = Shoe.from_cards(batch.types_left[c].tolist())
        for i, bet in enumerate(cards):
            value = Fraction(int(numerators[c, 1 + i]), denominators[i] * int(totals[c]))
            assert value == analyze_cards(bet, shoe).expectation
    everything = np.ones(len(batch.shoe), dtype=bool)
    for i, bet in enumerate(cards):
        nets = net_numerators(bet, denominators[i], batch, everything)
        for c in range(len(batch.shoe)):
            seq = [
                None if r < 0 else (int(r), int(s))
                for r, s in zip(batch.ranks[c], batch.suits[c], strict=True)
            ]
            line = plain_settle(bet, seq, unpack_outcomes(np.array([batch.outcome[c]]))[0])
            pays = bet.lines[line].pays if line < len(bet.lines) else Fraction(-1)
            assert Fraction(int(nets[c]), denominators[i]) == (pays or 0)


def test_rank_bets_are_judged_alike_beside_card_bets() -> None:
    """Card-level bets beside rank-level ones leave the rank-level results identical."""
    procedure = Procedure(shoe=Shoe.decks(8), cut_card=14)
    d7, panda = SYSTEMS["dragon7-jacobson"], SYSTEMS["panda8-jacobson"]
    alone = evaluate_systems(
        [d7, panda], [RANK_BETS["dragon7"], RANK_BETS["panda8"]], procedure, shoes=6, seed=2, chunk=4
    )
    mixed = evaluate_systems(
        [d7, d7, panda], [CARD_BETS["perfect-pairs-v1"], RANK_BETS["dragon7"], RANK_BETS["panda8"]],
        procedure, shoes=6, seed=2, chunk=4,
    )  # fmt: skip
    for before, after in zip(alone, mixed[1:], strict=True):
        assert vars(before) == vars(after)
    card = mixed[0]
    assert (
        card.coups == alone[0].coups and card.triggers == alone[0].triggers
    )  # the same count, the same coups
    assert card.expectation_triggered != alone[0].expectation_triggered


def test_suit_bets_need_a_shoe_with_suits() -> None:
    procedure = Procedure(shoe=Shoe.from_counts([32] * 13))
    with pytest.raises(AnalyzerError, match="perfect-pairs-v1 read suits"):
        evaluate_systems([SYSTEMS["dragon7-jacobson"]], [CARD_BETS["perfect-pairs-v1"]], procedure, shoes=2)
    tie_max = evaluate_systems([SYSTEMS["dragon7-jacobson"]], [CARD_BETS["tie-max-low"]], procedure, shoes=2)
    assert tie_max[0].coups > 100
