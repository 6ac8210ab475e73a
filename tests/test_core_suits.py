"""Suits, card types and shoes given per card type."""

from __future__ import annotations

import pytest

from analyzer.core.errors import AnalyzerError
from analyzer.core.ranks import Rank
from analyzer.core.shoe import Shoe, parse_cards
from analyzer.core.suits import Suit, card_name, parse_card, type_index


@pytest.mark.parametrize(
    ("text", "card"),
    [("K", (Rank.KING, None)), ("KH", (Rank.KING, Suit.HEARTS)), ("10d", (Rank.TEN, Suit.DIAMONDS)),
     ("TS", (Rank.TEN, Suit.SPADES)), ("ac", (Rank.ACE, Suit.CLUBS)), ("10", (Rank.TEN, None))],
)  # fmt: skip
def test_parse_card(text: str, card: tuple[Rank, Suit | None]) -> None:
    assert parse_card(text) == card


@pytest.mark.parametrize(
    ("text", "message"), [("KX", "unknown suit 'X'"), ("Z", "unknown rank"), ("", "empty")]
)
def test_bad_cards(text: str, message: str) -> None:
    with pytest.raises(AnalyzerError, match=message):
        parse_card(text)


def test_type_order_is_spades_hearts_diamonds_clubs() -> None:
    assert [card_name(i) for i in (0, 12, 13, 26, 51)] == ["AS", "KS", "AH", "AD", "KC"]
    assert type_index(Rank.KING, Suit.HEARTS) == 25


def test_decks_know_their_suits() -> None:
    shoe = Shoe.decks(6)
    assert shoe.types == (6,) * 52 and shoe.counts == (24,) * 13


def test_from_cards_sums_suits_into_ranks() -> None:
    types = [0] * 52
    types[type_index(Rank.NINE, Suit.DIAMONDS)] = 3
    types[type_index(Rank.NINE, Suit.SPADES)] = 1
    types[type_index(Rank.KING, Suit.CLUBS)] = 2
    shoe = Shoe.from_cards(types)
    assert shoe.counts == (0,) * 8 + (4, 0, 0, 0, 2) and shoe.size == 6
    assert parse_cards(",".join(map(str, types))) == shoe
    assert shoe == Shoe.from_counts(shoe.counts)  # equality compares ranks only, as before


def test_removal_by_suit_and_by_rank() -> None:
    shoe = Shoe.decks(1).remove(["9D", "K"])
    assert shoe.types is None and shoe.counts is not None and shoe.counts[8] == 3
    suited = Shoe.decks(1).remove(["9D"])
    assert suited.types is not None and suited.types[type_index(Rank.NINE, Suit.DIAMONDS)] == 0
    with pytest.raises(AnalyzerError, match="no 9D left"):
        suited.remove(["9D"])
    with pytest.raises(AnalyzerError, match=r"suits of the shoe .* are not known"):
        Shoe.from_counts([4] * 13).remove(["9D"])  # which suit is missing would be unknown


@pytest.mark.parametrize(
    ("types", "message"),
    [([1] * 51, "51 card counts"), ([1] * 51 + [-1], "card KC"), ([1] * 51 + [True], "card KC")],
)
def test_bad_card_counts(types: list[int], message: str) -> None:
    with pytest.raises(AnalyzerError, match=message):
        Shoe.from_cards(types)
