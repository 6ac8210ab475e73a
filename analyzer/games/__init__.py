"""Games where the hands make choices, solved exactly (GitHub issue 5).

- ``punto-5``: seed 003's Russian rules, where Punto bettors draw or stand on a two-card 5.
- ``chemin-de-fer``: the two-person zero-sum game (Player free on 5, Banker free everywhere).
- ``banque``: baccarat banque, one Banker hand against two sides.
- ``macao``: macao and Victoria, the ancestors, with a player's best threshold strategy.

`solve_text` is what ``baccarat solve GAME`` prints; `games_report` builds the Markdown reports.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from analyzer.errors import AnalyzerError
from analyzer.games import banque, chemin, macao, punto5
from analyzer.games.common import check_format, exact, signed_percent, table
from analyzer.rules import STANDARD, Rules
from analyzer.shoe import Shoe

__all__ = ["GAMES", "Game", "default_shoe", "games_report", "solve_text"]


@dataclass(frozen=True)
class Game:
    """A solvable game: its title, default shoe and the function behind `solve_text`."""

    name: str
    title: str
    default_shoe: Callable[[], Shoe]
    solve: Callable[[Shoe, Rules, Fraction | None, str], str]


def _punto5(shoe: Shoe, rules: Rules, commission: Fraction | None, fmt: str) -> str:
    return punto5.render_punto5(punto5.solve_punto5(shoe, rules, commission), fmt)


def _chemin(shoe: Shoe, rules: Rules, commission: Fraction | None, fmt: str) -> str:
    return chemin.render_chemin(chemin.solve_chemin(shoe, rules, commission or 0), fmt)


def _banque(shoe: Shoe, rules: Rules, commission: Fraction | None, fmt: str) -> str:
    game = banque.banque_game(shoe, rules, Fraction(commission or 0))
    return banque.render_banque(
        banque.banque_reply(game), banque.solve_banque(shoe, rules, game.commission), fmt
    )


def _macao(shoe: Shoe, rules: Rules, commission: Fraction | None, fmt: str) -> str:
    if commission is not None:
        raise AnalyzerError(f"commission {commission}: macao takes no commission; leave --commission out")
    return macao.render_macao(_macao_results(shoe), fmt)


def _macao_results(shoe: Shoe) -> list[macao.MacaoResult]:
    return [
        macao.solve_macao(shoe, macao.MacaoModel(variant, counting))
        for variant in macao.VARIANTS
        for counting in macao.COUNTINGS
    ]


#: The games `solve_text` knows, by name.
GAMES: dict[str, Game] = {
    game.name: game
    for game in (
        Game("chemin-de-fer", "Chemin de fer", lambda: Shoe.decks(6), _chemin),
        Game("punto-5", "Punto 5 (Russian casino rules)", lambda: Shoe.decks(8), _punto5),
        Game("banque", "Baccarat banque", lambda: Shoe.decks(3), _banque),
        Game("macao", "Macao and Victoria", lambda: Shoe.decks(2), _macao),
    )
}


def default_shoe(game: str) -> Shoe:
    """The shoe `game` is played with when none is given (chemin de fer 6 decks, banque 3, ...)."""
    if game not in GAMES:
        raise AnalyzerError(f"unknown game {game!r}: use one of {', '.join(GAMES)}")
    return GAMES[game].default_shoe()


def solve_text(
    game: str,
    shoe: Shoe | None,
    rules: Rules = STANDARD,
    commission: Fraction | None = None,
    fmt: str = "table",
) -> str:
    """Solve `game` on `shoe` (None: the game's default shoe) and render it as table, markdown or json.

    `commission` is on Banker wins (chemin de fer, banque; default none) or on Banco bets
    (punto-5; default 5%); macao takes none. Bad input raises AnalyzerError.
    """
    if game not in GAMES:
        raise AnalyzerError(f"unknown game {game!r}: use one of {', '.join(GAMES)}")
    check_format(fmt)
    entry = GAMES[game]
    return entry.solve(entry.default_shoe() if shoe is None else shoe, rules, commission, fmt)


# -- reports ---------------------------------------------------------------------------------------

_PREAMBLE = (
    "Generated from the code (`analyzer.games.games_report`); do not edit. Exact values are "
    "fractions; decimals and percentages are rounded from them.\n\n"
)


def _chemin_report() -> str:
    parts = ["# Chemin de fer as a zero-sum game\n\n", _PREAMBLE, chemin.MODEL_TEXT + "\n\n"]
    runs = [
        (Shoe.infinite(), "totals", Fraction(0)),
        (Shoe.infinite(), "hands", Fraction(0)),
        (Shoe.decks(6), "totals", Fraction(0)),
        (Shoe.decks(6), "banker-hands", Fraction(0)),
        (Shoe.decks(6), "hands", Fraction(0)),
        (Shoe.decks(6), "hands", Fraction(1, 20)),
        (Shoe.decks(8), "hands", Fraction(0)),
    ]
    solutions = [chemin.solve_chemin(shoe, STANDARD, c, info) for shoe, info, c in runs]
    parts.append("## Summary\n\n" + chemin.summary_table(solutions, "markdown") + "\n\n")
    parts.append(chemin.chemin_text(solutions[0], "markdown") + "\n")
    parts.append(chemin.chemin_text(solutions[4], "markdown") + "\n")
    parts.append(chemin.SOURCES_TEXT + "\n")
    return "".join(parts)


def _punto5_report() -> str:
    parts = ["# Punto 5: seed 003's Russian rules\n\n", _PREAMBLE, punto5.__doc__.split("\n\n", 1)[1].strip()]
    parts.append("\n\n")
    for shoe in (Shoe.decks(8), Shoe.decks(6), Shoe.infinite()):
        parts.append(punto5.punto5_text(punto5.solve_punto5(shoe), "markdown") + "\n")
    return "".join(parts)


def _banque_report() -> str:
    parts = ["# Baccarat banque\n\n", _PREAMBLE, banque.MODEL_TEXT + "\n\n"]
    for shoe in (Shoe.decks(3), Shoe.infinite()):
        game = banque.banque_game(shoe, STANDARD, Fraction(0))
        reply = banque.banque_reply(game)
        stand = banque.banque_reply(game, Fraction(0))
        parts.append(banque.banque_text(reply, banque.solve_banque(shoe), "markdown"))
        parts.append(
            "\nFor comparison, the Banker's best reply when both sides stand on 5 instead:\n\n"
            + table(
                [["Banker, per coup (both stakes)", signed_percent(stand.total), exact(stand.total)]],
                ["best reply, sides stand on 5", "expectation", "exact"],
                "markdown",
            )
            + "\n\n"
        )
    return "".join(parts)


def _macao_report() -> str:
    return (
        "# Macao and Victoria\n\n" + _PREAMBLE + macao.macao_text(_macao_results(Shoe.decks(2)), "markdown")
    )


#: Report file name -> builder.
REPORTS: dict[str, Callable[[], str]] = {
    "chemin-de-fer.md": _chemin_report,
    "punto-5.md": _punto5_report,
    "banque.md": _banque_report,
    "macao.md": _macao_report,
}


def games_report() -> dict[str, str]:
    """Every game report's Markdown text, by file name (deterministic)."""
    return {name: build() for name, build in REPORTS.items()}
