"""Card ranks and point values (brief, "Cards and hands": A = 1, 2-9 face value, 10/J/Q/K = 0)."""

from __future__ import annotations

import pytest

from analyzer.core.errors import AnalyzerError
from analyzer.core.ranks import POINTS, RANK_POINTS, RANKS, ZERO_RANKS, Rank, parse_rank, parse_ranks


def test_rank_order_is_a_to_k() -> None:
    assert [str(r) for r in RANKS] == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def test_point_values_follow_the_brief() -> None:
    expected = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9}
    expected |= {"10": 0, "J": 0, "Q": 0, "K": 0}
    assert {str(r): v for r, v in POINTS.items()} == expected
    assert RANK_POINTS == (1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0)
    assert ZERO_RANKS == (9, 10, 11, 12)
    assert [RANKS[i] for i in ZERO_RANKS] == [Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING]


@pytest.mark.parametrize(
    ("text", "rank"),
    [
        ("A", Rank.ACE),
        ("a", Rank.ACE),
        ("1", Rank.ACE),
        ("10", Rank.TEN),
        ("t", Rank.TEN),
        (" q ", Rank.QUEEN),
        ("k", Rank.KING),
        ("9", Rank.NINE),
    ],
)
def test_parse_rank(text: str, rank: Rank) -> None:
    assert parse_rank(text) is rank


@pytest.mark.parametrize("text", ["", "0", "11", "X", "JJ", "ace", "1.0"])
def test_parse_rank_rejects(text: str) -> None:
    with pytest.raises(AnalyzerError) as info:
        parse_rank(text)
    message = str(info.value)
    assert "\n" not in message
    assert "unknown rank" in message


def test_parse_ranks() -> None:
    assert parse_ranks("5,5,K") == [Rank.FIVE, Rank.FIVE, Rank.KING]
    assert parse_ranks(" 10 , j") == [Rank.TEN, Rank.JACK]


@pytest.mark.parametrize("text", ["", ",", " , ,", "10,j,", "5,,5"])
def test_parse_ranks_needs_a_rank(text: str) -> None:
    with pytest.raises(AnalyzerError, match="none empty"):
        parse_ranks(text)


def test_parse_ranks_names_the_bad_item() -> None:
    with pytest.raises(AnalyzerError, match="'Z'"):
        parse_ranks("5,Z,K")
