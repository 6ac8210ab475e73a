"""Rendering the games' results (`analyzer.games`) as text tables, Markdown or JSON.

The solvers in `analyzer.games` return typed results; this package alone turns them into
text, one module per game (`chemin`, `chemin_commission`, `punto5`, `banque`, `macao`) with
the helpers of `analyzer.present.text` and the shared cells of `cells`. `render_game` is
what ``baccarat solve GAME`` prints.
"""

from __future__ import annotations

from fractions import Fraction

from analyzer.core.errors import AnalyzerError
from analyzer.core.rules import STANDARD, Rules
from analyzer.core.shoe import Shoe
from analyzer.games import BanqueResult, CheminResult, GameResult, MacaoResults, solve
from analyzer.games.punto5 import Punto5
from analyzer.present.games.banque import render_banque
from analyzer.present.games.chemin import render_chemin, solution_json
from analyzer.present.games.chemin_commission import commission_json, commission_text
from analyzer.present.games.macao import render_macao
from analyzer.present.games.punto5 import render_punto5
from analyzer.present.text import OutputFormat, check_format, dumps

__all__ = ["render_game", "solve_text"]


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
