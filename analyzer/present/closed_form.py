"""Closed forms in the number of decks d: plain text, LaTeX in Markdown, or JSON strings
that sympy reads back."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from analyzer.present.document import Block, Heading, Paragraph, Table, write
from analyzer.present.text import check_format, dumps, markdown_code, markdown_text, percent, user_text

__all__ = ["closed_forms_blocks", "closed_forms_data", "render_closed_forms"]


def closed_forms_data(forms: Sequence[Any]) -> dict[str, Any]:
    """The JSON document of `render_closed_forms`: each bet's house edge and results as
    strings that sympy.sympify reads back."""
    return {
        "variable": "d (number of 52-card decks)",
        "bets": {
            f.bet.name: {
                "title": f.bet.title,
                "house_edge": str(f.house_edge),
                "house_edge_infinite_deck": str(f.house_edge_limit),
                "results": {
                    label: {"probability": str(p), "infinite_deck": str(limit)}
                    for (label, p), (_, limit) in zip(f.results, f.results_limit, strict=True)
                },
            }
            for f in forms
        },
    }


def closed_forms_blocks(forms: Sequence[Any], fmt: str) -> list[Block]:
    """The blocks of `render_closed_forms`: in Markdown each bet's LaTeX under its heading,
    in a terminal text each bet's sympy expressions as lines of a paragraph."""
    import sympy as sp  # type: ignore[import-untyped,unused-ignore]

    rules = user_text(forms[0].rules.name, fmt) if forms else "standard"
    blocks: list[Block] = [Heading(f"Closed forms in the number of decks d, {rules} rules")]
    for f in forms:
        limit = f"{percent(_fraction(f.house_edge_limit))}"
        if fmt == "markdown":
            rows = [[markdown_text(label), f"${sp.latex(p)}$"] for label, p in f.results]
            blocks += [
                Heading(f"{markdown_text(f.bet.title)} ({markdown_code(f.bet.name)})", 3),
                Paragraph(f"House edge: $${sp.latex(f.house_edge)}$$"),
                Paragraph(f"Infinite deck: ${sp.latex(f.house_edge_limit)}$ ({limit})"),
                Table.of(rows, ["result", "probability"]),
            ]
        else:
            lines = [
                f"{f.bet.title} ({f.bet.name})",
                f"  house edge = {f.house_edge}",
                f"  infinite deck: {f.house_edge_limit} ({limit})",
                *(f"  P({label}) = {p}" for label, p in f.results),
            ]
            blocks.append(Paragraph("\n".join(lines)))
    return blocks


def render_closed_forms(forms: Sequence[Any], fmt: str = "table") -> str:
    """Closed forms in d (`forms`: analyzer.analyses.closed_form.ClosedForm values): text, LaTeX in
    Markdown, or JSON strings that sympy.sympify reads back. The text ends in a blank line."""
    check_format(fmt)
    if fmt == "json":
        return dumps(closed_forms_data(forms))
    return write(closed_forms_blocks(forms, fmt), fmt) + "\n"


def _fraction(value: Any) -> Fraction:
    from analyzer.analyses.closed_form import to_fraction  # (sympy is loaded already: value is one of its)

    return to_fraction(value)
