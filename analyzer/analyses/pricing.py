"""Pricing bets: exact figures of any bet, rank-level or card-level, on any shoe.

Each bet is priced by the cheapest exact path that can: full decks and the infinite deck
from the shipped polynomials in the number of decks, a rank-level bet from the outcome
distribution of the coup classes, a card-level bet by the card engine.

One signature for a shoe: `analyze_bets(bets, shoe, rules=STANDARD)` prices a list of any
bets, rank- or card-level (`analyze_cards(bet, shoe, rules=STANDARD)` one card-level bet).

>>> from analyzer import Shoe, analyze_bets, get_bet
>>> tie, pairs = analyze_bets([get_bet("tie"), get_bet("perfect-pairs-v1")], Shoe.decks(8))
>>> f"{float(tie.house_edge):.4%}", f"{float(pairs.house_edge):.4%}"
('14.3596%', '13.0294%')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from analyzer.core.analysis import BetAnalysis, analysis_from_weights
from analyzer.core.bets import Bet
from analyzer.core.checks import check_type
from analyzer.core.conventions import check_arguments
from analyzer.core.progress import steps
from analyzer.core.rules import STANDARD, Rules
from analyzer.core.shoe import Shoe
from analyzer.ranks.polynomials import line_weights

if TYPE_CHECKING:
    from analyzer.ranks.enumeration import Distribution

__all__ = ["analyze", "analyze_bets"]


def analyze(bet: Bet, dist: Distribution) -> BetAnalysis:
    """Exact expectation, push and hit frequency, variance and paytable rows of `bet`,
    priced on the outcome weights of `dist`. A card-level bet (one that looks at individual
    cards, which outcome weights do not carry) is priced on `dist.shoe` under `dist.rules`
    instead: from its shipped polynomials in the number of decks, else by the card engine.
    To price bets on a shoe, `analyze_bets(bets, shoe, rules)`."""
    from analyzer.ranks.enumeration import Distribution  # not loaded when full decks price from polynomials

    check_arguments("analyze()", bet=bet)
    check_type("analyze()", "dist", dist, Distribution, "a Distribution, e.g. distribution(Shoe.decks(8))")
    if bet.card_level:
        found = _from_polynomials(bet, dist.shoe, dist.rules)
        if found is not None:
            return found
        from analyzer.cards.batch import analyze_cards  # numpy loads only for card-level bets

        return analyze_cards(bet, dist.shoe, dist.rules)
    from analyzer.ranks.lines import weights_by_line

    weights = weights_by_line(bet, dist)
    return analysis_from_weights(bet, weights, dist.total, finite=not dist.shoe.is_infinite)


def analyze_bets(bets: Sequence[Bet], shoe: Shoe, rules: Rules = STANDARD) -> list[BetAnalysis]:
    """`analyze` of each of `bets` (any bets, rank- or card-level) on `shoe` under `rules`;
    the outcome distribution is computed only if a bet needs it (full decks price built-in
    bets from polynomials)."""
    check_arguments("analyze_bets()", bets=bets, shoe=shoe, rules=rules)
    analyses: list[BetAnalysis | None] = [_from_polynomials(bet, shoe, rules) for bet in bets]
    if any(a is None for a in analyses):
        from analyzer.ranks.enumeration import distribution

        dist = distribution(shoe, rules)
        pairs = steps(zip(analyses, bets, strict=True), "pricing", len(bets), name=lambda pair: pair[1].name)
        analyses = [a or analyze(bet, dist) for a, bet in pairs]
    return [a for a in analyses if a is not None]


def _from_polynomials(bet: Bet, shoe: Shoe, rules: Rules) -> BetAnalysis | None:
    """`bet` on a full-deck shoe or the infinite deck from its shipped line polynomials
    (analyzer.ranks.polynomials), or None."""
    found = line_weights(bet, shoe, rules)
    return None if found is None else analysis_from_weights(bet, *found, finite=not shoe.is_infinite)
