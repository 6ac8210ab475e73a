"""Par sheets as documents in each format of `baccarat par-sheet`: one document of every
sheet (`render_par_sheets`), or one file per sheet and an index (`par_files`). Markdown and JSON
come from `analyzer.present.par`, HTML from `analyzer.present.par_html`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from analyzer.core.bets import safe_name
from analyzer.core.errors import AnalyzerError, quoted
from analyzer.present.par import FORMATS, par_index, par_json, sheet_markdown
from analyzer.present.par_html import html_index, html_page
from analyzer.present.text import check_format, dumps, exact

if TYPE_CHECKING:
    from analyzer.counting.par import ParSheet

__all__ = ["FILES", "par_files", "par_sheets_data", "render_par_sheets", "sheet_files"]


def par_sheets_data(sheets: Sequence[ParSheet]) -> dict[str, Any]:
    """The JSON document of `render_par_sheets`: {"bets": {NAME: the sheet's figures}}."""
    return {"bets": {s.bet.name: par_json(s) for s in sheets}}


def render_par_sheets(sheets: Sequence[ParSheet], fmt: str) -> str:
    """Every sheet as one document: Markdown, a self-contained HTML page, or JSON {bets: ...}."""
    check_format(fmt, FORMATS)
    if fmt == "json":
        return dumps(par_sheets_data(sheets))
    if fmt == "html":
        return html_page(sheets)
    return "\n".join(sheet_markdown(s) for s in sheets)


#: Each format's file extension and index file name in a directory of sheets.
FILES = {"markdown": (".md", "README.md"), "html": (".html", "index.html"), "json": (".json", "index.json")}


def sheet_files(names: Sequence[str], fmt: str) -> dict[str, str]:
    """Each bet's file name in a folder of sheets in `fmt`: its safe name
    (`analyzer.core.bets.safe_name`) and the format's extension. Two bets' files, or a bet's
    and the index, that differ at most in case (as on a case-insensitive filesystem) are
    refused with an AnalyzerError naming them."""
    check_format(fmt, FORMATS)
    ext, index = FILES[fmt]
    taken: dict[str, str | None] = {index.casefold(): None}
    files: dict[str, str] = {}
    for name in names:
        file = safe_name(name) + ext
        other = taken.setdefault(file.casefold(), name)
        if other is None:
            raise AnalyzerError(
                f"bet {quoted(name)} would be written to {quoted(file)}, the index of the sheets "
                f"({quoted(index)}, case ignored): rename the bet in the table file"
            )
        if other != name:
            raise AnalyzerError(
                f"bets {quoted(other)} and {quoted(name)} would both be written to {quoted(file)} "
                "(case ignored): rename the bet in the table file"
            )
        files[name] = file
    return files


def par_files(
    sheets: Sequence[ParSheet], fmt: str, envelope: Mapping[str, Any] | None = None
) -> dict[str, str]:
    """One file per sheet (`sheet_files`) and an index, by file name, in `fmt`. Each
    JSON file holds {"generated_by": "baccarat par-sheet", "bets": {NAME: ...}}, then the
    keys of `envelope` (what the command says about its inputs, `analyzer.present.outputs`)."""
    check_format(fmt, FORMATS)
    index = FILES[fmt][1]
    links = sheet_files([s.bet.name for s in sheets], fmt)
    if fmt == "json":
        extra = dict(envelope or {})
        files = {
            links[s.bet.name]: dumps(
                {"generated_by": "baccarat par-sheet", "bets": {s.bet.name: par_json(s)}, **extra}
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
        return {**files, index: dumps({"generated_by": "baccarat par-sheet", "bets": summary, **extra})}
    if fmt == "html":
        files = {links[s.bet.name]: html_page([s], index) for s in sheets}
        return {**files, index: html_index(sheets, links)}
    return {**{links[s.bet.name]: sheet_markdown(s) for s in sheets}, index: par_index(sheets, links)}
