"""Card ranks and their point values.

Suits never matter here. A hand's total is the sum of its point values modulo 10.
"""

from __future__ import annotations

from enum import StrEnum

from analyzer.core.errors import AnalyzerError, quoted
from analyzer.core.parsing import list_items

__all__ = ["POINTS", "RANKS", "RANK_POINTS", "ZERO_RANKS", "Rank", "parse_rank", "parse_ranks"]


class Rank(StrEnum):
    """The 13 ranks, in the order used for every per-rank vector (A, 2..9, 10, J, Q, K)."""

    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"


RANKS: tuple[Rank, ...] = tuple(Rank)

#: Baccarat point value of each rank: A = 1, 2-9 face value, 10/J/Q/K = 0.
POINTS: dict[Rank, int] = {rank: (i + 1 if i < 9 else 0) for i, rank in enumerate(RANKS)}

#: Point values in rank order, for index-based code.
RANK_POINTS: tuple[int, ...] = tuple(POINTS[rank] for rank in RANKS)

#: Indices (into RANKS) of the four ten-valued ranks.
ZERO_RANKS: tuple[int, ...] = tuple(i for i, rank in enumerate(RANKS) if POINTS[rank] == 0)

_ALIASES = {"1": Rank.ACE, "T": Rank.TEN}


def parse_rank(text: str) -> Rank:
    """The rank named by `text` (A, 2-9, 10, J, Q, K; case-insensitive; T = 10, 1 = A)."""
    key = text.strip().upper()
    if key in _ALIASES:
        return _ALIASES[key]
    try:
        return Rank(key)
    except ValueError:
        raise AnalyzerError(f"unknown rank {quoted(text)}: use one of {', '.join(RANKS)}") from None


def parse_ranks(text: str) -> list[Rank]:
    """Ranks from a comma-separated list such as '5,5,K'."""
    return [parse_rank(item) for item in list_items(text, "ranks", "5,5,K")]
