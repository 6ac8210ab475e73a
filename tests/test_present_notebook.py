"""Notebook display: the renderers registered with IPython's Markdown and HTML formatters, by
the result types' module and name, exist and give the Markdown tables and a par sheet's HTML;
drawing a par sheet's charts leaves a notebook's matplotlib backend and pyplot alone."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from importlib import import_module
from typing import Any

from analyzer import STANDARD, Shoe, analyze_bets, distribution, effects_of_removal, get_bet, odds
from analyzer.counting.par import par_sheets
from analyzer.present import render as fmt
from analyzer.present.notebook import HTML_RENDERERS, RENDERERS, register
from analyzer.present.par_html import sheet_html


class _Formatter:
    def __init__(self) -> None:
        self.by_name: dict[tuple[str, str], Callable[[Any], str]] = {}

    def for_type_by_name(self, module: str, name: str, render: Callable[[Any], str]) -> None:
        self.by_name[module, name] = render


class _Shell:
    def __init__(self) -> None:
        self.markdown, self.html = _Formatter(), _Formatter()
        formatters = {"text/markdown": self.markdown, "text/html": self.html}
        self.display_formatter = type("Display", (), {"formatters": formatters})()


def _shown(value: object, mime: str = "text/markdown") -> str:
    shell = _Shell()
    register(shell)
    kind = type(value)
    formatter = shell.markdown if mime == "text/markdown" else shell.html
    return formatter.by_name[kind.__module__, kind.__name__](value)


def test_every_registered_type_exists() -> None:
    for module, name in [*RENDERERS, *HTML_RENDERERS]:
        assert isinstance(getattr(import_module(module), name), type), (module, name)


def test_a_par_sheet_renders_as_html() -> None:
    """The sheet's <article>, charts as inline SVG, as the HTML par sheet draws it."""
    [sheet] = par_sheets([get_bet("dragon7")], Shoe.decks(8), shoes=20, seed=3)
    shown = _shown(sheet, "text/html")
    assert shown == sheet_html(sheet)
    assert shown.startswith('<article id="dragon7">\n<h1>') and shown.count("<svg") == 2
    assert "<html" not in shown and "<!DOCTYPE" not in shown  # a fragment for the notebook's page


#: A notebook's own choice of backend, then a par sheet's HTML drawn (its two charts).
_KEEPS_BACKEND = """
import sys
import matplotlib
matplotlib.use("pdf")
from analyzer import Shoe, get_bet
from analyzer.counting.par import par_sheets
from analyzer.present.par_documents import render_par_sheets
html = render_par_sheets(par_sheets([get_bet("dragon7")], Shoe.decks(8), shoes=20, seed=3), "html")
print(html.count("<svg"), matplotlib.get_backend(), "matplotlib.pyplot" in sys.modules)
"""


def test_drawing_a_par_sheet_keeps_the_matplotlib_backend_and_loads_no_pyplot() -> None:
    run = subprocess.run([sys.executable, "-c", _KEEPS_BACKEND], capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["2", "pdf", "False"]


def test_results_render_as_markdown_tables() -> None:
    shoe = Shoe.decks(1)
    result = odds(shoe)
    assert _shown(result) == fmt.render_odds(result, "markdown")
    assert _shown(distribution(shoe)).startswith(fmt.render_odds(result, "markdown"))
    [tie] = analyze_bets([get_bet("tie")], shoe, STANDARD)
    assert _shown(tie).startswith("**Tie (8:1)** (`tie`): house edge 15.7461%")
    assert "| " in _shown(tie)
    eor = effects_of_removal([get_bet("tie")], shoe)
    assert _shown(eor) == fmt.render_removal_effects(eor, "markdown")
    assert eor.ranks is not None and _shown(eor.ranks) == fmt.render_eor(eor.ranks, "markdown")
    cards = effects_of_removal([get_bet("super-tie")], shoe).cards
    assert cards is not None and _shown(cards).startswith("## Effects of removal per card type, card-level")
