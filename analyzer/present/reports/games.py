"""The reports of the games where hands choose: solved by `analyzer.games`, rendered by
`analyzer.present.games`."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor
from fractions import Fraction

from analyzer.core.rules import STANDARD
from analyzer.core.shoe import Shoe
from analyzer.games import banque, chemin, chemin_commission, macao_results, punto5
from analyzer.games.chemin_graph import InfoModel
from analyzer.present.games.banque import BANQUE_MODEL_TEXT, banque_stand_text, banque_text
from analyzer.present.games.chemin import (
    CHEMIN_MODEL_TEXT,
    CHEMIN_SOURCES_TEXT,
    chemin_summary_table,
    chemin_text,
)
from analyzer.present.games.chemin_commission import (
    COMMISSION_HEADERS,
    COMMISSION_SOURCES_TEXT,
    commission_rows,
    commission_text,
    maximin_comparison,
    switches_text,
)
from analyzer.present.games.macao import macao_text
from analyzer.present.games.punto5 import PUNTO5_MODEL_TEXT, punto5_text
from analyzer.present.reports.shared import PREAMBLE
from analyzer.present.text import table

__all__ = ["GAME_REPORTS", "games_report", "start_games_report"]


def _chemin_report() -> str:
    parts = ["# Chemin de fer: the zero-sum game, and the casino game with a commission\n\n", PREAMBLE]
    parts.append(CHEMIN_MODEL_TEXT + "\n\n")
    infinite, six, eight = Shoe.infinite(), Shoe.decks(6), Shoe.decks(8)
    runs = [
        (infinite, InfoModel.TOTALS, Fraction(0)),
        (infinite, InfoModel.HANDS, Fraction(0)),
        (six, InfoModel.TOTALS, Fraction(0)),
        (six, InfoModel.BANKER_HANDS, Fraction(0)),
        (six, InfoModel.HANDS, Fraction(0)),
        (six, InfoModel.HANDS, Fraction(1, 20)),
        (eight, InfoModel.HANDS, Fraction(0)),
    ]
    solutions = [chemin.solve_chemin(shoe, STANDARD, c, info) for shoe, info, c in runs]
    summary = chemin_summary_table(solutions)
    parts.append("## Summary\n\n" + table(summary.rows, summary.headers, "markdown") + "\n\n")
    parts.append(chemin_text(solutions[0], "markdown") + "\n")
    parts.append(chemin_text(solutions[4], "markdown") + "\n")
    parts.append(CHEMIN_SOURCES_TEXT + "\n\n")
    games = [chemin_commission.solve_commission(six, STANDARD, Fraction(c, 100)) for c in range(11)]
    parts.append(commission_text(games[5], "markdown"))
    maximin = chemin.solve_chemin(six, STANDARD, Fraction(1, 20), InfoModel.BANKER_HANDS)
    parts.append(maximin_comparison(games[5], maximin) + "\n\n")
    parts.append(
        "### How the equilibrium moves with the commission (6 decks)\n\n"
        + table(commission_rows(games), COMMISSION_HEADERS, "markdown")
        + "\n\n"
        + switches_text(chemin_commission.commission_switches(six), Fraction(0), Fraction(1, 10))
        + "\n"
        + COMMISSION_SOURCES_TEXT
        + "\n"
    )
    return "".join(parts)


def _punto5_report() -> str:
    parts = ["# Punto 5: the Russian rules where Punto bettors choose on a 5\n\n", PREAMBLE]
    parts.append(PUNTO5_MODEL_TEXT + "\n\n")
    for shoe in (Shoe.decks(8), Shoe.decks(6), Shoe.infinite()):
        parts.append(punto5_text(punto5.solve_punto5(shoe), "markdown") + "\n")
    return "".join(parts)


def _banque_report() -> str:
    parts = ["# Baccarat banque\n\n", PREAMBLE, BANQUE_MODEL_TEXT + "\n\n"]
    for shoe in (Shoe.decks(3), Shoe.infinite()):
        game = banque.banque_game(shoe, STANDARD, Fraction(0))
        parts.append(banque_text(banque.banque_reply(game), banque.solve_banque(shoe), "markdown"))
        parts.append("\n" + banque_stand_text(banque.banque_reply(game, Fraction(0))) + "\n")
    return "".join(parts)


def _macao_report() -> str:
    results = list(macao_results(Shoe.decks(2)).results)
    return "# Macao and Victoria\n\n" + PREAMBLE + macao_text(results, "markdown")


#: Report files of the games where hands choose.
GAME_REPORTS: dict[str, Callable[[], str]] = {
    "chemin-de-fer.md": _chemin_report,
    "punto-5.md": _punto5_report,
    "banque.md": _banque_report,
    "macao.md": _macao_report,
}


def games_report() -> dict[str, str]:
    """The game reports' Markdown texts, by file name (deterministic)."""
    return {name: build() for name, build in GAME_REPORTS.items()}


def _game_report(name: str) -> str:
    """One game report's text (module level, so that a worker process can run it)."""
    return GAME_REPORTS[name]()


def start_games_report(executor: Executor | None) -> Callable[[], dict[str, str]]:
    """Start the game reports on `executor` (None: nothing starts now); the returned call
    collects their texts, by file name in `GAME_REPORTS` order, identical either way."""
    if executor is None:
        return games_report
    futures = {name: executor.submit(_game_report, name) for name in GAME_REPORTS}
    return lambda: {name: future.result() for name, future in futures.items()}
