"""Par sheets as documents in each format of `baccarat par-sheet`: one document of every
sheet (`render_par_sheets`), or one file per sheet and an index (`par_files`). Markdown and JSON
come from `analyzer.present.par`, HTML from `analyzer.present.par_html`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from analyzer.present.par import FORMATS, par_index, par_json, sheet_markdown
from analyzer.present.par_html import html_index, html_page
from analyzer.present.text import check_format, dumps, exact

if TYPE_CHECKING:
    from analyzer.counting.par import ParSheet

__all__ = ["FILES", "par_files", "render_par_sheets"]


def render_par_sheets(sheets: Sequence[ParSheet], fmt: str) -> str:
    """Every sheet as one document: Markdown, a self-contained HTML page, or JSON {bets: ...}."""
    check_format(fmt, FORMATS)
    if fmt == "json":
        return dumps({"bets": {s.bet.name: par_json(s) for s in sheets}})
    if fmt == "html":
        return html_page(sheets)
    return "\n".join(sheet_markdown(s) for s in sheets)


#: Each format's file extension and index file name in a directory of sheets.
FILES = {"markdown": (".md", "README.md"), "html": (".html", "index.html"), "json": (".json", "index.json")}


def par_files(sheets: Sequence[ParSheet], fmt: str) -> dict[str, str]:
    """One file per sheet (named after its bet) and an index, by file name, in `fmt`. Each
    JSON file holds {"generated_by": "baccarat par-sheet", "bets": {NAME: ...}}."""
    check_format(fmt, FORMATS)
    ext, index = FILES[fmt]
    links = {s.bet.name: s.bet.name + ext for s in sheets}
    if fmt == "json":
        files = {
            links[s.bet.name]: dumps(
                {"generated_by": "baccarat par-sheet", "bets": {s.bet.name: par_json(s)}}
            )
            for s in sheets
        }
        summary = {
            s.bet.name: {
                "title": s.bet.title,
                "file": links[s.bet.name],
                "house_edge": exact(s.analysis.house_edge),
                "verdict": s.verdict.kind,
            }
            for s in sheets
        }
        return {**files, index: dumps({"generated_by": "baccarat par-sheet", "bets": summary})}
    if fmt == "html":
        files = {links[s.bet.name]: html_page([s], index) for s in sheets}
        return {**files, index: html_index(sheets, links)}
    return {**{links[s.bet.name]: sheet_markdown(s) for s in sheets}, index: par_index(sheets, links)}
