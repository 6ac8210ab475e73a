"""What every renderer shares: the output formats, exact numbers as text, tables fitted to
the terminal, headings and JSON. Exact values stay exact here: fractions print as "p/q" and
decimals are rounded from the exact value, never from a float.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import StrEnum
from fractions import Fraction
from typing import Any

from analyzer.core.errors import AnalyzerError, quoted

__all__ = [
    "DOCUMENT_FORMATS",
    "FORMATS",
    "WIDTH",
    "OutputFormat",
    "check_format",
    "decimal",
    "dumps",
    "exact",
    "heading",
    "markdown_code",
    "markdown_text",
    "percent",
    "scientific",
    "short_exact",
    "short_float",
    "signed_decimal",
    "signed_percent",
    "table",
    "user_text",
    "wrap",
    "wrap_prose",
    "written_list",
]


# -- output formats ---------------------------------------------------------------------------


class OutputFormat(StrEnum):
    """The formats every renderer writes: a plain-text table, GitHub Markdown, or JSON."""

    TABLE = "table"
    MARKDOWN = "markdown"
    JSON = "json"


#: The names of `OutputFormat`, in order (what `--format` accepts).
FORMATS: tuple[str, ...] = tuple(OutputFormat)
#: The formats of a document (a par sheet): Markdown (the default), a self-contained HTML page, JSON.
DOCUMENT_FORMATS = ("markdown", "html", "json")


def check_format(fmt: str, allowed: Sequence[str] = FORMATS) -> None:
    """Raise AnalyzerError unless `fmt` is one of `allowed`."""
    if fmt not in allowed:
        raise AnalyzerError(f"format {quoted(fmt)}: use one of {', '.join(allowed)}")


# -- numbers ----------------------------------------------------------------------------------


def exact(value: Fraction | int) -> str:
    """An exact value as JSON wants it: "p/q", or "0", "1", "-3"."""
    return str(value if type(value) is Fraction else Fraction(value))  # a Fraction prints as itself


#: A value this large or larger prints in scientific notation in tables (1.2346e+15), so
#: cells stay short however large a payout; JSON keeps the exact "p/q".
LARGE = 10**12
#: An exact "p/q" longer than this prints in tables as "~" and its scientific value.
LONG_EXACT = 40


def scientific(value: Fraction | int, places: int = 4) -> str:
    """`value` (at least 1 in size) as d.dddde+N, rounded half up from exact arithmetic."""
    value = Fraction(value)
    sign, size = ("-" if value < 0 else ""), Fraction(abs(value))
    power = max(int((size.numerator.bit_length() - size.denominator.bit_length()) * 0.30103) - 1, 0)
    while 10 ** (power + 1) <= size:
        power += 1
    digits = int(size * 10**places / 10**power + Fraction(1, 2))
    if digits >= 10 ** (places + 1):  # 9.99995 rounds up to 10.0000
        digits, power = digits // 10, power + 1
    text = str(digits)
    return f"{sign}{text[0]}.{text[1:]}e+{power}"


def short_float(value: float, spec: str) -> str:
    """A float by `spec` (e.g. "+.3f"), in scientific notation from LARGE in size."""
    if abs(value) >= LARGE and value == value and abs(value) != float("inf"):
        return format(value, spec.replace(",", "").replace("f", "e"))
    return format(value, spec)


def short_exact(value: Fraction | int) -> str:
    """`exact(value)` for a table: "~" and the scientific value when "p/q" is long."""
    text = exact(value)
    if len(text) <= LONG_EXACT:
        return text
    size = abs(Fraction(value))
    return "~" + (scientific(value) if size >= 1 else f"{float(value):.4e}")


def decimal(value: Fraction | int, places: int = 6) -> str:
    """`value` rounded half away from zero to `places` decimals, from exact arithmetic
    (scientific from LARGE in size)."""
    value = value if isinstance(value, Fraction) else Fraction(value)
    return _decimal(value.numerator, value.denominator, places)


def _decimal(numerator: int, denominator: int, places: int) -> str:
    """`decimal` of numerator / denominator (denominator > 0, the two in lowest terms or not:
    integers only on the way, no gcd)."""
    size, below = abs(numerator), denominator
    if size >= LARGE * below:
        return scientific(Fraction(numerator, denominator))
    sign = "-" if numerator < 0 else ""
    digits = (2 * size * 10**places + below) // (2 * below)  # |value| * 10**places + 1/2, floored
    sign = sign if digits else ""  # no "-0"
    whole, frac = divmod(digits, 10**places)
    return f"{sign}{whole}" if places == 0 else f"{sign}{whole}.{frac:0{places}d}"


def percent(value: Fraction | int, places: int = 4) -> str:
    """`value` as a percentage rounded to `places` decimals, e.g. "1.0579%"."""
    value = value if isinstance(value, Fraction) else Fraction(value)
    return _decimal(value.numerator * 100, value.denominator, places) + "%"


def signed_decimal(value: Fraction, places: int) -> str:
    """A decimal with "+" before a positive value (zero and negatives as `decimal`)."""
    return ("+" if value > 0 else "") + decimal(value, places)


def signed_percent(value: Fraction, places: int = 4) -> str:
    """A percentage with its sign always shown, zero included, e.g. "+1.2799%"."""
    return ("+" if value >= 0 else "") + percent(value, places)


# -- headings, prose and JSON ----------------------------------------------------------------


def heading(title: str, fmt: str, level: int = 2) -> str:
    """A section heading: Markdown `##` (or `level` hashes) for markdown, the bare title
    otherwise; a blank line follows."""
    return f"{'#' * level} {title}\n\n" if fmt == "markdown" else f"{title}\n\n"


# The Markdown patterns, compiled on first use (re caches them): a terminal table needs none.
#: Line breaks (those `str.splitlines` knows): a user's text keeps to one line in a document.
_BREAKS = "\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]"
#: Marks Markdown reads anywhere (emphasis, code, links, raw HTML, headings' ends, entities,
#: strikethrough); a table's `|` is escaped by `table`.
_MARKS = r"([\\`*_\[\]<>#&~])"
#: Marks Markdown reads at the start of a line (a list, a numbered list, a setext heading).
_LEADING = r"^(\s*)([-+=]|\d+(?=[.)]))"
#: A code span: its inside is literal in Markdown, so it is kept as it is.
_CODE_SPAN = r"(`[^`]+`)"


def markdown_text(text: str) -> str:
    r"""A user's text (a title, a label, a source, a file name) as Markdown that shows it
    literally: line breaks become spaces, Markdown's marks are backslash-escaped, and a
    `code` span is kept (its inside is literal already).

    >>> print(markdown_text("<b>*Lucky*</b> [x](javascript:y)\nnext"))
    \<b\>\*Lucky\*\</b\> \[x\](javascript:y) next
    >>> print(markdown_text("1. any rate: `banker_commission`"))
    1\. any rate: `banker_commission`
    """
    parts = re.split(_CODE_SPAN, re.sub(_BREAKS, " ", text))
    escaped = "".join(part if i % 2 else re.sub(_MARKS, r"\\\1", part) for i, part in enumerate(parts))
    lead = re.match(_LEADING, escaped)
    if lead is None:
        return escaped
    cut = lead.end() if lead.group(2)[0].isdigit() else lead.start(2)
    return f"{escaped[:cut]}\\{escaped[cut:]}"


def markdown_code(text: str) -> str:
    """A name as Markdown inline code, or as escaped text (`markdown_text`) if it holds a
    backtick or a line break."""
    return markdown_text(text) if "`" in text or re.search(_BREAKS, text) else f"`{text}`"


def user_text(text: str, fmt: str) -> str:
    """A user's text as the format `fmt` shows it: `markdown_text` in Markdown, else as it is."""
    return markdown_text(text) if fmt == "markdown" else text


def written_list(what: str, paths: Sequence[object]) -> str:
    """The files a command wrote, one a line under "`what` written:"."""
    return f"{what} written:\n" + "".join(f"  {path}\n" for path in paths)


def wrap(text: str, width: int) -> str:
    """Prose wrapped to `width` columns, so terminal tables fit 120 columns."""
    import textwrap

    return "\n".join(textwrap.wrap(text, width)) or text


def wrap_prose(text: str) -> str:
    """A terminal text's prose lines wrapped to WIDTH (a table's rows, which hold runs of
    spaces, are fitted by `table` and left alone)."""
    import textwrap

    lines = []
    for line in text.split("\n"):
        if len(line) > WIDTH and "  " not in line.strip():
            indent = line[: len(line) - len(line.lstrip())]
            lines += textwrap.wrap(line, WIDTH, subsequent_indent=indent * 2, break_long_words=False)
        else:
            lines.append(line)
    return "\n".join(lines)


def dumps(data: Any) -> str:
    """`data` as indented JSON ending in a newline."""
    import json  # loaded for JSON output only

    return json.dumps(data, indent=2) + "\n"


# -- tables -----------------------------------------------------------------------------------

#: A simulated win of a study that made no bets: no figure, not "+0.000 ± 0.000".
NO_BETS = "none (no bets)"

#: A cell that reads as a number (exact, decimal, percentage, count, "± SE"), or stands
#: where one would (n/a, `NO_BETS`): right-aligned.
_NUMBER = re.compile(
    r"~?[+\-−]?[\d,]+(\.\d+)?(e[+-]\d+)?(/\d+)?%?( ± [\d.]+(e[+-]\d+)?)?|n/a|" + re.escape(NO_BETS) + "|"
)

#: Terminal tables are fitted to this many columns.
WIDTH = 120


def _tabulate(
    rows: Sequence[Sequence[str]], headers: Sequence[str], tablefmt: str, align: Sequence[str]
) -> str:
    """tabulate's table of string cells, each column aligned as `align` says (tabulate 0.9
    counts its columns from the rows: with none, no alignment is passed)."""
    from tabulate import tabulate  # type: ignore[import-untyped,unused-ignore]

    aligned = {"colalign": list(align)} if rows else {}
    return str(tabulate(rows, headers=list(headers), tablefmt=tablefmt, disable_numparse=True, **aligned))


def table(rows: Sequence[Sequence[Any]], headers: Sequence[str], fmt: str) -> str:
    """A table through tabulate: plain text for "table", GitHub Markdown for "markdown", an
    HTML table of HTML cells for "html".

    Columns of numbers are right-aligned; in Markdown a `|` inside a cell is escaped."""
    cells = [[str(cell) for cell in row] for row in rows]
    align = [
        "right" if cells and all(_NUMBER.fullmatch(row[i]) for row in cells) else "left"
        for i in range(len(headers))
    ]
    if fmt == "html":  # cells are HTML already (the caller escapes them)
        return _tabulate(cells, headers, "unsafehtml", align)
    if fmt == "markdown":  # a row holds to one line: a line break in a cell becomes a space
        cells = [[re.sub(_BREAKS, " ", cell).replace("|", "\\|") for cell in row] for row in cells]
        headers = [re.sub(_BREAKS, " ", header).replace("|", "\\|") for header in headers]
        return _tabulate(cells, headers, "pipe", align)
    return _fit(cells, list(headers), align)


def _fit(cells: list[list[str]], headers: list[str], align: list[str]) -> str:
    """A plain-text table no wider than WIDTH: headers wrap at spaces, then prose (left-aligned)
    columns wrap, and columns that still do not fit go to a second table that repeats the first."""
    import textwrap

    def render(columns: Sequence[int], rows: Sequence[list[str]] = cells) -> str:
        picked = [[row[i] for i in columns] for row in rows]
        return _tabulate(picked, [headers[i] for i in columns], "simple", [align[i] for i in columns])

    # Computed from the cells since their last rewrap (cleared by it): the tables' widths,
    # the rows whose characters might not each take one column, each column's longest row.
    widths: dict[tuple[tuple[int, ...], tuple[str, ...]], int] = {}
    odd_rows: list[set[int]] = []
    longest_rows: list[list[int]] = []
    versions = [0] * len(headers)  # per column: bumped whenever its cells are rewrapped
    cell_widths: dict[tuple[int, bool, int], int] = {}  # per column, stripping and its version

    def odd() -> set[int]:
        if not odd_rows:  # every cell plain (the usual table): checked at once, as one string
            plain = _plain("".join(cell for row in cells for cell in row))
            found = set() if plain else {r for r, row in enumerate(cells) if not all(map(_plain, row))}
            odd_rows.append(found)
        return odd_rows[0]

    def longest() -> list[int]:
        if not longest_rows:
            plain = [r for r in range(len(cells)) if r not in odd()]
            longest_rows.append(
                [
                    max(plain, key=lambda r: _longest_line(cells[r][i])) if plain else 0
                    for i in range(len(headers))
                ]
            )
        return longest_rows[0]

    def width(columns: Sequence[int]) -> int:
        """Characters in the widest line of the table of `columns`. When every cell and header
        is plain (`_plain`), counted as tabulate lays out its "simple" tables: each column as
        wide as its widest stripped cell line and at least its header's widest line plus 2,
        columns 2 apart. Else rendered on the rows that set its column widths: every row whose
        characters might not each take one column, and among the others each column's longest
        cell (the full table's lines are no longer)."""
        key = (tuple(columns), tuple(headers))
        if key not in widths:
            if not odd() and all(_plain(headers[i]) for i in columns):
                counted = [max(_longest_line(headers[i]) + 2, column_width(i, False, True)) for i in columns]
                widths[key] = sum(counted) + 2 * (len(columns) - 1)
            else:
                chosen = odd() | {longest()[i] for i in columns if cells}
                text = render(columns, [cells[r] for r in sorted(chosen)])
                widths[key] = max(len(line) for line in text.split("\n"))
        return widths[key]

    def column_width(i: int, with_header: bool = True, stripped: bool = False) -> int:
        """The longest line of column `i`'s cells (and header), each cell stripped first as
        tabulate strips it if `stripped`."""
        key = (i, stripped, versions[i])
        if key not in cell_widths:
            column = [row[i].strip() if stripped else row[i] for row in cells]
            cell_widths[key] = max((len(line) for cell in column for line in cell.split("\n")), default=0)
        return max(cell_widths[key], _longest_line(headers[i])) if with_header else cell_widths[key]

    everything = range(len(headers))
    prose = sorted((i for i, side in enumerate(align) if side == "left"), key=column_width, reverse=True)
    for i in prose:
        excess = width(everything) - WIDTH
        if excess > 0 and column_width(i) > 16:
            limit = max(16, column_width(i) - excess)
            for row in cells:
                row[i] = _wrapped(row[i], limit)
            versions[i] += 1
            for cache in (widths, odd_rows, longest_rows):
                cache.clear()
    for i, header in enumerate(headers):
        if width(everything) > WIDTH:
            limit = max(column_width(i, False), 4)
            headers[i] = "\n".join(textwrap.wrap(header, limit, break_long_words=False)) or header
    shown = list(everything)
    while len(shown) > 2 and width(shown) > WIDTH:
        shown.pop()
    rest = [i for i in everything if i not in shown]
    if not rest:
        return render(shown)
    keep = (0, *rest)
    more = _fit(
        [[row[i] for i in keep] for row in cells], [headers[i] for i in keep], [align[i] for i in keep]
    )
    return render(shown) + "\n\n" + more


def _wrapped(cell: str, limit: int) -> str:
    """`cell` wrapped at spaces to `limit` columns, as textwrap wraps it (a cell that fits
    and holds no whitespace textwrap would change is itself, unwrapped)."""
    if len(cell) <= limit and cell == cell.strip() and not any(c in cell for c in "\t\n\v\f\r"):
        return cell
    import textwrap

    return "\n".join(textwrap.wrap(cell, limit)) or cell


def _longest_line(cell: str) -> int:
    return max(len(line) for line in cell.split("\n"))


def _plain(cell: str) -> bool:
    """Whether every character of `cell` takes one terminal column (printable ASCII, or a
    line break)."""
    return cell.isascii() and cell.replace("\n", "").isprintable()
