"""Card-level conditions of the bet language: ranks, suits, colours, pairs and counts.

Each field is evaluated on arrays of coup rows (one rank, and where known one suit, per
dealt position) and states what it needs: the whole coup or only the first four cards,
and the suits of which positions. Positions are p1, b1, p2, b2, p3, b3 in dealing order
(columns 0..5); a position not dealt reads "none".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from analyzer.core.errors import AnalyzerError, quoted
from analyzer.core.ranks import RANK_POINTS, RANKS, parse_rank
from analyzer.core.suits import COLOURS, SUITS, parse_card, parse_suit

if TYPE_CHECKING:  # numpy loads when a field is evaluated: parsing a bet never needs it
    import numpy as np


__all__ = [
    "COLOUR_VALUES",
    "POSITIONS",
    "CardField",
    "CardRows",
    "card_field",
    "card_field_names",
]

#: Dealt positions in dealing order (columns of the row arrays).
POSITIONS = ("p1", "b1", "p2", "b2", "p3", "b3")
PLAYER, BANKER = (0, 2, 4), (1, 3, 5)
#: Hand and coup colours, coded 0, 1, 2.
COLOUR_VALUES = ("red", "black", "mixed")


@cache
def _points() -> np.ndarray:
    """Point value of each rank index, and -1 at index -1 (no card)."""
    import numpy as np

    return np.array([*RANK_POINTS, -1], dtype=np.int8)


@dataclass
class CardRows:
    """Coup rows for vectorised field evaluation.

    - `ranks`: (R, 6) rank indices, -1 where no card is dealt;
    - `suits`: (R, 6) suit indices, -1 where the suit is not resolved;
    - `colours`: (R, 2) colour codes of the Player and Banker hands, -1 if not resolved;
    - `outcome`: (R,) index into `outcomes` (the rank-level Outcome), -1 in first-four mode.
    """

    ranks: np.ndarray
    suits: np.ndarray
    colours: np.ndarray
    outcome: np.ndarray


def _row_count(hits: np.ndarray) -> np.ndarray:
    """(R,) int8: how many of each row's few columns hold (column by column: several times
    faster than a sum along rows of six)."""
    count = hits[:, 0].astype("int8")
    for column in hits.T[1:]:
        count += column
    return count


def _row_max(values: np.ndarray) -> np.ndarray:
    """(R,) the largest of each row's few columns, column by column."""
    import numpy as np

    largest = values[:, 0].copy()
    for column in values.T[1:]:
        np.maximum(largest, column, out=largest)
    return largest


Evaluate = Callable[[CardRows], "np.ndarray"]
SuitNeed = Callable[["np.ndarray"], "np.ndarray"]


@dataclass(frozen=True)
class CardField:
    """A card-level field: `values` allowed in a TOML condition (normalised by `parse`),
    `evaluate` gives each row's value, `coup` says whether it needs cards past the first
    four, `ranks` whether it tells the ten-valued ranks apart (rows by point value read
    every ten-valued card as a 10), `suits` which positions' suits it needs given the
    ranks (None: no suits) and `suit_names` how it reads them, `colour` whether it needs
    the hands' colours; `positions`,
    `counted` and `within` say what it reads, for the factored card-level evaluation
    (`analyzer.cards.factored`)."""

    name: str
    values: tuple[Any, ...]
    evaluate: Evaluate
    coup: bool = False
    ranks: bool = False
    suits: SuitNeed | None = None
    colour: bool = False
    parse: Callable[[Any], Any] | None = None
    #: The dealt positions it reads (None: the whole coup).
    positions: tuple[int, ...] | None = None
    #: For a count of cards: the card types it counts (indices of `analyzer.core.suits`).
    counted: frozenset[int] | None = None
    #: For a condition on every card of the coup: each value's indicator as signed terms
    #: (sign, types), a term meaning "every dealt card is one of these card types".
    within: Callable[[Any], tuple[tuple[int, frozenset[int]], ...]] | None = None
    #: How the suits it needs are read: by name, these suits (indices of SUITS), a needed
    #: position's suit mattering only as one of them or as none; None: only compared
    #: with one another (same suit or not), whatever the suits are.
    suit_names: frozenset[int] | None = None

    @property
    def needs_suits(self) -> bool:
        return self.suits is not None or self.colour

    @property
    def reads(self) -> tuple[str, ...]:
        """What the field reads of the cards (the vocabulary of `analyzer.core.bets.READS`):
        ranks (ten-valued ranks told apart), suits, colours, else their point values."""
        used = {"ranks": self.ranks, "suits": self.suits is not None, "colours": self.colour}
        kinds = [kind for kind, reads in used.items() if reads]
        return tuple(kinds) or ("values",)

    def allowed(self, value: Any, what: str) -> Any:
        """`value` normalised, or an AnalyzerError naming it and what is allowed."""
        try:
            normal = self.parse(value) if self.parse else value
        except AnalyzerError:
            normal = None
        if (
            normal is None
            or normal not in self.values
            or isinstance(normal, bool) != isinstance(self.values[0], bool)
        ):
            shown = ", ".join(str(v).lower() if isinstance(v, bool) else str(v) for v in self.values)
            if len(shown) > 120:
                shown = shown[:117] + "..."
            raise AnalyzerError(f"{what}.{self.name}: {quoted(value)} is not allowed; use {shown}")
        return normal


def _rank_value(value: Any) -> str | None:
    if not isinstance(value, (str, int)) or isinstance(value, bool):
        return None
    if str(value).strip().lower() == "none":
        return "none"
    return str(parse_rank(str(value)))


def _suit_value(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    return "none" if value.strip().lower() == "none" else str(parse_suit(value))


def _position_rank(i: int) -> CardField:
    def evaluate(rows: CardRows) -> np.ndarray:
        import numpy as np

        return np.where(rows.ranks[:, i] >= 0, rows.ranks[:, i], len(RANKS))

    return CardField(
        f"{POSITIONS[i]}_rank",
        (*map(str, RANKS), "none"),
        evaluate,
        coup=i >= 4,
        ranks=True,
        parse=_rank_value,
        positions=(i,),
    )


def _position_suit(i: int) -> CardField:
    def evaluate(rows: CardRows) -> np.ndarray:
        import numpy as np

        return np.where(rows.ranks[:, i] >= 0, rows.suits[:, i], len(SUITS))

    def need(ranks: np.ndarray) -> np.ndarray:
        import numpy as np

        mask = np.zeros(ranks.shape, dtype=bool)
        mask[:, i] = ranks[:, i] >= 0
        return mask

    return CardField(
        f"{POSITIONS[i]}_suit",
        (*map(str, SUITS), "none"),
        evaluate,
        coup=i >= 4,
        suits=need,
        suit_names=frozenset(range(len(SUITS))),
        parse=_suit_value,
        positions=(i,),
    )


_PAIR_NAMES = tuple(f"{RANKS[a]}-{RANKS[b]}" for a in range(13) for b in range(a, 13))


def _first_two_value(value: Any) -> str | None:
    if not isinstance(value, str) or value.count("-") != 1:
        return None
    a, b = sorted(RANKS.index(parse_rank(part)) for part in value.split("-"))
    return f"{RANKS[a]}-{RANKS[b]}"


def _hand_fields(hand: str, cols: tuple[int, ...]) -> list[CardField]:
    first, second = cols[0], cols[1]
    codes = {name: i for i, name in enumerate(_PAIR_NAMES)}
    table = [[codes[f"{RANKS[min(a, b)]}-{RANKS[max(a, b)]}"] for b in range(13)] for a in range(13)]

    def first_two(rows: CardRows) -> np.ndarray:
        import numpy as np

        return np.asarray(np.array(table)[rows.ranks[:, first], rows.ranks[:, second]])

    def suited(rows: CardRows) -> np.ndarray:
        import numpy as np

        return np.asarray(rows.suits[:, first] == rows.suits[:, second])

    def perfect(rows: CardRows) -> np.ndarray:
        import numpy as np

        same_rank = rows.ranks[:, first] == rows.ranks[:, second]
        return np.asarray(same_rank & (rows.suits[:, first] == rows.suits[:, second]))

    def both(ranks: np.ndarray) -> np.ndarray:
        import numpy as np

        mask = np.zeros(ranks.shape, dtype=bool)
        mask[:, [first, second]] = True
        return mask

    def if_pair(ranks: np.ndarray) -> np.ndarray:
        import numpy as np

        mask = np.zeros(ranks.shape, dtype=bool)
        mask[:, [first, second]] = (ranks[:, first] == ranks[:, second])[:, None]
        return mask

    def colour(rows: CardRows) -> np.ndarray:
        return rows.colours[:, 0 if hand == "player" else 1]

    def highest(rows: CardRows) -> np.ndarray:

        return _row_max(_points()[rows.ranks[:, list(cols)]])

    booleans, two = (False, True), (first, second)
    return [
        CardField(
            f"{hand}_first_two", _PAIR_NAMES, first_two, ranks=True, parse=_first_two_value, positions=two
        ),
        CardField(f"{hand}_suited", booleans, suited, suits=both, positions=two),
        CardField(f"{hand}_perfect_pair", booleans, perfect, ranks=True, suits=if_pair, positions=two),
        CardField(f"{hand}_colour", COLOUR_VALUES, colour, coup=True, colour=True),
        CardField(f"{hand}_highest", tuple(range(10)), highest, coup=True),
    ]


def _pairs_same_rank(rows: CardRows) -> np.ndarray:
    import numpy as np

    r = rows.ranks
    return np.asarray((r[:, 0] == r[:, 2]) & (r[:, 1] == r[:, 3]) & (r[:, 0] == r[:, 1]))


def _pairs_same_card(rows: CardRows) -> np.ndarray:
    import numpy as np

    s = rows.suits
    return np.asarray(
        _pairs_same_rank(rows) & (s[:, 0] == s[:, 1]) & (s[:, 0] == s[:, 2]) & (s[:, 0] == s[:, 3])
    )


def _four_if_same_rank(ranks: np.ndarray) -> np.ndarray:
    import numpy as np

    same = (ranks[:, 0] == ranks[:, 1]) & (ranks[:, 0] == ranks[:, 2]) & (ranks[:, 0] == ranks[:, 3])
    mask = np.zeros(ranks.shape, dtype=bool)
    mask[:, :4] = same[:, None]
    return mask


def _coup_colour(rows: CardRows) -> np.ndarray:
    import numpy as np

    p, b = rows.colours[:, 0], rows.colours[:, 1]
    return np.where((p == b) & (p < 2), p, 2)


def _highest(rows: CardRows) -> np.ndarray:

    return _row_max(_points()[rows.ranks])


_FIRST_FOUR = (0, 1, 2, 3)
_ALL_TYPES = frozenset(range(len(RANKS) * len(SUITS)))


def _types_where(keep: Callable[[int, int], bool]) -> frozenset[int]:
    """The card types (suit-major indices) whose (rank index, suit index) pass `keep`."""
    return frozenset(t for t in _ALL_TYPES if keep(t % len(RANKS), t // len(RANKS)))


def _colour_within(value: Any) -> tuple[tuple[int, frozenset[int]], ...]:
    """Coup colour: red or black, every card of that colour; mixed, neither."""
    red = _types_where(lambda rank, suit: SUITS[suit] in COLOURS["red"])
    black = _ALL_TYPES - red
    if value == "red":
        return ((1, red),)
    if value == "black":
        return ((1, black),)
    return ((1, _ALL_TYPES), (-1, red), (-1, black))


def _highest_within(value: Any) -> tuple[tuple[int, frozenset[int]], ...]:
    """Highest point value h: every card at most h, less every card at most h - 1."""

    def at_most(h: int) -> frozenset[int]:
        return _types_where(lambda rank, suit: RANK_POINTS[rank] <= h)

    return ((1, at_most(value)),) + (((-1, at_most(value - 1)),) if value else ())


_FIXED: dict[str, CardField] = {
    f.name: f
    for f in [
        *(_position_rank(i) for i in range(6)),
        *(_position_suit(i) for i in range(6)),
        *_hand_fields("player", PLAYER),
        *_hand_fields("banker", BANKER),
        CardField("pairs_same_rank", (False, True), _pairs_same_rank, ranks=True, positions=_FIRST_FOUR),
        CardField(
            "pairs_same_card",
            (False, True),
            _pairs_same_card,
            ranks=True,
            suits=_four_if_same_rank,
            positions=_FIRST_FOUR,
        ),
        CardField("colour", COLOUR_VALUES, _coup_colour, coup=True, colour=True, within=_colour_within),
        CardField("highest", tuple(range(10)), _highest, coup=True, within=_highest_within),
    ]
}

_COUNTS = {"count_first_four": 4, "count_coup": 6}


def _count_field(name: str, key: str) -> CardField:
    """Number of cards among the first four (or the whole coup) that are `key`: a rank
    ("9"), a suited card ("9D") or a point value ("value 0")."""
    width = _COUNTS[name]
    coup = width == 6

    def reads(kinds: frozenset[int]) -> dict[str, Any]:
        return {"counted": kinds, "positions": None if coup else tuple(range(width))}

    text = key.strip()
    if text.lower().startswith("value"):
        value = int(text[5:]) if text[5:].strip() in {str(v) for v in range(10)} else -1
        if not 0 <= value <= 9:
            raise AnalyzerError(f"{name}: {quoted(key)} is not a point value; use value 0 to value 9")

        def by_value(rows: CardRows) -> np.ndarray:

            return _row_count(_points()[rows.ranks[:, :width]] == value)

        kinds = _types_where(lambda rank, suit: RANK_POINTS[rank] == value)
        return CardField(f"{name}.{key}", tuple(range(width + 1)), by_value, coup=coup, **reads(kinds))
    rank, suit = parse_card(text)
    r = RANKS.index(rank)
    tens = RANK_POINTS[r] == 0  # tells a 10 from a king
    if suit is None:

        def by_rank(rows: CardRows) -> np.ndarray:

            return _row_count(rows.ranks[:, :width] == r)

        kinds = _types_where(lambda rank, suit: rank == r)
        return CardField(
            f"{name}.{key}", tuple(range(width + 1)), by_rank, coup=coup, ranks=tens, **reads(kinds)
        )
    s = SUITS.index(suit)

    def by_card(rows: CardRows) -> np.ndarray:

        return _row_count((rows.ranks[:, :width] == r) & (rows.suits[:, :width] == s))

    def need(ranks: np.ndarray) -> np.ndarray:
        import numpy as np

        mask = np.zeros(ranks.shape, dtype=bool)
        mask[:, :width] = ranks[:, :width] == r
        return mask

    kinds = _types_where(lambda rank, suit: rank == r and suit == s)
    return CardField(
        f"{name}.{key}",
        tuple(range(width + 1)),
        by_card,
        coup=coup,
        ranks=tens,
        suits=need,
        suit_names=frozenset({s}),
        **reads(kinds),
    )


def card_field(name: str) -> CardField | None:
    """The card-level field called `name` (e.g. p1_suit, count_first_four.9D), or None."""
    if name in _FIXED:
        return _FIXED[name]
    head, _, key = name.partition(".")
    if head in _COUNTS and key:
        return _count_field(head, key)
    return None


def card_field_names() -> tuple[str, ...]:
    """Names of the card-level fields (the counts shown with their parameter)."""
    return (*_FIXED, *(f"{head}.CARD" for head in _COUNTS))
