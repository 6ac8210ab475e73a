"""Exact odds against published figures.

Sources:
- Wizard of Odds, "Baccarat Odds for 1 to 12 Decks" (wizardofodds.com/games/baccarat/
  one-to-twelve-decks/): combinations of ordered 6-card sequences and probabilities to 15
  decimals. Its counts are exact up to 15 significant digits (Excel), i.e. for 1-6 decks;
  the 8-deck counts in full are on the Wizard of Odds baccarat page (also quoted by
  casinoexploit.com and multiplayerbaccarat.com, after Thorp).
- Wizard of Odds baccarat Appendix 3 (wizardofodds.com/games/baccarat/appendix/3):
  probabilities after Punto's two cards, 8 decks, 6 decimals.
- The Russian gambling dictionary's "Table 2" (brief): the same table to 4 decimals, credited to Lesnoy and
  Natanson's "PuntoBanco"; its figures are the infinite-deck values.
- Published house edges (brief; multiplayerbaccarat.com, after Thorp): 8 decks Banker
  1.0579%, Player 1.2351%, Tie 14.3596% at 8:1 and 4.8440% at 9:1; 6 decks 1.0558%,
  1.2374%, 14.4382%, 4.9313%.

Published decimals are compared at their published precision by exact rounding
(analyzer.present.text.decimal / percent), never with a float tolerance.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise
from math import perm

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.analyses.odds import odds, player_table
from analyzer.core.outcome import Winner
from analyzer.core.rules import BANCO_4_DRAWS_ON_0_1, STANDARD
from analyzer.core.shoe import Shoe
from analyzer.present.text import decimal, percent

# decks: (banker, player, tie) ordered 6-card sequences, as published.
PUBLISHED_COUNTS = {
    1: (6_737_232_640, 6_548_674_432, 1_372_227_328),
    2: (501_543_728_128, 487_816_735_232, 103_154_274_240),
    3: (6_000_349_195_008, 5_837_305_562_496, 1_238_768_922_816),
    4: (34_543_624_867_840, 33_608_344_225_792, 7_145_601_996_928),
    5: (133_700_037_548_800, 130_087_780_016_000, 27_690_387_926_400),
    6: (403_095_751_234_560, 392_220_492_728_832, 83_552_962_932_288),
    8: (2_292_252_566_437_888, 2_230_518_282_592_256, 475_627_426_473_216),
}
PUBLISHED_TOTALS = {
    1: 14_658_134_400,
    2: 1_092_514_737_600,
    3: 13_076_423_680_320,
    4: 75_297_571_090_560,
    5: 291_478_205_491_200,
    6: 878_869_206_895_680,
    8: 4_998_398_275_503_360,
}


@pytest.mark.parametrize("decks", sorted(PUBLISHED_COUNTS))
def test_published_counts(decks: int) -> None:
    result = odds(Shoe.decks(decks))
    banker, player, tie = PUBLISHED_COUNTS[decks]
    assert result.counts == {Winner.BANKER: banker, Winner.PLAYER: player, Winner.TIE: tie}
    assert result.total == PUBLISHED_TOTALS[decks] == banker + player + tie
    n = 52 * decks
    assert result.total == perm(n, 6) == n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5)


def test_four_decks_total() -> None:
    result = odds(Shoe.decks(4))
    assert result.total == 208 * 207 * 206 * 205 * 204 * 203
    assert sum(result.counts.values()) == result.total


# Percentages to 4 decimals: Wizard of Odds (1-12 decks page; infinite deck on its baccarat
# page). 2 and 4 decks are the 1-12 decks page's probabilities (0.459072734551641,
# 0.446508150822404, 0.094419114625955; 4 decks from its exact counts above).
PUBLISHED_PERCENT = {
    1: ("45.9624%", "44.6760%", "9.3615%"),
    2: ("45.9073%", "44.6508%", "9.4419%"),
    4: ("45.8761%", "44.6340%", "9.4898%"),
    6: ("45.8653%", "44.6279%", "9.5069%"),
    8: ("45.8597%", "44.6247%", "9.5156%"),
    None: ("45.8428%", "44.6147%", "9.5426%"),
}


@pytest.mark.parametrize("decks", list(PUBLISHED_PERCENT), ids=lambda d: f"{d or 'inf'}")
def test_published_percentages(decks: int | None) -> None:
    result = odds(Shoe.infinite() if decks is None else Shoe.decks(decks))
    assert (percent(result.banker), percent(result.player), percent(result.tie)) == PUBLISHED_PERCENT[decks]
    assert result.banker + result.player + result.tie == 1


# The 1-12 decks page's probabilities, 15 decimals (player, banker, tie).
PUBLISHED_15 = {
    1: ("0.446760430304146", "0.459624155172162", "0.093615414523693"),
    2: ("0.446508150822404", "0.459072734551641", "0.094419114625955"),
    3: ("0.446399237681564", "0.458867756329930", "0.094733005988506"),
}


@pytest.mark.parametrize("decks", sorted(PUBLISHED_15))
def test_published_probabilities_to_15_decimals(decks: int) -> None:
    result = odds(Shoe.decks(decks))
    assert tuple(decimal(p, 15) for p in (result.player, result.banker, result.tie)) == PUBLISHED_15[decks]


def test_infinite_deck_is_exact_over_13_to_the_6() -> None:
    result = odds(Shoe.infinite())
    assert 13**6 == 4826809
    assert (result.banker, result.player, result.tie) == (
        Fraction(2212744, 13**6),
        Fraction(2153464, 13**6),
        Fraction(460601, 13**6),
    )
    assert result.counts is None and result.total is None


@pytest.mark.parametrize(
    ("decks", "banker", "player", "tie_8", "tie_9"),
    [(8, "1.0579%", "1.2351%", "14.3596%", "4.8440%"), (6, "1.0558%", "1.2374%", "14.4382%", "4.9313%")],
)
def test_published_house_edges(decks: int, banker: str, player: str, tie_8: str, tie_9: str) -> None:
    """House edge per unit bet, ties counted as pushes for Banker and Player."""
    r = odds(Shoe.decks(decks))
    assert percent(r.player - Fraction(95, 100) * r.banker) == banker
    assert percent(r.banker - r.player) == player
    assert percent(1 - 9 * r.tie) == tie_8
    assert percent(1 - 10 * r.tie) == tie_9
    # The brief's rounded 8-deck figures: 1.06%, 1.24%, 14.4% at 8:1, 4.85% at 9:1.
    if decks == 8:
        assert percent(r.player - Fraction(95, 100) * r.banker, 2) == "1.06%"
        assert percent(r.banker - r.player, 2) == "1.24%"
        assert percent(1 - 9 * r.tie, 1) == "14.4%"
        assert percent(1 - 10 * r.tie, 2) == "4.84%"  # the brief's 4.85% is not the rounded value


def test_more_decks_favour_the_tie() -> None:
    """Wizard of Odds: Banker and Player fall and the tie rises with the number of decks."""
    results = [odds(Shoe.decks(n)) for n in range(1, 9)] + [odds(Shoe.infinite())]
    for a, b in pairwise(results):
        assert a.banker > b.banker and a.player > b.player and a.tie < b.tie


# The Russian gambling dictionary's Table 2 (brief): Punto total, action, Punto, Banco, Égalité to 4 decimals.
SEED003_TABLE_2 = [
    (0, "draw", "0.2781", "0.6546", "0.0673"),
    (1, "draw", "0.2830", "0.6469", "0.0700"),
    (2, "draw", "0.2907", "0.6337", "0.0756"),
    (3, "draw", "0.3040", "0.6148", "0.0812"),
    (4, "draw", "0.3229", "0.5791", "0.0980"),
    (5, "draw", "0.3585", "0.5378", "0.1036"),
    (5, "stand", "0.3605", "0.5699", "0.0696"),
    (6, "stand", "0.4301", "0.4274", "0.1425"),
    (7, "stand", "0.5726", "0.2849", "0.1425"),
    (8, "stand", "0.8107", "0.0947", "0.0947"),
    (9, "stand", "0.9053", "0", "0.0947"),
]


def test_dictionary_table_2_is_the_infinite_deck() -> None:
    rows = player_table(Shoe.infinite())
    assert len(rows) == 11
    for row, (total, action, player, banker, tie) in zip(rows, SEED003_TABLE_2, strict=True):
        assert (row.player_total, row.player_action) == (total, action)
        got = tuple(Fraction(decimal(x, 4)) for x in (row.player, row.banker, row.tie))
        assert got == (Fraction(player), Fraction(banker), Fraction(tie)), total
        assert row.player + row.banker + row.tie == 1


# Wizard of Odds Appendix 3, 8 decks: Player total, Player win, Banker win, Tie, 6 decimals.
WOO_APPENDIX_3 = [
    (0, "0.278792", "0.654627", "0.066581"),
    (1, "0.282833", "0.647252", "0.069915"),
    (2, "0.290303", "0.634207", "0.07549"),
    (3, "0.303386", "0.615539", "0.081075"),
    (4, "0.322084", "0.579983", "0.097933"),
    (5, "0.358488", "0.537849", "0.103663"),
    (6, "0.430362", "0.427801", "0.141838"),
    (7, "0.572657", "0.285046", "0.142297"),
    (8, "0.810911", "0.094938", "0.094151"),
    (9, "0.905475", "0", "0.094525"),
]


def test_wizard_of_odds_appendix_3() -> None:
    """The casino game: Punto draws on 5, so the table's 5 is the "draw" row."""
    rows = [r for r in player_table(Shoe.decks(8)) if (r.player_total, r.player_action) != (5, "stand")]
    assert len(rows) == 10
    for row, (total, player, banker, tie) in zip(rows, WOO_APPENDIX_3, strict=True):
        assert row.player_total == total
        got = tuple(Fraction(decimal(x, 6)) for x in (row.player, row.banker, row.tie))
        assert got == (Fraction(player), Fraction(banker), Fraction(tie)), total
    # The appendix's total row.
    r = odds(Shoe.decks(8))
    assert (decimal(r.player), decimal(r.banker), decimal(r.tie)) == ("0.446247", "0.458597", "0.095156")


def test_punto_table_shape_and_weights() -> None:
    """Rows other than the 5 stand row recombine into the overall odds, weighted by P(total)."""
    shoe = Shoe.decks(6)
    rows = player_table(shoe)
    assert [(r.player_total, r.player_action) for r in rows] == [
        (0, "draw"),
        (1, "draw"),
        (2, "draw"),
        (3, "draw"),
        (4, "draw"),
        (5, "draw"),
        (5, "stand"),
        (6, "stand"),
        (7, "stand"),
        (8, "stand"),
        (9, "stand"),
    ]
    from analyzer.ranks.enumeration import distribution

    weights = distribution(shoe).group(lambda o: o.player_initial)
    total = sum(weights.values())
    casino = [r for r in rows if (r.player_total, r.player_action) != (5, "stand")]
    player = sum(Fraction(weights[r.player_total], total) * r.player for r in casino)
    assert player == odds(shoe).player
    stand5 = rows[6]
    assert stand5.banker > rows[5].banker  # standing on 5 helps Banco (the Russian gambling dictionary)


def test_rules_change_the_odds() -> None:
    """The Russian-language beginner's guide's Banco 4 also draws against a Punto third card
    of 0 or 1, so only the rows where Punto draws change; Punto's stand rows (5 stand, 6-9) are
    the same game."""
    standard, seed = odds(Shoe.decks(8), STANDARD), odds(Shoe.decks(8), BANCO_4_DRAWS_ON_0_1)
    assert standard.banker != seed.banker
    assert seed.total == standard.total == sum(seed.counts.values())
    rows = zip(player_table(Shoe.decks(8)), player_table(Shoe.decks(8), BANCO_4_DRAWS_ON_0_1), strict=True)
    same = [a == b for a, b in rows]
    assert same == [False] * 6 + [True] * 5


@settings(max_examples=300, deadline=None)
@given(st.fractions(max_denominator=10**30), st.integers(0, 12))
def test_decimal_rounds_half_away_from_zero_as_the_fraction_arithmetic(value: Fraction, places: int) -> None:
    """`decimal` rounds in integers: the same text as rounding the exact Fraction half up on
    its magnitude (ties included: k/2 at any scale)."""
    from analyzer.present.text import LARGE, scientific

    for x in (value, Fraction(2 * value.numerator + 1, 2 * 10**places)):
        if abs(x) >= LARGE:
            assert decimal(x, places) == scientific(x)
            continue
        digits = int(abs(x) * 10**places + Fraction(1, 2))
        whole, frac = divmod(digits, 10**places)
        sign = "-" if x < 0 and digits else ""
        assert decimal(x, places) == (f"{sign}{whole}" if places == 0 else f"{sign}{whole}.{frac:0{places}d}")
