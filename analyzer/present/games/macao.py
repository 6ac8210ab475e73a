"""Macao and Victoria (`analyzer.games.macao`): the player's best drawing threshold and its
expectation under each variant."""

from __future__ import annotations

from typing import Any

from analyzer.games.macao import MacaoResult
from analyzer.present.document import Block, Heading, Paragraph, Table, write
from analyzer.present.text import check_format, decimal, dumps, exact, signed_percent

__all__ = ["MACAO_MODEL_TEXT", "macao_blocks", "macao_json", "macao_text", "render_macao"]


def _threshold(t: int) -> str:
    return "never draws" if t < 0 else f"draws on 0-{t}" if t > 0 else "draws on 0"


def macao_json(results: list[MacaoResult]) -> dict[str, Any]:
    """Every variant's figures as JSON-ready exact strings."""
    return {
        "game": "macao",
        "results": [
            {
                "shoe": str(r.shoe),
                "variant": r.model.variant,
                "counting": r.model.counting,
                "max_cards": r.model.max_cards,
                "banker_draws_to": r.model.banker_draws_to,
                "best_threshold": r.best,
                "value": exact(r.value),
                "expectations": {str(t): exact(e) for t, e in r.expectations.items()},
                "from_naturals": exact(r.naturals),
            }
            for r in results
        ],
    }


def render_macao(results: list[MacaoResult], fmt: str = "table") -> str:
    """The variants as a text table, Markdown or JSON."""
    check_format(fmt)
    if fmt == "json":
        return dumps(macao_json(results))
    return macao_text(results, fmt)


MACAO_MODEL_TEXT = (
    "One player against the banker; macao starts with one card each, Victoria with two "
    "(player first). Naturals (a starting hand worth 9 or 8) end the coup: a player's natural "
    "9 pays 3 to 1 and a natural 8 pays 2 to 1 unless the banker holds the same natural (or a 9 "
    "against an 8); a banker's natural beats a player without one. Otherwise the player draws "
    "while its value is at most its threshold, then the banker draws while its value is at most "
    "its stated limit; each hand holds at most the stated number of cards. Drawn ten-valued "
    "cards are refused (by both) and replaced, which never hurts a hand. Under bust counting a "
    "hand over 9 is bust: a bust player loses at once, a bust banker loses. Otherwise the higher "
    "value wins, fewer cards win equal values, and equal value and card count go to the banker; "
    "other wins pay even money. The baccarat tableau (--rules) takes no part in this game."
)


def macao_text(results: list[MacaoResult], fmt: str, level: int = 2) -> str:
    """The variants as text or Markdown, headed at `level`: best thresholds and every threshold's value."""
    return write(macao_blocks(results, level), fmt)


def macao_blocks(results: list[MacaoResult], level: int = 2) -> list[Block]:
    """The blocks of `macao_text`."""
    shoes = ", ".join(dict.fromkeys(str(r.shoe) for r in results))
    rows = [
        [
            r.model.variant,
            r.model.counting,
            str(r.shoe),
            str(r.model.max_cards),
            f"0-{r.model.banker_draws_to}",
            _threshold(r.best),
            signed_percent(r.value),
            exact(r.value),
            signed_percent(r.naturals),
        ]
        for r in results
    ]
    headers = [
        "game",
        "counting",
        "shoe",
        "max cards",
        "banker draws on",
        "best player strategy",
        "player's expectation",
        "exact",
        "of which naturals",
    ]
    thresholds = list(results[0].expectations)
    body = [
        [f"{r.model.variant}, {r.model.counting}", *(decimal(r.expectations[t], 6) for t in thresholds)]
        for r in results
    ]
    return [
        Heading(f"Macao and Victoria: {shoes}", level),
        Paragraph(MACAO_MODEL_TEXT),
        Table.of(rows, headers),
        Paragraph("The player's expectation per unit staked for every threshold:"),
        Table.of(body, ["game", *(_threshold(t) for t in thresholds)]),
        Paragraph(
            "As modelled, the player, not the banker, has the edge; the coups that end on a natural "
            "alone give the player the 'of which naturals' column. The texts do not say how the "
            "banker recoups this (for example by collecting more on its own naturals), so these "
            "figures describe the rules exactly as stated."
        ),
    ]
