"""Checks shared by the game solvers."""

from __future__ import annotations

from analyzer.core.errors import AnalyzerError
from analyzer.core.shoe import Shoe

__all__ = ["need_cards"]


def need_cards(shoe: Shoe, cards: int, game: str) -> None:
    """Raise AnalyzerError when a finite `shoe` cannot deal `cards` cards for `game`."""
    if shoe.counts is not None and shoe.size < cards:
        raise AnalyzerError(f"shoe of {shoe.size} cards: {game} needs at least {cards} cards")
