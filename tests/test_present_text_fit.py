"""The terminal-table fitter decides widths on a few rows, or counts them for plain cells; its
tables equal those of deciding on every row by rendering (the plain way, here as the
reference), wide characters included."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st
from tabulate import tabulate  # type: ignore[import-untyped,unused-ignore]

from analyzer.present.text import WIDTH, _fit


def _reference(cells: list[list[str]], headers: list[str], align: list[str]) -> str:
    def render(columns: Sequence[int]) -> str:
        return str(
            tabulate(
                [[row[i] for i in columns] for row in cells],
                headers=[headers[i] for i in columns],
                tablefmt="simple",
                disable_numparse=True,
                **({"colalign": [align[i] for i in columns]} if cells else {}),  # tabulate 0.9: none
            )
        )

    def width(text: str) -> int:
        return max(len(line) for line in text.split("\n"))

    def column_width(i: int, with_header: bool = True) -> int:
        column = [row[i] for row in cells] + ([headers[i]] if with_header else [])
        return max((len(line) for cell in column for line in cell.split("\n")), default=0)

    everything = range(len(headers))
    prose = sorted((i for i, side in enumerate(align) if side == "left"), key=column_width, reverse=True)
    for i in prose:
        excess = width(render(everything)) - WIDTH
        if excess > 0 and column_width(i) > 16:
            limit = max(16, column_width(i) - excess)
            for row in cells:
                row[i] = "\n".join(textwrap.wrap(row[i], limit)) or row[i]
    for i, header in enumerate(headers):
        if width(render(everything)) > WIDTH:
            limit = max(column_width(i, False), 4)
            headers[i] = "\n".join(textwrap.wrap(header, limit, break_long_words=False)) or header
    shown = list(everything)
    while len(shown) > 2 and width(render(shown)) > WIDTH:
        shown.pop()
    rest = [i for i in everything if i not in shown]
    if not rest:
        return render(shown)
    keep = (0, *rest)
    more = _reference(
        [[row[i] for i in keep] for row in cells], [headers[i] for i in keep], [align[i] for i in keep]
    )
    return render(shown) + "\n\n" + more


# Mostly plain ASCII cells (the rows the fitter may skip), now and then a wide or combining one.
plain_words = st.text(alphabet="abcdefghij0123456789.,%-", min_size=1, max_size=12)
wide_words = st.text(alphabet="abcdefghij0123456789.,%-漢字éü\u0301", min_size=1, max_size=12)
cell = (
    st.integers(0, 9)
    .flatmap(lambda k: st.lists(wide_words if k == 0 else plain_words, min_size=0, max_size=9))
    .map(" ".join)
)


Table = tuple[list[list[str]], list[str], list[str]]


def tables(cells: st.SearchStrategy[str], columns: tuple[int, int], rows: int) -> st.SearchStrategy[Table]:
    """Tables of `cells`: rows (up to `rows`), headers and each column's alignment."""
    return st.integers(*columns).flatmap(lambda n: st.tuples(
        st.lists(st.lists(cells, min_size=n, max_size=n), min_size=0, max_size=rows),
        st.lists(cells, min_size=n, max_size=n),
        st.lists(st.sampled_from(["left", "right"]), min_size=n, max_size=n),
    ))  # fmt: skip


def _fits_as_the_reference(table: Table) -> None:
    rows, headers, align = table
    expected = _reference([list(r) for r in rows], list(headers), list(align))
    assert _fit([list(r) for r in rows], list(headers), list(align)) == expected


@settings(max_examples=40, deadline=None)
@given(tables(cell, (2, 9), 12))
def test_fit_equals_deciding_on_every_row(table: Table) -> None:
    _fits_as_the_reference(table)


# Plain cells only (the widths the fitter counts without tabulate), with what tabulate treats
# specially: spaces at the edges (stripped), line breaks, empty cells, words it reads as truth
# values, and headers of several lines; long enough to wrap, rewrap headers and split tables.
plain_piece = st.one_of(
    plain_words,
    st.sampled_from(["", " ", "  x ", "True", "False", "a\nbb", " lead", "trail  ", "-", "1,234"]),
)
plain_cell = st.lists(plain_piece, min_size=0, max_size=14).map(" ".join)


@settings(max_examples=60, deadline=None)
@given(tables(plain_cell, (1, 11), 8))
def test_counted_widths_equal_rendered_ones(table: Table) -> None:
    _fits_as_the_reference(table)


def test_a_long_plain_row_among_many_sets_its_column_width() -> None:
    """ASCII rows the fitter may skip, one of them far longer than the rest."""
    rows = [[f"bet {i}", "short words here", f"{i}.0%"] for i in range(30)]
    rows[17][1] = " ".join(["a much longer description"] * 8)
    headers, align = ["name", "description", "edge"], ["left", "left", "right"]
    expected = _reference([list(r) for r in rows], list(headers), list(align))
    assert _fit([list(r) for r in rows], list(headers), list(align)) == expected
