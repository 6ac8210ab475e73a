"""Par sheets as one self-contained HTML page: the sheets' blocks (`analyzer.present.par`) by
the document model's HTML writer (`analyzer.present.document`), charts as inline SVG drawn
by matplotlib's SVG backend, and print CSS so a browser prints each sheet from a new page,
numbered "page x of y" at the foot (CSS paged media), a heading or a table's caption never
left alone at the foot of a page. The page loads nothing: no script, font or image from
outside. The SVG is deterministic (a fixed hash salt, no date), so a page is byte-identical
when regenerated from the same sheets and date."""

from __future__ import annotations

import html
import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from analyzer.core.bets import safe_name
from analyzer.present.document import inline_html, write_html
from analyzer.present.par import (
    INDEX_HEADERS,
    MARKER,
    index_rows,
    index_where,
    sheet_blocks,
    sheet_title,
)
from analyzer.present.plots import figure, from_template, offset_shown, put_title, rc_context, text_as_text
from analyzer.present.text import table

if TYPE_CHECKING:
    from analyzer.counting.par import ParSheet
    from analyzer.present.identity import Provenance

__all__ = ["html_index", "html_page", "sheet_html"]

CSS = """
body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; font-size: 14px; color: #111;
       max-width: 60em; margin: 1.5em auto; padding: 0 1em; line-height: 1.4; }
h1 { font-size: 1.6em; border-bottom: 2px solid #333; padding-bottom: .2em; }
h2 { font-size: 1.2em; margin-top: 1.4em; border-bottom: 1px solid #bbb; }
h3 { font-size: 1.05em; }
table { border-collapse: collapse; margin: .6em 0; font-size: .92em; }
th, td { border: 1px solid #ccc; padding: .15em .5em; }
th { background: #eee; }
code { font-size: .95em; }
.verdict { font-size: 1.05em; background: #f4f4f4; border-left: 4px solid #333; padding: .4em .8em; }
figure { margin: .6em 0; }
figure svg { max-width: 100%; height: auto; }
nav a { margin-right: .8em; }
@page { size: A4; margin: 14mm 12mm 16mm;
        @bottom-right { content: "page " counter(page) " of " counter(pages); font-size: 8pt; color: #555; } }
@media print {
  body { font-size: 9.5pt; max-width: none; margin: 0; padding: 0; }
  article + article { break-before: page; }
  h1, h2, h3 { break-after: avoid; break-inside: avoid; }
  h1 + *, h2 + *, h3 + * { break-before: avoid; }
  p:has(+ table), p:has(+ ul), p:has(+ figure) { break-after: avoid; }
  table, figure, .verdict, li { break-inside: avoid; }
  nav { display: none; }
  a { color: inherit; text-decoration: none; }
}
"""

#: matplotlib settings of every chart: deterministic SVG ids, text kept as text (small files).
_RC = {"svg.hashsalt": "baccarat-par-sheet", "svg.fonttype": "none", "font.size": 9}


def _svg(fig: Any, prefix: str) -> str:
    """The figure as inline SVG, its ids prefixed with `prefix` (unique in the page)."""
    out = io.StringIO()
    with text_as_text():  # text stays text: the browser has the glyphs
        fig.savefig(out, format="svg", metadata={"Date": None, "Creator": None})
    text = out.getvalue()
    text = text[text.index("<svg") :]
    for old, new in (('id="', f'id="{prefix}'), ('href="#', f'href="#{prefix}'), ("url(#", f"url(#{prefix}")):
        text = text.replace(old, new)
    return text


def _chart(name: str, sheet: ParSheet, prefix: str) -> str:
    """Chart `name` of `sheet` as inline SVG (`_svg`), its title put at the top of the axes
    (`put_title`); drawn again with the title placed by matplotlib when the y axis shows an
    offset text above the axes (a multiplier such as 1e-6: effects of removal of a large
    shoe), which that placement may keep the title clear of."""
    for placed in (True, False):
        with rc_context(_RC):
            fig = _CHARTS[name](sheet, placed)
            text = _svg(fig, prefix)
        if not (placed and offset_shown(fig)):
            break
    return text


#: Tick marks made ready on a chart's y axis (`_axes`); a chart that shows more makes more.
_Y_TICKS = 12


def _axes(width: float, height: float, x_ticks: int) -> tuple[Any, Any]:
    """A figure of `width` x `height` inches and its axes, `x_ticks` tick marks made ready on
    the x axis and _Y_TICKS on the y axis: a copy of one made once (`from_template`), which
    draws the same bytes as a new one."""

    def make() -> Any:
        fig = figure(width, height)
        ax = fig.subplots()
        ax.xaxis.get_major_ticks(x_ticks)
        ax.yaxis.get_major_ticks(_Y_TICKS)
        return fig

    fig = from_template(("par-chart", width, height, x_ticks), make)
    return fig, fig.axes[0]


def _volatility_chart(sheet: ParSheet, placed: bool) -> Any:
    """The hold against the rounds played, with its bands; `placed`: as `put_title`."""
    import numpy as np

    from analyzer.counting.par import CONFIDENCE_Z, HOLD_ROUNDS

    fig, ax = _axes(7, 3.2, len(HOLD_ROUNDS))
    rounds = np.logspace(np.log10(HOLD_ROUNDS[0]), np.log10(HOLD_ROUNDS[-1]), 81)
    hold = float(sheet.analysis.house_edge) * 100
    for (level, vi), shade in zip(sheet.volatility_index.items(), ("#9ecae1", "#deebf7"), strict=True):
        half = vi * 100 / np.sqrt(rounds)
        ax.fill_between(
            rounds,
            hold - half,
            hold + half,
            color=shade,
            label=f"{level} band (z = {float(CONFIDENCE_Z[level]):.4f})",
            zorder=2 if level == "90%" else 1,
        )
    ax.axhline(hold, color="#08306b", linewidth=1.2, label=f"expected hold {hold:.4f}%", zorder=3)
    ax.axhline(0, color="#444", linewidth=0.6, zorder=3)
    ax.set_xscale("log")
    ax.set_xticks(HOLD_ROUNDS, [f"{n:,}" for n in HOLD_ROUNDS])
    ax.minorticks_off()
    ax.set_xlabel("rounds played N")
    ax.set_ylabel("hold, % of the amount bet")
    put_title(ax, f"{sheet.bet.title}: expected hold ± z·σ/√N", placed)
    ax.legend(loc="upper right", fontsize=8)
    ax.grid(True, which="major", alpha=0.3)
    fig.subplots_adjust(left=0.1, right=0.98, top=0.9, bottom=0.15)
    return fig


def _effects_chart(sheet: ParSheet, placed: bool) -> Any:
    """The effect of removing one card of each rank or type; `placed`: as `put_title`."""
    many = len(sheet.effects) > 13
    fig, ax = _axes(7, 3.4 if many else 3, len(sheet.effects))
    names = list(sheet.effects)
    values = [float(v) * 100 for v in sheet.effects.values()]
    ax.bar(range(len(names)), values, color=["#2171b5" if v >= 0 else "#cb181d" for v in values])
    ax.set_xticks(range(len(names)), names, rotation=90 if many else 0, fontsize=6 if many else 9)
    ax.axhline(0, color="#444", linewidth=0.6)
    ax.set_xlabel(f"{sheet.per} removed")
    ax.set_ylabel("change in expectation, %")
    put_title(ax, f"{sheet.bet.title}: effect of removing one card ({sheet.shoe})", placed)
    fig.subplots_adjust(left=0.12, right=0.98, top=0.9, bottom=0.25 if many else 0.17)
    return fig


_CHARTS = {"volatility": _volatility_chart, "effects": _effects_chart}


def _page(title: str, body: str) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<!-- {MARKER}; do not edit. -->\n"
        f'<meta name="generator" content="baccarat par-sheet">\n<title>{html.escape(title)}</title>\n'
        f"<style>{CSS}</style>\n</head>\n<body>\n{body}</body>\n</html>\n"
    )


def sheet_html(sheet: ParSheet, index: str = "", source: Provenance | None = None) -> str:
    """One sheet as an <article> (`index`: a link back to an index page, if any; `source`:
    its date and table file)."""
    name = safe_name(sheet.bet.name)  # an id: letters, digits, "-", "_", "."; nothing to escape
    nav = f'<nav><a href="{html.escape(index)}">all par sheets</a></nav>\n' if index else ""
    blocks = sheet_blocks(sheet, source)
    # Chart ids as NAME:CHART:ID: a ":" is in no bet's safe name, so no chart's id is an <article>'s.
    body = write_html(blocks, lambda chart: _chart(chart.name, sheet, f"{name}:{chart.name}:"))
    title = inline_html(sheet_title(sheet))
    head = f"{nav}<h1>{title}</h1>\n<p>{inline_html(MARKER)}.</p>\n"
    return f'<article id="{name}">\n{head}{body}</article>\n'


def html_page(sheets: Sequence[ParSheet], index: str = "", source: Provenance | None = None) -> str:
    """A self-contained page of every sheet, one printed page break between sheets."""
    from analyzer.present.identity import Provenance, document_date

    source = source or Provenance(document_date())  # one date for every sheet of the page
    title = "Par sheet" + ("s: " if len(sheets) > 1 else ": ") + ", ".join(s.bet.name for s in sheets)
    return _page(title, "".join(sheet_html(s, index, source) for s in sheets))


def html_index(sheets: Sequence[ParSheet], links: dict[str, str]) -> str:
    """An HTML index of `sheets`, each bet name linked to `links[name]`."""
    rows = [[inline_html(cell) for cell in row] for row in index_rows(sheets)]
    for row, sheet in zip(rows, sheets, strict=True):
        row[0] = f'<a href="{html.escape(links[sheet.bet.name])}">{row[0]}</a>'
    body = (
        f"<h1>Par sheets</h1>\n<p>{inline_html(f'{MARKER}; one sheet per bet{index_where(sheets)}.')}</p>\n"
        + table(rows, INDEX_HEADERS, "html")
        + "\n"
    )
    return _page("Par sheets", body)
