"""Outcome probabilities as text: one coup's odds (with the cards shown, if any) and the
table after Punto's two cards."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from analyzer.present.document import Block, Heading, Paragraph, Table, Value, write
from analyzer.present.text import check_format, decimal, dumps, exact, user_text

if TYPE_CHECKING:  # types only: a cold `baccarat odds` loads none of these
    from analyzer.analyses.odds import Odds, PlayerRow

__all__ = [
    "odds_blocks",
    "odds_data",
    "player_table_blocks",
    "player_table_data",
    "render_odds",
    "render_player_table",
]


def odds_data(odds: Odds) -> dict[str, Any]:
    """The JSON document of `render_odds`: each result's exact probability, the counts and
    their total (finite shoes), the shoe and the rules."""
    data: dict[str, Any] = {name: exact(p) for name, p in _results(odds).items()}
    if odds.counts is not None:
        data["counts"] = {str(w): c for w, c in odds.counts.items()}
        data["total"] = odds.total
    data["shoe"] = str(odds.shoe)
    data["rules"] = odds.rules.name
    return data


def _results(odds: Odds) -> dict[str, Fraction]:
    return {"banker": odds.banker, "player": odds.player, "tie": odds.tie}


def render_odds(odds: Odds, fmt: str = "table") -> str:
    """Probabilities (and 6-card-sequence counts for finite shoes) of each result."""
    check_format(fmt)
    if fmt == "json":
        return dumps(odds_data(odds))
    return write(odds_blocks(odds, fmt), fmt)


def odds_blocks(odds: Odds, fmt: str = "table") -> list[Block]:
    """The document of `render_odds` in `fmt` (table or markdown), typed values beside."""
    probs = _results(odds)
    headers = ["result", "probability", "exact"]
    rows = [[name, decimal(p, 10), exact(p)] for name, p in probs.items()]
    values: list[list[Value]] = [[name, p, exact(p)] for name, p in probs.items()]
    if odds.counts is not None:
        headers.insert(1, "combinations")
        for row, typed, count in zip(rows, values, odds.counts.values(), strict=True):
            row.insert(1, f"{count:,}")
            typed.insert(1, count)
        rows.append(["total", f"{odds.total:,}", decimal(1, 10), "1"])
        values.append(["total", odds.total, Fraction(1), "1"])
    shoe, rules = user_text(str(odds.shoe), fmt), user_text(odds.rules.name, fmt)
    table = Table.of(rows, headers, values)
    blocks: list[Block] = [Heading(f"Outcome probabilities: {shoe}, {rules} rules"), table]
    if odds.counts is not None:
        note = "Combinations count ordered sequences of 6 cards (the published convention)."
        blocks.append(Paragraph(note))
    return blocks


def player_table_data(rows: Sequence[PlayerRow]) -> dict[str, Any]:
    """The JSON document of `render_player_table`: one row per Punto total and action (its
    keys keep the punto/banco words)."""
    return {
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


def render_player_table(rows: Sequence[PlayerRow], fmt: str = "table", title: str = "") -> str:
    """The table after Punto's two cards (a Russian gambling dictionary's Table 2)."""
    check_format(fmt)
    if fmt == "json":
        return dumps(player_table_data(rows))
    return write(player_table_blocks(rows, title), fmt)


def player_table_blocks(rows: Sequence[PlayerRow], title: str = "") -> list[Block]:
    """The document of `render_player_table`, typed values beside."""
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
    values: list[list[Value]] = [
        [body[i][0], r.player, r.banker, r.tie, exact(r.player), exact(r.banker), exact(r.tie)]
        for i, r in enumerate(rows)
    ]
    return [Heading(title or "Probabilities after Punto's two cards"), Table.of(body, headers, values)]
