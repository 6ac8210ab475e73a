"""Par sheets as documents in each format of `baccarat par-sheet`: one document of every
sheet (`render_par_sheets`), or one file per sheet and an index (`par_files`). Markdown and JSON
come from `analyzer.present.par`, HTML from `analyzer.present.par_html`, CSV and XLSX from the
spreadsheet writers (`analyzer.present.spreadsheet`), PDF from the HTML page printed by
headless Chromium (`analyzer.present.pdf`). Each sheet carries its identification block
(`analyzer.present.identity`), dated by the `Provenance` given (default: today)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from analyzer.core.bets import safe_name
from analyzer.core.errors import AnalyzerError, quoted
from analyzer.present.document import Block, Heading
from analyzer.present.identity import Provenance, document_date
from analyzer.present.par import FORMATS, par_index, par_json, sheet_blocks, sheet_markdown, sheet_title
from analyzer.present.par_counts import cover_table_blocks
from analyzer.present.par_html import html_index, html_page
from analyzer.present.text import check_format, dumps, exact

if TYPE_CHECKING:
    from analyzer.counting.par import ParSheet
    from analyzer.counting.results import ParResult

__all__ = [
    "ALL_FORMATS",
    "FILES",
    "par_files",
    "par_sheets_blocks",
    "par_sheets_data",
    "par_sheets_pdf",
    "provenance",
    "render_par_sheets",
    "sheet_files",
]

#: Every format of `baccarat par-sheet`: the documents' (`FORMATS`), CSV, and the binary
#: ones written only to files (XLSX, PDF).
ALL_FORMATS = (*FORMATS, "csv", "xlsx", "pdf")


def provenance(result: ParResult, date: datetime | None = None) -> Provenance:
    """The provenance of a command's sheets: `date` (default `document_date()`) and the table
    file the result names."""
    return Provenance(document_date() if date is None else date, result.table_file, result.table_sha256)


def par_sheets_data(sheets: Sequence[ParSheet], source: Provenance | None = None) -> dict[str, Any]:
    """The JSON document of `render_par_sheets`: {"bets": {NAME: the sheet's figures}}."""
    return {"bets": {s.bet.name: par_json(s, source) for s in sheets}}


def par_sheets_blocks(result: ParResult, source: Provenance | None = None) -> list[Block]:
    """Every sheet of `result` as one document (each under its title), for the spreadsheet
    writers: one table a worksheet."""
    source = source or provenance(result)
    return [block for sheet in result.sheets for block in _spreadsheet_blocks(sheet, source)]


def _spreadsheet_blocks(sheet: ParSheet, source: Provenance) -> list[Block]:
    """One sheet as the spreadsheet writers take it: under its title, its blocks, then the
    cover bet's figures as a table (the documents say them in a sentence)."""
    return [Heading(sheet_title(sheet), 1), *sheet_blocks(sheet, source), *cover_table_blocks(sheet)]


def par_sheets_pdf(result: ParResult, date: datetime | None = None) -> bytes:
    """Every sheet of `result` as one PDF: the HTML page printed by headless Chromium."""
    from analyzer.present.pdf import html_to_pdf

    return html_to_pdf(html_page(result.sheets, source=provenance(result, date)))


def render_par_sheets(sheets: Sequence[ParSheet], fmt: str, source: Provenance | None = None) -> str:
    """Every sheet as one document: Markdown, a self-contained HTML page, or JSON {bets: ...}."""
    check_format(fmt, FORMATS)
    if fmt == "json":
        return dumps(par_sheets_data(sheets, source))
    if fmt == "html":
        return html_page(sheets, source=source)
    return "\n".join(sheet_markdown(s, source) for s in sheets)


#: Each format's file extension and index file name in a directory of sheets (the index of a
#: spreadsheet's or PDF's sheets is the HTML index).
FILES = {
    "markdown": (".md", "README.md"),
    "html": (".html", "index.html"),
    "json": (".json", "index.json"),
    "csv": (".csv", "index.html"),
    "xlsx": (".xlsx", "index.html"),
    "pdf": (".pdf", "index.html"),
}


def sheet_files(names: Sequence[str], fmt: str) -> dict[str, str]:
    """Each bet's file name in a folder of sheets in `fmt`: its safe name
    (`analyzer.core.bets.safe_name`) and the format's extension. Two bets' files, or a bet's
    and the index, that differ at most in case (as on a case-insensitive filesystem) are
    refused with an AnalyzerError naming them."""
    check_format(fmt, ALL_FORMATS)
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
    sheets: Sequence[ParSheet],
    fmt: str,
    envelope: Mapping[str, Any] | None = None,
    source: Provenance | None = None,
) -> dict[str, str | bytes]:
    """One file per sheet (`sheet_files`) and an index, by file name, in `fmt` (`source`:
    the sheets' date and table file; default today). Each JSON file holds {"generated_by":
    "baccarat par-sheet", "bets": {NAME: ...}}, then the keys of `envelope` (what the command
    says about its inputs, `analyzer.present.outputs`). A CSV, XLSX or PDF file per sheet has
    the HTML index."""
    check_format(fmt, ALL_FORMATS)
    index = FILES[fmt][1]
    links = sheet_files([s.bet.name for s in sheets], fmt)
    source = source or Provenance(document_date())
    if fmt in ("csv", "xlsx", "pdf"):
        return {**_binary_files(sheets, fmt, links, source), index: html_index(sheets, links)}
    if fmt == "json":
        extra = dict(envelope or {})
        files: dict[str, str | bytes] = {
            links[s.bet.name]: dumps(
                {"generated_by": "baccarat par-sheet", "bets": {s.bet.name: par_json(s, source)}, **extra}
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
        files = {links[s.bet.name]: html_page([s], index, source) for s in sheets}
        return {**files, index: html_index(sheets, links)}
    return {**{links[s.bet.name]: sheet_markdown(s, source) for s in sheets}, index: par_index(sheets, links)}


def _binary_files(
    sheets: Sequence[ParSheet], fmt: str, links: Mapping[str, str], source: Provenance
) -> dict[str, str | bytes]:
    """Each sheet's CSV, XLSX workbook or PDF, by file name."""
    from analyzer.present.spreadsheet import write_csv, write_xlsx

    files: dict[str, str | bytes] = {}
    for s in sheets:
        blocks = _spreadsheet_blocks(s, source)
        if fmt == "csv":
            files[links[s.bet.name]] = write_csv(blocks)
        elif fmt == "xlsx":
            files[links[s.bet.name]] = write_xlsx(blocks, source.date)
        else:
            from analyzer.present.pdf import html_to_pdf

            files[links[s.bet.name]] = html_to_pdf(html_page([s], source=source))
    return files
