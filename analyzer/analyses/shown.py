"""Odds after cards are shown: exact probabilities and bet values given the cards lying
at some dealt positions (p1, b1, p2, b2, p3, b3), as during the squeeze.

A shown position must be dealt in the coups that count: showing p3 = 9 also says that
the Player drew. Probabilities are ratios of card-level weights (`analyzer.cards.engine`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from analyzer.analyses.odds import Odds
from analyzer.cards.engine import Shown, card_line_weights
from analyzer.core.analysis import BetAnalysis, analysis_from_weights
from analyzer.core.bets import Bet, Line
from analyzer.core.checks import check_type
from analyzer.core.conventions import check_arguments
from analyzer.core.errors import AnalyzerError, mention, quoted
from analyzer.core.fields import POSITIONS
from analyzer.core.outcome import Winner
from analyzer.core.parsing import list_items
from analyzer.core.ranks import RANKS
from analyzer.core.rules import STANDARD, Rules
from analyzer.core.shoe import BY_CARDS, BY_DECKS, Shoe
from analyzer.core.suits import SUITS, parse_card

__all__ = ["ShownCards", "parse_shown", "shown_analyses", "shown_odds"]


@dataclass(frozen=True)
class ShownCards:
    """Cards shown at dealt positions, e.g. p1 = 9 (any suit), b1 = KH."""

    cards: tuple[tuple[str, str], ...]  # (position, card as written: "9", "KH")
    index: tuple[tuple[int, int, int | None], ...]  # (position, rank index, suit index or None)

    def as_dict(self) -> dict[str, str]:
        return dict(self.cards)

    def positions(self) -> Shown:
        return {position: (rank, suit) for position, rank, suit in self.index}

    def __str__(self) -> str:
        return ", ".join(f"{position}={card}" for position, card in self.cards)


def parse_shown(text: str) -> ShownCards:
    """Shown cards from `p1=9,b1=KH`: positions p1, b1, p2, b2, p3, b3, each once, each a
    rank or a suited card.

    >>> from analyzer import parse_shown
    >>> shown = parse_shown("p1=9, B1=kh")
    >>> str(shown), shown.as_dict()
    ('p1=9, b1=KH', {'p1': '9', 'b1': 'KH'})
    """
    allowed = "give position=card pairs such as p1=9,b1=KH, none empty"
    items = list_items(text, mention("shown"), allowed=allowed)
    cards, index, seen = [], [], set()
    for item in items:
        position, sep, card = (part.strip() for part in item.partition("="))
        position = position.lower()
        if not sep or position not in POSITIONS:
            raise AnalyzerError(
                f"{mention('shown')} {quoted(item)}: use position=card "
                f"with a position of {', '.join(POSITIONS)}"
            )
        if position in seen:
            raise AnalyzerError(
                f"{mention('shown')}: position {position} is shown twice; show each position once"
            )
        seen.add(position)
        rank, suit = parse_card(card)
        name = f"{rank}{suit or ''}"
        cards.append((position, name))
        index.append(
            (POSITIONS.index(position), RANKS.index(rank), None if suit is None else SUITS.index(suit))
        )
    return ShownCards(tuple(cards), tuple(index))


def _check(where: str, shoe: Shoe, shown: ShownCards, rules: Rules) -> None:
    check_arguments(where, shoe=shoe, rules=rules)
    check_type(where, "shown", shown, ShownCards, "ShownCards, e.g. parse_shown('p1=9,b1=KH')")
    if shoe.counts is None:
        return
    for position, rank, suit in shown.index:
        if suit is not None and shoe.types is None:
            card = dict(shown.cards)[POSITIONS[position]]
            raise AnalyzerError(
                f"{mention('shown')} {POSITIONS[position]}={card}: "
                f"the suits of the shoe ({shoe}) are not known; "
                f"show a rank, or give the shoe with {BY_DECKS} or {BY_CARDS}"
            )
        needed = sum(1 for _, r, s in shown.index if r == rank and (suit is None or s == suit))
        have = shoe.counts[rank] if suit is None or shoe.types is None else shoe.types[suit * 13 + rank]
        if have < needed:
            card = dict(shown.cards)[POSITIONS[position]]
            raise AnalyzerError(
                f"{mention('shown')} {shown}: the shoe ({shoe}) holds {have} {card} and {needed} "
                f"{'is' if needed == 1 else 'are'} shown"
            )


_RESULTS = Bet(
    "results",
    "Banker, Player, tie",
    tuple(Line(when=(("winner", (str(w),)),), pays=None) for w in (Winner.BANKER, Winner.PLAYER, Winner.TIE)),
)


def _no_coup(shown: ShownCards, shoe: Shoe) -> str:
    return f"{mention('shown')} {shown}: no coup from {shoe} shows these cards at these positions"


def shown_odds(shoe: Shoe, shown: ShownCards, rules: Rules = STANDARD) -> Odds:
    """Exact probabilities of a Banker win, a Player win and a tie given the shown cards.
    Counts are card-level weights of the coups that show them (6-card sequences).

    >>> from analyzer import Shoe, parse_shown, shown_odds
    >>> natural = shown_odds(Shoe.infinite(), parse_shown("p1=9,p2=K"))  # Punto's natural 9
    >>> natural.banker, natural.tie  # only Banco's natural 9 ties: the published 0.0947
    (Fraction(0, 1), Fraction(16, 169))
    >>> shown_odds(Shoe.decks(8), parse_shown("p1=9,p2=K")).player
    Fraction(77458, 85491)
    """
    _check("shown_odds()", shoe, shown, rules)
    weights, total = card_line_weights(_RESULTS, shoe, rules, shown.positions())
    if total == 0:
        raise AnalyzerError(_no_coup(shown, shoe))
    counts = dict(zip((Winner.BANKER, Winner.PLAYER, Winner.TIE), weights, strict=False))
    return Odds.from_counts(replace(shoe, label=f"{shoe}, shown {shown}"), rules, counts, total)


def shown_analyses(
    bets: Sequence[Bet], shoe: Shoe, shown: ShownCards, rules: Rules = STANDARD
) -> list[BetAnalysis]:
    """Every bet's exact figures given the shown cards (rank-level bets included)."""
    check_arguments("shown_analyses()", bets=bets)
    _check("shown_analyses()", shoe, shown, rules)
    result = []
    for bet in bets:
        weights, total = card_line_weights(bet, shoe, rules, shown.positions())
        if total == 0:
            raise AnalyzerError(_no_coup(shown, shoe))
        result.append(analysis_from_weights(bet, weights, total, finite=not shoe.is_infinite))
    return result
