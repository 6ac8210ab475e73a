"""Effects of removal as a document of typed tables, for the spreadsheet writers
(`analyzer.present.spreadsheet`): one table of each bet's expectation on the full shoe,
one per kind of card removed (rank, or card type for bets that read suits) with a column
per bet and the identity row sum n EoR = 0, and the best linear counts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from analyzer.present.counting import tags_text
from analyzer.present.document import Block, Heading, Paragraph, Table, Value
from analyzer.present.effects import DERIVED_HEADERS, derived_rows
from analyzer.present.text import exact, markdown_text, signed_decimal

if TYPE_CHECKING:
    from analyzer.analyses.effects import RemovalEffects
    from analyzer.counting.systems import DerivedCount

__all__ = ["removal_effects_blocks"]


def _effects_table(result: RemovalEffects, per: str, bets: Sequence[str]) -> Table:
    keys = list(result.effects[bets[0]])
    rows: list[list[str]] = []
    values: list[list[Value]] = []
    for key in keys:
        rows.append([key, *(signed_decimal(result.effects[b][key], 7) for b in bets)])
        values.append([key, *(result.effects[b][key] for b in bets)])
    rows.append(["sum n x effect", *(exact(result.identity[b]) for b in bets)])
    values.append(["sum n x effect", *(result.identity[b] for b in bets)])
    return Table.of(rows, [per, *(markdown_text(b) for b in bets)], values)


def removal_effects_blocks(result: RemovalEffects, counts: Sequence[DerivedCount] = ()) -> list[Block]:
    """The effects of removal of `result` (and the best linear `counts`) as Markdown-marked
    blocks with typed values: exact effects as Fractions."""
    shoe, rules = markdown_text(str(result.shoe)), markdown_text(result.rules.name)
    base = list(result.base.items())
    blocks: list[Block] = [
        Heading(f"Effects of removal: {shoe}, {rules} rules"),
        Paragraph("Each bet's expectation per unit bet on the full shoe (bettor's view):"),
        Table.of(
            [[markdown_text(bet), signed_decimal(ev, 7)] for bet, ev in base],
            ["bet", "expectation"],
            [[bet, ev] for bet, ev in base],
        ),
    ]
    for per in ("rank", "card type"):
        bets = [bet for bet, p in result.per.items() if p == per]
        if bets:
            blocks += [Heading(f"Effects of removal per {per}"), _effects_table(result, per, bets)]
    if counts:
        rows = derived_rows(counts, "markdown")
        values: list[list[Value]] = [
            [c.bet, c.level, tags_text(c.tags), c.balanced, c.correlation, c.break_even] for c in counts
        ]
        blocks += [Heading("Best linear counts"), Table.of(rows, DERIVED_HEADERS, values)]
    return blocks
