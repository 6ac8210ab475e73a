"""Payout rules and tableaux compared: each table's edges across shoes, the Banker
commission that gives the same edge, and what a tableau variant changes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from analyzer.present.document import Block, Heading, Paragraph, Table, Value, write
from analyzer.present.text import check_format, dumps, exact, percent, signed_percent, user_text

if TYPE_CHECKING:
    from analyzer.analyses.compare import Comparison

__all__ = ["compare_blocks", "compare_data", "render_compare"]


def compare_data(cmp: Comparison) -> dict[str, Any]:
    """The JSON document of `render_compare`: the shoes, each table's edges across them, the
    commissions matched on `cmp.shoe` and the tableau variant's effects."""
    labels = [str(shoe) for shoe in cmp.shoes]
    return {
        "shoes": labels,
        "edges": {
            table.name: {
                bet.name: dict(zip(labels, map(exact, cmp.edges[(table.name, bet.name)]), strict=True))
                for bet in table.bets
            }
            for table in cmp.tables
        },
        "shoe": str(cmp.shoe),
        "commissions": {
            m.bet.name: {
                "house_edge": exact(m.house_edge),
                "commission": exact(m.commission),
                "relative_to_5pct": exact(m.relative_to()),
            }
            for m in cmp.commissions
        },
        "tableau": {
            "base": cmp.base.name,
            "variant": cmp.variant.name,
            "differences": cmp.base.differences(cmp.variant),
            "bets": {
                e.bet.name: {
                    "base": exact(e.base),
                    "variant": exact(e.variant),
                    "change": exact(e.change),
                }
                for e in cmp.tableau
            },
        },
    }


def render_compare(
    cmp: Comparison, fmt: str, sections: Sequence[str] = ("edges", "commissions", "tableau")
) -> str:
    """Payout rules side by side across shoes, commission equivalents, tableau effects."""
    check_format(fmt)
    if fmt == "json":
        return dumps(compare_data(cmp))
    return write(compare_blocks(cmp, fmt, sections), fmt)


def compare_blocks(
    cmp: Comparison, fmt: str, sections: Sequence[str] = ("edges", "commissions", "tableau")
) -> list[Block]:
    """The document of `render_compare` in `fmt` (table or markdown), typed values beside."""
    labels = [str(shoe) for shoe in cmp.shoes]
    base, variant = user_text(cmp.base.name, fmt), user_text(cmp.variant.name, fmt)
    shoe = user_text(str(cmp.shoe), fmt)
    edges = [
        [user_text(t.title, fmt), user_text(bet.name, fmt), *map(percent, cmp.edges[(t.name, bet.name)])]
        for t in cmp.tables
        for bet in t.bets
    ]
    commissions = [
        [
            user_text(m.bet.name, fmt),
            percent(m.house_edge),
            percent(m.commission),
            signed_percent(m.relative_to(), 2),
            exact(m.commission),
        ]
        for m in cmp.commissions
    ]
    moved = [
        [user_text(e.bet.name, fmt), percent(e.base), percent(e.variant), percent(e.change), exact(e.change)]
        for e in cmp.tableau
    ]
    edge_values: list[list[Value]] = [
        [t.title, bet.name, *cmp.edges[(t.name, bet.name)]] for t in cmp.tables for bet in t.bets
    ]
    commission_values: list[list[Value]] = [
        [m.bet.name, m.house_edge, m.commission, m.relative_to(), exact(m.commission)]
        for m in cmp.commissions
    ]
    moved_values: list[list[Value]] = [
        [e.bet.name, e.base, e.variant, e.change, exact(e.change)] for e in cmp.tableau
    ]
    differences = "; ".join(cmp.base.differences(cmp.variant)) or "none"
    parts: dict[str, list[Block]] = {
        "edges": [
            Heading("House edge of each table's bets across shoes"),
            Table.of(edges, ["table", "bet", *labels], edge_values),
        ],
        "commissions": [
            Heading(f"Commission giving the same Banker edge ({shoe})"),
            Table.of(
                commissions,
                ["bet", "house edge", "equivalent commission", "vs 5% commission", "commission (exact)"],
                commission_values,
            ),
        ],
        "tableau": [
            Heading(f"Tableau {variant} against {base} ({shoe})"),
            Paragraph(f"Differences: {differences}."),
            Table.of(
                moved,
                ["bet", f"edge ({base})", f"edge ({variant})", "change", "change (exact)"],
                moved_values,
            ),
        ],
    }
    return [block for name in sections for block in parts[name]]
