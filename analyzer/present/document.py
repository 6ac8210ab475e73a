"""A small document model: what a command or a par sheet says, as blocks (headings,
paragraphs, bullet lists, tables, figures, code), and one writer per format (`WRITERS`): a
terminal text, Markdown and a fragment of HTML.

A block's text is as its format shows it: plain in a terminal text; in Markdown and HTML,
Markdown-marked (a user's text escaped by `analyzer.present.text.markdown_text`, **bold** and
`code` marks), which the HTML writer turns into tags (`inline_html`). The text and Markdown
writers put a blank line between blocks and end the document with a newline; the HTML writer
writes one element a block. Only HTML draws a figure (with the `draw` it is given).

A table may carry its cells' typed values beside their text (`Table.values`: exact Fractions,
integers, floats, `Estimate`s), which the spreadsheet writers (`analyzer.present.spreadsheet`:
CSV and XLSX) write as numbers; the other writers show the text.

>>> odds = Table.of([["tie", "0.0952"]], ["bet", "p"])
>>> blocks = [Heading("Odds"), Paragraph("Exact, for **8 decks**."), odds]
>>> print(write(blocks, "markdown"), end="")
## Odds
<BLANKLINE>
Exact, for **8 decks**.
<BLANKLINE>
| bet   |      p |
|:------|-------:|
| tie   | 0.0952 |
>>> print(write(blocks[:2], "html"), end="")
<h2>Odds</h2>
<p>Exact, for <strong>8 decks</strong>.</p>
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from analyzer.core.errors import AnalyzerError, quoted
from analyzer.present.text import table

__all__ = [
    "WRITERS",
    "Block",
    "Bullets",
    "Code",
    "Estimate",
    "Figure",
    "Heading",
    "Paragraph",
    "Table",
    "Value",
    "inline_html",
    "inline_plain",
    "write",
    "write_html",
    "write_markdown",
    "write_text",
]


@dataclass(frozen=True)
class Heading:
    """A section's title; `level` 1 is the document's own."""

    text: str
    level: int = 2


@dataclass(frozen=True)
class Paragraph:
    """Prose (its line breaks kept); `role` names what it is for a style sheet ("verdict")."""

    text: str
    role: str = ""


@dataclass(frozen=True)
class Bullets:
    """A bulleted list."""

    items: tuple[str, ...]


@dataclass(frozen=True)
class Estimate:
    """A simulated figure and its standard error (display floats), e.g. a win per shoe; None
    where there is none (a study with no bets has no figure, a study of one shoe or a figure
    that never varied no standard error): an empty cell, not 0."""

    mean: float | None
    se: float | None


#: A cell's typed value: an exact number (Fraction, int), a float, an `Estimate`, a text
#: (an exact value as "p/q", a word), a truth value, or None (the cell's text is its value).
Value = Fraction | int | float | Estimate | str | bool | None


@dataclass(frozen=True)
class Table:
    """Rows of cells under headers (`analyzer.present.text.table` lays them out); `values`,
    when given, holds each cell's typed value in the same shape as `rows` (None where the
    text is the value)."""

    rows: tuple[tuple[str, ...], ...]
    headers: tuple[str, ...]
    values: tuple[tuple[Value, ...], ...] | None = None

    @classmethod
    def of(
        cls,
        rows: Sequence[Sequence[object]],
        headers: Sequence[str],
        values: Sequence[Sequence[Value]] | None = None,
    ) -> Table:
        cells = tuple(tuple(str(cell) for cell in row) for row in rows)
        typed = None if values is None else tuple(tuple(row) for row in values)
        if typed is not None and [len(row) for row in typed] != [len(row) for row in cells]:
            raise ValueError("a table's values have the shape of its rows")
        return cls(cells, tuple(headers), typed)

    def value(self, row: int, column: int) -> Value:
        """The typed value of a cell (None: its text is its value)."""
        return None if self.values is None else self.values[row][column]


@dataclass(frozen=True)
class Figure:
    """A chart, by name; the HTML writer's `draw` draws it, the other formats leave it out."""

    name: str


@dataclass(frozen=True)
class Code:
    """Literal text, such as a command to run: shown as it is (a fenced block in Markdown, a
    <pre> in HTML); `language` names it for Markdown's fence ("sh").

    >>> print(write([Code("baccarat odds --decks 6", "sh")], "markdown"), end="")
    ```sh
    baccarat odds --decks 6
    ```
    >>> print(write([Code("a <b> & c")], "html"), end="")
    <pre><code>a &lt;b&gt; &amp; c</code></pre>
    """

    text: str
    language: str = ""


Block = Heading | Paragraph | Bullets | Table | Figure | Code


def _joined(parts: Sequence[str]) -> str:
    return "\n\n".join(parts) + "\n"


def write_text(blocks: Sequence[Block]) -> str:
    """The blocks as a terminal text: bare headings, tables fitted to the terminal's width."""
    return _joined([_plain(block, "table") for block in blocks if not isinstance(block, Figure)])


def write_markdown(blocks: Sequence[Block]) -> str:
    """The blocks as GitHub Markdown: `#` headings, pipe tables."""
    return _joined([_plain(block, "markdown") for block in blocks if not isinstance(block, Figure)])


def _plain(block: Block, fmt: str) -> str:
    if isinstance(block, Heading):
        return f"{'#' * block.level} {block.text}" if fmt == "markdown" else block.text
    if isinstance(block, Paragraph):
        return block.text
    if isinstance(block, Bullets):
        return "\n".join(f"- {item}" for item in block.items)
    if isinstance(block, Code):
        return f"```{block.language}\n{block.text}\n```" if fmt == "markdown" else block.text
    assert isinstance(block, Table)
    return table(block.rows, block.headers, fmt)


def write_html(blocks: Sequence[Block], draw: Callable[[Figure], str] | None = None) -> str:
    """The blocks as HTML elements, their Markdown marks as tags (`inline_html`); each figure
    in a <figure> as `draw` draws it (SVG)."""
    import html  # loaded for HTML only

    out = []
    for block in blocks:
        if isinstance(block, Heading):
            out.append(f"<h{block.level}>{inline_html(block.text)}</h{block.level}>\n")
        elif isinstance(block, Paragraph):
            css = f' class="{html.escape(block.role)}"' if block.role else ""
            out.append(f"<p{css}>{inline_html(block.text)}</p>\n")
        elif isinstance(block, Bullets):
            items = "".join(f"<li>{inline_html(item)}</li>\n" for item in block.items)
            out.append(f"<ul>\n{items}</ul>\n")
        elif isinstance(block, Table):
            rows = [[inline_html(cell) for cell in row] for row in block.rows]
            out.append(table(rows, [inline_html(h) for h in block.headers], "html") + "\n")
        elif isinstance(block, Code):
            out.append(f"<pre><code>{html.escape(block.text, quote=False)}</code></pre>\n")
        elif draw is not None:
            out.append(f'<figure aria-label="{html.escape(block.name)} chart">\n{draw(block)}</figure>\n')
    return "".join(out)


#: Each format's writer: a new format is one writer here (and its name in `FORMATS`).
WRITERS: dict[str, Callable[[Sequence[Block]], str]] = {
    "table": write_text,
    "markdown": write_markdown,
    "html": write_html,
}


def write(blocks: Sequence[Block], fmt: str) -> str:
    """The blocks in the format `fmt` (one of `WRITERS`)."""
    if fmt not in WRITERS:
        raise AnalyzerError(f"format {quoted(fmt)}: a document is written as one of {', '.join(WRITERS)}")
    return WRITERS[fmt](blocks)


#: The marks of a block's text, read left to right as Markdown reads them: a backslash-escaped
#: mark (`analyzer.present.text.markdown_text`), a `code` span, a bold mark, other text
#: (compiled on first use: a terminal text needs none of it).
_TOKEN = r"(?s)\\([!-/:-@\[-`{-~])|`([^`]+)`|(\*\*)|([^\\`*]+|.)"


def inline_plain(text: str) -> str:
    """A Markdown-marked text as plain text: the marks of **bold** and `code` dropped,
    backslash-escaped marks as themselves (a `**` left unpaired is text)."""
    pieces: list[str | None] = []  # None: a bold mark
    for escaped, code, bold, plain in re.findall(_TOKEN, text):
        pieces.append(None if bold else code or escaped or plain)
    marks = [i for i, piece in enumerate(pieces) if piece is None]
    if len(marks) % 2:
        pieces[marks[-1]] = "**"
    return "".join(piece or "" for piece in pieces)


def inline_html(text: str) -> str:
    """A Markdown-marked text as HTML: **bold** and `code` marks as tags, backslash-escaped
    marks as themselves, everything else escaped (a `**` left unpaired is text)."""
    from html import escape  # loaded for HTML only

    pieces: list[str | None] = []  # None: a bold mark
    for escaped, code, bold, plain in re.findall(_TOKEN, text):
        if bold:
            pieces.append(None)
        elif code:
            pieces.append(f"<code>{escape(code, quote=False)}</code>")
        else:
            pieces.append(escape(escaped or plain, quote=False))
    marks = [i for i, piece in enumerate(pieces) if piece is None]
    if len(marks) % 2:
        pieces[marks[-1]] = "**"
    tags = iter(["<strong>", "</strong>"] * (len(marks) // 2))
    return "".join(next(tags) if piece is None else piece for piece in pieces)
