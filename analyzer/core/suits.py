"""Suits, colours and the 52 card types (a rank and a suit).

Card types are indexed suit-major, the order of `--cards`: spades A, 2, ..., 10, J, Q, K,
then hearts, diamonds and clubs in the same rank order; type t has rank t % 13 and suit
t // 13. Hearts and diamonds are red, spades and clubs black.
"""

from __future__ import annotations

from enum import StrEnum

from analyzer.core.errors import AnalyzerError, quoted
from analyzer.core.ranks import RANKS, Rank, parse_rank

__all__ = [
    "COLOURS",
    "SUITS",
    "TYPES",
    "Suit",
    "card_name",
    "parse_card",
    "parse_suit",
    "suit_colour",
    "type_index",
]


class Suit(StrEnum):
    """The four suits, in the order of `--cards` (spades, hearts, diamonds, clubs)."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"


SUITS: tuple[Suit, ...] = tuple(Suit)
#: Colours, and the suits of each.
COLOURS: dict[str, tuple[Suit, ...]] = {
    "red": (Suit.HEARTS, Suit.DIAMONDS),
    "black": (Suit.SPADES, Suit.CLUBS),
}
#: Number of card types.
TYPES = len(RANKS) * len(SUITS)

_SUIT_WORDS = {suit.name: suit for suit in Suit}


def suit_colour(suit: Suit) -> str:
    """ "red" or "black"."""
    return "red" if suit in COLOURS["red"] else "black"


def parse_suit(text: str) -> Suit:
    """The suit named by `text`: S, H, D, C or the word (case-insensitive)."""
    key = text.strip().upper()
    if key in _SUIT_WORDS:
        return _SUIT_WORDS[key]
    try:
        return Suit(key)
    except ValueError:
        raise AnalyzerError(
            f"unknown suit {quoted(text)}: use S, H, D or C (spades, hearts, diamonds, clubs)"
        ) from None


def type_index(rank: Rank, suit: Suit) -> int:
    """Index of the card type (rank, suit) in the 52-type order."""
    return SUITS.index(suit) * len(RANKS) + RANKS.index(rank)


def card_name(index: int) -> str:
    """The card type's short name, e.g. KH, 10D."""
    suit, rank = divmod(index, len(RANKS))
    return f"{RANKS[rank]}{SUITS[suit]}"


def parse_card(text: str) -> tuple[Rank, Suit | None]:
    """A rank with an optional suit letter: 'K' (any suit), 'KH', '10D', '9s'."""
    key = text.strip()
    if not key:
        raise AnalyzerError("empty card: give a rank such as K or a suited card such as KH")
    if not all(c.isprintable() and not c.isspace() for c in key):
        raise AnalyzerError(
            f"card {quoted(text)} holds a space or a control character: write a card such as KH in one word"
        )
    try:
        return parse_rank(key), None
    except AnalyzerError:
        if len(key) < 2 or key[-1].isdigit():
            raise
    rank_text, suit_text = key[:-1], key[-1]
    try:
        rank = parse_rank(rank_text)
    except AnalyzerError:
        raise AnalyzerError(
            f"unknown card {quoted(text)}: give a rank (A, 2-9, "
            f"10, J, Q, K), optionally with a suit S, H, D or C"
        ) from None
    return rank, parse_suit(suit_text)
