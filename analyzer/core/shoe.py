"""Immutable shoe compositions: decks, explicit per-rank counts, removals, infinite deck."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from analyzer.core.checks import check_list, check_type
from analyzer.core.errors import AnalyzerError, mention, quoted
from analyzer.core.parsing import list_items, read_int
from analyzer.core.ranks import RANK_POINTS, RANKS, Rank
from analyzer.core.suits import SUITS, TYPES, Suit, card_name, parse_card

__all__ = [
    "BY_CARDS",
    "BY_COUNTS",
    "BY_DECKS",
    "BY_N_DECKS",
    "INFINITE",
    "MIN_CARDS",
    "SUITS_REMEDY",
    "Shoe",
    "parse_cards",
    "parse_counts",
    "parse_decks",
    "suits_remedy",
]

#: A coup can use six cards, so a shoe must hold at least six.
MIN_CARDS = 6
#: The largest shoe accepted, in decks (exact arithmetic works beyond, but nothing is gained).
MAX_DECKS = 10**6

#: The ways to give a shoe, as a message points to them (`mention`): the library's
#: constructors, the CLI's --decks N, --decks, --counts, --cards and --decks inf.
BY_N_DECKS = mention("decks", "N", "Shoe.decks(N)")
BY_DECKS = mention("decks", words="Shoe.decks")
BY_COUNTS = mention("counts", words="Shoe.from_counts")
BY_CARDS = mention("cards", words="Shoe.from_cards")
INFINITE = mention("decks", "inf", "Shoe.infinite()")
_SUITED_REMOVE = mention("remove", "5H", 'Shoe.remove(["5H"])')
#: What makes a shoe's suits known, for a bet that reads them: full decks or cards, less
#: cards named with their suits (a rank removed alone leaves the suits unknown).
SUITS_REMEDY = (
    f"give the shoe with {BY_DECKS} or {BY_CARDS}, removing cards with their suits ({_SUITED_REMOVE}, not 5)"
)


def suits_remedy(shoe: Shoe) -> str:
    """`SUITS_REMEDY`, or for the infinite deck what this path needs: a finite shoe."""
    return f"give a finite shoe, {BY_N_DECKS} or {BY_CARDS}" if shoe.is_infinite else SUITS_REMEDY


@dataclass(frozen=True)
class Shoe:
    """A shoe composition: 13 per-rank counts (rank order A..K), or `None` for infinite.

    The infinite-deck limit gives every rank probability exactly 1/13 on every draw (and
    every card type 1/52). `types` holds the 52 per-card-type counts when the suits are
    known (`decks`, `from_cards`; order of `analyzer.core.suits`), else None. `label` is for
    display only; neither takes part in equality, which compares the rank counts. Full decks
    given by counts are labelled as decks.

    >>> from analyzer import Shoe
    >>> eight = Shoe.decks(8)
    >>> eight.size, eight.counts[0], Shoe.from_counts([4] * 13) == Shoe.decks(1)
    (416, 32, True)
    >>> less = eight.remove(["K", "KH", "5"])  # an unsuited "K" leaves the suits unknown
    >>> less.size, less.counts[4], less.counts[12], less.types is None
    (413, 31, 30, True)
    >>> Shoe.infinite().rank_probabilities()[0]
    Fraction(1, 13)
    >>> print(Shoe.from_counts([4] * 13), Shoe.from_cards([2] * 52), Shoe.from_counts([4] * 12 + [3]))
    1 deck 2 decks counts 4,4,4,4,4,4,4,4,4,4,4,4,3
    """

    counts: tuple[int, ...] | None
    label: str = field(default="", compare=False)
    types: tuple[int, ...] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        check_type("Shoe()", "label", self.label, str, "a str")
        for argument, value, maker in (("counts", self.counts, "counts"), ("types", self.types, "cards")):
            allowed = f"a tuple of integers or None (or use Shoe.from_{maker}, Shoe.decks)"
            check_type("Shoe()", argument, value, (tuple, type(None)), allowed)
        if self.counts is None:
            return
        if self.types is not None:
            per_rank = tuple(sum(self.types[s * 13 + r] for s in range(len(SUITS))) for r in range(13))
            if per_rank != self.counts:
                raise AnalyzerError("card-type counts do not add up to the rank counts")
        if len(self.counts) != len(RANKS):
            raise AnalyzerError(f"{len(self.counts)} counts given: give 13, in rank order {','.join(RANKS)}")
        for rank, count in zip(RANKS, self.counts, strict=True):
            if isinstance(count, bool) or not isinstance(count, int):
                raise AnalyzerError(f"count {quoted(count)} for rank {rank}: counts must be integers >= 0")
            if count < 0:
                raise AnalyzerError(f"count {count} for rank {rank}: counts must be integers >= 0")
        if sum(self.counts) > 52 * MAX_DECKS:
            raise AnalyzerError(f"shoe of {sum(self.counts):,} cards: use at most {52 * MAX_DECKS:,} cards")
        if sum(self.counts) < MIN_CARDS:
            raise AnalyzerError(f"shoe of {sum(self.counts)} cards: a coup needs at least {MIN_CARDS} cards")

    # -- constructors ---------------------------------------------------------------

    @classmethod
    def decks(cls, n: int) -> Shoe:
        """`n` full 52-card decks (any positive integer)."""
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_DECKS:
            raise AnalyzerError(f"decks {quoted(n)}: use a positive integer up to {MAX_DECKS:,}, or inf")
        return cls((4 * n,) * len(RANKS), label=f"{n} deck{'s' if n > 1 else ''}", types=(n,) * TYPES)

    @classmethod
    def from_counts(cls, counts: Sequence[int], label: str = "") -> Shoe:
        """Explicit counts in rank order A, 2, ..., 9, 10, J, Q, K."""
        counts = _integers("Shoe.from_counts()", "counts", counts, "13 integers in rank order A..K")
        check_type("Shoe.from_counts()", "label", label, str, "a str")
        return cls(counts, label=label or _decks_label(counts, 4) or "counts " + ",".join(map(str, counts)))

    @classmethod
    def from_cards(cls, types: Sequence[int], label: str = "") -> Shoe:
        """Explicit counts of the 52 card types: spades A, 2, ..., 10, J, Q, K, then hearts,
        diamonds and clubs in the same order."""
        types = _integers("Shoe.from_cards()", "types", types, "52 integers, spades A..K then H, D, C")
        check_type("Shoe.from_cards()", "label", label, str, "a str")
        if len(types) != TYPES:
            raise AnalyzerError(
                f"{len(types)} card counts given: give 52, spades A..K then hearts, diamonds, clubs"
            )
        for i, count in enumerate(types):
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise AnalyzerError(
                    f"count {quoted(count)} for card {card_name(i)}: counts must be integers >= 0"
                )
        counts = tuple(sum(types[s * 13 + r] for s in range(len(SUITS))) for r in range(13))
        label = label or _decks_label(types, 1) or "cards " + ",".join(map(str, types))
        return cls(counts, label=label, types=types)

    @classmethod
    def infinite(cls) -> Shoe:
        """The infinite-deck limit: every rank has probability 1/13 on every draw."""
        return cls(None, label="infinite deck")

    def remove(self, ranks: Iterable[Rank | str | tuple[Rank, Suit | None]]) -> Shoe:
        """This shoe with the named cards taken out (one card per item): a rank ("K") or a
        suited card ("KH", or a (rank, suit) pair). Removing a card whose suit is not given
        leaves the suits of the shoe unknown. A string is one card or a comma-separated list
        ("10", "5,5,K"), never its characters."""
        if isinstance(ranks, str):
            ranks = ranks.split(",")
        taken = [_card(item) for item in ranks]
        if not taken:
            return self
        if self.counts is None:
            raise AnalyzerError(
                f"cannot remove cards from the infinite deck: use {BY_N_DECKS} or {BY_COUNTS}",
                argument="remove",
            )
        for rank, suit in taken:
            if suit is not None and self.types is None:
                raise AnalyzerError(
                    f"cannot remove {rank}{suit}: the suits of the shoe ({self}) are not known; "
                    f"remove a rank such as {rank}, or give the shoe with {BY_DECKS} or {BY_CARDS}",
                    argument="remove",
                )
        counts = list(self.counts)
        types = None if self.types is None else list(self.types)
        for rank, suit in taken:
            i = RANKS.index(rank)
            if suit is not None and types is not None:
                t = SUITS.index(suit) * 13 + i
                if types[t] == 0:
                    raise AnalyzerError(f"cannot remove {rank}{suit}: the shoe has no {rank}{suit} left")
                types[t] -= 1
            elif suit is None:
                types = None
            if counts[i] == 0:
                raise AnalyzerError(f"cannot remove {rank}: the shoe has no {rank} left")
            counts[i] -= 1
        names = ",".join(f"{rank}{suit or ''}" for rank, suit in taken)
        suited = None if types is None else tuple(types)
        return Shoe(tuple(counts), label=f"{self.label} less {names}", types=suited)

    # -- queries --------------------------------------------------------------------

    @property
    def is_infinite(self) -> bool:
        return self.counts is None

    @property
    def size(self) -> int:
        """Number of cards (finite shoes only)."""
        if self.counts is None:
            raise AnalyzerError("the infinite deck has no size")
        return sum(self.counts)

    def value_counts(self) -> tuple[int, ...]:
        """Number of cards of each point value 0..9 (finite shoes only)."""
        if self.counts is None:
            raise AnalyzerError("the infinite deck has no counts")
        totals = [0] * 10
        for points, count in zip(RANK_POINTS, self.counts, strict=True):
            totals[points] += count
        return tuple(totals)

    def rank_probabilities(self) -> tuple[Fraction, ...]:
        """Probability of each rank on the next draw, exact."""
        if self.counts is None:
            return (Fraction(1, 13),) * len(RANKS)
        n = self.size
        return tuple(Fraction(c, n) for c in self.counts)

    def __str__(self) -> str:
        return self.label or ("infinite deck" if self.counts is None else ",".join(map(str, self.counts)))


def _integers(where: str, argument: str, value: Any, allowed: str) -> tuple[Any, ...]:
    """`value` as a tuple, when it is list-like (its items are checked later)."""
    check_list(where, argument, value, f"a list of {allowed}")
    return tuple(value)


def _decks_label(counts: tuple[int, ...], per_deck: int) -> str:
    """ "N decks" when `counts` (each rank, or each card type) are N full decks, else ""."""
    first = counts[0] if counts else 0
    if isinstance(first, bool) or not isinstance(first, int) or first <= 0 or first % per_deck:
        return ""
    if any(count != first for count in counts):
        return ""
    n = first // per_deck
    return f"{n} deck{'s' if n > 1 else ''}"


def _card(item: Rank | str | tuple[Rank, Suit | None]) -> tuple[Rank, Suit | None]:
    if isinstance(item, tuple):
        return item
    if isinstance(item, Rank):
        return item, None
    return parse_card(item)


def parse_cards(text: str) -> Shoe:
    """A shoe from a --cards argument: 52 comma-separated integers (spades A..K, hearts,
    diamonds, clubs)."""
    items = list_items(text, mention("cards"), "52 counts 1,1,...,1")
    if len(items) != TYPES:
        raise AnalyzerError(
            f"{mention('cards')} has {len(items)} entries: give 52 integers, "
            "spades A..K then hearts, diamonds, clubs"
        )
    types = []
    for i, item in enumerate(items):
        count = read_int(item, f"count for card {card_name(i)}:", 52 * MAX_DECKS)
        if count is None:
            raise AnalyzerError(f"count {quoted(item)} for card {card_name(i)}: use integers >= 0")
        types.append(count)
    return Shoe.from_cards(types, label="cards " + ",".join(map(str, types)))  # as given, decks or not


def parse_decks(text: str) -> Shoe:
    """A shoe from a --decks argument: a positive integer, or 'inf'."""
    key = text.strip().lower()
    if key in {"inf", "infinite", "infinity"}:
        return Shoe.infinite()
    n = read_int(key, "decks", MAX_DECKS)
    if n is None:
        raise AnalyzerError(f"decks {quoted(text)}: use a positive integer or inf")
    return Shoe.decks(n)


def parse_counts(text: str) -> Shoe:
    """A shoe from a --counts argument: 13 comma-separated integers in rank order."""
    items = list_items(text, mention("counts"), "13 counts 4,4,...,4")
    if len(items) != len(RANKS):
        raise AnalyzerError(
            f"counts {quoted(text)} has {len(items)} entries: "
            f"give 13 integers in rank order {','.join(RANKS)}"
        )
    counts = []
    for rank, item in zip(RANKS, items, strict=True):
        count = read_int(item, f"count for rank {rank}:", 52 * MAX_DECKS)
        if count is None:
            raise AnalyzerError(f"count {quoted(item)} for rank {rank}: counts must be integers >= 0")
        counts.append(count)
    return Shoe.from_counts(counts, label="counts " + ",".join(map(str, counts)))  # as given
