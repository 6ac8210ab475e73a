"""The reports of the games where hands choose: solved by `analyzer.games`, rendered by
`analyzer.present.games`."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor
from fractions import Fraction

from analyzer.core.rules import STANDARD
from analyzer.core.shoe import Shoe
from analyzer.games import banque, chemin, chemin_commission, clear_caches, macao_results, punto5
from analyzer.games.chemin_graph import InfoModel
from analyzer.present.document import Block, Heading, Paragraph, Table
from analyzer.present.games.banque import BANQUE_MODEL, banque_blocks, banque_stand_blocks
from analyzer.present.games.chemin import (
    CHEMIN_MODEL_TEXT,
    CHEMIN_SOURCES_TEXT,
    chemin_blocks,
    chemin_summary_table,
)
from analyzer.present.games.chemin_commission import (
    COMMISSION_HEADERS,
    COMMISSION_SOURCES_TEXT,
    commission_blocks,
    commission_rows,
    maximin_comparison,
    switches_text,
)
from analyzer.present.games.macao import macao_blocks
from analyzer.present.games.punto5 import PUNTO5_MODEL_TEXT, punto5_blocks
from analyzer.present.reports.shared import report

__all__ = ["GAME_REPORTS", "games_report", "start_games_report"]


def _chemin_report() -> str:
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
    games = [chemin_commission.solve_commission(six, STANDARD, Fraction(c, 100)) for c in range(11)]
    maximin = chemin.solve_chemin(six, STANDARD, Fraction(1, 20), InfoModel.BANKER_HANDS)
    switches = chemin_commission.commission_switches(six)
    blocks = [
        Paragraph(CHEMIN_MODEL_TEXT),
        Heading("Summary"),
        chemin_summary_table(solutions),
        *chemin_blocks(solutions[0], "markdown"),
        *chemin_blocks(solutions[4], "markdown"),
        Paragraph(CHEMIN_SOURCES_TEXT),
        *commission_blocks(games[5]),
        Paragraph(maximin_comparison(games[5], maximin)),
        Heading("How the equilibrium moves with the commission (6 decks)", 3),
        Table.of(commission_rows(games), COMMISSION_HEADERS),
        Paragraph(switches_text(switches, Fraction(0), Fraction(1, 10))),
        Paragraph(COMMISSION_SOURCES_TEXT),
    ]
    return report("Chemin de fer: the zero-sum game, and the casino game with a commission", blocks)


def _punto5_report() -> str:
    blocks: list[Block] = [Paragraph(PUNTO5_MODEL_TEXT)]
    for shoe in (Shoe.decks(8), Shoe.decks(6), Shoe.infinite()):
        blocks += punto5_blocks(punto5.solve_punto5(shoe), "markdown")
    return report("Punto 5: the Russian rules where Punto bettors choose on a 5", blocks, blank_end=True)


def _banque_report() -> str:
    blocks: list[Block] = [*BANQUE_MODEL]
    for shoe in (Shoe.decks(3), Shoe.infinite()):
        game = banque.banque_game(shoe, STANDARD, Fraction(0))
        blocks += banque_blocks(banque.banque_reply(game), banque.solve_banque(shoe), "markdown")
        blocks += banque_stand_blocks(banque.banque_reply(game, Fraction(0)))
    return report("Baccarat banque", blocks, blank_end=True)


def _macao_report() -> str:
    results = list(macao_results(Shoe.decks(2)).results)
    return report("Macao and Victoria", macao_blocks(results))


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
    """One game report's text (module level, so that a worker process can run it); the
    worker keeps none of the game's cached solutions for the studies it runs next (the
    report's peak memory: a worker 323 -> 258 MB after chemin de fer)."""
    text = GAME_REPORTS[name]()
    clear_caches()
    return text


def start_games_report(executor: Executor | None) -> Callable[[], dict[str, str]]:
    """Start the game reports on `executor` (None: nothing starts now); the returned call
    collects their texts, by file name in `GAME_REPORTS` order, identical either way."""
    if executor is None:
        return games_report
    futures = {name: executor.submit(_game_report, name) for name in GAME_REPORTS}
    return lambda: {name: future.result() for name, future in futures.items()}
