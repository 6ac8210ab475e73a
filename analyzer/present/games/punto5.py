"""Punto 5 (`analyzer.games.punto5`): the Russian rules where Punto bettors choose on a 5,
each choice's results and the house edges of the better one."""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from analyzer.games import punto5
from analyzer.games.punto5 import TIE_PAYS, Choice, Punto5
from analyzer.present.document import Block, Heading, Paragraph, Table, write
from analyzer.present.text import check_format, decimal, dumps, exact, percent, signed_percent, user_text

__all__ = ["PUNTO5_MODEL_TEXT", "punto5_blocks", "punto5_json", "punto5_text", "render_punto5"]


#: The model of the punto 5 report: the solver's docstring, less its first line.
PUNTO5_MODEL_TEXT = (punto5.__doc__ or "").split("\n\n", 1)[1].strip()


def punto5_json(result: Punto5) -> dict[str, Any]:
    """Exact figures as JSON-ready strings. The keys named after the Russian sources' prose
    (punto, banco, egalite) are kept beside the player/banker/tie ones, which carry the same values."""

    def choice(c: Choice) -> dict[str, str]:
        return {
            "punto": exact(c.player),
            "banco": exact(c.banker),
            "egalite": exact(c.tie),
            "punto_expectation_given_5": exact(c.player_expectation),
            "punto_contribution_per_coup": exact(c.contribution),
            "house_edge_punto": exact(c.edge_player),
            "house_edge_banco": exact(c.edge_banker),
            "house_edge_egalite": exact(c.edge_tie),
            "player": exact(c.player),
            "banker": exact(c.banker),
            "tie": exact(c.tie),
            "player_expectation_given_5": exact(c.player_expectation),
            "house_edge_player": exact(c.edge_player),
            "house_edge_banker": exact(c.edge_banker),
            "house_edge_tie": exact(c.edge_tie),
        }

    better = result.better
    return {
        "game": "punto-5",
        "shoe": str(result.shoe),
        "rules": result.rules.name,
        "banco_commission": exact(result.commission),
        "egalite_pays": f"{TIE_PAYS}:1",
        "probability_two_card_5": exact(result.draw.probability_five),
        "draw": choice(result.draw),
        "stand": choice(result.stand),
        "better": better.action,
        "gain_per_coup": exact(result.gain),
        "house_edges": {
            "punto": exact(better.edge_player),
            "banco": exact(better.edge_banker),
            "egalite": exact(better.edge_tie),
            "player": exact(better.edge_player),
            "banker": exact(better.edge_banker),
            "tie": exact(better.edge_tie),
        },
        "banker_commission": exact(result.commission),
        "tie_pays": f"{TIE_PAYS}:1",
    }


def render_punto5(result: Punto5, fmt: str = "table") -> str:
    """Both choices on a 5 as a text table, Markdown or JSON."""
    check_format(fmt)
    if fmt == "json":
        return dumps(punto5_json(result))
    return punto5_text(result, fmt)


def _totals(values: frozenset[int]) -> str:
    return ", ".join(map(str, sorted(values))) or "no total"


def punto5_text(result: Punto5, fmt: str, level: int = 2) -> str:
    """Both choices on a 5 as text or Markdown, headed at `level`, with the better one's house edges."""
    return write(punto5_blocks(result, fmt, level), fmt)


def punto5_blocks(result: Punto5, fmt: str, level: int = 2) -> list[Block]:
    """The blocks of `punto5_text` (a user's text as `fmt` shows it)."""
    r = result
    rows = [
        [
            c.action,
            decimal(c.player),
            decimal(c.banker),
            decimal(c.tie),
            signed_percent(c.player_expectation),
            exact(c.player_expectation),
            signed_percent(c.contribution),
            exact(c.contribution),
        ]
        for c in (r.draw, r.stand)
    ]
    headers = ["Punto on 5", "Punto", "Banco", "Égalité", "Punto bet, given 5", "exact", "per coup", "exact"]
    edges = [
        [name, percent(get(r.better)), exact(get(r.better)), percent(get(other))]
        for name, get in (
            ("Punto 1:1", attrgetter("edge_player")),
            (f"Banco, {percent(r.commission, 2)} commission", attrgetter("edge_banker")),
            (f"Égalité {TIE_PAYS}:1", attrgetter("edge_tie")),
        )
        for other in [r.stand if r.better is r.draw else r.draw]
    ]
    other = "stand" if r.better is r.draw else "draw"
    return [
        Heading(f"Punto 5 (Russian rules): {r.shoe}, {user_text(r.rules.name, fmt)} rules", level),
        Paragraph(
            f"P(Punto's two cards total 5) = {exact(r.draw.probability_five)} "
            f"({percent(r.draw.probability_five)}). Given that 5, the result of each choice (when Punto "
            f"stands Banco draws on {_totals(r.rules.banker_draws_player_stood)} and stands otherwise; when "
            "Punto draws Banco follows the tableau):"
        ),
        Table.of(rows, headers),
        Paragraph(
            f"Better for Punto bettors: {r.better.action} (worth {signed_percent(r.gain)} of a Punto stake "
            f"per coup, exactly {exact(r.gain)}). House edges when they always {r.better.action} on 5 "
            f"(Banco pays 1 less {percent(r.commission, 2)} commission, égalité {TIE_PAYS}:1), with the "
            "other choice for comparison:"
        ),
        Table.of(edges, ["bet", f"house edge ({r.better.action})", "exact", f"if they {other}"]),
    ]
