"""Shoe compositions: decks, explicit counts, removals and the infinite deck (brief, "Shoes")."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from analyzer.core.errors import AnalyzerError
from analyzer.core.ranks import RANKS, Rank
from analyzer.core.shoe import MIN_CARDS, Shoe, parse_counts, parse_decks


@pytest.mark.parametrize(("decks", "size"), [(1, 52), (6, 312), (8, 416)])
def test_decks(decks: int, size: int) -> None:
    """6 decks = 312 cards ("small table"), 8 decks = 416 ("big table"), per the brief."""
    shoe = Shoe.decks(decks)
    assert shoe.counts == (4 * decks,) * 13
    assert shoe.size == size
    assert shoe.value_counts() == (16 * decks, *(4 * decks,) * 9)
    assert not shoe.is_infinite


def test_labels_do_not_affect_equality() -> None:
    assert Shoe.decks(1) == Shoe.from_counts([4] * 13, label="something else")
    assert str(Shoe.decks(1)) == "1 deck"
    assert str(Shoe.decks(8)) == "8 decks"
    assert Shoe.decks(1) != Shoe.decks(2)


def test_infinite_deck() -> None:
    shoe = Shoe.infinite()
    assert shoe.is_infinite
    assert shoe.rank_probabilities() == (Fraction(1, 13),) * 13
    assert str(shoe) == "infinite deck"
    with pytest.raises(AnalyzerError):
        _ = shoe.size
    with pytest.raises(AnalyzerError):
        shoe.value_counts()
    with pytest.raises(AnalyzerError, match="infinite"):
        shoe.remove(["5"])


def test_rank_probabilities_are_exact() -> None:
    shoe = Shoe.from_counts([3, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 1])
    probs = shoe.rank_probabilities()
    assert probs[0] == Fraction(1, 2)
    assert probs[9] == Fraction(1, 3)
    assert probs[12] == Fraction(1, 6)
    assert sum(probs) == 1


def test_value_counts_merge_the_ten_valued_ranks() -> None:
    shoe = Shoe.from_counts([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13])
    assert shoe.value_counts() == (10 + 11 + 12 + 13, 1, 2, 3, 4, 5, 6, 7, 8, 9)


def test_remove() -> None:
    shoe = Shoe.decks(1).remove(["5", Rank.FIVE, "k", "10"])
    assert shoe.counts == (4, 4, 4, 4, 2, 4, 4, 4, 4, 3, 4, 4, 3)
    assert shoe.size == 48
    assert Shoe.decks(1).remove([]) == Shoe.decks(1)


def test_remove_takes_a_string_as_one_card_or_a_list_never_its_characters() -> None:
    assert Shoe.decks(1).remove("10") == Shoe.decks(1).remove(["10"])  # not "1" and "0"
    assert Shoe.decks(1).remove("5,5,KH") == Shoe.decks(1).remove(["5", "5", "KH"])
    assert Shoe.decks(1).remove("10").counts == (4,) * 9 + (3, 4, 4, 4)


def test_remove_more_than_the_shoe_holds() -> None:
    with pytest.raises(AnalyzerError, match="no 5 left"):
        Shoe.decks(1).remove(["5"] * 5)


def test_remove_unknown_rank() -> None:
    with pytest.raises(AnalyzerError, match="unknown rank"):
        Shoe.decks(1).remove(["Z"])


@pytest.mark.parametrize(
    "counts",
    [
        [4] * 12,  # 12 counts
        [4] * 14,
        [4] * 12 + [-1],
        [4] * 12 + [1.5],
        [4] * 12 + [True],
        [4] * 12 + ["4"],
        [1] * 5 + [0] * 8,  # 5 cards: a coup needs 6
        [0] * 13,
    ],
)
def test_bad_counts(counts: list) -> None:
    with pytest.raises(AnalyzerError) as info:
        Shoe.from_counts(counts)
    assert "\n" not in str(info.value)


def test_six_cards_is_the_minimum() -> None:
    assert MIN_CARDS == 6
    assert Shoe.from_counts([6] + [0] * 12).size == 6


@pytest.mark.parametrize("n", [0, -1, 1.5, True, "8"])
def test_bad_decks(n: object) -> None:
    with pytest.raises(AnalyzerError, match="positive integer"):
        Shoe.decks(n)  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "expected"), [("8", Shoe.decks(8)), (" 2 ", Shoe.decks(2))])
def test_parse_decks(text: str, expected: Shoe) -> None:
    assert parse_decks(text) == expected


@pytest.mark.parametrize("text", ["inf", "INF", "infinite", "Infinity"])
def test_parse_decks_infinite(text: str) -> None:
    assert parse_decks(text).is_infinite


@pytest.mark.parametrize("text", ["0", "-1", "1.5", "abc", "", "1e3"])
def test_parse_decks_rejects(text: str) -> None:
    with pytest.raises(AnalyzerError):
        parse_decks(text)


def test_parse_counts() -> None:
    assert parse_counts("4,4,4,4,4,4,4,4,4,4,4,4,4") == Shoe.decks(1)
    assert parse_counts(" 1, 2,3,4,5,6,7,8,9,10,11,12,13 ").counts == tuple(range(1, 14))


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("4,4,4", "3 entries"),
        (",".join(["4"] * 14), "14 entries"),
        (",".join(["4"] * 12 + ["x"]), "'x'"),
        (",".join(["4"] * 12 + ["1.5"]), "'1.5'"),
        (",".join(["4"] * 12 + [""]), "none empty"),
        (",".join(["4"] * 12 + ["-1"]), "-1"),
        (",".join(["1"] * 5 + ["0"] * 8), "at least 6"),
    ],
)
def test_parse_counts_rejects(text: str, fragment: str) -> None:
    with pytest.raises(AnalyzerError) as info:
        parse_counts(text)
    assert fragment in str(info.value)


@given(
    counts=st.lists(st.integers(0, 6), min_size=13, max_size=13).filter(lambda c: sum(c) >= 12),
    data=st.data(),
)
def test_remove_takes_exactly_the_named_cards(counts: list[int], data: st.DataObject) -> None:
    shoe = Shoe.from_counts(counts)
    present = [rank for rank, n in zip(RANKS, counts, strict=True) for _ in range(n)]
    taken = data.draw(st.permutations(present))[: sum(counts) - 6]
    smaller = shoe.remove(taken)
    assert smaller.size == shoe.size - len(taken)
    for i, rank in enumerate(RANKS):
        assert smaller.counts[i] == counts[i] - taken.count(rank)
