"""Rendering the games' results (`analyzer.games`) as text tables, Markdown or JSON.

The solvers in `analyzer.games` return typed results; this package alone turns them into
blocks of the document model (`analyzer.present.document`), one module per game (`chemin`,
`chemin_commission`, `punto5`, `banque`, `macao`) with the helpers of `analyzer.present.text`
and the shared cells of `cells`; the format's writer writes them. `RENDERERS` gives each
result type its JSON document, its text and its blocks (one entry a game; `game_blocks`, which
the spreadsheet writers write); `render_game` is what ``baccarat solve GAME`` prints.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from analyzer.core.errors import AnalyzerError
from analyzer.core.rules import STANDARD, Rules
from analyzer.core.shoe import Shoe
from analyzer.games import BanqueResult, CheminResult, GameResult, MacaoResults, solve
from analyzer.games.punto5 import Punto5
from analyzer.present.document import Block, write
from analyzer.present.games.banque import banque_blocks, banque_json, banque_text
from analyzer.present.games.chemin import chemin_blocks, solution_json
from analyzer.present.games.chemin_commission import commission_blocks, commission_json
from analyzer.present.games.macao import macao_blocks, macao_json, macao_text
from analyzer.present.games.punto5 import punto5_blocks, punto5_json, punto5_text
from analyzer.present.text import OutputFormat, check_format, dumps

__all__ = ["RENDERERS", "GameRenderer", "game_blocks", "game_data", "render_game", "solve_text"]


@dataclass(frozen=True)
class GameRenderer:
    """How a game's result is shown: its JSON document, its text (table or Markdown) and
    its blocks in a format (those of the text)."""

    data: Callable[[Any], dict[str, Any]]
    text: Callable[[Any, str], str]
    blocks: Callable[[Any, str], list[Block]] | None = None


def _chemin_data(result: CheminResult) -> dict[str, Any]:
    data = solution_json(result.solution)
    if result.equilibria is not None:
        data["nash_equilibria"] = commission_json(result.equilibria)
    return data


def _chemin_text(result: CheminResult, fmt: str) -> str:
    blocks = chemin_blocks(result.solution, fmt)
    if result.equilibria is None:
        return write(blocks, fmt)
    return write(blocks + commission_blocks(result.equilibria), fmt) + "\n"  # a blank line ends it


def _chemin_blocks(result: CheminResult, fmt: str) -> list[Block]:
    blocks = chemin_blocks(result.solution, fmt)
    return blocks if result.equilibria is None else blocks + commission_blocks(result.equilibria)


#: Each game's result type and how it is shown: a new game adds its entry here.
RENDERERS: dict[type, GameRenderer] = {
    CheminResult: GameRenderer(_chemin_data, _chemin_text, _chemin_blocks),
    Punto5: GameRenderer(punto5_json, punto5_text, punto5_blocks),
    BanqueResult: GameRenderer(
        lambda r: banque_json(r.reply, r.solution),
        lambda r, fmt: banque_text(r.reply, r.solution, fmt),
        lambda r, fmt: banque_blocks(r.reply, r.solution, fmt),
    ),
    MacaoResults: GameRenderer(
        lambda r: macao_json(list(r.results)),
        lambda r, fmt: macao_text(list(r.results), fmt),
        lambda r, fmt: macao_blocks(list(r.results)),
    ),
}


def _renderer(result: GameResult) -> GameRenderer:
    renderer = RENDERERS.get(type(result))
    if renderer is None:
        raise AnalyzerError(f"no renderer for {type(result).__name__}")
    return renderer


def game_data(result: GameResult) -> dict[str, Any]:
    """Any game's result (from `analyzer.games.solve`) as its JSON document."""
    return _renderer(result).data(result)


def game_blocks(result: GameResult, fmt: str = "markdown") -> list[Block]:
    """Any game's result as the blocks of its text in `fmt` (table or markdown)."""
    renderer = _renderer(result)
    if renderer.blocks is None:
        raise AnalyzerError(f"no blocks for {type(result).__name__}")
    return renderer.blocks(result, fmt)


def render_game(result: GameResult, fmt: OutputFormat | str = OutputFormat.TABLE) -> str:
    """Any game's result (from `analyzer.games.solve`) as a text table, Markdown or JSON."""
    check_format(fmt)
    fmt = OutputFormat(fmt)
    if fmt == "json":
        return dumps(game_data(result))
    return _renderer(result).text(result, fmt)


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
