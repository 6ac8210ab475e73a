"""The reports on the bets: outcome probabilities, the table after Punto's two cards, the
house edges of every built-in bet, and the payout rules and tableaux compared."""

from __future__ import annotations

from functools import cache

from analyzer.analyses.compare import STANDARD_SHOES, Comparison, compare_tables, edges_across
from analyzer.analyses.odds import odds, player_table
from analyzer.analyses.pricing import analyze
from analyzer.core.catalogue import RANK_BETS, TABLES
from analyzer.core.rules import BANCO_4_DRAWS_ON_0_1, STANDARD
from analyzer.core.shoe import Shoe
from analyzer.present.compare import compare_blocks
from analyzer.present.document import Block, Heading, Paragraph, Table
from analyzer.present.edges import edges_blocks
from analyzer.present.odds import player_table_blocks
from analyzer.present.reports.shared import report
from analyzer.present.rules import rules_blocks
from analyzer.present.text import exact, percent
from analyzer.ranks.enumeration import distribution

__all__ = ["compare_report", "edges_report", "odds_report", "player_table_report", "tableau_report"]


def odds_report() -> str:
    """odds.md: outcome probabilities, combinations and exact values across the standard shoes."""
    results = [odds(shoe, STANDARD) for shoe in STANDARD_SHOES]
    probabilities = Table.of(
        [[str(r.shoe), percent(r.banker), percent(r.player), percent(r.tie)] for r in results],
        ["shoe", "Banker", "Player", "Tie"],
    )
    counts = Table.of(
        [
            [str(r.shoe), *(f"{c:,}" for c in r.counts.values()), f"{r.total:,}"]
            for r in results
            if r.counts is not None and r.total is not None
        ],
        ["shoe", "Banker", "Player", "Tie", "total"],
    )
    exact_table = Table.of(
        [[str(r.shoe), exact(r.banker), exact(r.player), exact(r.tie)] for r in results],
        ["shoe", "Banker", "Player", "Tie"],
    )
    blocks: list[Block] = [
        Paragraph("The probabilities of one coup dealt off the top of a full shoe (no cards seen or burnt)."),
        Heading("Probabilities"),
        probabilities,
        Heading("Combinations"),
        counts,
        Heading("Exact probabilities"),
        exact_table,
    ]
    return report("Outcome probabilities, standard tableau", blocks)


def player_table_report() -> str:
    """punto-table.md: the probabilities after Punto's two cards, infinite deck and 8 decks."""
    blocks: list[Block] = [
        Paragraph(
            "Given Punto's two-card total, the probability that Punto wins, Banco wins, or the coup is "
            "an égalité, standard tableau, for a coup dealt off the top of a full shoe. The table is "
            "Table 2 of a Russian gambling dictionary's entry on baccarat, which credits Lesnoy and "
            "Natanson's book PuntoBanco. On 5 the draw row is the standard rule; the stand row is "
            "the option of that entry's Russian casino rules (Banco then draws on 0-5)."
        )
    ]
    for shoe in (Shoe.infinite(), Shoe.decks(8)):
        blocks += player_table_blocks(player_table(shoe, STANDARD), title=str(shoe))
    title = "Probabilities after Punto's two cards (a Russian gambling dictionary's Table 2)"
    return report(title, blocks, blank_end=True)


def edges_report() -> str:
    """house-edges.md: every built-in bet across shoes, with paytables on 8 decks."""
    bets = list(RANK_BETS.values())
    eight = distribution(Shoe.decks(8), STANDARD)
    analyses = [analyze(bet, eight) for bet in bets]
    across = edges_across(bets, STANDARD_SHOES, STANDARD)
    labels = [str(shoe) for shoe in STANDARD_SHOES]
    blocks = [
        Paragraph(
            "Standard tableau, one coup dealt off the top of a full shoe. House edge per unit bet, "
            "positive when the house wins; pushes count as bets (the published convention); 'per "
            "resolved bet' leaves pushes out. [closed-forms.md](closed-forms.md) gives the main bets "
            "as exact functions of the number of decks."
        ),
        Paragraph("![House edge against the number of decks](house-edge-by-decks.png)"),
        Heading("Across shoes"),
        Table.of(
            [[bet.name, *(percent(a.house_edge) for a in across[bet.name])] for bet in bets], ["bet", *labels]
        ),
        *edges_blocks(analyses, "markdown", Shoe.decks(8), STANDARD, details=True),
        *_card_edges_section(),
    ]
    return report("House edges of every built-in bet", blocks)


def _card_edges_section() -> list[Block]:
    """Card-level built-ins (suits, colours, ranks) on 8 decks, each with its published source."""
    from analyzer.cards.batch import analyze_cards
    from analyzer.core.catalogue import CARD_BETS

    eight = Shoe.decks(8)
    analyses = [analyze_cards(bet, eight, STANDARD) for bet in CARD_BETS.values()]
    return [
        Heading("Card-level bets"),
        Paragraph(
            "Bets settled on individual cards (ranks, suits, colours), priced by the card-level engine; "
            "each is checked against its published table in the tests."
        ),
        *edges_blocks(analyses, "markdown", eight, STANDARD, details=True),
    ]


@cache
def _comparison() -> Comparison:
    """The payout-rule and tableau comparison (compare.md and tableau.md share one run)."""
    return compare_tables(
        list(TABLES.values()),
        STANDARD_SHOES,
        Shoe.decks(8),
        BANCO_4_DRAWS_ON_0_1,
        list(RANK_BETS.values()),
        base=STANDARD,
    )


def compare_report() -> str:
    """compare.md: each built-in table's edges across shoes and the equivalent commissions."""
    intro = (
        "Each built-in table (a tableau and the bets offered with it) across shoes, and the "
        "Banker commission that gives each Banker bet's edge (the English Wikipedia article on "
        "baccarat: Super 6 is 'equivalent to raising the commission by 17.45%, to 5.87%'). Every "
        "figure is for a coup dealt off the top of a full shoe."
    )
    blocks = [Paragraph(intro), *compare_blocks(_comparison(), "markdown", sections=("edges", "commissions"))]
    return report("Payout rules compared", blocks)


def tableau_report() -> str:
    """tableau.md: the banco-4-draws-on-0-1 tableau (Banco 4 also draws on 0-1) against the
    standard one."""
    intro = (
        f"`{BANCO_4_DRAWS_ON_0_1.name}` is the grid of a Russian-language beginner's guide "
        "to baccarat, where Banco 4 also draws against a third card of 0 or 1; every other source "
        "gives the standard tableau. Figures are for a coup dealt off the top of a full shoe."
    )
    blocks = [
        Paragraph(intro),
        *rules_blocks(STANDARD, "markdown"),
        *rules_blocks(BANCO_4_DRAWS_ON_0_1, "markdown"),
        *compare_blocks(_comparison(), "markdown", sections=("tableau",)),
    ]
    return report(f"Tableaux compared: {BANCO_4_DRAWS_ON_0_1.name} against standard", blocks)
