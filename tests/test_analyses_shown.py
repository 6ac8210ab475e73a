"""Odds after cards are shown: brute force on small shoes, and the unconditional odds as a
mixture over the shown card."""

from __future__ import annotations

from fractions import Fraction

import pytest

from analyzer.analyses.odds import odds
from analyzer.analyses.pricing import analyze
from analyzer.analyses.shown import parse_shown, shown_analyses, shown_odds
from analyzer.cards.plain import plain_card_line_weights
from analyzer.core.bets import bet_from_mapping
from analyzer.core.catalogue import CARD_BETS, RANK_BETS
from analyzer.core.errors import AnalyzerError
from analyzer.core.ranks import RANKS
from analyzer.core.shoe import Shoe
from analyzer.core.suits import SUITS
from analyzer.ranks.enumeration import distribution

SMALL = Shoe.from_cards([1 if t in (0, 4, 8, 9, 12, 17, 21, 25, 34, 38, 47, 51) else 0 for t in range(52)])


def _brute(shoe: Shoe, when: dict[str, object]) -> dict[str, Fraction]:
    """P(result | shown) from the plain path: lines 'result and shown', then 'shown'."""
    lines = [{"when": {"winner": w, **when}, "pays": 1} for w in ("banker", "player", "tie")]
    weights, _ = plain_card_line_weights(bet_from_mapping("b", {"lines": lines}), shoe)
    given = sum(weights[:3])
    return {w: Fraction(weights[i], given) for i, w in enumerate(("banker", "player", "tie"))}


@pytest.mark.parametrize(
    ("text", "when"),
    [
        ("p1=9", {"p1_rank": "9"}),
        ("b1=KH,p2=A", {"b1_rank": "K", "b1_suit": "H", "p2_rank": "A"}),
        ("p3=9", {"p3_rank": "9"}),
        ("b3=KC,p1=9S", {"b3_rank": "K", "b3_suit": "C", "p1_rank": "9", "p1_suit": "S"}),
    ],
)
def test_against_brute_force(text: str, when: dict[str, object]) -> None:
    got = shown_odds(SMALL, parse_shown(text))
    expected = _brute(SMALL, when)
    assert (got.banker, got.player, got.tie) == (expected["banker"], expected["player"], expected["tie"])


@pytest.mark.parametrize(
    "shoe", [Shoe.decks(8), Shoe.decks(1).remove(["9H", "KS", "K"])], ids=["8 decks", "depleted"]
)
def test_mixture_over_the_first_card(shoe: Shoe) -> None:
    """Unconditional odds = sum over ranks r of P(p1 = r) * odds given p1 = r."""
    assert shoe.counts is not None
    total = {"banker": Fraction(0), "player": Fraction(0), "tie": Fraction(0)}
    for r, rank in enumerate(RANKS):
        if not shoe.counts[r]:
            continue
        given = shown_odds(shoe, parse_shown(f"p1={rank}"))
        p = Fraction(shoe.counts[r], shoe.size)
        total = {"banker": total["banker"] + p * given.banker, "player": total["player"] + p * given.player,
                 "tie": total["tie"] + p * given.tie}  # fmt: skip
    base = odds(shoe)
    assert total == {"banker": base.banker, "player": base.player, "tie": base.tie}


def test_mixture_over_a_suited_card_for_a_card_bet() -> None:
    """Perfect Pairs: the value is the mixture over every card type at b1."""
    shoe = Shoe.decks(2).remove(["KH", "KH", "9S"])
    assert shoe.types is not None
    bet = CARD_BETS["perfect-pairs-v2"]
    mixed = Fraction(0)
    for t, n in enumerate(shoe.types):
        if n:
            card = f"{RANKS[t % 13]}{SUITS[t // 13]}"
            given = shown_analyses([bet], shoe, parse_shown(f"b1={card}"))[0].expectation
            mixed += Fraction(n, shoe.size) * given
    assert mixed == analyze(bet, distribution(shoe)).expectation


def test_rank_level_bet_given_nothing_special() -> None:
    banker = shown_analyses([RANK_BETS["banker"]], Shoe.decks(8), parse_shown("p1=K"))[0]
    assert banker.expectation != analyze(RANK_BETS["banker"], distribution(Shoe.decks(8))).expectation


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("p1=9,p1=K", "shown twice"),
        ("x1=9", "position"),
        ("p1=ZZ", "unknown"),
        ("p1=9X", "unknown suit"),
        ("", "position=card"),
    ],
)
def test_bad_shown(text: str, message: str) -> None:
    with pytest.raises(AnalyzerError, match=message):
        shown_odds(Shoe.decks(8), parse_shown(text))


def test_shown_card_the_shoe_does_not_hold() -> None:
    with pytest.raises(AnalyzerError, match="holds 1 KH and 2 are shown"):
        shown_odds(Shoe.decks(1), parse_shown("p1=KH,b1=KH"))
