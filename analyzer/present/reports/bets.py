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
from analyzer.present.compare import render_compare
from analyzer.present.edges import render_edges
from analyzer.present.odds import render_player_table
from analyzer.present.reports.shared import PREAMBLE
from analyzer.present.rules import render_rules
from analyzer.present.text import exact, percent, table
from analyzer.ranks.enumeration import distribution

__all__ = ["compare_report", "edges_report", "odds_report", "player_table_report", "tableau_report"]


def odds_report() -> str:
    """odds.md: outcome probabilities, combinations and exact values across the standard shoes."""
    results = [odds(shoe, STANDARD) for shoe in STANDARD_SHOES]
    probabilities = table(
        [[str(r.shoe), percent(r.banker), percent(r.player), percent(r.tie)] for r in results],
        ["shoe", "Banker", "Player", "Tie"],
        "markdown",
    )
    counts = table(
        [
            [str(r.shoe), *(f"{c:,}" for c in r.counts.values()), f"{r.total:,}"]
            for r in results
            if r.counts is not None and r.total is not None
        ],
        ["shoe", "Banker", "Player", "Tie", "total"],
        "markdown",
    )
    exact_table = table(
        [[str(r.shoe), exact(r.banker), exact(r.player), exact(r.tie)] for r in results],
        ["shoe", "Banker", "Player", "Tie"],
        "markdown",
    )
    return (
        "# Outcome probabilities, standard tableau\n\n"
        + PREAMBLE
        + "The probabilities of one coup dealt off the top of a full shoe (no cards seen or burnt).\n\n"
        + "## Probabilities\n\n"
        + probabilities
        + "\n\n## Combinations\n\n"
        + counts
        + "\n\n## Exact probabilities\n\n"
        + exact_table
        + "\n"
    )


def player_table_report() -> str:
    """punto-table.md: the probabilities after Punto's two cards, infinite deck and 8 decks."""
    parts = [
        "# Probabilities after Punto's two cards (a Russian gambling dictionary's Table 2)\n\n",
        PREAMBLE,
    ]
    parts.append(
        "Given Punto's two-card total, the probability that Punto wins, Banco wins, or the coup is "
        "an égalité, standard tableau, for a coup dealt off the top of a full shoe. The table is "
        "Table 2 of a Russian gambling dictionary's entry on baccarat, which credits Lesnoy and "
        "Natanson's book PuntoBanco. On 5 the draw row is the standard rule; the stand row is "
        "the option of that entry's Russian casino rules (Banco then draws on 0-5).\n\n"
    )
    for shoe in (Shoe.infinite(), Shoe.decks(8)):
        parts.append(render_player_table(player_table(shoe, STANDARD), "markdown", title=str(shoe)) + "\n")
    return "".join(parts)


def edges_report() -> str:
    """house-edges.md: every built-in bet across shoes, with paytables on 8 decks."""
    bets = list(RANK_BETS.values())
    eight = distribution(Shoe.decks(8), STANDARD)
    analyses = [analyze(bet, eight) for bet in bets]
    across = edges_across(bets, STANDARD_SHOES, STANDARD)
    labels = [str(shoe) for shoe in STANDARD_SHOES]
    return (
        "# House edges of every built-in bet\n\n"
        + PREAMBLE
        + "Standard tableau, one coup dealt off the top of a full shoe. House edge per unit bet, "
        "positive when the house wins; pushes count as bets (the published convention); 'per "
        "resolved bet' leaves pushes out. [closed-forms.md](closed-forms.md) gives the main bets "
        "as exact functions of the number of decks.\n\n"
        "![House edge against the number of decks](house-edge-by-decks.png)\n\n"
        + "## Across shoes\n\n"
        + table(
            [[bet.name, *(percent(a.house_edge) for a in across[bet.name])] for bet in bets],
            ["bet", *labels],
            "markdown",
        )
        + "\n\n"
        + render_edges(analyses, "markdown", Shoe.decks(8), STANDARD, details=True)
        + _card_edges_section()
    )


def _card_edges_section() -> str:
    """Card-level built-ins (suits, colours, ranks) on 8 decks, each with its published source."""
    from analyzer.cards.batch import analyze_cards
    from analyzer.core.catalogue import CARD_BETS

    eight = Shoe.decks(8)
    analyses = [analyze_cards(bet, eight, STANDARD) for bet in CARD_BETS.values()]
    text = render_edges(analyses, "markdown", eight, STANDARD, details=True)
    return (
        "\n## Card-level bets\n\n"
        "Bets settled on individual cards (ranks, suits, colours), priced by the card-level engine; "
        "each is checked against its published table in the tests.\n\n" + text
    )


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
    return (
        "# Payout rules compared\n\n"
        + PREAMBLE
        + "Each built-in table (a tableau and the bets offered with it) across shoes, and the "
        "Banker commission that gives each Banker bet's edge (the English Wikipedia article on "
        "baccarat: Super 6 is 'equivalent to raising the commission by 17.45%, to 5.87%'). Every "
        "figure is for a coup dealt off the top of a full shoe.\n\n"
        + render_compare(_comparison(), "markdown", sections=("edges", "commissions"))
    )


def tableau_report() -> str:
    """tableau.md: the banco-4-draws-on-0-1 tableau (Banco 4 also draws on 0-1) against the
    standard one."""
    return (
        f"# Tableaux compared: {BANCO_4_DRAWS_ON_0_1.name} against standard\n\n"
        + PREAMBLE
        + f"`{BANCO_4_DRAWS_ON_0_1.name}` is the grid of a Russian-language beginner's guide "
        "to baccarat, where Banco 4 also draws against a third card of 0 or 1; every other source "
        "gives the standard tableau. Figures are for a coup dealt off the top of a full shoe.\n\n"
        + render_rules(STANDARD, "markdown")
        + "\n"
        + render_rules(BANCO_4_DRAWS_ON_0_1, "markdown")
        + "\n"
        + render_compare(_comparison(), "markdown", sections=("tableau",))
    )
