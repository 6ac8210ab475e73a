"""The tracked-shoe report: the sample recorded shoe replayed coup by coup, as `baccarat track`
prints it in Markdown."""

from __future__ import annotations

from fractions import Fraction

from analyzer.core.catalogue import BETS
from analyzer.core.shoe import Shoe
from analyzer.counting.record import SAMPLE, SAMPLE_DEAL, read_record, sample_path
from analyzer.counting.replay import Replay, Sizing, Valuer, replay
from analyzer.counting.systems import SYSTEMS
from analyzer.present.document import Code, Paragraph
from analyzer.present.reports.shared import report
from analyzer.present.track import track_blocks

__all__ = ["TRACK_COMMAND", "tracked_shoe_report"]

_BETS = ("banker", "player", "tie", "dragon7", "panda8", "lucky-nines", "perfect-pairs-v1")
_SYSTEMS = ("dragon7-jacobson", "panda8-jacobson")
#: The command whose Markdown output the report holds (run from the repository's root).
TRACK_COMMAND = (
    f"baccarat track analyzer/counting/data/{SAMPLE} --bets {','.join(_BETS)} "
    f"--system {','.join(_SYSTEMS)} --bankroll 500 --max-bet 50 --format markdown"
)


def sample_replay() -> Replay:
    """The sample record replayed as `TRACK_COMMAND` replays it."""
    valuer = Valuer([BETS[name] for name in _BETS])
    systems = [SYSTEMS[name] for name in _SYSTEMS]
    sizing = Sizing(Fraction(500), max_bet=50)
    return replay(read_record(sample_path()), Shoe.decks(SAMPLE_DEAL[0]), valuer, systems, sizing)


def tracked_shoe_report() -> str:
    """tracked-shoe.md: the sample record replayed with Banker, Player, Tie, two side bets
    followed by Jacobson's counts, a card-level pair bet and Lucky Nines, Kelly-sized."""
    decks, seed, index, cut = SAMPLE_DEAL
    record = f"analyzer/counting/data/{SAMPLE}"
    blocks = [
        Paragraph(
            f"The record `{record}` is a sample, not a real shoe: {decks} decks "
            f"with suits, shuffled and dealt by this project's own dealer (`analyzer.counting.dealer`, run "
            f"seed {seed}, shoe {index}): burn, coups until the cut card, {cut} cards from the end, comes "
            "out, that coup finished. Before every coup each bet is valued exactly on the cards left "
            "(every recorded card out of the shoe, burned ones included), as `baccarat edges` prices "
            "that shoe. This is the Markdown output of"
        ),
        Code(TRACK_COMMAND, "sh"),
        *track_blocks(sample_replay(), "markdown", record),
    ]
    return report("A recorded shoe replayed coup by coup", blocks)
