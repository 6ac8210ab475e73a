"""Comparisons of payout rules and tableaux: edges across shoes, matching commissions,
and how a tableau variant moves every bet."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from analyzer.analyses.pricing import analyze
from analyzer.core.analysis import BetAnalysis
from analyzer.core.bets import Bet
from analyzer.core.catalogue import Table
from analyzer.core.errors import AnalyzerError
from analyzer.core.outcome import Winner
from analyzer.core.rules import Rules
from analyzer.core.shoe import Shoe
from analyzer.ranks.enumeration import distribution

__all__ = [
    "STANDARD_SHOES",
    "CommissionMatch",
    "Comparison",
    "TableauEffect",
    "compare_tables",
    "edges_across",
    "matching_commission",
    "tableau_effects",
]

#: The shoes every comparison runs across: 1, 2, 4, 6, 8 decks and the infinite deck.
STANDARD_SHOES: tuple[Shoe, ...] = (*(Shoe.decks(n) for n in (1, 2, 4, 6, 8)), Shoe.infinite())


def edges_across(bets: Sequence[Bet], shoes: Sequence[Shoe], rules: Rules) -> dict[str, list[BetAnalysis]]:
    """Each bet analysed on each shoe, by bet name, in shoe order."""
    dists = [distribution(shoe, rules) for shoe in shoes]
    return {bet.name: [analyze(bet, dist) for dist in dists] for bet in bets}


@dataclass(frozen=True)
class CommissionMatch:
    """The Banker commission whose edge equals `bet`'s edge on `shoe` (exact)."""

    bet: Bet
    shoe: Shoe
    house_edge: Fraction
    commission: Fraction

    def relative_to(self, base: Fraction = Fraction(1, 20)) -> Fraction:
        """How much larger than `base` the commission is, as a fraction of `base`."""
        return self.commission / base - 1


def matching_commission(bet: Bet, shoe: Shoe, rules: Rules) -> CommissionMatch:
    """Solve P(B) (1 - c) - P(P) = -edge(bet) for the commission c, exactly."""
    dist = distribution(shoe, rules)
    edge = analyze(bet, dist).house_edge
    probs = dist.winner_probabilities()
    if probs[Winner.BANKER] == 0:
        raise AnalyzerError(f"Banker cannot win with {shoe}: no commission matches {bet.name}")
    commission = 1 - (probs[Winner.PLAYER] - edge) / probs[Winner.BANKER]
    return CommissionMatch(bet=bet, shoe=shoe, house_edge=edge, commission=commission)


@dataclass(frozen=True)
class TableauEffect:
    """A bet's house edge under a base tableau and a variant, and the change."""

    bet: Bet
    base: Fraction
    variant: Fraction

    @property
    def change(self) -> Fraction:
        return self.variant - self.base


def tableau_effects(bets: Sequence[Bet], shoe: Shoe, base: Rules, variant: Rules) -> list[TableauEffect]:
    """How `variant`'s tableau moves every bet's house edge against `base` on `shoe`."""
    base_dist, variant_dist = distribution(shoe, base), distribution(shoe, variant)
    return [
        TableauEffect(bet, analyze(bet, base_dist).house_edge, analyze(bet, variant_dist).house_edge)
        for bet in bets
    ]


@dataclass(frozen=True)
class Comparison:
    """Tables side by side across shoes, commission equivalents and a tableau comparison.

    `edges[(table, bet)]` holds the exact house edge on each of `shoes`; `commissions`
    matches every Banker bet of the tables on `shoe`; `tableau` moves every bet of
    `catalogue` from `base` to `variant` on `shoe`.
    """

    shoes: tuple[Shoe, ...]
    tables: tuple[Table, ...]
    edges: dict[tuple[str, str], list[Fraction]]
    shoe: Shoe
    commissions: tuple[CommissionMatch, ...]
    base: Rules
    variant: Rules
    tableau: tuple[TableauEffect, ...]


def compare_tables(
    tables: Sequence[Table],
    shoes: Sequence[Shoe],
    shoe: Shoe,
    variant: Rules,
    catalogue: Sequence[Bet],
    base: Rules | None = None,
) -> Comparison:
    """Everything `baccarat compare` shows (see Comparison).

    Super 6 on 8 decks: "1.46%, equivalent to raising the commission by 17.45%, to 5.87%".

    >>> from analyzer import STANDARD, Shoe, get_table
    >>> from analyzer.analyses.compare import compare_tables
    >>> eight = Shoe.decks(8)
    >>> [match] = compare_tables([get_table("super6")], [eight], eight, STANDARD, []).commissions
    >>> match.commission
    Fraction(8216317885, 139907993557)
    >>> [f"{float(x):.2%}" for x in (match.house_edge, match.relative_to(), match.commission)]
    ['1.46%', '17.45%', '5.87%']
    """
    edges: dict[tuple[str, str], list[Fraction]] = {}
    for table in tables:
        for bet_name, analyses in edges_across(table.bets, shoes, table.rules).items():
            edges[(table.name, bet_name)] = [a.house_edge for a in analyses]
    seen: dict[str, CommissionMatch] = {}
    for table in tables:
        for bet in table.bets:
            if bet.kind == "banker" and bet.name not in seen:
                seen[bet.name] = matching_commission(bet, shoe, table.rules)
    base = base or (tables[0].rules if tables else variant)
    return Comparison(
        shoes=tuple(shoes),
        tables=tuple(tables),
        edges=edges,
        shoe=shoe,
        commissions=tuple(seen.values()),
        base=base,
        variant=variant,
        tableau=tuple(tableau_effects(catalogue, shoe, base, variant)),
    )
