"""Payout rules and tableaux compared: each table's edges across shoes, the Banker
commission that gives the same edge, and what a tableau variant changes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from analyzer.present.text import (
    check_format,
    dumps,
    exact,
    heading,
    percent,
    signed_percent,
    table,
    user_text,
)

if TYPE_CHECKING:
    from analyzer.analyses.compare import Comparison

__all__ = ["compare_data", "render_compare"]


def compare_data(cmp: Comparison) -> dict[str, Any]:
    """The JSON document of `render_compare`: the shoes, each table's edges across them, the
    commissions matched on `cmp.shoe` and the tableau variant's effects."""
    labels = [str(shoe) for shoe in cmp.shoes]
    return {
        "shoes": labels,
        "edges": {
            table.name: {
                bet.name: dict(
                    zip(labels, map(exact, cmp.edges[(table.name, bet.name)]), strict=True)
                )
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
    labels = [str(shoe) for shoe in cmp.shoes]
    if fmt == "json":
        return dumps(compare_data(cmp))
    base, variant = user_text(cmp.base.name, fmt), user_text(cmp.variant.name, fmt)
    parts = {
        "edges": lambda: (
            heading("House edge of each table's bets across shoes", fmt)
            + table(
                [
                    [
                        user_text(t.title, fmt),
                        user_text(bet.name, fmt),
                        *(percent(edge) for edge in cmp.edges[(t.name, bet.name)]),
                    ]
                    for t in cmp.tables
                    for bet in t.bets
                ],
                ["table", "bet", *labels],
                fmt,
            )
        ),
        "commissions": lambda: (
            heading(f"Commission giving the same Banker edge ({user_text(str(cmp.shoe), fmt)})", fmt)
            + table(
                [
                    [
                        user_text(m.bet.name, fmt),
                        percent(m.house_edge),
                        percent(m.commission),
                        signed_percent(m.relative_to(), 2),
                        exact(m.commission),
                    ]
                    for m in cmp.commissions
                ],
                ["bet", "house edge", "equivalent commission", "vs 5% commission", "commission (exact)"],
                fmt,
            )
        ),
        "tableau": lambda: (
            heading(f"Tableau {variant} against {base} ({user_text(str(cmp.shoe), fmt)})", fmt)
            + "Differences: "
            + ("; ".join(cmp.base.differences(cmp.variant)) or "none")
            + ".\n\n"
            + table(
                [
                    [
                        user_text(e.bet.name, fmt),
                        percent(e.base),
                        percent(e.variant),
                        percent(e.change),
                        exact(e.change),
                    ]
                    for e in cmp.tableau
                ],
                ["bet", f"edge ({base})", f"edge ({variant})", "change", "change (exact)"],
                fmt,
            )
        ),
    }
    return "\n\n".join(parts[name]() for name in sections) + "\n"
