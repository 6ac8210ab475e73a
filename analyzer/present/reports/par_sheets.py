"""The par sheets of `reports/par-sheets/`: every built-in bet on 8 decks, standard tableau,
in Markdown and HTML with an index of each.

The counting studies here use fewer shoes than `baccarat par-sheet` (20,000 by default), so
that `baccarat report` stays near 20 s of CPU; each sheet states its shoes and the resolution of
its verdict, and `scripts/par_sheets.py` writes the same sheets at full size.
"""

from __future__ import annotations

from concurrent.futures import Executor
from datetime import UTC, datetime

from analyzer.core.bets import Bet
from analyzer.core.catalogue import BETS
from analyzer.core.shoe import Shoe
from analyzer.present.folders import PAR_SHEETS

__all__ = [
    "CARD_SHOES", "PAR_SHEETS", "RANK_SHOES", "REPORTS_DATE", "par_sheet_reports", "reports_date",
    "sheet_studies",
]  # fmt: skip

#: Shoes of the reports' studies: rank-level bets (one run for all), card-level bets (another).
RANK_SHOES = 4000
CARD_SHOES = 400
#: The date the reports' sheets carry: pinned (SOURCE_DATE_EPOCH or not), so that `baccarat
#: report` writes the same bytes on any day and in any environment (a test compares them with
#: the code); moved by hand when the reports are regenerated for a release.
REPORTS_DATE = datetime(2026, 12, 4, tzinfo=UTC)


def reports_date() -> datetime:
    """The date of the reports' sheets: REPORTS_DATE."""
    return REPORTS_DATE


def sheet_studies(
    rank_shoes: int | None = None, card_shoes: int | None = None
) -> list[tuple[list[Bet], Shoe, int]]:
    """The reports' two par-sheet studies, each (bets, shoe, shoes): the rank-level built-ins
    on `rank_shoes` (RANK_SHOES unless given), then the card-level ones on `card_shoes`
    (CARD_SHOES), on 8 decks."""
    bets = list(BETS.values())
    return [
        ([bet for bet in bets if bet.card_level == card_level], Shoe.decks(8), shoes)
        for card_level, shoes in ((False, rank_shoes or RANK_SHOES), (True, card_shoes or CARD_SHOES))
    ]


def par_sheet_reports(
    executor: Executor | None = None, rank_shoes: int | None = None, card_shoes: int | None = None
) -> dict[str, str]:
    """Every built-in bet's par sheet, Markdown and HTML, and their indexes, by path under
    the reports (e.g. "par-sheets/dragon7.md"); the studies (of RANK_SHOES and CARD_SHOES
    shoes unless given) run on `executor`."""
    from analyzer.counting.par import par_sheets
    from analyzer.present.identity import Provenance
    from analyzer.present.par_documents import par_files

    sheets = {}
    studies = sheet_studies(rank_shoes, card_shoes)
    rank_shoes, card_shoes = (shoes for _, _, shoes in studies)
    for group, shoe, shoes in studies:
        for sheet in par_sheets(group, shoe, shoes=shoes, executor=executor):
            sheets[sheet.bet.name] = sheet
    ordered = [sheets[bet.name] for bet in BETS.values()]
    source = Provenance(reports_date())
    files = {
        name: text
        for fmt in ("markdown", "html")
        for name, text in par_files(ordered, fmt, source=source).items()
        if isinstance(text, str)  # Markdown and HTML: text
    }
    files["README.md"] += (
        f"\nThe counting studies here deal {rank_shoes:,} shoes (rank-level bets) and {card_shoes:,} "
        "(card-level bets); each sheet states the resolution of its verdict. `baccarat par-sheet` "
        "deals 20,000 by default, and `python scripts/par_sheets.py` writes these sheets at that size.\n"
    )
    return {f"{PAR_SHEETS}/{name}": text for name, text in files.items()}
