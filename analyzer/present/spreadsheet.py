"""The tables of a document as spreadsheets: CSV text (`write_csv`) and an XLSX workbook
(`write_xlsx`, openpyxl: the `sheets` extra), two more writers of the document model
(`analyzer.present.document`).

Numbers are numbers: a cell's typed value (`Table.values`) is written as a number, and an
exact value that is not a whole number (a Fraction) gets a column of its own beside it,
"HEADER (p/q)", holding it exactly as "p/q"; an integer too large for a spreadsheet's
float (above 2**53) is given there in full too. A simulated figure (`Estimate`) is its mean,
with its standard error in a column "HEADER (se)" (an empty cell where it has none: no figure
from a study with no bets, no standard error from one shoe). A cell without a typed value is its text
(the document's Markdown marks dropped), read as a number when it is one as the renderers
write numbers: an exact "p/q" (exact, so with its "p/q" beside), an integer ("1,234"), a
decimal or a percentage (the number shown). Headings and prose are left out: each table is
titled by the heading above it.

User strings stay data: a CSV text cell that a spreadsheet would read as a formula (starting
with = + - @, a tab or a carriage return; not an exact "p/q") is written with a leading
apostrophe; an XLSX text
cell is a string cell, never a formula, its control characters shown as escapes.

>>> from fractions import Fraction
>>> from analyzer.present.document import Heading, Table
>>> edges = Table.of([["tie", "14.3596%"]], ["bet", "house edge"], [["tie", Fraction(1, 7)]])
>>> print(write_csv([Heading("Edges"), edges]), end="")
bet,house edge,house edge (p/q)
tie,0.14285714285714285,1/7
"""

from __future__ import annotations

import csv
import io
import math
import re
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from typing import Any

from analyzer.core.errors import AnalyzerError
from analyzer.present.document import Block, Estimate, Heading, Table, Value, inline_plain

__all__ = ["SPREADSHEET_FORMATS", "Sheet", "sheets", "write_csv", "write_xlsx"]

#: The spreadsheet formats: CSV (text) and XLSX (a binary file).
SPREADSHEET_FORMATS = ("csv", "xlsx")
#: Integers larger than this lose digits as a spreadsheet's float: their exact text goes beside.
_FLOAT_EXACT = 2**53
#: Where a text cell would start a formula in a spreadsheet that opens the CSV.
_FORMULA = ("=", "+", "-", "@", "\t", "\r")
#: An exact value's text ("-3", "2/7"): a number's own column, never a formula's start.
_EXACT = re.compile(r"-?[0-9]+(/[0-9]+)?")
#: Numbers as the renderers write them in a cell without a typed value.
_FRACTION = re.compile(r"[+-]?[0-9]+/[0-9]+")
_INTEGER = re.compile(r"[+-]?[0-9]{1,3}(,[0-9]{3})*|[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?([0-9]+\.[0-9]*|\.[0-9]+)(e[+-]?[0-9]+)?|[+-]?[0-9]+e[+-]?[0-9]+")
_PERCENT = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?%")

Cell = int | float | bool | str | None


@dataclass(frozen=True)
class Sheet:
    """One table as a spreadsheet writes it: its title, its headers and its rows of cells
    (numbers as numbers; None: an empty cell), each cell's number format beside ("" for the
    default: a percentage where the document shows one, thousands where it groups them)."""

    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    formats: tuple[tuple[str, ...], ...]
    document: str = ""  # the level-1 heading above it, if any (e.g. a par sheet's title)


def _needs_exact(value: Value) -> bool:
    """Whether a value's number in a cell is not the value itself: a Fraction that is not
    whole, or a whole number beyond a float's exact integers."""
    if isinstance(value, bool) or not isinstance(value, Fraction | int):
        return False
    return Fraction(value).denominator != 1 or abs(Fraction(value)) > _FLOAT_EXACT


def _exact_text(value: Value) -> str | None:
    """An exact value's "p/q" (None for a value that is not an exact number)."""
    if isinstance(value, bool) or not isinstance(value, Fraction | int):
        return None
    return str(Fraction(value))


def _exact_column(values: Sequence[Value]) -> bool:
    return any(_needs_exact(v) for v in values)


def _number(value: Fraction | int | float) -> int | float | str:
    """A number as a cell holds it: an integer, else a float (a float beyond the float
    range, or not a number, as its text)."""
    if isinstance(value, Fraction) and value.denominator == 1:
        value = value.numerator
    if isinstance(value, int):
        return value
    try:
        number = float(value)
    except OverflowError:
        return str(value)
    return number if math.isfinite(number) else str(number)


def _format(text: str, value: Value) -> str:
    """The number format of a cell as its text shows it: a percentage, thousands, or none."""
    if isinstance(value, bool) or not isinstance(value, Fraction | int | float):
        return ""
    if text.endswith("%"):
        return "0.0000%"
    return "#,##0" if "," in text and isinstance(value, int) else ""


def _read(text: str) -> Value:
    """The number a cell's text writes, if it writes one: an exact "p/q" (a Fraction), an
    integer, a decimal or a percentage (floats: the number as shown); else None."""
    if _FRACTION.fullmatch(text):
        numerator, denominator = text.split("/")
        return Fraction(int(numerator), int(denominator)) if int(denominator) else None
    if _INTEGER.fullmatch(text):
        return int(text.replace(",", ""))
    if _DECIMAL.fullmatch(text):
        return float(text)
    if _PERCENT.fullmatch(text):
        return float(Fraction(text[:-1]) / 100)  # 15.7259% is 0.157259, not its float / 100
    return None


def _sheet(title: str, table: Table, document: str = "") -> Sheet:
    """`table` as a sheet: its typed columns, each exact or simulated one with its companion."""
    count = len(table.headers)

    def typed(i: int, j: int) -> Value:
        value = table.value(i, j)
        return _read(inline_plain(table.rows[i][j])) if value is None else value

    columns: list[list[Value]] = [[typed(i, j) for i in range(len(table.rows))] for j in range(count)]
    headers: list[str] = []
    cells: list[list[Cell]] = [[] for _ in table.rows]
    formats: list[list[str]] = [[] for _ in table.rows]
    for j, header in enumerate(table.headers):
        values = columns[j]
        exact = _exact_column(values)
        estimate = any(isinstance(v, Estimate) for v in values)
        name = inline_plain(header)
        headers += [name, *([f"{name} (p/q)"] if exact else []), *([f"{name} (se)"] if estimate else [])]
        for i, value in enumerate(values):
            text = inline_plain(table.rows[i][j])
            row = cells[i]
            formats[i].append(_format(table.rows[i][j], value))
            if isinstance(value, Estimate):
                row.append(None if value.mean is None else _number(value.mean))
            elif isinstance(value, bool | str):
                row.append(value)
            elif isinstance(value, Fraction | int | float):
                row.append(_number(value))
            else:
                row.append(text if text else None)
            if exact:
                row.append(_exact_text(value))
                formats[i].append("")
            if estimate:
                row.append(
                    _number(value.se) if isinstance(value, Estimate) and value.se is not None else None
                )
                formats[i].append("")
    return Sheet(title, tuple(headers), tuple(map(tuple, cells)), tuple(map(tuple, formats)), document)


def sheets(blocks: Sequence[Block]) -> list[Sheet]:
    """Each table of `blocks` as a sheet, titled by the heading above it ("table" if none;
    a second table under one heading "TITLE (2)", and so on)."""
    out: list[Sheet] = []
    title, under, document = "table", 0, ""
    for block in blocks:
        if isinstance(block, Heading):
            title, under = inline_plain(block.text), 0
            if block.level == 1:
                document = title
        elif isinstance(block, Table):
            under += 1
            out.append(_sheet(title if under == 1 else f"{title} ({under})", block, document))
    return out


def _csv_text(cell: Cell) -> str | int | float:
    if cell is None:
        return ""
    if isinstance(cell, bool):
        return "true" if cell else "false"
    if isinstance(cell, str):
        return "'" + cell if cell.startswith(_FORMULA) and not _EXACT.fullmatch(cell) else cell
    return cell if isinstance(cell, int) else repr(cell)


def write_csv(blocks: Sequence[Block]) -> str:
    """The document's tables as CSV: one table alone; several, each under a row holding its
    title, a blank line between them (a row holding a level-1 heading, e.g. a par sheet's
    title, before the first table under it)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    tables = sheets(blocks)
    document = ""
    for n, sheet in enumerate(tables):
        if len(tables) > 1:
            if n:
                writer.writerow([])
            if sheet.document != document:
                document = sheet.document
                writer.writerow([_csv_text(document)])
            writer.writerow([_csv_text(sheet.title)])
        writer.writerow([_csv_text(h) for h in sheet.headers])
        writer.writerows([[_csv_text(cell) for cell in row] for row in sheet.rows])
    return out.getvalue()


#: What a worksheet's title may not hold, and its longest length (Excel's limits).
_TITLE_BAD = re.compile(r"[\[\]:*?/\\\x00-\x1f\x7f]")
_TITLE_MAX = 31


def _titles(names: Sequence[str]) -> list[str]:
    """Worksheet titles of `names`: Excel's characters only, 31 at most, unique (case ignored)."""
    taken: set[str] = set()
    titles = []
    for n, name in enumerate(names, 1):
        base = " ".join(_TITLE_BAD.sub(" ", name).split()).strip("'") or f"table {n}"
        title = base[:_TITLE_MAX]
        serial = 1
        while title.casefold() in taken:
            serial += 1
            suffix = f" ({serial})"
            title = base[: _TITLE_MAX - len(suffix)] + suffix
        taken.add(title.casefold())
        titles.append(title)
    return titles


def _openpyxl() -> Any:
    try:
        import openpyxl
    except ImportError:
        raise AnalyzerError(
            "XLSX output needs openpyxl: pip install '.[sheets]' in the project (or pip install openpyxl)"
        ) from None
    return openpyxl


def write_xlsx(blocks: Sequence[Block], date: datetime) -> bytes:
    """The document's tables as an XLSX workbook, one worksheet per table (its header row
    bold and frozen), byte-identical for the same blocks and `date` (the workbook's
    creation date)."""
    openpyxl = _openpyxl()
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
    from openpyxl.styles import Font

    def text(value: str) -> str:
        return str(ILLEGAL_CHARACTERS_RE.sub(lambda m: f"\\x{ord(m.group()):02x}", value))

    book = openpyxl.Workbook()
    book.remove(book.active)
    tables = sheets(blocks)
    for sheet, title in zip(tables, _titles([s.title for s in tables]), strict=True):
        ws = book.create_sheet(title)
        for j, header in enumerate(sheet.headers, 1):
            cell = ws.cell(row=1, column=j)
            cell.value, cell.data_type, cell.font = text(header), "s", Font(bold=True)
        for i, row in enumerate(sheet.rows, 2):
            for j, value in enumerate(row, 1):
                cell = ws.cell(row=i, column=j)
                if isinstance(value, str):
                    cell.value, cell.data_type = text(value), "s"  # a string, never a formula
                elif value is not None:
                    cell.value = value
                    if sheet.formats[i - 2][j - 1]:
                        cell.number_format = sheet.formats[i - 2][j - 1]
        for j, header in enumerate(sheet.headers, 1):
            cells = [len(str(row[j - 1])) for row in sheet.rows if row[j - 1] is not None]
            width = max([len(header), *cells])
            ws.column_dimensions[openpyxl.utils.get_column_letter(j)].width = min(max(width + 2, 8), 60)
        ws.freeze_panes = "A2"
    if not tables:
        book.create_sheet("table")
    stamp = date.replace(tzinfo=None, microsecond=0)
    book.properties.creator = "baccarat-analyzer"
    book.properties.created = book.properties.modified = stamp
    out = io.BytesIO()
    book.save(out)
    return _pinned(out.getvalue(), stamp)


def _pinned(data: bytes, stamp: datetime) -> bytes:
    """The zip archive `data` with every member dated `stamp`, and the workbook's "modified"
    property too (openpyxl's save sets both to the time of saving)."""
    when = (max(stamp.year, 1980), stamp.month, stamp.day, stamp.hour, stamp.minute, stamp.second)
    modified = f'<dcterms:modified xsi:type="dcterms:W3CDTF">{stamp:%Y-%m-%dT%H:%M:%S}Z</dcterms:modified>'
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as target:
        for member in source.infolist():
            info = zipfile.ZipInfo(member.filename, date_time=when)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = member.external_attr
            content = source.read(member.filename)
            if member.filename == "docProps/core.xml":
                content = _MODIFIED.sub(modified.encode(), content)
            target.writestr(info, content)
    return out.getvalue()


_MODIFIED = re.compile(rb"<dcterms:modified [^>]*>[^<]*</dcterms:modified>")
