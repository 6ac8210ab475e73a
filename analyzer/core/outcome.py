"""A finished coup as a value: who won, the totals, the cards per hand, naturals and pairs,
and its packing into one integer code (the dealer's and the coup compiler's encoding).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from enum import StrEnum
from typing import TYPE_CHECKING, NamedTuple

from analyzer.core.renames import Renamed

if TYPE_CHECKING:  # numpy loads only where codes are packed: a cold `odds` never needs it
    import numpy as np

__all__ = [
    "CARDS_PER_COUP",
    "OUTCOME_CODES",
    "OUTCOME_RADIX",
    "Outcome",
    "Winner",
    "outcome_digits",
    "pack_codes",
    "unpack_outcomes",
]

#: The most cards a coup deals (two hands of up to three).
CARDS_PER_COUP = 6


class Winner(StrEnum):
    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"


class _Fields(NamedTuple):
    """The fields of an Outcome, in packing order."""

    player_initial: int  # the Player's (Punto's) two-card total
    banker_initial: int  # the Banker's (Banco's) two-card total
    player_total: int  # final totals
    banker_total: int
    player_cards: int  # 2 or 3
    banker_cards: int
    natural: bool  # the coup ended on a natural
    player_pair: bool  # the Player's first two cards are of the same rank
    banker_pair: bool


class Outcome(_Fields):
    """Everything about a finished coup that a rank-level bet can be settled on. The old
    field names (`punto_total`, `banco_pair`, ...) read as before, with a DeprecationWarning."""

    __slots__ = ()

    punto_initial = Renamed("player_initial")
    banco_initial = Renamed("banker_initial")
    punto_total = Renamed("player_total")
    banco_total = Renamed("banker_total")
    punto_cards = Renamed("player_cards")
    banco_cards = Renamed("banker_cards")
    punto_pair = Renamed("player_pair")
    banco_pair = Renamed("banker_pair")

    @property
    def winner(self) -> Winner:
        if self.player_total > self.banker_total:
            return Winner.PLAYER
        if self.banker_total > self.player_total:
            return Winner.BANKER
        return Winner.TIE

    @property
    def cards(self) -> int:
        return self.player_cards + self.banker_cards


#: Mixed-radix sizes of Outcome's fields, used to pack an outcome into one integer
#: (card counts 2-3 are stored less 2).
OUTCOME_RADIX = (10, 10, 10, 10, 2, 2, 2, 2, 2)
_OFFSET = (0, 0, 0, 0, 2, 2, 0, 0, 0)
#: Number of distinct outcome codes.
OUTCOME_CODES = math.prod(OUTCOME_RADIX)


def pack_codes(columns: Iterable[np.ndarray], radices: Iterable[int] = OUTCOME_RADIX) -> np.ndarray:
    """Columns of small integers packed into one mixed-radix integer per row (by default
    Outcome's fields, card counts less 2: the outcome code)."""
    import numpy as np

    code = np.zeros(1, dtype=np.int64)
    for column, radix in zip(columns, radices, strict=True):
        code = code * radix + column
    return code


def outcome_digits(codes: np.ndarray) -> list[np.ndarray]:
    """The digits of outcome codes, in Outcome's field order (card counts less 2)."""
    import numpy as np

    columns = []
    for radix in reversed(OUTCOME_RADIX):
        codes, digit = np.divmod(codes, radix)
        columns.append(digit)
    return columns[::-1]


def unpack_outcomes(codes: np.ndarray) -> list[Outcome]:
    """The Outcomes of outcome codes packed by `pack_codes`."""
    digits = zip(outcome_digits(codes), _OFFSET, strict=True)
    columns = [(digit + offset).tolist() for digit, offset in digits]
    flags = [list(map(bool, col)) for col in columns[6:]]
    return [Outcome(*row) for row in zip(*columns[:6], *flags, strict=True)]
