"""Recorded shoes replayed coup by coup, with the exact value of every bet before every coup.

The tracker deals the coups from the record's sequence by the tableau (the dealer's
`deal_coup`, so a record needs no hand markers) and takes every recorded card out of the
shoe, burned cards included. Before each coup, on the cards left: the exact expectation of
every bet (`Valuer`: `analyzer.ranks.fast.FastEvaluator` for rank-level bets,
`analyzer.cards.batch.CardEvaluator` for card-level ones, each composition valued once),
each counting system's running count, true count and trigger (on every recorded card), and
with a bankroll the Kelly stake of each bet whose expectation is positive. A coup is valued
only with at least six cards left (fewer cannot be valued by the six-card enumeration).

Kelly stakes (`Sizing`): kelly * bankroll * E / Var for the coup's exact expectation E and
variance Var of one unit staked, rounded down to whole units, raised to the table minimum,
cut to the maximum and to the bankroll not yet staked on that coup (bets in their order);
below the minimum no bet. Each bet is sized on its own (no joint Kelly over bets).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from math import floor, perm

import numpy as np

from analyzer.core.analysis import analysis_from_weights
from analyzer.core.bets import Bet, check_card_bets
from analyzer.core.errors import AnalyzerError, mention, quoted
from analyzer.core.outcome import CARDS_PER_COUP, Outcome
from analyzer.core.ranks import RANKS
from analyzer.core.rules import STANDARD, Rules
from analyzer.core.shoe import BY_CARDS, BY_COUNTS, BY_N_DECKS, Shoe
from analyzer.counting.record import Entry, Mark, RecordCard, undone
from analyzer.counting.simulation import deal_coup
from analyzer.counting.systems import CountSystem, Trigger
from analyzer.ranks.fast import FastEvaluator, expectations_by_bet

__all__ = [
    "Composition",
    "Position",
    "Replay",
    "Sizing",
    "SystemCount",
    "Tally",
    "TrackSummary",
    "TrackedCoup",
    "Valuer",
    "replay",
]


@dataclass(frozen=True)
class Composition:
    """The shoe at one moment: 13 rank counts, the 52 card-type counts (None once a card's
    suit is not known) and the cards of each rank seen so far."""

    counts: tuple[int, ...]
    types: tuple[int, ...] | None
    seen: tuple[int, ...]

    @property
    def size(self) -> int:
        return sum(self.counts)

    def shoe(self) -> Shoe:
        """The composition as a Shoe (suited when the suits are known)."""
        return Shoe.from_counts(self.counts) if self.types is None else Shoe.from_cards(self.types)


@dataclass(frozen=True)
class Sizing:
    """Kelly sizing: a bankroll in units (exact), the Kelly multiplier, the table's minimum
    and maximum bets in whole units (no maximum: None)."""

    bankroll: Fraction
    kelly: Fraction = Fraction(1, 2)
    min_bet: int = 1
    max_bet: int | None = None

    def __post_init__(self) -> None:
        if not self.bankroll > 0:
            raise AnalyzerError(
                f"bankroll ({_field('bankroll')}) {self.bankroll}: use a positive number of units",
                argument="bankroll",
            )
        if not 0 < self.kelly <= 1:
            raise AnalyzerError(
                f"Kelly fraction ({_field('kelly')}) {self.kelly}: use a fraction above 0, at most 1",
                argument="kelly",
            )
        if self.min_bet < 1:
            raise AnalyzerError(
                f"minimum bet ({_field('min_bet')}) {self.min_bet}: use a whole number of units, at least 1",
                argument="min_bet",
            )
        if self.min_bet > self.bankroll:
            raise AnalyzerError(
                f"minimum bet ({_field('min_bet')}) {self.min_bet} is above the bankroll "
                f"({_field('bankroll')}) of {self.bankroll} units: no bet could be placed; give a "
                f"bankroll of at least {self.min_bet} units or a smaller minimum",
                argument="min_bet",
            )
        if self.max_bet is not None and self.max_bet < self.min_bet:
            raise AnalyzerError(
                f"maximum bet ({_field('max_bet')}) {self.max_bet}: "
                f"use at least the minimum bet ({self.min_bet})",
                argument="max_bet",
            )

    def stake(self, bankroll: Fraction, expectation: Fraction, variance: Fraction, free: Fraction) -> int:
        """Whole units staked on a bet of positive `expectation` and `variance` per unit,
        with `bankroll` and `free` units not yet staked on the coup (see the module)."""
        top = free if self.max_bet is None else min(free, Fraction(self.max_bet))
        wanted = floor(top) if variance == 0 else floor(self.kelly * bankroll * expectation / variance)
        units = min(max(wanted, self.min_bet), floor(top))
        return units if units >= self.min_bet else 0


def _field(name: str) -> str:
    """A field of Sizing named in a message: `Sizing.name` to the library, the CLI's flag."""
    return mention(name, words=f"Sizing.{name}")


class Valuer:
    """Exact expectation (and variance) of `bets` on compositions, each composition valued
    once: rank-level bets by a FastEvaluator, card-level bets by a CardEvaluator."""

    def __init__(self, bets: Sequence[Bet], rules: Rules = STANDARD) -> None:
        self.bets = tuple(bets)
        self.rules = rules
        self.ranked = tuple(bet for bet in self.bets if not bet.card_level)
        self.carded = tuple(bet for bet in self.bets if bet.card_level)
        #: Names of the bets that read suits (they need every card's suit).
        self.suits = tuple(bet.name for bet in self.bets if bet.needs_suits)
        self._ranks = FastEvaluator(self.ranked, rules) if self.ranked else None
        self._cards = None
        if self.carded:  # the card engine (and networkx) load only for card-level bets
            from analyzer.cards.batch import card_evaluator

            self._cards = card_evaluator(self.carded, rules)
        self._values: dict[tuple[object, ...], dict[str, Fraction]] = {}
        self._moments: dict[tuple[object, ...], dict[str, tuple[Fraction, Fraction]]] = {}
        self._weights: dict[tuple[str, tuple[object, ...]], np.ndarray] = {}

    def _key(self, composition: Composition) -> tuple[object, ...]:
        return (composition.counts, composition.types if self.suits else None)

    def _rows(self, compositions: Sequence[Composition]) -> np.ndarray:
        """The card evaluator's input: 52 card types when a bet reads suits, else 13 ranks."""
        if self.suits:
            return np.array([c.types for c in compositions], dtype=np.int64)
        return np.array([c.counts for c in compositions], dtype=np.int64)

    def expectations(self, compositions: Sequence[Composition]) -> list[dict[str, Fraction]]:
        """Each bet's exact expectation per unit on each composition, by bet name in bet
        order (empty for a composition of fewer than six cards)."""
        fresh: dict[tuple[object, ...], Composition] = {}
        for c in compositions:
            if c.size >= CARDS_PER_COUP and self._key(c) not in self._values:
                fresh.setdefault(self._key(c), c)
        found: dict[tuple[object, ...], dict[str, Fraction]] = {key: {} for key in fresh}
        chosen = list(fresh.values())
        if self._ranks is not None and chosen:
            counts = np.array([c.counts for c in chosen], dtype=np.int64)
            priced = self._ranks.expectations(counts)
            _into(found, expectations_by_bet(self.ranked, self._ranks.denominators, *priced))
        if self._cards is not None and chosen:
            rows = self._rows(chosen)
            priced = self._cards.expectations(rows)
            _into(found, expectations_by_bet(self.carded, self._cards.denominators, *priced))
        for key, values in found.items():
            self._values[key] = {bet.name: values[bet.name] for bet in self.bets}
        return [self._values.get(self._key(c), {}) for c in compositions]

    def moments(self, composition: Composition, bet: Bet) -> tuple[Fraction, Fraction]:
        """(expectation, variance) of one unit on `bet` on `composition`, exact, from the
        same evaluators' weights (atoms or lines) and the bet's net results."""
        key = self._key(composition)
        cached = self._moments.setdefault(key, {})
        if bet.name not in cached:
            total = perm(composition.size, CARDS_PER_COUP)
            analysis = analysis_from_weights(bet, self._line_weights(composition, bet), total, finite=True)
            cached[bet.name] = (analysis.expectation, analysis.variance)
        return cached[bet.name]

    def _line_weights(self, composition: Composition, bet: Bet) -> list[int]:
        """`bet`'s line weights on `composition` (last: no line matched), from one weighing
        of the composition per evaluator, whichever bets ask."""
        key = self._key(composition)
        if bet.card_level:
            assert self._cards is not None
            if ("cards", key) not in self._weights:
                self._weights["cards", key] = self._cards.line_weights(self._rows([composition]))[0][0]
            row = self._weights["cards", key]
            return [int(row[s]) for s in self._cards.slots[self.carded.index(bet)]]
        assert self._ranks is not None
        if ("ranks", key) not in self._weights:
            counts = np.array([composition.counts], dtype=np.int64)
            self._weights["ranks", key] = self._ranks.atom_weights(counts)[0]
        j, lines = self.ranked.index(bet), [0] * (len(bet.lines) + 1)
        for w, atom in zip(self._weights["ranks", key], self._ranks.atoms, strict=True):
            lines[atom[j]] += int(w)
        return lines

    def results(self, coups: Sequence[tuple[tuple[RecordCard, ...], Outcome]]) -> list[dict[str, Fraction]]:
        """Each bet's net result per unit on each dealt coup (its cards in dealing order)."""
        found: list[dict[str, Fraction]] = [{} for _ in coups]
        if self.carded and coups:
            from analyzer.cards.engine import settle_cards

            ranks = np.full((len(coups), CARDS_PER_COUP), -1, dtype=np.int64)
            suits = np.full((len(coups), CARDS_PER_COUP), -1, dtype=np.int64)
            for i, (cards, outcome) in enumerate(coups):
                for card, slot in zip(cards, _slots(outcome), strict=False):
                    ranks[i, slot], suits[i, slot] = card.rank, 0 if card.suit is None else card.suit
            which = np.arange(len(coups))
            outcomes = [outcome for _, outcome in coups]
            for bet in self.carded:
                for i, line in enumerate(settle_cards(bet, ranks, suits, outcomes, which).tolist()):
                    found[i][bet.name] = bet.net(line)
        for i, (_, outcome) in enumerate(coups):
            for bet in self.ranked:
                found[i][bet.name] = bet.net(bet.line_index(outcome))
        return [{bet.name: values[bet.name] for bet in self.bets} for values in found]


def _into(found: dict[tuple[object, ...], dict[str, Fraction]], rows: list[dict[str, Fraction]]) -> None:
    """Each row's expectations by bet name into `found` (the rows in the order of its keys)."""
    for values, row in zip(found.values(), rows, strict=True):
        values.update(row)


def _slots(outcome: Outcome) -> list[int]:
    """The dealing slots p1 b1 p2 b2 p3 b3 (0..5) of a coup's cards in the order dealt."""
    thirds = ([4] if outcome.player_cards == 3 else []) + ([5] if outcome.banker_cards == 3 else [])
    return [0, 1, 2, 3, *thirds]


@dataclass(frozen=True)
class SystemCount:
    """A system's running count, true count (per deck left, as the system reckons decks)
    and whether it bets the next coup."""

    running: int
    true: Fraction
    fires: bool


@dataclass(frozen=True)
class Position:
    """What is known before a coup: cards left, each bet's exact expectation per unit (empty
    with fewer than six cards left), each system's count, the Kelly stakes in units (with a
    bankroll) and the bankroll (None without one)."""

    cards_left: int
    expectations: dict[str, Fraction]
    counts: dict[str, SystemCount]
    stakes: dict[str, int]
    bankroll: Fraction | None

    @property
    def positive(self) -> list[str]:
        """The bets whose expectation is positive, in bet order."""
        return [name for name, value in self.expectations.items() if value > 0]


@dataclass(frozen=True)
class TrackedCoup:
    """One dealt coup: its number (from 1), the cards of each hand as recorded, its
    outcome, whether the cut card came out during it, each bet's net result per unit, and
    the position before the next coup."""

    index: int
    player: tuple[str, ...]
    banker: tuple[str, ...]
    outcome: Outcome
    cut: bool
    results: dict[str, Fraction]
    after: Position


@dataclass(frozen=True)
class Tally:
    """Coups bet, the sum of their exact expectations and the units won on them, one unit each."""

    coups: int = 0
    expectation: Fraction = Fraction(0)
    won: Fraction = Fraction(0)

    def add(self, expectation: Fraction, won: Fraction) -> Tally:
        return Tally(self.coups + 1, self.expectation + expectation, self.won + won)


@dataclass(frozen=True)
class TrackSummary:
    """A replay's summary: coups dealt, the cards of an incomplete last coup, for each bet
    its coups of positive expectation (`bets`), for each system the coups its trigger bet
    (`systems`), betting every positive coup of every bet (`perfect`), and the bankroll
    before the first coup and after each coup (empty without a bankroll)."""

    coups: int
    incomplete: tuple[str, ...]
    bets: dict[str, Tally]
    systems: dict[str, Tally]
    perfect: Tally
    bankroll: tuple[Fraction, ...]


@dataclass(frozen=True)
class Replay:
    """A recorded shoe replayed: the bets and systems, the position before the first coup,
    every dealt coup and the summary."""

    shoe: Shoe
    rules: Rules
    bets: tuple[Bet, ...]
    systems: tuple[CountSystem, ...]
    sizing: Sizing | None
    start: Position
    coups: tuple[TrackedCoup, ...]
    summary: TrackSummary


def _take(
    card: RecordCard, counts: list[int], types: list[int] | None, suits: Sequence[str]
) -> list[int] | None:
    """Take `card` out of the shoe (rank `counts`, card-type `types`); the types are lost
    (None) at a card recorded without its suit. Raises AnalyzerError naming the card."""
    name = quoted(card.name)
    if card.suit is None and types is not None:
        if suits:
            raise AnalyzerError(
                f"{card.where}: {name} has no suit, and {', '.join(suits)} read suits: record suited "
                f"cards such as 9H, or choose {mention('bets')} that read no suits"
            )
        types = None
    index = card.type
    if types is not None and index is not None:
        if types[index] == 0:
            raise AnalyzerError(f"{card.where}: {name} cannot come out: the shoe has no {card.name} left")
        types[index] -= 1
    if counts[card.rank] == 0:
        raise AnalyzerError(f"{card.where}: {name} cannot come out: the shoe has no {RANKS[card.rank]} left")
    counts[card.rank] -= 1
    return types


@dataclass(frozen=True)
class Dealt:
    """A record dealt by the tableau: the composition before each coup and at the end
    (`positions`: one more than the coups), each coup's cards, outcome and cut flag, and
    the cards of an incomplete last coup."""

    positions: tuple[Composition, ...]
    coups: tuple[tuple[tuple[RecordCard, ...], Outcome, bool], ...]
    incomplete: tuple[RecordCard, ...]


def deal_record(entries: Sequence[Entry], shoe: Shoe, rules: Rules, suits: Sequence[str] = ()) -> Dealt:
    """Deal the coups of a record from `shoe` by `rules`; `suits`: the bets that read suits
    (a card recorded without its suit is then an error)."""
    if shoe.counts is None:
        raise AnalyzerError(f"track needs a finite shoe: use {BY_N_DECKS}, {BY_COUNTS} or {BY_CARDS}")
    full, counts = shoe.counts, list(shoe.counts)
    types = None if shoe.types is None else list(shoe.types)
    positions: list[Composition] = []
    coups: list[tuple[tuple[RecordCard, ...], Outcome, bool]] = []
    pending: list[RecordCard] = []
    cut: Mark | None = None
    cut_pending = False

    def now() -> Composition:
        seen = tuple(a - b for a, b in zip(full, counts, strict=True))  # every card taken, burned too
        return Composition(tuple(counts), None if types is None else tuple(types), seen)

    for entry in undone(entries):
        if isinstance(entry, Mark):
            if cut is not None:
                raise AnalyzerError(
                    f"{entry.where}: a second cut mark (the cut card came out at {cut.where})"
                )
            cut, cut_pending = entry, True
            continue
        if entry.burned and pending:
            raise AnalyzerError(
                f"{entry.where}: a burn: line inside a coup ({len(pending)} of its cards dealt); "
                "burn between coups"
            )
        if not entry.burned and not pending:
            positions.append(now())
        types = _take(entry, counts, types, suits)
        if entry.burned:
            continue
        pending.append(entry)
        ranks = [card.rank for card in pending] + [0] * (CARDS_PER_COUP - len(pending))
        outcome, used = deal_coup(ranks, 0, rules)  # padding is never read by a finished coup
        if used == len(pending):
            coups.append((tuple(pending), outcome, cut_pending))
            pending, cut_pending = [], False
    if not pending:
        positions.append(now())
    return Dealt(tuple(positions), tuple(coups), tuple(pending))


def _counts(systems: Sequence[CountSystem], composition: Composition) -> dict[str, SystemCount]:
    """Each system's count at `composition`, its running count computed once."""
    left, counts = composition.size, {}
    for system in systems:
        running = system.running_count(composition.seen)
        true = replace(system, trigger=Trigger.TRUE).count_of(running, left)
        counts[system.name] = SystemCount(running, true, bool(system.fires(running, left)))
    return counts


def replay(
    entries: Sequence[Entry],
    shoe: Shoe,
    valuer: Valuer,
    systems: Sequence[CountSystem] = (),
    sizing: Sizing | None = None,
) -> Replay:
    """Replay a record (its entries, `analyzer.counting.record`) dealt from `shoe` under the
    valuer's rules: every coup, the exact value of every bet of `valuer` before each coup,
    each system's count (each system's bet must be one of the valuer's) and, with `sizing`,
    the Kelly stakes and the bankroll."""
    names = [bet.name for bet in valuer.bets]
    for system in systems:
        if system.bet not in names:
            raise AnalyzerError(
                f"system {quoted(system.name)} bets {quoted(system.bet)}, which is not among the bets tracked"
            )
    check_card_bets(valuer.bets, shoe)
    dealt = deal_record(entries, shoe, valuer.rules, valuer.suits)
    values = valuer.expectations(dealt.positions)
    results = valuer.results([(cards, outcome) for cards, outcome, _ in dealt.coups])
    bankroll = None if sizing is None else sizing.bankroll
    positions, path = [], [] if bankroll is None else [bankroll]
    for i, composition in enumerate(dealt.positions):
        stakes: dict[str, int] = {}
        if sizing is not None and bankroll is not None:
            free = bankroll
            for bet in valuer.bets:
                if values[i].get(bet.name, Fraction(0)) > 0:
                    units = sizing.stake(bankroll, *valuer.moments(composition, bet), free)
                    if units:
                        stakes[bet.name], free = units, free - units
        counts = _counts(systems, composition)
        positions.append(Position(composition.size, values[i], counts, stakes, bankroll))
        if bankroll is not None and i < len(results):
            bankroll += sum((units * results[i][name] for name, units in stakes.items()), Fraction(0))
            path.append(bankroll)
    coups = []
    bets = {bet.name: Tally() for bet in valuer.bets}
    triggered = {system.name: Tally() for system in systems}
    perfect = Tally()
    for i, (cards, outcome, cut) in enumerate(dealt.coups):
        before = positions[i]
        for name in before.positive:
            bets[name] = bets[name].add(before.expectations[name], results[i][name])
            perfect = perfect.add(before.expectations[name], results[i][name])
        for system in systems:
            if before.counts[system.name].fires and system.bet in before.expectations:
                ev, won = before.expectations[system.bet], results[i][system.bet]
                triggered[system.name] = triggered[system.name].add(ev, won)
        hands = [[cards[s] for s in (0, 2)], [cards[s] for s in (1, 3)]]
        for card, slot in zip(cards[4:], _slots(outcome)[4:], strict=True):
            hands[slot - 4].append(card)
        player, banker = (tuple(card.name for card in hand) for hand in hands)
        coups.append(TrackedCoup(i + 1, player, banker, outcome, cut, results[i], positions[i + 1]))
    summary = TrackSummary(
        len(coups), tuple(card.name for card in dealt.incomplete), bets, triggered, perfect, tuple(path)
    )
    return Replay(
        shoe, valuer.rules, valuer.bets, tuple(systems), sizing, positions[0], tuple(coups), summary
    )
