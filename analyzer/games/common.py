"""Helpers shared by the game solvers: formats, headings, strategy cells, shoe checks."""

from __future__ import annotations

from fractions import Fraction

from analyzer.errors import AnalyzerError
from analyzer.format import FORMATS, check_format, decimal, dumps, exact, percent, table
from analyzer.shoe import Shoe

__all__ = [
    "FORMATS",
    "action_cell",
    "check_format",
    "decimal",
    "dumps",
    "exact",
    "heading",
    "need_cards",
    "percent",
    "signed_percent",
    "table",
]


def heading(title: str, fmt: str, level: int = 2) -> str:
    """A section heading: Markdown `##` for markdown, the bare title for table."""
    return f"{'#' * level} {title}\n\n" if fmt == "markdown" else f"{title}\n{'=' * len(title)}\n\n"


def action_cell(draw: Fraction) -> str:
    """A draw probability as a strategy-table cell: D (draws), S (stands) or the exact mix."""
    return "D" if draw == 1 else "S" if draw == 0 else exact(draw)


def signed_percent(value: Fraction, places: int = 4) -> str:
    """A percentage with its sign always shown, e.g. "+1.2799%"."""
    return ("+" if value >= 0 else "") + percent(value, places)


def need_cards(shoe: Shoe, cards: int, game: str) -> None:
    """Raise AnalyzerError when a finite `shoe` cannot deal `cards` cards for `game`."""
    if shoe.counts is not None and shoe.size < cards:
        raise AnalyzerError(f"shoe of {shoe.size} cards: {game} needs at least {cards} cards")
