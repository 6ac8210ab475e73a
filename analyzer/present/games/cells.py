"""Strategy-table cells the games share: a draw probability as D, S or the exact mix, and
the labels of hands and of the Banker's information sets."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from analyzer.games.chemin_graph import InfoKey
from analyzer.games.hands import hand_label
from analyzer.present.text import exact

__all__ = ["action_cell", "cell_name", "row_label"]


def action_cell(draw: Fraction) -> str:
    """A draw probability as a strategy-table cell: D (draws), S (stands) or the exact mix."""
    return "D" if draw == 1 else "S" if draw == 0 else exact(draw)


def row_label(seen: Any) -> str:
    """A Banker hand as "a+b", or a total as its number."""
    return hand_label(seen) if isinstance(seen, tuple) else str(seen)


def cell_name(key: InfoKey) -> str:
    """An information set as "(hand or total, Player's third card or stood)"."""
    _, seen, v = key
    return f"({row_label(seen)}, {'stood' if v is None else v})"
