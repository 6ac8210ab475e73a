"""The bound on a card-level plan's work, said before it starts.

A plan refines by suit the rows where a suit or colour condition could change the settlement,
each into up to 4**6 rows (`analyzer.cards.suitclasses`). How many is counted from the rows'
patterns before any is expanded (`refined_counts`): a plan over `MAX_REFINED_ROWS` is refused
with the count, and the expansion goes in parts of at most `PART_ROWS` rows, so that its work
arrays stay small whatever the bet.

>>> import numpy as np
>>> part_cuts(np.array([4096, 4096, 1, 1, 1]), parents=2, rows=4096)
[0, 1, 2, 4, 5]
"""

from __future__ import annotations

import numpy as np

from analyzer.cards.suitclasses import refined_counts
from analyzer.core.bets import Bet
from analyzer.core.errors import AnalyzerError, quoted

__all__ = ["MAX_REFINED_ROWS", "PART_ROWS", "check_refined", "part_cuts", "plan_cuts"]

#: The most rows a plan refines by suit: some 1 to 2 million a second, so about a minute.
MAX_REFINED_ROWS = 10**8
#: The most refined rows expanded at once (one row more when a single row expands past it).
PART_ROWS = 1 << 21
#: Bytes a plan held whole keeps for each refined row: its parent (8), ranks and suit masks
#: (6 + 6), and its line (4) in each colour cell (one, or nine where colours are read).
_ROW_BYTES, _CELL_BYTES = 20, 4


def check_refined(bet: Bet, counts: np.ndarray, colour: np.ndarray) -> None:
    """Refuse the plan of `bet` if its rows refined by suit (`counts`, each row's number;
    `colour`, whether colours are read on it) are over `MAX_REFINED_ROWS`."""
    rows = int(counts.sum())
    if rows > MAX_REFINED_ROWS:
        coloured = int(counts[colour].sum())
        held = rows * (_ROW_BYTES + _CELL_BYTES) + coloured * 8 * _CELL_BYTES
        raise AnalyzerError(
            f"bet {quoted(bet.name)}: pricing it refines {rows:,} coup rows by suit (about {held / 1e9:,.1f} "
            f"GB), over the limit of {MAX_REFINED_ROWS:,}: read the suits of fewer positions"
        )


def part_cuts(counts: np.ndarray, parents: int, rows: int | None = None) -> list[int]:
    """Where the rows to refine are cut into parts (first and last included): each part at
    most `parents` rows refined into at most `rows` rows (default `PART_ROWS`), or a single row."""
    rows = PART_ROWS if rows is None else rows
    ends = np.cumsum(counts)
    cuts, start = [0], 0
    while start < len(counts):
        before = int(ends[start - 1]) if start else 0
        stop = int(np.searchsorted(ends, before + rows, side="right"))
        start = min(max(stop, start + 1), start + parents)
        cuts.append(start)
    return cuts


def plan_cuts(bet: Bet, ranks: np.ndarray, reads: tuple[np.ndarray, ...], parents: int) -> list[int]:
    """The `part_cuts` of the rows of `bet`'s plan to refine (`ranks`, and what
    `refine_rows` reads of them: need, linked, named, colour), counted `parents` rows at a
    time; a plan over `MAX_REFINED_ROWS` refused (`check_refined`)."""
    counts = np.zeros(len(ranks), dtype=np.int64)
    for at in range(0, len(ranks), parents):
        cut = slice(at, at + parents)
        counts[cut] = refined_counts(ranks[cut], *(array[cut] for array in reads))
    check_refined(bet, counts, reads[3])
    return part_cuts(counts, parents)
