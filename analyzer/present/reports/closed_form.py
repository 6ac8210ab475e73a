"""The closed-forms report: the main bets as exact functions of the number of decks, and
the plot of their house edges against it."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from analyzer.analyses.closed_form import MAIN_BETS, ClosedForm, closed_forms, evaluate, to_fraction
from analyzer.core.catalogue import BETS
from analyzer.core.rules import STANDARD
from analyzer.present.closed_form import closed_forms_blocks
from analyzer.present.document import Paragraph, Table
from analyzer.present.reports.shared import figure, put_title, report, save_png
from analyzer.present.text import exact, percent

__all__ = ["closed_form_report", "edge_by_decks_plot"]


@cache
def _main_closed_forms() -> list[ClosedForm]:
    return closed_forms([BETS[name] for name in MAIN_BETS], STANDARD)


def closed_form_report() -> str:
    """closed-forms.md: the main bets as exact functions of the number of decks d."""
    forms = _main_closed_forms()
    rows = [
        [
            f.bet.name,
            *(percent(evaluate(f.house_edge, d)) for d in (1, 6, 8)),
            exact(to_fraction(f.house_edge_limit)),
        ]
        for f in forms
    ]
    blocks = [
        Paragraph(
            "Each bet's probabilities and house edge for a coup dealt off the top of a full shoe of d "
            "decks, standard tableau, as exact rational functions of d derived from the compiled coup "
            "classes and simplified with sympy (`baccarat closed-form`; `--format json` gives strings that "
            "`sympy.sympify` reads). The tests evaluate them at every d from 1 to 8 against the "
            "enumerator and take their limit against the infinite deck."
        ),
        Table.of(rows, ["bet", "1 deck", "6 decks", "8 decks", "infinite deck (exact)"]),
        *closed_forms_blocks(forms, "markdown"),
    ]
    return report("The main bets as functions of the number of decks", blocks, blank_end=True)


def edge_by_decks_plot(path: Path) -> None:
    """House edge of the main bets against the number of decks, with the infinite-deck limit."""
    decks = list(range(1, 17))
    fig = figure(11, 3.6)
    axes = fig.subplots(1, 3)
    for ax, form in zip(axes, _main_closed_forms(), strict=True):
        edges = [100 * float(evaluate(form.house_edge, d)) for d in decks]
        ax.plot(decks, edges, marker="o", ms=3, label="exact, d decks")
        ax.axhline(100 * float(form.house_edge_limit), color="grey", ls="--", lw=0.8, label="infinite deck")
        put_title(ax, form.bet.title)
        ax.set_xlabel("number of decks")
        ax.set_ylabel("house edge (%)")
        ax.legend(fontsize=8)
    fig.suptitle("House edge against the number of decks (standard tableau, full shoe)")
    fig.tight_layout()
    save_png(fig, path)
