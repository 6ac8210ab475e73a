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

from analyzer.cli.arguments import cli_words
from analyzer.core.errors import AnalyzerError
from analyzer.counting.record import Entry, RecordCard, parse_line, undone
from analyzer.counting.replay import Replay
from analyzer.counting.tracking import TrackSetup, coup_changes
from analyzer.present.track import render_coup, render_taken_back

__all__ = ["track_live"]


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


def track_live(setup: TrackSetup, form: str, finish: Callable[[Replay], str]) -> str:
    """Read a shoe from standard input line by line, report each coup as it is dealt and
    return the summary (`finish` renders the replay so far); on Ctrl-C write the summary,
    then let the interrupt end the command."""
    entries: list[Entry] = []
    suited: bool | None = None  # decided by the first card: the default bets follow it
    result: Replay | None = None
    number = 0

    def summary() -> str:
        return finish(result or setup.replay(entries, setup.shoe.types is not None))

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
                candidate = setup.replay(entries + new, first)
            except AnalyzerError as error:
                print(f"baccarat: error: {cli_words(error)}", file=sys.stderr, flush=True)
                continue
            entries += new
            suited = first
            taken_back, dealt = coup_changes(result, candidate)
            for coup in taken_back:
                _write(render_taken_back(coup.index, form))
            for coup in dealt:
                _write(render_coup(candidate, coup, form))
            result = candidate
    except KeyboardInterrupt:  # Ctrl-C, SIGTERM or SIGHUP (cli.Terminated)
        with contextlib.suppress(OSError):  # e.g. the terminal is gone: the exit code still tells
            _write(summary())
        raise
    return summary()
