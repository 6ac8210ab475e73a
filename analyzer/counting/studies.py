"""Results of the long studies run from scripts/ and committed as data files.

`jacobson_variants()` reads analyzer/counting/data/jacobson-burn.json and jacobson-no-burn.json,
written by scripts/jacobson_study.py: Jacobson's Dragon 7 and Panda 8 counts (8 decks,
cut card 14) under every plausible reading of the procedure.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources

from analyzer.counting.summary import mean_sd

__all__ = ["JACOBSON_PUBLISHED", "JacobsonVariant", "jacobson_variants"]

#: Jacobson's published expected win per shoe (units of one bet), 10^8 shoes, cut card 14.
JACOBSON_PUBLISHED = {"dragon7-jacobson": Fraction("0.597"), "panda8-jacobson": Fraction("0.237")}
_FILES = ("jacobson-burn.json", "jacobson-no-burn.json")


@dataclass(frozen=True)
class JacobsonVariant:
    """One procedure variant: its description, shoes, and per system the exact mean win per
    shoe, its standard error (display float) and the bets per shoe."""

    procedure: str
    shoes: int
    win: dict[str, Fraction]
    se: dict[str, float]
    bets_per_shoe: dict[str, float]

    def z(self, system: str) -> float:
        """(here - published) / standard error."""
        diff = float(self.win[system] - JACOBSON_PUBLISHED[system])
        return diff / self.se[system] if self.se[system] else math.inf


def jacobson_variants() -> list[JacobsonVariant]:
    """Every variant of the committed study, burn variants first; empty if no data file."""
    result = []
    for name in _FILES:
        path = resources.files("analyzer.counting").joinpath("data", name)
        if not path.is_file():
            continue
        state = json.loads(path.read_text(encoding="utf-8"))
        n = state["shoes"]
        for procedure, cells in state["variants"].items():
            win, se, bets = {}, {}, {}
            for system, cell in cells.items():
                win[system] = Fraction(cell["exact"]) / n
                se[system] = mean_sd(cell["sum"], cell["squares"], n)[1] / math.sqrt(n)
                bets[system] = cell["bets"] / n
            result.append(JacobsonVariant(procedure.replace(" | ", "; "), n, win, se, bets))
    return result
