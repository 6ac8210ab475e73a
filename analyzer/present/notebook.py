"""Notebook display, hooked in from the presentation layer: in IPython and Jupyter, odds,
a bet's analysis, effects of removal and a distribution render as Markdown tables, and a par
sheet as HTML (its tables and charts, as `baccarat par-sheet --format html` draws them).

`analyzer` registers these renderers with IPython's Markdown and HTML formatters by the
result types' module and name (`register`: what a `_repr_markdown_` or `_repr_html_` method
would do), so the result types never import a renderer and nothing loads until a result is
shown.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["HTML_RENDERERS", "RENDERERS", "register"]


def _odds(value: Any) -> str:
    from analyzer.present.render import render_odds

    return render_odds(value, "markdown")


def _distribution(value: Any) -> str:
    from analyzer.analyses.odds import Odds
    from analyzer.present.render import render_odds

    note = f"\n{len(value.weights):,} distinct outcomes; `to_frame()` lists them.\n"
    return render_odds(Odds.from_distribution(value), "markdown") + note


def _analysis(value: Any) -> str:
    from analyzer.present.render import bet_table, percent
    from analyzer.present.text import markdown_code, markdown_text

    title, name = markdown_text(value.bet.title), markdown_code(value.bet.name)
    heading = f"**{title}** ({name}): house edge {percent(value.house_edge)}"
    return heading + "\n\n" + bet_table(value, "markdown") + "\n"


def _effects(value: Any) -> str:
    from analyzer.present.render import render_eor

    return render_eor(value, "markdown")


def _removal_effects(value: Any) -> str:
    from analyzer.present.render import render_removal_effects

    return render_removal_effects(value, "markdown")


def _card_effects(value: Any) -> str:
    from analyzer.present.render import render_card_eor

    return render_card_eor(value, "markdown")


def _par_sheet(value: Any) -> str:
    from analyzer.present.par_html import sheet_html

    return sheet_html(value)


#: (module, type name) of each result shown as Markdown -> its renderer.
RENDERERS: dict[tuple[str, str], Callable[[Any], str]] = {
    ("analyzer.analyses.odds", "Odds"): _odds,
    ("analyzer.ranks.enumeration", "Distribution"): _distribution,
    ("analyzer.core.analysis", "BetAnalysis"): _analysis,
    ("analyzer.analyses.effects", "EffectsOfRemoval"): _effects,
    ("analyzer.analyses.effects", "RemovalEffects"): _removal_effects,
    ("analyzer.analyses.effects", "CardEffects"): _card_effects,
}


#: (module, type name) of each result shown as HTML -> its renderer (an HTML fragment).
HTML_RENDERERS: dict[tuple[str, str], Callable[[Any], str]] = {
    ("analyzer.counting.par", "ParSheet"): _par_sheet,
}


def register(shell: Any) -> None:
    """Register the renderers with an IPython shell's Markdown and HTML formatters."""
    formatters = shell.display_formatter.formatters
    for mime, renderers in (("text/markdown", RENDERERS), ("text/html", HTML_RENDERERS)):
        for (module, name), render in renderers.items():
            formatters[mime].for_type_by_name(module, name, render)
