"""Results of the long studies run from scripts/ and committed as data files.

`jacobson_variants()` reads analyzer/counting/data/jacobson-burn.json and jacobson-no-burn.json,
written by scripts/jacobson_study.py: Jacobson's Dragon 7 and Panda 8 counts (8 decks,
cut card 14) under every plausible reading of the procedure; `jacobson_long_run()` reads
analyzer/counting/data/jacobson-long.json, written by scripts/jacobson_long_study.py: the same
two counts co-counted over 10^7 shoes under the casino procedure. `big_tiger_study()` reads
analyzer/counting/data/big-tiger.json, written by scripts/big_tiger_study.py: Jacobson's Big
Tiger count over 10^7 shoes, the JSON of `baccarat count` with the command that made it.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources
from typing import Any

from analyzer.counting.summary import mean_sd

__all__ = [
    "BIG_TIGER_PUBLISHED",
    "JACOBSON_PUBLISHED",
    "BigTigerStudy",
    "JacobsonVariant",
    "big_tiger_study",
    "jacobson_long_run",
    "jacobson_variants",
]

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

    def gap(self, other: JacobsonVariant, system: str) -> float:
        """(here - `other`) / their combined standard error, for `system`."""
        return float(self.win[system] - other.win[system]) / math.hypot(self.se[system], other.se[system])


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


def jacobson_long_run() -> JacobsonVariant | None:
    """The committed 10^7-shoe run of both counts under the casino procedure (`baccarat
    count`'s JSON): per system the exact mean win per shoe (the exact sum of the expectations
    of the coups bet, over the shoes), its standard error and the bets per shoe; None if its
    data file is absent."""
    path = resources.files("analyzer.counting").joinpath("data", "jacobson-long.json")
    if not path.is_file():
        return None
    output = json.loads(path.read_text(encoding="utf-8"))["output"]
    systems = {system["system"]: system for system in output["systems"]}
    (shoes,) = {system["shoes"] for system in systems.values()}
    return JacobsonVariant(
        procedure=output["procedure"],
        shoes=shoes,
        win={name: Fraction(system["expectation_triggered"]) / shoes for name, system in systems.items()},
        se={name: system["win_per_shoe"]["expected"]["se"] for name, system in systems.items()},
        bets_per_shoe={name: system["bets_per_shoe"] for name, system in systems.items()},
    )


#: Jacobson's published figures for his Big Tiger count (Card Counting the Big Tiger Baccarat
#: Side Bet, 2024; 10^8 8-deck shoes, cut card 14, bet at true count >= 8): bets per coup,
#: average edge per bet, units won per 100 coups, desirability index.
BIG_TIGER_PUBLISHED = {
    "frequency": Fraction("0.03536"),
    "edge": Fraction("0.07227"),
    "win_per_100": Fraction("0.256"),
    "desirability": Fraction("2.08"),
}


@dataclass(frozen=True)
class BigTigerStudy:
    """One run of the committed Big Tiger study: the command that made it, its procedure in
    words, and from `baccarat count`'s JSON the shoes, coups and bets, the exact average edge
    per bet, the win per 100 coups (mean, standard error; display floats) and the
    desirability index; `readings`, for the long run, the shorter runs under other readings
    of the procedure."""

    command: str
    procedure: str
    shoes: int
    coups: int
    bets: int
    edge: Fraction
    win_per_100: tuple[float, float]
    desirability: float
    readings: tuple[BigTigerStudy, ...] = ()

    @property
    def frequency(self) -> Fraction:
        """Bets per coup dealt (exact)."""
        return Fraction(self.bets, self.coups)

    def z(self) -> float:
        """(win per 100 coups here - published) / its standard error."""
        mean, se = self.win_per_100
        return (mean - float(BIG_TIGER_PUBLISHED["win_per_100"])) / se if se else math.inf


def big_tiger_study() -> BigTigerStudy | None:
    """The committed Big Tiger study, or None if its data file is absent."""
    path = resources.files("analyzer.counting").joinpath("data", "big-tiger.json")
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    (system,) = data["output"]["systems"]
    readings = tuple(_tiger_run(r["command"], r["procedure"], r) for r in data["readings"])
    return _tiger_run(data["command"], data["output"]["procedure"], system, readings)


def _tiger_run(
    command: str, procedure: str, figures: dict[str, Any], readings: tuple[BigTigerStudy, ...] = ()
) -> BigTigerStudy:
    win = figures["win_per_100_coups"]
    return BigTigerStudy(
        command=command,
        procedure=procedure,
        shoes=figures["shoes"],
        coups=figures["coups"],
        bets=figures["triggers"],
        edge=Fraction(figures["trigger_edge"]),
        win_per_100=(win["mean"], win["se"]),
        desirability=figures["desirability_index"],
        readings=readings,
    )
