"""Checks and arithmetic shared by the game solvers."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import lcm

from analyzer.core.errors import AnalyzerError
from analyzer.core.shoe import Shoe

__all__ = ["need_cards", "scaled"]


def scaled(values: Sequence[Fraction]) -> tuple[list[int], int]:
    """`values` as integer numerators over their least common denominator: (numerators, it)."""
    scale = lcm(*(v.denominator for v in values))
    return [v.numerator * (scale // v.denominator) for v in values], scale


def need_cards(shoe: Shoe, cards: int, game: str) -> None:
    """Raise AnalyzerError when a finite `shoe` cannot deal `cards` cards for `game`."""
    if shoe.counts is not None and shoe.size < cards:
        raise AnalyzerError(f"shoe of {shoe.size} cards: {game} needs at least {cards} cards")
