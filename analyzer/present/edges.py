"""House edges of bets, and each bet's paytable (event, combinations, probability, pays,
return)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from analyzer.present.document import Block, Heading, Paragraph, Table, Value, write
from analyzer.present.text import (
    LONG_EXACT,
    check_format,
    decimal,
    dumps,
    exact,
    markdown_code,
    markdown_text,
    percent,
    scientific,
    short_exact,
    short_float,
    table,
    user_text,
)

if TYPE_CHECKING:
    from analyzer.core.analysis import BetAnalysis
    from analyzer.core.rules import Rules
    from analyzer.core.shoe import Shoe

__all__ = [
    "EDGE_HEADERS",
    "bet_block",
    "bet_json",
    "bet_rows",
    "bet_table",
    "bet_values",
    "edges_blocks",
    "edges_data",
    "edges_rows",
    "edges_values",
    "pays_text",
    "render_edges",
]


def pays_text(pays: Fraction | None) -> str:
    """A payout as a casino writes it: "8:1", "19:20", "push", "loses"."""
    if pays is None:
        return "push"
    if -1 < pays < 0:  # a partial loss (card-level bet language)
        return f"loses {-pays}"
    if pays == -1:
        return "loses"
    text = f"{pays.numerator}:{pays.denominator}"
    return text if len(text) <= LONG_EXACT else f"~{scientific(pays)}:1"


def bet_json(analysis: BetAnalysis) -> dict[str, Any]:
    """Exact figures of one bet as JSON-ready values."""
    resolved = analysis.house_edge_resolved
    return {
        "title": analysis.bet.title,
        "house_edge": exact(analysis.house_edge),
        "house_edge_resolved": None if resolved is None else exact(resolved),
        "expectation": exact(analysis.expectation),
        "push": exact(analysis.push),
        "hit_frequency": exact(analysis.hit_frequency),
        "variance": exact(analysis.variance),
        "std_dev": f"{analysis.std_dev:.6f}",
        "lines": [
            {
                "event": row.label,
                "combinations": row.combinations,
                "probability": exact(row.probability),
                "pays": "push" if row.pays is None else exact(row.pays),
                "return": exact(row.ret),
            }
            for row in analysis.lines
        ],
    }


def edges_rows(analyses: Sequence[BetAnalysis], fmt: str = "table") -> list[list[str]]:
    """Rows under EDGE_HEADERS: one per bet (names and titles as `fmt` shows a user's text)."""
    return [_row(a, _figures(a), fmt) for a in analyses]


def edges_values(analyses: Sequence[BetAnalysis]) -> list[list[Value]]:
    """The typed values of `edges_rows` (exact figures as Fractions, the exact column "p/q")."""
    return [_values(a, _figures(a)) for a in analyses]


#: A bet's house edge, edge per resolved bet (None: it always pushes), hit frequency and
#: standard deviation: computed once for its row and its typed values.
_Figures = tuple[Fraction, Fraction | None, Fraction, float]


def _figures(a: BetAnalysis) -> _Figures:
    return a.house_edge, a.house_edge_resolved, a.hit_frequency, a.std_dev


def _row(a: BetAnalysis, figures: _Figures, fmt: str) -> list[str]:
    edge, resolved, hit, std = figures
    return [
        user_text(a.bet.name, fmt),
        user_text(a.bet.title, fmt),
        percent(edge),
        "n/a" if resolved is None else percent(resolved),
        decimal(hit),
        short_float(std, ".4f"),
        short_exact(edge),
    ]


def _values(a: BetAnalysis, figures: _Figures) -> list[Value]:
    edge, resolved, hit, std = figures
    return [a.bet.name, a.bet.title, edge, resolved, hit, std, exact(edge)]


EDGE_HEADERS = [
    "bet",
    "title",
    "house edge",
    "per resolved bet",
    "hit frequency",
    "std dev",
    "house edge (exact)",
]


def bet_table(analysis: BetAnalysis, fmt: str) -> str:
    """The combinatorial table of one bet: event, combinations, probability, pays, return."""
    return table(*bet_rows(analysis, fmt), fmt)


def bet_rows(analysis: BetAnalysis, fmt: str = "table") -> tuple[list[list[str]], list[str]]:
    """The rows and headers of `bet_table` (combinations only on a finite shoe; the lines'
    labels as `fmt` shows a user's text)."""
    finite = analysis.lines and analysis.lines[0].combinations is not None
    headers = ["event", *(["combinations"] if finite else []), "probability", "pays", "return"]
    rows = []
    for row in analysis.lines:
        counts = [f"{row.combinations:,}"] if finite else []
        pays = pays_text(row.pays)
        label = user_text(row.label, fmt)
        rows.append([label, *counts, decimal(row.probability, 8), pays, decimal(row.ret, 8)])
    total_counts = [f"{sum(r.combinations or 0 for r in analysis.lines):,}"] if finite else []
    rows.append(["total", *total_counts, decimal(1, 8), "", decimal(analysis.expectation, 8)])
    return rows, headers


def bet_values(analysis: BetAnalysis) -> list[list[Value]]:
    """The typed values of `bet_rows`: exact probabilities, payouts to 1 and returns."""
    finite = analysis.lines and analysis.lines[0].combinations is not None
    rows: list[list[Value]] = []
    for row in analysis.lines:
        counts: list[Value] = [row.combinations] if finite else []
        rows.append([row.label, *counts, row.probability, row.pays, row.ret])
    total: list[Value] = [sum(r.combinations or 0 for r in analysis.lines)] if finite else []
    rows.append(["total", *total, Fraction(1), None, analysis.expectation])
    return rows


def bet_block(analysis: BetAnalysis, fmt: str, typed: bool = True) -> Table:
    """The combinatorial table of one bet as a table block, its typed values beside (with
    `typed`: a text, which shows only the cells, is written without them)."""
    rows, headers = bet_rows(analysis, fmt)
    return Table.of(rows, headers, bet_values(analysis) if typed else None)


def edges_data(
    analyses: Sequence[BetAnalysis], shoe: Shoe, rules: Rules, left_out: Sequence[str] = ()
) -> dict[str, Any]:
    """The JSON document of `render_edges`: the shoe, the rules, each bet's figures by name,
    and when some were, the names of the bets left out (they read suits the shoe does not give)."""
    data = {"shoe": str(shoe), "rules": rules.name, "bets": {a.bet.name: bet_json(a) for a in analyses}}
    return {**data, "left_out": list(left_out)} if left_out else data


def render_edges(
    analyses: Sequence[BetAnalysis], fmt: str, shoe: Shoe, rules: Rules, details: bool = False
) -> str:
    """House edges of several bets on one shoe; with `details`, each bet's paytable too, under
    a heading of its title and name (then its source, when it has one). In a terminal table
    with `details` the summary leaves the titles to those headings, so that it fits 120
    columns without wrapping its headers or cells."""
    check_format(fmt)
    if fmt == "json":
        return dumps(edges_data(analyses, shoe, rules))
    return write(edges_blocks(analyses, fmt, shoe, rules, details, typed=False), fmt)


def edges_blocks(
    analyses: Sequence[BetAnalysis],
    fmt: str,
    shoe: Shoe,
    rules: Rules,
    details: bool = False,
    typed: bool = True,
) -> list[Block]:
    """The document of `render_edges` in `fmt` (table or markdown), typed values beside the
    tables' cells (with `typed`: a text, which shows only the cells, is written without them)."""
    figures = [_figures(a) for a in analyses]
    rows = [_row(a, f, fmt) for a, f in zip(analyses, figures, strict=True)]
    values = [_values(a, f) for a, f in zip(analyses, figures, strict=True)] if typed else None
    headers = EDGE_HEADERS
    if details and fmt == "table":
        rows, headers = [[row[0], *row[2:]] for row in rows], [headers[0], *headers[2:]]
        values = None if values is None else [[row[0], *row[2:]] for row in values]
    blocks: list[Block] = [
        Heading(f"House edges: {user_text(str(shoe), fmt)}, {user_text(rules.name, fmt)} rules"),
        Table.of(rows, headers, values),
        Paragraph(
            "House edge per unit bet, positive when the house wins; pushes count as bets. "
            "'Per resolved bet' leaves pushes out."
        ),
    ]
    for a in analyses if details else ():
        if fmt == "markdown":
            title = f"{markdown_text(a.bet.title)} ({markdown_code(a.bet.name)})"
        else:
            title = f"{a.bet.title} ({a.bet.name})"
        blocks.append(Heading(title, 3))
        if a.bet.source:
            blocks.append(Paragraph(f"Source: {user_text(a.bet.source, fmt)}."))
        blocks.append(bet_block(a, fmt, typed))
    return blocks
