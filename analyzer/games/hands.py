"""The hand vocabulary the game solvers share: two-card hands, their labels, totals and orderings.

A hand is a sorted pair of point values (0 stands for any ten-valued card). In every game
here the Player (or a side, or Punto) is free to draw or stand on a two-card FREE_TOTAL.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["FREE_TOTAL", "HANDS", "Hand", "hand_counts", "hand_label", "hand_orders", "hand_total"]

Hand = tuple[int, int]

#: Two-card hands as sorted pairs of point values (0: a ten-valued card), in a fixed order.
HANDS: tuple[Hand, ...] = tuple((a, b) for a in range(10) for b in range(a, 10))

#: The two-card total on which custom leaves the Player (Punto, a side) free to draw or stand.
FREE_TOTAL = 5


def hand_label(hand: Hand) -> str:
    """A hand as "a+b" in point values (0 is any ten-valued card)."""
    return f"{hand[0]}+{hand[1]}"


def hand_total(hand: Hand) -> int:
    """The hand's baccarat total: the sum of its point values modulo 10."""
    return sum(hand) % 10


def hand_orders(hand: Hand) -> int:
    """The number of orders its two cards can be dealt in: 1 for a pair of values, else 2."""
    return 1 if hand[0] == hand[1] else 2


def hand_counts(hand: Sequence[int]) -> list[int]:
    """The cards of a hand (or of several) as counts per point value 0-9."""
    return [hand.count(v) for v in range(10)]
