"""What `baccarat track` computes: a recorded shoe replayed coup by coup with the exact value
of every bet, from a record file or entered live.

`track_setup` fixes what is valued before any card is read: the bets (default: every built-in
the record's cards allow, so two lists, for a suited record and for a ranks-only one), the
rules (the table's unless given), the systems followed (each system's bet tracked too) and
the Kelly sizing. `track_result` replays a record file; live entry replays the record so far
after each line and reports what `coup_changes` finds (coups taken back, coups new).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from analyzer.analyses.choice import choose_bets, load_table
from analyzer.core.errors import AnalyzerError, mention
from analyzer.core.rules import Rules
from analyzer.core.shoe import Shoe

if TYPE_CHECKING:  # the valuers (numpy, the engines) load only when a record is replayed
    from analyzer.core.bets import Bet
    from analyzer.core.catalogue import Table
    from analyzer.counting.record import Entry
    from analyzer.counting.replay import Replay, Sizing, TrackedCoup, Valuer
    from analyzer.counting.systems import CountSystem

__all__ = ["TrackResult", "TrackSetup", "coup_changes", "track_result", "track_setup"]


@dataclass
class TrackSetup:
    """What `track` values: the rules, the shoe, the bets for a suited record and for a
    ranks-only one, the systems and the sizing; each valuer is built on first use."""

    rules: Rules
    shoe: Shoe
    bets: tuple[tuple[Bet, ...], tuple[Bet, ...]]
    systems: tuple[CountSystem, ...]
    sizing: Sizing | None
    _valuers: dict[bool, Valuer] = field(default_factory=dict)

    def valuer(self, suited: bool) -> Valuer:
        """The valuer of the bets a suited (or ranks-only) record allows."""
        from analyzer.counting.replay import Valuer

        if suited not in self._valuers:
            self._valuers[suited] = Valuer(self.bets[0] if suited else self.bets[1], self.rules)
        return self._valuers[suited]

    def replay(self, entries: Sequence[Entry], suited: bool | None = None) -> Replay:
        """The record `entries` replayed; `suited` (default: every card has its suit) picks
        the bets."""
        from analyzer.counting.record import RecordCard
        from analyzer.counting.replay import replay

        if suited is None:
            suited = all(entry.suit is not None for entry in entries if isinstance(entry, RecordCard))
        return replay(entries, self.shoe, self.valuer(suited), self.systems, self.sizing)


def track_setup(
    shoe: Shoe,
    rules: Rules | None = None,
    bets: Sequence[str] | None = None,
    table: str | Table | None = None,
    systems: Sequence[str] | None = None,
    sizing: Sizing | None = None,
) -> TrackSetup:
    """What `track` values on the finite `shoe`, fixed before any card: the bets chosen
    (`analyzer.analyses.choice.choose_bets`; by default every built-in the record's cards
    allow), the rules given, else the table's; the `systems` followed (built-in names or
    .toml files), each system's bet after the bets unless one of its name is there."""
    from analyzer.counting.systems import named_systems, system_bet

    if shoe.counts is None:
        raise AnalyzerError(
            f"track needs a finite shoe: use {mention('decks', 'N', 'Shoe.decks(N)')}, "
            f"{mention('counts', words='Shoe.from_counts')} or {mention('cards', words='Shoe.from_cards')}"
        )
    found = load_table(table)
    suited = choose_bets(found, bets, rules=rules, shoe=shoe)
    ranks_only = choose_bets(found, bets, rules=rules, shoe=Shoe.from_counts(shoe.counts))
    named = named_systems(systems) if systems is not None else []
    extra = [system_bet(spec, system, found) for spec, system in named]

    def tracked(chosen: Sequence[Bet]) -> tuple[Bet, ...]:
        """The bets, and each system's bet after them unless a bet of its name is there."""
        every = list(chosen)
        for bet in extra:
            if all(bet.name != other.name for other in every):
                every.append(bet)
        return tuple(every)

    return TrackSetup(
        rules=suited.rules,
        shoe=shoe,
        bets=(tracked(suited.bets), tracked(ranks_only.bets)),
        systems=tuple(system for _, system in named),
        sizing=sizing,
    )


@dataclass(frozen=True)
class TrackResult:
    """`baccarat track`: the record `record` (a file, "-" entered live) replayed; `live`:
    its coups were reported as they came, so what remains to show is the summary."""

    shoe: Shoe
    rules: Rules
    replay: Replay
    record: str
    live: bool = False


def track_result(setup: TrackSetup, record: str) -> TrackResult:
    """The record file `record` replayed by `setup`."""
    from analyzer.counting.record import read_record

    replayed = setup.replay(read_record(record))
    return TrackResult(setup.shoe, setup.rules, replayed, record)


def coup_changes(
    before: Replay | None, after: Replay
) -> tuple[tuple[TrackedCoup, ...], tuple[TrackedCoup, ...]]:
    """What changed from the replay `before` to `after` (the record one line longer): the
    coups of `before` taken back (last first) and the coups of `after` that are new. A coup
    stays while its hands stay the same."""
    old = before.coups if before is not None else ()
    keep = 0
    while keep < min(len(old), len(after.coups)) and (old[keep].player, old[keep].banker) == (
        after.coups[keep].player,
        after.coups[keep].banker,
    ):
        keep += 1
    return tuple(reversed(old[keep:])), after.coups[keep:]
