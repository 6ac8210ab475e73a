"""Outcome probabilities as text: one coup's odds (with the cards shown, if any) and the
table after Punto's two cards."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from analyzer.present.text import check_format, decimal, dumps, exact, heading, table, user_text

if TYPE_CHECKING:  # types only: a cold `baccarat odds` loads none of these
    from analyzer.analyses.odds import Odds, PlayerRow

__all__ = ["render_odds", "render_player_table", "with_shown"]


def render_odds(odds: Odds, fmt: str = "table") -> str:
    """Probabilities (and 6-card-sequence counts for finite shoes) of each result."""
    check_format(fmt)
    probs = {"banker": odds.banker, "player": odds.player, "tie": odds.tie}
    if fmt == "json":
        data: dict[str, Any] = {name: exact(p) for name, p in probs.items()}
        if odds.counts is not None:
            data["counts"] = {str(w): c for w, c in odds.counts.items()}
            data["total"] = odds.total
        data["shoe"] = str(odds.shoe)
        data["rules"] = odds.rules.name
        return dumps(data)
    headers = ["result", "probability", "exact"]
    rows = [[name, decimal(p, 10), exact(p)] for name, p in probs.items()]
    if odds.counts is not None:
        headers.insert(1, "combinations")
        for row, count in zip(rows, odds.counts.values(), strict=True):
            row.insert(1, f"{count:,}")
        rows.append(["total", f"{odds.total:,}", decimal(1, 10), "1"])
    shoe, rules = user_text(str(odds.shoe), fmt), user_text(odds.rules.name, fmt)
    title = f"Outcome probabilities: {shoe}, {rules} rules"
    note = (
        "\n\nCombinations count ordered sequences of 6 cards (the published convention)."
        if odds.counts is not None
        else ""
    )
    return heading(title, fmt) + table(rows, headers, fmt) + note + "\n"


def with_shown(text: str, shown: dict[str, str], fmt: str) -> str:
    """Output of render_odds / render_edges for shown cards: JSON gains a `shown` key
    (position -> card as given); other formats already name them in the shoe label."""
    if fmt != "json":
        return text
    import json

    data = json.loads(text)
    data["shown"] = shown
    return dumps(data)


def render_player_table(rows: Sequence[PlayerRow], fmt: str = "table", title: str = "") -> str:
    """The table after Punto's two cards (a Russian gambling dictionary's Table 2)."""
    check_format(fmt)
    if fmt == "json":
        return dumps(
            {
                "rows": [
                    {
                        "punto_total": r.player_total,
                        "punto_action": r.player_action,
                        "punto": exact(r.player),
                        "banco": exact(r.banker),
                        "egalite": exact(r.tie),
                    }
                    for r in rows
                ]
            }
        )
    headers = [
        "Punto total",
        "Punto",
        "Banco",
        "Égalité",
        "Punto (exact)",
        "Banco (exact)",
        "Égalité (exact)",
    ]
    body = [
        [
            f"{r.player_total} ({r.player_action})",
            decimal(r.player),
            decimal(r.banker),
            decimal(r.tie),
            exact(r.player),
            exact(r.banker),
            exact(r.tie),
        ]
        for r in rows
    ]
    return heading(title or "Probabilities after Punto's two cards", fmt) + table(body, headers, fmt) + "\n"
