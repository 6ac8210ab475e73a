"""Closed forms in the number of decks d: plain text, LaTeX in Markdown, or JSON strings
that sympy reads back."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from analyzer.present.text import (
    check_format,
    dumps,
    heading,
    markdown_code,
    markdown_text,
    percent,
    table,
    user_text,
)

__all__ = ["closed_forms_data", "render_closed_forms"]


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


def render_closed_forms(forms: Sequence[Any], fmt: str = "table") -> str:
    """Closed forms in d (`forms`: analyzer.analyses.closed_form.ClosedForm values): text, LaTeX in
    Markdown, or JSON strings that sympy.sympify reads back."""
    import sympy as sp  # type: ignore[import-untyped,unused-ignore]

    check_format(fmt)
    if fmt == "json":
        return dumps(closed_forms_data(forms))
    rules = user_text(forms[0].rules.name, fmt) if forms else "standard"
    out = [heading(f"Closed forms in the number of decks d, {rules} rules", fmt)]
    for f in forms:
        if fmt == "markdown":
            out.append(f"### {markdown_text(f.bet.title)} ({markdown_code(f.bet.name)})\n\n")
            out.append(f"House edge: $${sp.latex(f.house_edge)}$$\n\n")
            out.append(
                f"Infinite deck: ${sp.latex(f.house_edge_limit)}$ "
                f"({percent(_fraction(f.house_edge_limit))})\n\n"
            )
            rows = [[markdown_text(label), f"${sp.latex(p)}$"] for label, p in f.results]
            out.append(table(rows, ["result", "probability"], fmt) + "\n\n")
        else:
            out.append(f"{f.bet.title} ({f.bet.name})\n")
            out.append(f"  house edge = {f.house_edge}\n")
            out.append(f"  infinite deck: {f.house_edge_limit} ({percent(_fraction(f.house_edge_limit))})\n")
            for label, p in f.results:
                out.append(f"  P({label}) = {p}\n")
            out.append("\n")
    return "".join(out)


def _fraction(value: Any) -> Fraction:
    from analyzer.analyses.closed_form import to_fraction  # (sympy is loaded already: value is one of its)

    return to_fraction(value)
