"""Chemin de fer as a zero-sum game (`analyzer.games.chemin`): the value, the Player's play
on 5, the Banker's strategy table and what custom costs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from fractions import Fraction
from typing import Any

from analyzer.games.chemin import MODELS, CheminSolution
from analyzer.games.chemin_graph import InfoKey
from analyzer.games.hands import FREE_TOTAL, hand_label
from analyzer.present.document import Block, Heading, Paragraph, Table, write
from analyzer.present.games.cells import action_cell, cell_name, row_label
from analyzer.present.text import check_format, decimal, dumps, exact, percent, signed_percent, user_text

__all__ = [
    "CHEMIN_MODEL_TEXT",
    "CHEMIN_SOURCES_TEXT",
    "banker_table",
    "chemin_blocks",
    "chemin_summary_table",
    "chemin_text",
    "render_chemin",
    "solution_json",
]


CHEMIN_MODEL_TEXT = (
    "Rules: the Player draws on 0-4 and stands on 6-7 by custom and is free on 5; a natural "
    "(8 or 9) on either side ends the coup; the Banker is free at every decision and sees the "
    "Player's third card (or that the Player stood). Payoff to the Banker per unit staked: +1 "
    "on a win (less the commission, if any), -1 on a loss, 0 on a tie. With a commission the "
    "real game is not zero-sum (the Player still loses 1); the zero-sum game solved here is on "
    "the Banker's net result, so its value is what the Banker can guarantee. Method: the "
    "Banker's expectation is bilinear in the two sides' draw probabilities, each side's "
    "guarantee is a convex piecewise-linear function solved by an exact LP, and the two "
    "guarantees are checked equal, which proves both strategies optimal. Information models: "
    + "; ".join(f"{name}: {text}" for name, text in MODELS.items())
    + ". With the infinite deck the two cards tell nothing more than the total, so all three "
    "models have the same value."
)

CHEMIN_SOURCES_TEXT = (
    "Published figures: Kemeny and Snell (1957) solved the infinite-deck totals model; as "
    "quoted by Ethier and Gamez (2013, 'A game-theoretic analysis of baccara chemin de fer', "
    "Games 4, 711-737, arXiv:1305.5468), the Player draws on 5 with probability 9/11, matched "
    "exactly above. Downton and Lockwood (1975) solved the banker-hands model and Ethier and "
    "Gamez the hands model for d decks; their numerical tables were not available to check "
    "the finite-shoe figures here, which rest on the exact checks instead."
)


def chemin_summary_table(solutions: Sequence[CheminSolution]) -> Table:
    """One row per solution: shoe, model, commission, value, P(Player draws on 5), Banker's mixes."""
    rows = [
        [
            str(s.shoe),
            s.info,
            percent(s.commission, 2),
            signed_percent(s.value),
            exact(s.value),
            exact(s.draw_on_five),
            "; ".join(f"{cell_name(k)} {exact(p)}" for k, p in _mixed(s)) or "none",
        ]
        for s in solutions
    ]
    headers = ["shoe", "model", "commission", "value", "exact", "P(Player draws on 5)", "Banker mixes"]
    return Table.of(rows, headers)


def banker_table(solution: CheminSolution) -> tuple[list[str], list[list[str]]]:
    """Headers and rows of the Banker's strategy: one row per total (or hand), D/S/mix cells."""
    rows: dict[Any, dict[int | None, Fraction | None]] = {}
    for (tag, seen, v), p in solution.banker.items():
        rows.setdefault(seen, {})[v] = None if (tag, seen, v) in solution.unreachable else p
    by_hand = solution.info != "totals"
    headers = ["Banker", *(["total"] if by_hand else []), *(str(v) for v in range(10)), "stood"]
    body = []
    for seen, cells in rows.items():
        total = [str(sum(seen) % 10)] if by_hand else []
        body.append([row_label(seen), *total, *(_cell(cells.get(v)) for v in (*range(10), None))])
    if by_hand:
        body.sort(key=lambda row: (int(row[1]), row[0]))
    return headers, body


def _cell(p: Fraction | None) -> str:
    return "-" if p is None else action_cell(p)


def _mixed(solution: CheminSolution) -> list[tuple[InfoKey, Fraction]]:
    return [(k, p) for k, p in solution.banker.items() if 0 < p < 1]


def solution_json(solution: CheminSolution) -> dict[str, Any]:
    """Exact figures as JSON-ready strings."""
    strategy: dict[str, dict[str, str]] = {}
    for key, p in solution.banker.items():
        if key not in solution.unreachable:
            _, seen, v = key
            strategy.setdefault(row_label(seen), {})["stood" if v is None else str(v)] = exact(p)
    data: dict[str, Any] = {
        "game": "chemin-de-fer",
        "model": solution.info,
        "model_description": MODELS[solution.info],
        "shoe": str(solution.shoe),
        "rules": solution.rules.name,
        "commission": exact(solution.commission),
        "value": exact(solution.value),
        "player_draw_probability": {k: exact(p) for k, p in solution.player_draw_probability().items()},
    }
    if solution.info == "hands":
        data["player_draw_probability_by_hand"] = {
            hand_label(k[1]): exact(p) for k, p in solution.player.items()
        }
    data["banker_strategy"] = strategy
    data["banker_mixed"] = {cell_name(k): exact(p) for k, p in _mixed(solution)}
    data["banker_contested"] = [cell_name(k) for k in solution.contested]
    data["custom"] = {name: exact(v) for name, v in asdict(solution.custom).items()}
    return data


def render_chemin(solution: CheminSolution, fmt: str = "table") -> str:
    """The solution as a text table, Markdown or JSON."""
    check_format(fmt)
    if fmt == "json":
        return dumps(solution_json(solution))
    return chemin_text(solution, fmt)


def chemin_text(solution: CheminSolution, fmt: str, level: int = 2) -> str:
    """The solution as text or Markdown, headed at `level`: value, strategies and what custom costs."""
    return write(chemin_blocks(solution, fmt, level), fmt)


def chemin_blocks(solution: CheminSolution, fmt: str, level: int = 2) -> list[Block]:
    """The blocks of `chemin_text` (a user's text as `fmt` shows it)."""
    s = solution
    blocks: list[Block] = [Heading(f"Chemin de fer: {s.shoe}, {s.info} model", level)]
    blocks.append(
        Paragraph(
            f"Model: {MODELS[s.info]}. Rules: {user_text(s.rules.name, fmt)} naturals and Player custom "
            f"(draw on {', '.join(str(t) for t in sorted(s.rules.player_draws - {FREE_TOTAL}))}; free on "
            f"{FREE_TOTAL}); the Banker is free everywhere. Commission on Banker wins: "
            f"{percent(s.commission, 2)}. Values are the Banker's expectation per unit staked (ties push)."
        )
    )
    if s.commission:
        blocks.append(
            Paragraph(
                "With a commission the game is not zero-sum: the commission goes to the house and the "
                "Player's payoff is unchanged. Shown here is the zero-sum game on the Banker's net "
                "result: the value is what the Banker can guarantee (its maximin), and the Player's "
                "draw probability on 5 is the one that holds the Banker to it. That pair is not a Nash "
                "equilibrium of the real game; the Player's own maximin is the no-commission strategy "
                "(the game solved without a commission)."
            )
        )
    value = "Banker's maximin (net)" if s.commission else "value of the game"
    five = "P(Player draws on 5) holding the Banker to it" if s.commission else "P(Player draws on 5)"
    rows = [
        [value, signed_percent(s.value), exact(s.value)],
        [five, decimal(s.draw_on_five), exact(s.draw_on_five)],
    ]
    blocks.append(Table.of(rows, ["quantity", "decimal", "exact"]))
    if s.info == "hands":
        rows = [
            [hand_label(k[1]), action_cell(p) if s.five_weights[k] else "-", exact(s.five_weights[k])]
            for k, p in s.player.items()
        ]
        blocks += [
            Paragraph("Player's optimal draw probability on each two-card 5:"),
            Table.of(rows, ["hand", "draws", "P(hand, given 5)"]),
        ]
    mixed = _mixed(s)
    mixed_text = "; ".join(f"{cell_name(k)} draws with probability {exact(p)}" for k, p in mixed) or "none"
    kind = "maximin" if s.commission else "optimal"
    headers, rows = banker_table(s)
    blocks += [
        Paragraph(
            f"Banker's {kind} strategy (D draws, S stands, a fraction is the probability of drawing, "
            "- never dealt), by Banker total or hand and the Player's third card:"
        ),
        Table.of(rows, headers),
        Paragraph(
            f"Mixed cells: {mixed_text}. Cells where the Banker's best action depends on the Player's "
            f"play on 5: {', '.join(cell_name(k) for k in s.contested) or 'none'}; every other cell has "
            "one action that is best against any Player strategy."
        ),
    ]
    c = s.custom
    plays = [
        ("Player always draws on 5, Banker replies best", c.player_always_draws_on_5),
        ("Player always stands on 5, Banker replies best", c.player_always_stands_on_5),
        ("Banker follows the punto banco tableau, Player replies best", c.banker_follows_tableau),
        ("both follow punto banco (Player draws on 5)", c.both_follow_custom),
    ]
    rows = [["optimal play (the value)", signed_percent(s.value), exact(s.value), ""]] + [
        [label, signed_percent(value), exact(value), signed_percent(value - s.value)]
        for label, value in plays
    ]
    reply = ", ".join(f"{row_label(k[1])}: {'draw' if p else 'stand'}" for k, p in s.tableau_reply.items())
    blocks += [
        Paragraph("What custom costs (Banker's expectation; change against the value):"),
        Table.of(rows, ["play", "Banker's expectation", "exact", "change"]),
        Paragraph(f"The Player's best reply on 5 to the tableau: {reply}."),
    ]
    return blocks
