"""The drawing tableau as text, Markdown, JSON or a Graphviz graph of the coup."""

from __future__ import annotations

from typing import TYPE_CHECKING

from analyzer.present.document import Block, Heading, Paragraph, Table, write
from analyzer.present.text import FORMATS, check_format, dumps, user_text

if TYPE_CHECKING:
    from analyzer.core.rules import Rules

__all__ = ["render_rules", "rules_blocks", "tableau"]


def render_rules(rules: Rules, fmt: str = "table") -> str:
    """The tableau: Punto's rule, Banco's rule when Punto stood, and Banco's matrix."""
    check_format(fmt, (*FORMATS, "dot"))
    if fmt == "json":
        return dumps(rules.to_mapping())
    if fmt == "dot":
        from analyzer.ranks.graph import coup_graph, to_dot  # networkx only when asked

        return to_dot(coup_graph(rules))
    return write(rules_blocks(rules, fmt), fmt)


def rules_blocks(rules: Rules, fmt: str = "table") -> list[Block]:
    """The document of `render_rules` in `fmt` (table or markdown)."""
    paragraphs, rows, headers = tableau(rules, fmt)
    return [
        Heading(f"Tableau: {user_text(rules.name, fmt)}"),
        *(Paragraph("\n".join(paragraph)) for paragraph in paragraphs),
        Table.of(rows, headers),
    ]


def tableau(rules: Rules, fmt: str = "table") -> tuple[list[list[str]], list[list[str]], list[str]]:
    """The tableau as data: its paragraphs (each a list of lines: the description, as `fmt`
    shows a user's text, the rules of naturals, Punto and Banco when Punto stood, the
    matrix's caption), then Banco's matrix when Punto drew (rows of D/S by Banco's total,
    and headers)."""
    paragraphs = [
        [user_text(rules.description, fmt)],
        [
            f"Natural: a two-card total of {rules.natural} or more ends the coup.",
            f"Punto draws on: {_list(rules.player_draws)}.",
            f"Banco, when Punto stood, draws on: {_list(rules.banker_draws_player_stood)}.",
        ],
        ["Banco when Punto drew (D = draws, S = stands), by Punto's third card:"],
    ]
    totals = [t for t in range(10) if not rules.is_natural(t)]
    rows = [[str(t)] + ["D" if v in rules.banker_draws[t] else "S" for v in range(10)] for t in totals]
    return paragraphs, rows, ["Banco"] + [str(v) for v in range(10)]


def _list(values: frozenset[int]) -> str:
    return ", ".join(map(str, sorted(values))) or "never"
