"""Chemin de fer with a commission (`analyzer.games.chemin_commission`): the bimatrix game's
Nash equilibria, how they move with the commission, and the Banker's maximin beside them."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import sympy

from analyzer.games.chemin import MODELS, CheminSolution
from analyzer.games.chemin_commission import MODEL, CommissionGame, Equilibrium, Switch
from analyzer.present.document import Block, Heading, Paragraph, Table, write
from analyzer.present.games.cells import action_cell, cell_name, row_label
from analyzer.present.text import decimal, exact, percent, signed_percent

__all__ = [
    "COMMISSION_HEADERS",
    "COMMISSION_MODEL_TEXT",
    "COMMISSION_SOURCES_TEXT",
    "commission_blocks",
    "commission_json",
    "commission_rows",
    "commission_text",
    "maximin_comparison",
    "switches_text",
]


COMMISSION_MODEL_TEXT = (
    "With a commission on Banker wins, the casino game of chemin de fer is not zero-sum: the "
    "Banker gets 1 less the commission on a win, the Player loses 1 on a loss and gets 1 on a "
    "win, and the house keeps the difference. It is solved here as the bimatrix game of Ethier "
    "and Lee's Model B2 (Downton and Lockwood's model): the Banker sees his two cards and the "
    "Player's third card (or that he stood), the Player sees only his total and chooses only on "
    "5. Every Nash equilibrium is found exactly: against the Player's draw probability p on 5 "
    "the Banker's best reply is set by set and changes only at finitely many breakpoints, so "
    "each breakpoint and each interval between them is examined for a p that is a Player best "
    "reply; each equilibrium found is then checked as mutual best responses."
)

COMMISSION_SOURCES_TEXT = (
    "Ethier and Lee (2023, 'A game-theoretic analysis of baccara chemin de fer, II', Games 14, "
    "63, arXiv:2308.00118) solve this game for commissions from 0 to 10% and d decks with a "
    "generalisation of Foster's algorithm, and find the equilibrium unique with rare exceptions. "
    "Reproduced here: the game's size (the Banker has 484 information sets under Model B2, a "
    "2 x 2^484 bimatrix game) and uniqueness on 6 decks at every rate in the table. Their "
    "numerical tables could not be retrieved for this project (only the abstract was "
    "available), so the equilibria here are not compared figure by figure with theirs; they "
    "rest on the exact checks instead (mutual best responses, a brute-force walk over the cards "
    "on small shoes, and the commission-free game equal to the zero-sum solution)."
)


def _commission_cells(game: CommissionGame, eq: Equilibrium) -> dict[str, dict[str, str]]:
    strategy: dict[str, dict[str, str]] = {}
    for key, q in zip(game.banker_sets, eq.banker, strict=True):
        if key not in game.unreachable:
            _, seen, v = key
            strategy.setdefault(row_label(seen), {})["stood" if v is None else str(v)] = exact(q)
    return strategy


def _rate(commission: Fraction) -> str:
    """A commission as a percentage: "5%", or "2.50%" when it is not a whole percent."""
    return percent(commission, 0 if (commission * 100).denominator == 1 else 2)


def commission_json(game: CommissionGame) -> dict[str, Any]:
    """The Nash equilibria as JSON-ready exact strings."""
    return {
        "model": str(MODEL),
        "model_description": MODELS[MODEL],
        "commission": exact(game.commission),
        "unique": game.unique,
        "continuum_of_player_draw_probability": (
            None if game.continuum is None else [exact(v) for v in game.continuum]
        ),
        "equilibria": [
            {
                "player_draw_probability_on_5": exact(eq.draw_on_five),
                "banker_value": exact(eq.banker_value),
                "player_value": exact(eq.player_value),
                "house_take": exact(eq.house_take),
                "banker_mixed": {cell_name(k): exact(q) for k, q in game.mixed(eq).items()},
                "banker_strategy": _commission_cells(game, eq),
            }
            for eq in game.equilibria
        ],
    }


def commission_rows(games: Sequence[CommissionGame]) -> list[list[str]]:
    """One row per commission: p, both sides' expectations, the house's take, the Banker's mixes
    and the pure actions that differ from the first game's (first) equilibrium."""
    rows = []
    first = games[0].equilibrium.banker
    for game in games:
        for eq in game.equilibria:
            mixed = "; ".join(f"{cell_name(k)} {exact(q)}" for k, q in game.mixed(eq).items()) or "none"
            changed = "; ".join(
                f"{cell_name(k)} {'draws' if q else 'stands'}"
                for k, q, q0 in zip(game.banker_sets, eq.banker, first, strict=True)
                if q != q0 and q in (0, 1)
            )
            rows.append(
                [
                    _rate(game.commission),
                    exact(eq.draw_on_five),
                    decimal(eq.draw_on_five),
                    signed_percent(eq.banker_value),
                    signed_percent(eq.player_value),
                    percent(eq.house_take),
                    mixed,
                    changed or "none",
                    "yes" if game.unique else "no",
                ]
            )
    return rows


COMMISSION_HEADERS = [
    "commission",
    "P(Player draws on 5)",
    "decimal",
    "Banker's expectation",
    "Player's expectation",
    "house's take",
    "Banker mixes",
    "pure actions changed from the first row",
    "unique",
]


def commission_text(game: CommissionGame, fmt: str, level: int = 2, strategy: bool = True) -> str:
    """The Nash equilibria of one game as text or Markdown (with the Banker's full strategy),
    ending in a blank line."""
    return write(commission_blocks(game, level, strategy), fmt) + "\n"


def commission_blocks(game: CommissionGame, level: int = 2, strategy: bool = True) -> list[Block]:
    """The blocks of `commission_text`."""
    title = f"Chemin de fer with a {_rate(game.commission)} commission: Nash equilibria, {game.shoe}"
    blocks: list[Block] = [Heading(title, level), Paragraph(COMMISSION_MODEL_TEXT)]
    if game.unique:
        blocks.append(Paragraph("The Nash equilibrium is unique."))
    else:
        span = (
            ""
            if game.continuum is None
            else (
                f" The Player is indifferent for every p from {exact(game.continuum[0])} to "
                f"{exact(game.continuum[1])}."
            )
        )
        blocks.append(
            Paragraph(
                f"The Nash equilibria are not unique: the {len(game.equilibria)} extreme ones are listed "
                f"(every mixture of Banker strategies between them at the same p is one too).{span}"
            )
        )
    for number, eq in enumerate(game.equilibria, 1):
        if len(game.equilibria) > 1:
            blocks.append(Paragraph(f"Equilibrium {number}:"))
        rows = [
            ["P(Player draws on 5)", decimal(eq.draw_on_five), exact(eq.draw_on_five)],
            ["Banker's expectation per unit (net of commission)", signed_percent(eq.banker_value),
             exact(eq.banker_value)],
            ["Player's expectation per unit", signed_percent(eq.player_value), exact(eq.player_value)],
            ["house's take per unit staked", percent(eq.house_take), exact(eq.house_take)],
        ]  # fmt: skip
        blocks.append(Table.of(rows, ["quantity", "decimal", "exact"]))
        mixed = "; ".join(
            f"{cell_name(k)} draws with probability {exact(q)}" for k, q in game.mixed(eq).items()
        )
        blocks.append(Paragraph(f"Banker's mixed cells: {mixed or 'none'}."))
        if strategy:
            cells = _commission_cells(game, eq)
            headers = ["Banker", "total", *(str(v) for v in range(10)), "stood"]
            body = [
                [hand, str(sum(int(c) for c in hand.split("+")) % 10), *(_strategy_cell(row.get(str(v)))
                 for v in range(10)), _strategy_cell(row.get("stood"))]
                for hand, row in cells.items()
            ]  # fmt: skip
            body.sort(key=lambda row: (int(row[1]), row[0]))
            blocks += [
                Paragraph(
                    "Banker's strategy (D draws, S stands, a fraction is the probability of drawing, - "
                    "never dealt), by hand and the Player's third card:"
                ),
                Table.of(body, headers),
            ]
    return blocks


def maximin_comparison(game: CommissionGame, maximin: CheminSolution) -> str:
    """How the equilibrium compares with the Banker's maximin (the zero-sum game on his net
    result), in the same model and commission."""
    eq = game.equilibrium
    parts = [
        f"For comparison, the Banker's maximin in the same model (what he can guarantee whatever the "
        f"Player does: the zero-sum game on his net result) is {signed_percent(maximin.value)} "
        f"({exact(maximin.value)}), with the Player drawing on 5 with probability "
        f"{exact(maximin.draw_on_five)} to hold him to it. "
    ]
    if maximin.value == eq.banker_value and maximin.draw_on_five == eq.draw_on_five:
        parts.append(
            "Both equal the equilibrium's: the Player's equilibrium mix is the one that makes the Banker "
            "indifferent at his mixed cell, which depends on the Banker's payoff only, so it is also the "
            "mix that holds the Banker to his maximin. "
        )
    else:
        parts.append(
            f"The equilibrium differs: the Banker gets {signed_percent(eq.banker_value - maximin.value)} "
            f"more and the Player draws with probability {exact(eq.draw_on_five)}. "
        )
    differ = [
        f"{cell_name(k)}: maximin {exact(q0)}, equilibrium {exact(q)}"
        for k, q, q0 in zip(game.banker_sets, eq.banker, maximin.banker.values(), strict=True)
        if q != q0
    ]
    parts.append(
        "The Banker's strategies differ at "
        + ("; ".join(differ) if differ else "no cell")
        + " (draw probabilities): at the maximin his mix leaves the Player indifferent in the Banker's "
        "net terms, at the equilibrium in the Player's own terms, which the commission does not touch."
    )
    return "".join(parts)


def switches_text(switches: Sequence[Switch], low: Fraction, high: Fraction) -> str:
    """Where between `low` and `high` the equilibrium's pure part changes, and why it is not unique there."""
    if not switches:
        return (
            f"Between {_rate(low)} and {_rate(high)} the Banker's pure actions at the equilibrium never "
            "change."
        )
    items = []
    for sw in switches:
        items.append(
            f"at {cell_name(sw.cell)} at a commission of {float(sw.commission) * 100:.4f}% (exactly "
            f"{sympy.sstr(sw.commission)}, a root of {sympy.sstr(sw.polynomial)} = 0 in the commission a)"
        )
    return (
        f"Between {_rate(low)} and {_rate(high)} the Banker's best pure action changes only "
        + "; ".join(items)
        + ". At such a commission the Banker is indifferent there too, so the equilibria form a "
        "segment (any mix at that cell that keeps the Player indifferent): such isolated, here "
        "irrational, commissions are instances of Ethier and Lee's 'rare exceptions'. At every "
        "commission in the table the solver finds exactly one equilibrium."
    )


def _strategy_cell(value: str | None) -> str:
    return "-" if value is None else action_cell(Fraction(value))
