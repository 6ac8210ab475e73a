"""Rendering the games' results (analyzer.games) as text tables, Markdown or JSON.

The solvers in `analyzer.games` return typed results; this module alone turns them into
text, with the helpers of `analyzer.present.format` (exact fractions, decimals rounded from them,
tables through tabulate). `render_game` is what ``baccarat solve GAME`` prints.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from enum import StrEnum
from fractions import Fraction
from operator import attrgetter
from typing import Any

import sympy

from analyzer.core.errors import AnalyzerError
from analyzer.core.rules import STANDARD, Rules
from analyzer.core.shoe import Shoe
from analyzer.games import BanqueResult, CheminResult, GameResult, MacaoResults, banque, punto5, solve
from analyzer.games.banque import BanqueReply, BanqueSolution, InfoSet
from analyzer.games.banque_table import NATURAL, OBS_LABEL, OBSERVATIONS
from analyzer.games.chemin import MODELS, CheminSolution
from analyzer.games.chemin_commission import MODEL, CommissionGame, Equilibrium, Switch
from analyzer.games.chemin_graph import InfoKey
from analyzer.games.hands import FREE_TOTAL, hand_label
from analyzer.games.macao import MacaoResult
from analyzer.games.punto5 import TIE_PAYS, Choice, Punto5
from analyzer.present.format import check_format, decimal, dumps, exact, percent, table

__all__ = [
    "BANQUE_MODEL_TEXT",
    "CHEMIN_MODEL_TEXT",
    "CHEMIN_SOURCES_TEXT",
    "COMMISSION_HEADERS",
    "COMMISSION_MODEL_TEXT",
    "COMMISSION_SOURCES_TEXT",
    "MACAO_MODEL_TEXT",
    "PUNTO5_MODEL_TEXT",
    "OutputFormat",
    "action_cell",
    "banque_json",
    "banque_stand_text",
    "banque_text",
    "chemin_summary_table",
    "chemin_text",
    "commission_json",
    "commission_rows",
    "commission_text",
    "heading",
    "macao_json",
    "macao_text",
    "maximin_comparison",
    "punto5_json",
    "punto5_text",
    "render_banque",
    "render_chemin",
    "render_game",
    "render_macao",
    "render_punto5",
    "signed_percent",
    "solution_json",
    "solve_text",
    "switches_text",
]


class OutputFormat(StrEnum):
    """The formats the games render to (`analyzer.present.format.FORMATS`)."""

    TABLE = "table"
    MARKDOWN = "markdown"
    JSON = "json"


def heading(title: str, fmt: str, level: int = 2) -> str:
    """A section heading in the one style of `analyzer.present.format`: Markdown `##` (or `level`
    hashes) for markdown, the bare title for table."""
    return f"{'#' * level} {title}\n\n" if fmt == "markdown" else f"{title}\n\n"


def action_cell(draw: Fraction) -> str:
    """A draw probability as a strategy-table cell: D (draws), S (stands) or the exact mix."""
    return "D" if draw == 1 else "S" if draw == 0 else exact(draw)


def signed_percent(value: Fraction, places: int = 4) -> str:
    """A percentage with its sign always shown, e.g. "+1.2799%"."""
    return ("+" if value >= 0 else "") + percent(value, places)


# -- chemin de fer ---------------------------------------------------------------------------

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


def chemin_summary_table(solutions: Sequence[CheminSolution], fmt: str) -> str:
    """One row per solution: shoe, model, commission, value, P(Player draws on 5), Banker's mixes."""
    rows = [
        [
            str(s.shoe),
            s.info,
            percent(s.commission, 2),
            signed_percent(s.value),
            exact(s.value),
            exact(s.draw_on_five),
            "; ".join(f"{_cell_name(k)} {exact(p)}" for k, p in _mixed(s)) or "none",
        ]
        for s in solutions
    ]
    headers = ["shoe", "model", "commission", "value", "exact", "P(Player draws on 5)", "Banker mixes"]
    return table(rows, headers, fmt)


def _row_label(seen: Any) -> str:
    return hand_label(seen) if isinstance(seen, tuple) else str(seen)


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
        body.append([_row_label(seen), *total, *(_cell(cells.get(v)) for v in (*range(10), None))])
    if by_hand:
        body.sort(key=lambda row: (int(row[1]), row[0]))
    return headers, body


def _cell(p: Fraction | None) -> str:
    return "-" if p is None else action_cell(p)


def _mixed(solution: CheminSolution) -> list[tuple[InfoKey, Fraction]]:
    return [(k, p) for k, p in solution.banker.items() if 0 < p < 1]


def _cell_name(key: InfoKey) -> str:
    _, seen, v = key
    return f"({_row_label(seen)}, {'stood' if v is None else v})"


def solution_json(solution: CheminSolution) -> dict[str, Any]:
    """Exact figures as JSON-ready strings."""
    strategy: dict[str, dict[str, str]] = {}
    for key, p in solution.banker.items():
        if key not in solution.unreachable:
            _, seen, v = key
            strategy.setdefault(_row_label(seen), {})["stood" if v is None else str(v)] = exact(p)
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
    data["banker_mixed"] = {_cell_name(k): exact(p) for k, p in _mixed(solution)}
    data["banker_contested"] = [_cell_name(k) for k in solution.contested]
    data["custom"] = {name: exact(v) for name, v in asdict(solution.custom).items()}
    return data


def render_chemin(solution: CheminSolution, fmt: str = "table") -> str:
    """The solution as a text table, Markdown or JSON."""
    check_format(fmt)
    if fmt == "json":
        return dumps(solution_json(solution))
    return chemin_text(solution, fmt)


def chemin_text(solution: CheminSolution, fmt: str, level: int = 2) -> str:
    s = solution
    title = f"Chemin de fer: {s.shoe}, {s.info} model"
    parts = [heading(title, fmt, level)]
    parts.append(
        f"Model: {MODELS[s.info]}. Rules: {s.rules.name} naturals and Player custom (draw on "
        f"{', '.join(str(t) for t in sorted(s.rules.punto_draws - {FREE_TOTAL}))}; free on {FREE_TOTAL}); "
        f"the Banker is free everywhere. Commission on Banker wins: {percent(s.commission, 2)}. "
        "Values are the Banker's expectation per unit staked (ties push).\n\n"
    )
    if s.commission:
        parts.append(
            "With a commission the game is not zero-sum: the commission goes to the house and the "
            "Player's payoff is unchanged. Shown here is the zero-sum game on the Banker's net "
            "result: the value is what the Banker can guarantee (its maximin), and the Player's "
            "draw probability on 5 is the one that holds the Banker to it. That pair is not a Nash "
            "equilibrium of the real game; the Player's own maximin is the no-commission strategy "
            "(solve without --commission).\n\n"
        )
    parts.append(
        table(
            [
                [
                    "Banker's maximin (net)" if s.commission else "value of the game",
                    signed_percent(s.value),
                    exact(s.value),
                ],
                [
                    "P(Player draws on 5) holding the Banker to it"
                    if s.commission
                    else "P(Player draws on 5)",
                    decimal(s.draw_on_five),
                    exact(s.draw_on_five),
                ],
            ],
            ["quantity", "decimal", "exact"],
            fmt,
        )
        + "\n\n"
    )
    if s.info == "hands":
        parts.append("Player's optimal draw probability on each two-card 5:\n\n")
        rows = [
            [hand_label(k[1]), action_cell(p) if s.five_weights[k] else "-", exact(s.five_weights[k])]
            for k, p in s.player.items()
        ]
        parts.append(table(rows, ["hand", "draws", "P(hand, given 5)"], fmt) + "\n\n")
    mixed = _mixed(s)
    mixed_text = "; ".join(f"{_cell_name(k)} draws with probability {exact(p)}" for k, p in mixed) or "none"
    kind = "maximin" if s.commission else "optimal"
    parts.append(
        f"Banker's {kind} strategy (D draws, S stands, a fraction is the probability of drawing, "
        "- never dealt), by Banker total or hand and the Player's third card:\n\n"
    )
    headers, rows = banker_table(s)
    parts.append(table(rows, headers, fmt) + "\n\n")
    parts.append(
        f"Mixed cells: {mixed_text}. Cells where the Banker's best action depends on the Player's "
        f"play on 5: {', '.join(_cell_name(k) for k in s.contested) or 'none'}; every other cell has "
        "one action that is best against any Player strategy.\n\n"
    )
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
    parts.append("What custom costs (Banker's expectation; change against the value):\n\n")
    parts.append(table(rows, ["play", "Banker's expectation", "exact", "change"], fmt) + "\n\n")
    reply = ", ".join(
        f"{_row_label(k[1])}: {'draw' if p else 'stand'}"
        for k, p in s.tableau_reply.items()
    )
    parts.append(f"The Player's best reply on 5 to the tableau: {reply}.\n")
    return "".join(parts)


# -- punto 5 ---------------------------------------------------------------------------------

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
    check_format(fmt)
    if fmt == "json":
        return dumps(punto5_json(result))
    return punto5_text(result, fmt)


def _totals(values: frozenset[int]) -> str:
    return ", ".join(map(str, sorted(values))) or "no total"


def punto5_text(result: Punto5, fmt: str, level: int = 2) -> str:
    r = result
    parts = [heading(f"Punto 5 (Russian rules): {r.shoe}, {r.rules.name} rules", fmt, level)]
    parts.append(
        f"P(Punto's two cards total 5) = {exact(r.draw.probability_five)} "
        f"({percent(r.draw.probability_five)}). Given that 5, the result of each choice (when Punto "
        f"stands Banco draws on {_totals(r.rules.banco_draws_punto_stood)} and stands otherwise; when "
        "Punto draws Banco follows the tableau):\n\n"
    )
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
    parts.append(table(rows, headers, fmt) + "\n\n")
    parts.append(
        f"Better for Punto bettors: {r.better.action} (worth {signed_percent(r.gain)} of a Punto stake per "
        f"coup, exactly {exact(r.gain)}). House edges when they always {r.better.action} on 5 "
        f"(Banco pays 1 less {percent(r.commission, 2)} commission, égalité {TIE_PAYS}:1), with the other "
        "choice for comparison:\n\n"
    )
    rows = [
        [name, percent(get(r.better)), exact(get(r.better)), percent(get(other))]
        for name, get in (
            ("Punto 1:1", attrgetter("edge_player")),
            (f"Banco, {percent(r.commission, 2)} commission", attrgetter("edge_banker")),
            (f"Égalité {TIE_PAYS}:1", attrgetter("edge_tie")),
        )
        for other in [r.stand if r.better is r.draw else r.draw]
    ]
    parts.append(
        table(
            rows,
            [
                "bet",
                f"house edge ({r.better.action})",
                "exact",
                f"if they {'stand' if r.better is r.draw else 'draw'}",
            ],
            fmt,
        )
        + "\n"
    )
    return "".join(parts)


# -- baccarat banque --------------------------------------------------------------------------


def _model_text() -> str:
    """The module docstring's model, as a Markdown list."""
    model = (banque.__doc__ or "").split("\n\nComputation:")[0].split("\n\n", 1)[1]
    head, *items = model.split("\n- ")
    return " ".join(head.split()) + "\n\n" + "\n".join("- " + " ".join(item.split()) for item in items)


BANQUE_MODEL_TEXT = _model_text()


def _key_total(key: Any) -> int:
    return sum(key) % 10 if isinstance(key, tuple) else key


def reply_grids(reply: BanqueReply) -> dict[int, tuple[list[str], list[list[str]]]]:
    """Per Banker total: the best reply as a grid (rows: right side, columns: left side).

    For finite shoes a cell is D or S when every hand of that total agrees, else the
    number of hands that draw, e.g. "2/6".
    """
    per_total: dict[int, dict[tuple[int, int], list[bool]]] = {}
    for (key, o1, o2), d in reply.draws.items():
        per_total.setdefault(_key_total(key), {}).setdefault((o1, o2), []).append(d)
    grids = {}
    for total, cells in sorted(per_total.items()):
        headers = ["right \\ left", *(OBS_LABEL[o] for o in OBSERVATIONS)]
        rows = []
        for o1 in OBSERVATIONS:
            row = [OBS_LABEL[o1]]
            for o2 in OBSERVATIONS:
                ds = cells.get((o1, o2), [])
                if o1 == o2 == NATURAL:
                    row.append("-")
                elif not ds:
                    row.append("")
                elif all(ds) or not any(ds):
                    row.append("D" if ds[0] else "S")
                else:
                    row.append(f"{sum(ds)}/{len(ds)}")
            rows.append(row)
        grids[total] = (headers, rows)
    return grids


def _uniform(rows: list[list[str]]) -> str | None:
    cells = {c for row in rows for c in row[1:] if c not in ("-", "")}
    return next(iter(cells)) if len(cells) == 1 else None


def _set_label(s: InfoSet) -> str:
    key, o1, o2 = s
    return f"(Banker {_row_label(key)}, right {OBS_LABEL[o1]}, left {OBS_LABEL[o2]})"


def banque_json(reply: BanqueReply, solution: BanqueSolution | None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "game": "banque",
        "shoe": str(reply.shoe),
        "rules": reply.rules.name,
        "commission": exact(reply.commission),
        "customary_five": "draw" if all(x == 1 for x in reply.five) else [exact(x) for x in reply.five],
        "best_reply": {
            "value_total": exact(reply.total),
            "value_per_side": {"right": exact(reply.right), "left": exact(reply.left)},
            "banker_draws": {
                _row_label(k): {
                    f"{OBS_LABEL[o1]}|{OBS_LABEL[o2]}": d
                    for (kk, o1, o2), d in reply.draws.items()
                    if kk == k
                }
                for k in reply_keys(reply)
            },
        },
    }
    if solution is not None:
        data["full_game"] = {
            "value_total": exact(solution.value),
            "value_per_side": exact(solution.value / 2),
            "sides_profile": {
                f"{'DS'[1 - r]}{'DS'[1 - lft]}": exact(p) for (r, lft), p in solution.profile.items()
            },
            "sides_independent": solution.independent,
            "banker_mixed": {_set_label(s): exact(p) for s, p in solution.banker.items() if 0 < p < 1},
            "banker_contested": [_set_label(s) for s in solution.contested],
        }
    return data


def reply_keys(reply: BanqueReply) -> list[Any]:
    keys: list[Any] = []
    for key, _, _ in reply.draws:
        if key not in keys:
            keys.append(key)
    return keys


def render_banque(reply: BanqueReply, solution: BanqueSolution | None, fmt: str = "table") -> str:
    """The best reply (and the full game when solved) as text, Markdown or JSON."""
    check_format(fmt)
    if fmt == "json":
        return dumps(banque_json(reply, solution))
    return banque_text(reply, solution, fmt)


def banque_text(reply: BanqueReply, solution: BanqueSolution | None, fmt: str, level: int = 2) -> str:
    r = reply
    if r.five[0] == r.five[1]:
        five = (
            "draws"
            if r.five[0] == 1
            else "stands"
            if r.five[0] == 0
            else f"draws with probability {r.five[0]}"
        )
    else:
        five = f"draws with probability {r.five[0]} (right) and {r.five[1]} (left)"
    forced = ", ".join(map(str, sorted(r.rules.punto_draws - {FREE_TOTAL})))
    parts = [heading(f"Baccarat banque: {r.shoe}", fmt, level)]
    parts.append(
        f"Both sides follow custom: draw on {forced}, "
        f"stand on 6-7, and on {FREE_TOTAL} each side {five} (the customary choice assumed here is to "
        f"draw: the punto banco rule). Naturals: {r.rules.name} rules. Commission on Banker wins: "
        f"{percent(r.commission, 2)}. The Banker sees its own "
        f"{'total' if r.shoe.is_infinite else 'two cards'} and each side's state.\n\n"
    )
    parts.append(
        table(
            [
                ["Banker, per unit on the right side", signed_percent(r.right), exact(r.right)],
                ["Banker, per unit on the left side", signed_percent(r.left), exact(r.left)],
                ["Banker, per coup (both stakes)", signed_percent(r.total), exact(r.total)],
            ],
            ["best reply to custom", "expectation", "exact"],
            fmt,
        )
        + "\n\n"
    )
    grids = reply_grids(r)
    uniform = {t: _uniform(rows) for t, (_, rows) in grids.items()}
    same = [f"{t}: {'draws' if u == 'D' else 'stands'} everywhere" for t, u in uniform.items() if u]
    parts.append(
        "The Banker's best reply (D draws, S stands; rows: what it sees of the right side, columns: "
        "of the left side"
        + ("" if r.shoe.is_infinite else "; k/n: k of the n hands of that total draw")
        + "). "
        + ("Banker total " + "; ".join(same) + "." if same else "")
        + "\n\n"
    )
    for t, (headers, rows) in grids.items():
        if uniform[t]:
            continue
        parts.append(f"Banker total {t}:\n\n" + table(rows, headers, fmt) + "\n\n")
    if solution is not None:
        s = solution
        right, left = s.side_probabilities()
        mixed = [
            f"{_set_label(k)} draws with probability {exact(p)}" for k, p in s.banker.items() if 0 < p < 1
        ]
        parts.append(
            "Full game (the Banker against both sides together, each side choosing on its 5 by its "
            "total; the sides may correlate their choices):\n\n"
            + table(
                [
                    ["value per coup (both stakes)", signed_percent(s.value), exact(s.value)],
                    ["value per side", signed_percent(s.value / 2), exact(s.value / 2)],
                    ["right side draws on 5", "", exact(right)],
                    ["left side draws on 5", "", exact(left)],
                ],
                ["quantity", "decimal", "exact"],
                fmt,
            )
            + "\n\n"
            + "Sides' optimal joint play on 5 (DD both draw, DS right draws and left stands, ...): "
            + ", ".join(f"{'DS'[1 - a]}{'DS'[1 - b]} {exact(p)}" for (a, b), p in s.profile.items())
            + (". It is a product of independent choices" if s.independent else ". It is correlated")
            + ". Banker's mixed sets: "
            + ("; ".join(mixed) or "none")
            + f". At {len(s.contested)} of its {len(s.banker)} sets the Banker's best action depends on "
            "the sides' play on 5 (listed in the JSON output); at every other set one action is best "
            "whatever the sides do.\n"
        )
    return "".join(parts)


def banque_stand_text(stand: BanqueReply) -> str:
    """The Banker's best reply when both sides stand on 5, as a one-row Markdown table."""
    return (
        "\nFor comparison, the Banker's best reply when both sides stand on 5 instead:\n\n"
        + table(
            [["Banker, per coup (both stakes)", signed_percent(stand.total), exact(stand.total)]],
            ["best reply, sides stand on 5", "expectation", "exact"],
            "markdown",
        )
    )


# -- macao -----------------------------------------------------------------------------------


def _threshold(t: int) -> str:
    return "never draws" if t < 0 else f"draws on 0-{t}" if t > 0 else "draws on 0"


def macao_json(results: list[MacaoResult]) -> dict[str, Any]:
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
    shoes = ", ".join(dict.fromkeys(str(r.shoe) for r in results))
    parts = [heading(f"Macao and Victoria: {shoes}", fmt, level), MACAO_MODEL_TEXT + "\n\n"]
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
    parts.append(table(rows, headers, fmt) + "\n\n")
    parts.append("The player's expectation per unit staked for every threshold:\n\n")
    thresholds = list(results[0].expectations)
    body = [
        [f"{r.model.variant}, {r.model.counting}", *(decimal(r.expectations[t], 6) for t in thresholds)]
        for r in results
    ]
    parts.append(table(body, ["game", *(_threshold(t) for t in thresholds)], fmt) + "\n\n")
    parts.append(
        "As modelled, the player, not the banker, has the edge; the coups that end on a natural "
        "alone give the player the 'of which naturals' column. The texts do not say how the "
        "banker recoups this (for example by collecting more on its own naturals), so these "
        "figures describe the rules exactly as stated.\n"
    )
    return "".join(parts)


# -- chemin de fer with a commission (bimatrix game) --------------------------------------------

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
            strategy.setdefault(_row_label(seen), {})["stood" if v is None else str(v)] = exact(q)
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
                "banker_mixed": {_cell_name(k): exact(q) for k, q in game.mixed(eq).items()},
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
            mixed = "; ".join(f"{_cell_name(k)} {exact(q)}" for k, q in game.mixed(eq).items()) or "none"
            changed = "; ".join(
                f"{_cell_name(k)} {'draws' if q else 'stands'}"
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
    """The Nash equilibria of one game as text or Markdown (with the Banker's full strategy)."""
    title = f"Chemin de fer with a {_rate(game.commission)} commission: Nash equilibria, {game.shoe}"
    parts = [heading(title, fmt, level), COMMISSION_MODEL_TEXT + "\n\n"]
    if game.unique:
        parts.append("The Nash equilibrium is unique.\n\n")
    else:
        span = "" if game.continuum is None else (
            f" The Player is indifferent for every p from {exact(game.continuum[0])} to "
            f"{exact(game.continuum[1])}."
        )
        parts.append(
            f"The Nash equilibria are not unique: the {len(game.equilibria)} extreme ones are listed "
            f"(every mixture of Banker strategies between them at the same p is one too).{span}\n\n"
        )
    for number, eq in enumerate(game.equilibria, 1):
        if len(game.equilibria) > 1:
            parts.append(f"Equilibrium {number}:\n\n")
        rows = [
            ["P(Player draws on 5)", decimal(eq.draw_on_five), exact(eq.draw_on_five)],
            ["Banker's expectation per unit (net of commission)", signed_percent(eq.banker_value),
             exact(eq.banker_value)],
            ["Player's expectation per unit", signed_percent(eq.player_value), exact(eq.player_value)],
            ["house's take per unit staked", percent(eq.house_take), exact(eq.house_take)],
        ]  # fmt: skip
        parts.append(table(rows, ["quantity", "decimal", "exact"], fmt) + "\n\n")
        mixed = "; ".join(
            f"{_cell_name(k)} draws with probability {exact(q)}" for k, q in game.mixed(eq).items()
        )
        parts.append(f"Banker's mixed cells: {mixed or 'none'}.\n\n")
        if strategy:
            cells = _commission_cells(game, eq)
            headers = ["Banker", "total", *(str(v) for v in range(10)), "stood"]
            body = [
                [hand, str(sum(int(c) for c in hand.split("+")) % 10), *(_strategy_cell(row.get(str(v)))
                 for v in range(10)), _strategy_cell(row.get("stood"))]
                for hand, row in cells.items()
            ]  # fmt: skip
            body.sort(key=lambda row: (int(row[1]), row[0]))
            parts.append(
                "Banker's strategy (D draws, S stands, a fraction is the probability of drawing, - never "
                "dealt), by hand and the Player's third card:\n\n" + table(body, headers, fmt) + "\n\n"
            )
    return "".join(parts)


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
        f"{_cell_name(k)}: maximin {exact(q0)}, equilibrium {exact(q)}"
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
            "change.\n"
        )
    items = []
    for sw in switches:
        items.append(
            f"at {_cell_name(sw.cell)} at a commission of {float(sw.commission) * 100:.4f}% (exactly "
            f"{sympy.sstr(sw.commission)}, a root of {sympy.sstr(sw.polynomial)} = 0 in the commission a)"
        )
    return (
        f"Between {_rate(low)} and {_rate(high)} the Banker's best pure action changes only "
        + "; ".join(items)
        + ". At such a commission the Banker is indifferent there too, so the equilibria form a "
        "segment (any mix at that cell that keeps the Player indifferent): such isolated, here "
        "irrational, commissions are instances of Ethier and Lee's 'rare exceptions'. At every "
        "commission in the table the solver finds exactly one equilibrium.\n"
    )


def _strategy_cell(value: str | None) -> str:
    return "-" if value is None else action_cell(Fraction(value))


# -- solve: one entry point -------------------------------------------------------------------


def render_game(result: GameResult, fmt: OutputFormat | str = OutputFormat.TABLE) -> str:
    """Any game's result (from `analyzer.games.solve`) as a text table, Markdown or JSON."""
    check_format(fmt)
    fmt = OutputFormat(fmt)
    if isinstance(result, CheminResult):
        text = render_chemin(result.solution, fmt)
        if result.equilibria is None:
            return text
        if fmt == "json":
            data = solution_json(result.solution)
            data["nash_equilibria"] = commission_json(result.equilibria)
            return dumps(data)
        return text + "\n" + commission_text(result.equilibria, fmt)
    if isinstance(result, Punto5):
        return render_punto5(result, fmt)
    if isinstance(result, BanqueResult):
        return render_banque(result.reply, result.solution, fmt)
    if isinstance(result, MacaoResults):
        return render_macao(list(result.results), fmt)
    raise AnalyzerError(f"no renderer for {type(result).__name__}")


def solve_text(
    game: str,
    shoe: Shoe | None,
    rules: Rules = STANDARD,
    commission: Fraction | None = None,
    fmt: OutputFormat | str = OutputFormat.TABLE,
) -> str:
    """What ``baccarat solve GAME`` prints: `analyzer.games.solve` rendered as table, markdown or json."""
    check_format(fmt)
    return render_game(solve(game, shoe, rules, commission), fmt)
