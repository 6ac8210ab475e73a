"""Edge sorting through a shoe (`baccarat track --sort`, `baccarat count --sort`): before each
coup the class of the cards at the known positions (in the sorted class or not) is known,
from the record or as dealt, and the coup is valued exactly on the cards left given that
knowledge (`analyzer.analyses.known`): the bet of highest expectation in that state, or none
when no bet's is positive. The cards at the known positions are the next cards off the shoe
from the coup's first, used by the coup or not (positions 5 and 6 may be the next coup's).

A coup is valued only with at least six cards left. The win per shoe sums the best bets'
exact expectations (`expected`) and their results on the coups dealt (`won`), one unit a bet.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from analyzer.analyses.known import OTHER, SORTED, Sort, checked, known_cards
from analyzer.core.bets import Bet
from analyzer.core.errors import AnalyzerError, mention
from analyzer.core.outcome import CARDS_PER_COUP, Outcome
from analyzer.core.rules import Rules
from analyzer.core.shoe import Shoe
from analyzer.counting.record import Entry, Mark, RecordCard, undone

if TYPE_CHECKING:  # the dealer (numpy) loads only when a shoe is dealt
    from analyzer.counting.simulation import Procedure

__all__ = [
    "SortCountResult",
    "SortStudy",
    "SortTrackResult",
    "SortedCoup",
    "SortedShoe",
    "sort_count_result",
    "sort_study",
    "sort_track_result",
    "sorted_record",
    "sorted_shoe",
]


@dataclass(frozen=True)
class SortedCoup:
    """One coup: its number (from 1), the cards left before it, the class known at each
    position, the best bet (None: sat out), its exact expectation and its net result (both
    0 when sat out)."""

    index: int
    cards_left: int
    known: tuple[str, ...]
    best: str | None
    expectation: Fraction
    won: Fraction


@dataclass(frozen=True)
class SortedShoe:
    """A shoe's coups valued with the sort; `expected` and `won` summed over the coups bet."""

    coups: tuple[SortedCoup, ...]

    @property
    def coups_bet(self) -> int:
        return sum(1 for coup in self.coups if coup.best is not None)

    @property
    def expected(self) -> Fraction:
        return sum((coup.expectation for coup in self.coups), Fraction(0))

    @property
    def won(self) -> Fraction:
        return sum((coup.won for coup in self.coups), Fraction(0))


def sorted_shoe(
    cards: Sequence[int],
    starts: Sequence[int],
    outcomes: Sequence[Outcome],
    shoe: Shoe,
    rules: Rules,
    bets: Sequence[Bet],
    positions: Sequence[int],
    sort: Sort,
) -> SortedShoe:
    """The coups starting at `starts` in the card sequence `cards` (rank indexes, as they
    left the shoe, burned cards included), each with its `outcome`, dealt from `shoe`."""
    positions, chosen = checked("sorted_shoe()", shoe, positions, bets, rules)
    if sort.types is not None:
        raise AnalyzerError(
            f"{mention('sort')} {sort}: through a shoe, sort point values or ranks, not suits or colours"
        )
    if shoe.counts is None:
        raise AnalyzerError(f"edge sorting through a shoe needs a finite shoe: use {mention('decks', 'N')}")
    left, taken = list(shoe.counts), 0
    coups = []
    for number, (start, outcome) in enumerate(zip(starts, outcomes, strict=True), start=1):
        for rank in cards[taken:start]:
            left[rank] -= 1
        taken = start
        if sum(left) < CARDS_PER_COUP or start + max(positions) > len(cards):
            break
        known = tuple(SORTED if cards[start + p - 1] in sort.ranks else OTHER for p in positions)
        result = known_cards(Shoe.from_counts(left), positions, chosen, rules, sort)
        state = next(s for s in result.states if tuple(k for _, k in s.known) == known)
        best, expectation, won = state.best, Fraction(0), Fraction(0)
        if best is not None:
            i = [bet.name for bet in chosen].index(best)
            expectation = state.expectations[i]
            won = chosen[i].settle(outcome) or Fraction(0)
        coups.append(SortedCoup(number, sum(left), known, best, expectation, won))
    return SortedShoe(tuple(coups))


def sorted_record(
    entries: Sequence[Entry],
    shoe: Shoe,
    rules: Rules,
    bets: Sequence[Bet],
    positions: Sequence[int],
    sort: Sort,
) -> SortedShoe:
    """A record (`analyzer.counting.record`) dealt by the tableau, each coup valued with the
    sort; an incomplete last coup is not valued."""
    from analyzer.counting.simulation import deal_coup

    cards: list[int] = []
    starts: list[int] = []
    outcomes: list[Outcome] = []
    pending: list[int] = []
    for entry in undone(entries):
        if isinstance(entry, Mark):
            continue
        assert isinstance(entry, RecordCard)
        cards.append(entry.rank)
        if entry.burned:
            continue
        if not pending:
            starts.append(len(cards) - 1)
        pending.append(entry.rank)
        outcome, used = deal_coup(pending + [0] * (CARDS_PER_COUP - len(pending)), 0, rules)
        if used == len(pending):
            outcomes.append(outcome)
            pending = []
    return sorted_shoe(cards, starts[: len(outcomes)], outcomes, shoe, rules, bets, positions, sort)


@dataclass(frozen=True)
class SortStudy:
    """Edge sorting over simulated shoes: each shoe's coups bet, expected and realized win."""

    procedure: Procedure
    positions: tuple[int, ...]
    sort: Sort
    bets: tuple[Bet, ...]
    shoes: tuple[SortedShoe, ...]

    @property
    def expected_per_shoe(self) -> Fraction:
        return sum((s.expected for s in self.shoes), Fraction(0)) / len(self.shoes)

    @property
    def won_per_shoe(self) -> tuple[float, float]:
        """The mean realized win per shoe and its standard error."""
        wins = [float(s.won) for s in self.shoes]
        mean = sum(wins) / len(wins)
        var = sum((w - mean) ** 2 for w in wins) / (len(wins) - 1) if len(wins) > 1 else 0.0
        return mean, math.sqrt(var / len(wins))


def sort_study(
    procedure: Procedure,
    rules: Rules,
    bets: Sequence[Bet],
    positions: Sequence[int],
    sort: Sort,
    shoes: int,
    seed: int = 1,
) -> SortStudy:
    """`shoes` shoes shuffled and dealt by `procedure` (as `baccarat count` deals them),
    every coup valued with the sort."""
    from analyzer.counting.simulation import shuffled

    if isinstance(shoes, bool) or not isinstance(shoes, int) or not 1 <= shoes <= 10**6:
        raise AnalyzerError(f"{mention('shoes')} {shoes!r}: use a whole number of shoes from 1 to 1,000,000")
    found = []
    for index in range(shoes):
        cards = shuffled(procedure, seed, index)
        starts, outcomes = _coups(cards, procedure, rules)
        found.append(sorted_shoe(cards, starts, outcomes, procedure.shoe, rules, bets, positions, sort))
    return SortStudy(procedure, tuple(sorted(positions)), sort, tuple(bets), tuple(found))


def _coups(cards: Sequence[int], procedure: Procedure, rules: Rules) -> tuple[list[int], list[Outcome]]:
    """Where each coup of a shuffled shoe starts, and its outcome, by the casino procedure
    (`analyzer.counting.simulation.deal_cards`)."""
    from analyzer.core.ranks import RANK_POINTS
    from analyzer.counting.simulation import deal_coup

    pos = 1 + (RANK_POINTS[cards[0]] or 10) if procedure.burn else 0
    stop = len(cards) - procedure.cut_card
    starts, outcomes, last = [], [], False
    while len(cards) - pos >= CARDS_PER_COUP:
        outcome, used = deal_coup(cards, pos, rules)
        starts.append(pos)
        outcomes.append(outcome)
        cut_out = pos + used > stop
        pos += used
        if last or (cut_out and not procedure.extra_coup):
            break
        last = cut_out
    return starts, outcomes


@dataclass(frozen=True)
class SortTrackResult:
    """`baccarat track --sort`: the record `record` replayed with the sort at `positions`."""

    shoe: Shoe
    rules: Rules
    bets: tuple[Bet, ...]
    positions: tuple[int, ...]
    sort: Sort
    record: str
    replay: SortedShoe


@dataclass(frozen=True)
class SortCountResult:
    """`baccarat count --sort`: the study of edge sorting over simulated shoes."""

    shoe: Shoe
    rules: Rules
    study: SortStudy
    seed: int


def sort_track_result(
    shoe: Shoe,
    rules: Rules | None,
    bets: Sequence[str] | None,
    table: str | None,
    record: str,
    positions: str,
    sort: str,
) -> SortTrackResult:
    """The record file `record` replayed with the sort (bets default Player and Banker)."""
    from analyzer.analyses.known import known_bets, parse_positions, parse_sort
    from analyzer.counting.record import read_record

    chosen = known_bets(shoe, rules, bets, table)
    where, kind = parse_positions(positions), parse_sort(sort)
    replayed = sorted_record(read_record(record), shoe, chosen.rules, chosen.bets, where, kind)
    return SortTrackResult(shoe, chosen.rules, chosen.bets, where, kind, record, replayed)


def sort_count_result(
    procedure: Procedure,
    rules: Rules | None,
    bets: Sequence[str] | None,
    positions: str,
    sort: str,
    shoes: int,
    seed: int,
) -> SortCountResult:
    """`shoes` simulated shoes, each coup valued with the sort (bets default Player and Banker)."""
    from analyzer.analyses.known import known_bets, parse_positions, parse_sort

    chosen = known_bets(procedure.shoe, rules, bets, None)
    where, kind = parse_positions(positions), parse_sort(sort)
    study = sort_study(procedure, chosen.rules, chosen.bets, where, kind, shoes, seed)
    return SortCountResult(procedure.shoe, chosen.rules, study, seed)
