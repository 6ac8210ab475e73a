"""`baccarat track -`: a shoe entered live from standard input, one card or one coup a line.

After each line the record so far is replayed (each composition is valued once, so a line
costs little more than the new coup): every coup it completes is reported at once, and one
that ``undo`` takes back is said to be taken back. A bad line is reported on standard error
and left out; the session goes on. End of input ends with the summary, and so do Ctrl-C,
SIGTERM and SIGHUP (then exit code 130, 143 or 129, as for every command).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from dataclasses import dataclass, field

from analyzer.core.bets import Bet
from analyzer.core.errors import AnalyzerError
from analyzer.core.rules import Rules
from analyzer.core.shoe import Shoe
from analyzer.counting.record import Entry, RecordCard, parse_line, undone
from analyzer.counting.replay import Replay, Sizing, Valuer, replay
from analyzer.counting.systems import CountSystem
from analyzer.present import render as fmt

__all__ = ["TrackSetup", "track_live"]


@dataclass
class TrackSetup:
    """What `track` values: the rules, the shoe, the bets for a suited record and for a
    ranks-only one, the systems and the sizing; the valuer is built on first use."""

    rules: Rules
    shoe: Shoe
    bets: tuple[tuple[Bet, ...], tuple[Bet, ...]]
    systems: tuple[CountSystem, ...]
    sizing: Sizing | None
    _valuers: dict[bool, Valuer] = field(default_factory=dict)

    def valuer(self, suited: bool) -> Valuer:
        """The valuer of the bets a suited (or ranks-only) record allows."""
        if suited not in self._valuers:
            self._valuers[suited] = Valuer(self.bets[0] if suited else self.bets[1], self.rules)
        return self._valuers[suited]


def _replay(setup: TrackSetup, entries: list[Entry], suited: bool) -> Replay:
    return replay(entries, setup.shoe, setup.valuer(suited), setup.systems, setup.sizing)


def _write(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


def _read_line() -> str:
    """The next line of standard input ("" at its end); one that cannot be read is an
    AnalyzerError (e.g. `track - <&-`, or a directory as input)."""
    if sys.stdin is None:  # started with standard input closed
        raise AnalyzerError("track -: standard input is closed: give the record on it, or a record file")
    try:
        return sys.stdin.readline()
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise AnalyzerError(f"track -: standard input cannot be read: {reason}") from None


def track_live(setup: TrackSetup, form: str, finish: Callable[[str], str]) -> str:
    """Read a shoe from standard input line by line, report each coup as it is dealt and
    return the summary (`finish` adds the JSON metadata); on Ctrl-C write the summary, then
    let the interrupt end the command."""
    entries: list[Entry] = []
    suited: bool | None = None  # decided by the first card: the default bets follow it
    result: Replay | None = None
    number = 0

    def summary() -> str:
        final = result or _replay(setup, entries, setup.shoe.types is not None)
        text = fmt.render_track_summary(final, form)
        return finish(text) if form == "json" else text

    try:
        while line := _read_line():
            number += 1
            try:
                new = parse_line(line, number)
                cards = [entry for entry in new if isinstance(entry, RecordCard)]
                first = suited if suited is not None or not cards else cards[0].suit is not None
                if first is None:
                    undone(entries + new)  # the rule the replay applies: a bad undo is refused now
                    entries += new
                    continue
                candidate = _replay(setup, entries + new, first)
            except AnalyzerError as error:
                print(f"baccarat: error: {error}", file=sys.stderr, flush=True)
                continue
            entries += new
            suited = first
            before = result.coups if result is not None else ()
            keep = 0
            while keep < min(len(before), len(candidate.coups)) and (
                before[keep].player,
                before[keep].banker,
            ) == (candidate.coups[keep].player, candidate.coups[keep].banker):
                keep += 1
            for coup in reversed(before[keep:]):
                _write(fmt.render_taken_back(coup.index, form))
            for coup in candidate.coups[keep:]:
                _write(fmt.render_coup(candidate, coup, form))
            result = candidate
    except KeyboardInterrupt:  # Ctrl-C, SIGTERM or SIGHUP (cli.Terminated)
        with contextlib.suppress(OSError):  # e.g. the terminal is gone: the exit code still tells
            _write(summary())
        raise
    return summary()
