"""Card-level built-ins against their published combinatorial tables (Wizard of Odds pages,
8 decks unless said), at the precision they were printed to."""

from __future__ import annotations

from fractions import Fraction
from math import perm

import pytest

from analyzer.analyses.pricing import analyze
from analyzer.cards.batch import analyze_cards
from analyzer.core.catalogue import CARD_BETS, RANK_BETS, get_bet
from analyzer.core.shoe import Shoe
from analyzer.ranks.enumeration import distribution

EIGHT = Shoe.decks(8)


def _rounded(x: Fraction, places: int) -> Fraction:
    return Fraction(round(x, places))


# (bet, decks, printed return per unit, decimals printed)
RETURNS = [
    ("perfect-pairs-v1", 8, "-0.130294", 6),
    ("perfect-pairs-v1", 6, "-0.170716", 6),
    ("perfect-pairs-v2", 8, "-0.066235", 6),
    ("lucky-nines", 8, "-0.0827", 4),  # house edge printed as 8.27%
    ("perfect-9-bonus", 8, "-0.074699", 6),
    ("super-tie", 8, "-0.059716", 6),
    ("super-tie-20", 8, "-0.1026", 4),  # house edge printed as 10.26%
    ("tie-max-high", 8, "-0.117391", 6),
    ("tie-max-low", 8, "-0.164547", 6),
]


@pytest.mark.parametrize(("name", "decks", "printed", "places"), RETURNS)
def test_published_returns(name: str, decks: int, printed: str, places: int) -> None:
    result = analyze_cards(CARD_BETS[name], Shoe.decks(decks))
    assert _rounded(result.expectation, places) == Fraction(printed)


def test_perfect_pairs_counts() -> None:
    """The Wizard counts 4-card deals with each hand's two cards unordered: 416*415*414*413/4."""
    scale = 4 * perm(412, 2)  # our ordered 6-card sequences per published deal
    v1 = analyze_cards(CARD_BETS["perfect-pairs-v1"], EIGHT)
    assert sum(r.combinations or 0 for r in v1.lines if r.pays == 25) == 246_848_784 * scale
    assert round(float(v1.hit_frequency), 6) == 0.033450
    v2 = {r.label: r.combinations for r in analyze_cards(CARD_BETS["perfect-pairs-v2"], EIGHT).lines}
    assert v2["two perfect pairs"] == 2_101_008 * scale
    assert v2["Player perfect pair"] + v2["Banker perfect pair"] == 244_747_776 * scale  # type: ignore[operator]
    assert v2["any other outcome"] == 7_132_734_336 * scale
    six = analyze_cards(CARD_BETS["perfect-pairs-v1"], Shoe.decks(6))
    assert sum(r.combinations or 0 for r in six.lines if r.pays == 25) == 74_114_820 * 4 * perm(308, 2)


def test_perfect_pairs_v1_at_26() -> None:
    v1 = analyze_cards(CARD_BETS["perfect-pairs-v1"], EIGHT)
    assert _rounded(v1.hit_frequency * 27 - 1, 6) == Fraction("-0.096844")


def test_lucky_nines_counts() -> None:
    """Published as unordered 4-card sets out of C(416, 4)."""
    scale = 24 * perm(412, 2)
    rows = {r.label: r.combinations or 0 for r in analyze_cards(CARD_BETS["lucky-nines"], EIGHT).lines}
    suits = ("spades", "hearts", "diamonds", "clubs")
    assert rows["four nines"] == 35_960 * scale
    assert sum(rows[f"three nines of {s}"] for s in suits) == 86_016 * scale
    assert rows["three nines, mixed suits"] == 1_818_624 * scale
    assert sum(rows[f"two nines of {s}"] for s in suits) == 8_236_032 * scale
    assert rows["two nines, mixed suits"] == 28_237_824 * scale
    assert rows["one nine, of diamonds"] == 74_908_672 * scale
    assert rows["one nine, other suits"] == 224_726_016 * scale
    assert rows["any other outcome"] == 891_881_376 * scale  # scale: C(416, 4) * scale = (416)_6


def test_perfect_9_bonus_counts() -> None:
    """Published as unordered 2-card sets out of C(416, 2) = 86,320."""
    scale = 2 * perm(414, 4)
    rows = [r.combinations for r in analyze_cards(CARD_BETS["perfect-9-bonus"], EIGHT).lines]
    assert rows == [1_024 * scale, 3_072 * scale, 4_096 * scale, 78_128 * scale]


def test_super_tie_counts_to_the_unit() -> None:
    rows = [r.combinations for r in analyze_cards(CARD_BETS["super-tie"], EIGHT).lines]
    assert rows == [1_326_729_820_672, 42_861_591_369_728, 431_439_105_282_816, 4_522_770_849_030_144]


def test_tie_max_counts_to_the_unit() -> None:
    high = analyze_cards(CARD_BETS["tie-max-high"], EIGHT).lines[0]
    low = analyze_cards(CARD_BETS["tie-max-low"], EIGHT).lines[0]
    assert (high.combinations, low.combinations) == (401_057_309_592_576, 74_570_116_880_640)
    tie = analyze(RANK_BETS["tie"], distribution(EIGHT)).lines[0].combinations
    assert high.combinations + low.combinations == tie  # type: ignore[operator]


def test_analyze_dispatches_card_level_bets() -> None:
    bet = get_bet("perfect-pairs-v1")
    assert analyze(bet, distribution(EIGHT)).expectation == analyze_cards(bet, EIGHT).expectation


def test_card_bets_are_apart_from_rank_level_bets() -> None:
    assert all(bet.card_level for bet in CARD_BETS.values())
    assert not any(bet.card_level for bet in RANK_BETS.values())
    assert not set(CARD_BETS) & set(RANK_BETS)
