"""Bets as data: published house edges, identities on any shoe, and the paytable machinery.

Published figures are checked at the precision they were published to:
the English Wikipedia article's 8-deck table (Banker 1.06%, Player 1.24%, Tie 14.4% / 4.85%),
the English and Russian Wikipedia articles (Super 6 1.46%), Wizard of Odds' baccarat pages (EZ
Baccarat, Dragon Bonus, pair bets, Thorp and Walden's natural bets, Big/Small) for the
4-decimal figures.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer import Shoe, distribution, plain_distribution
from analyzer.analyses.pricing import analyze
from analyzer.core.bets import Bet, Line, bet_from_mapping, commission_banker, parse_ratio
from analyzer.core.catalogue import RANK_BETS
from analyzer.core.errors import AnalyzerError
from analyzer.core.outcome import Winner
from analyzer.present.text import decimal, percent
from analyzer.ranks.enumeration import Distribution

EIGHT = distribution(Shoe.decks(8))
SIX = distribution(Shoe.decks(6))


def edge(name: str, dist=EIGHT) -> Fraction:
    return analyze(RANK_BETS[name], dist).house_edge


@pytest.mark.parametrize(
    ("bet", "published", "places"),
    [
        # the English Wikipedia article, "house edge details (8 decks)"
        ("banker", "1.06", 2),
        ("player", "1.24", 2),
        ("tie", "14.4", 1),
        # the English and Russian Wikipedia articles: Super 6 Banker 1.46%; Wizard of Odds: 1.4581%
        ("super6-banker", "1.46", 2),
        ("super6-banker", "1.4581", 4),
        # Wizard of Odds, EZ Baccarat
        ("ez-banker", "1.0183", 4),
        ("dragon7", "7.6113", 4),
        ("panda8", "10.1876", 4),
        # Wizard of Odds, pair bets at 11:1
        ("player-pair", "10.3614", 4),
        ("banker-pair", "10.3614", 4),
        # Wizard of Odds, Dragon Bonus
        ("dragon-bonus-player", "2.6517", 4),
        ("dragon-bonus-banker", "9.3731", 4),
        # Thorp and Walden's natural bets at 9:1 (Wizard of Odds)
        ("banker-natural-9", "5.0973", 4),
        ("banker-natural-8", "5.4680", 4),
    ],
)
def test_published_8_deck_edges(bet: str, published: str, places: int) -> None:
    assert percent(edge(bet), places) == published + "%"


@pytest.mark.parametrize(
    ("bet", "published"), [("banker", "1.0558"), ("player", "1.2374"), ("tie", "14.4382")]
)
def test_published_6_deck_edges(bet: str, published: str) -> None:
    assert percent(edge(bet, SIX), 4) == published + "%"


def test_pair_bets_are_exactly_43_over_415() -> None:
    assert edge("player-pair") == Fraction(43, 415) == edge("banker-pair")


def test_tie_at_9_to_1_differs_from_seed_000_in_the_last_digit() -> None:
    """The English Wikipedia article prints 4.85%; the exact 8-deck edge is 4.8440% (1 - 10 P(tie)), so the
    seed's figure is off by 0.006 points. Kept as a known discrepancy, not a fudge."""
    exact = edge("tie-9to1")
    assert exact == 1 - 10 * EIGHT.winner_probabilities()[Winner.TIE]
    assert percent(exact, 2) == "4.84%"
    assert abs(exact - Fraction(485, 10000)) < Fraction(1, 10000)


def test_banker_edge_per_resolved_bet() -> None:
    analysis = analyze(RANK_BETS["banker"], EIGHT)
    assert analysis.house_edge_resolved == analysis.house_edge / (1 - analysis.push)
    assert percent(analysis.house_edge_resolved, 2) == "1.17%"  # Wizard of Odds, "ties not counted"


def test_big_and_small() -> None:
    assert percent(edge("big"), 2) == "4.35%"
    assert percent(edge("small"), 2) == "5.28%"


def test_combinatorial_table_rows_add_up() -> None:
    analysis = analyze(RANK_BETS["dragon-bonus-player"], EIGHT)
    assert sum(row.combinations or 0 for row in analysis.lines) == EIGHT.total
    assert sum(row.probability for row in analysis.lines) == 1
    assert sum(row.ret for row in analysis.lines) == analysis.expectation


def test_super6_wins_with_six_about_five_times_per_shoe() -> None:
    """The English and Russian Wikipedia articles: 'Banker wins with 6 about five times per
    eight-deck shoe' (~80 coups)."""
    p = analyze(RANK_BETS["super6-banker"], EIGHT).lines[0].probability
    assert decimal(p * 80, 0) in {"4", "5"}
    assert decimal(p, 4) == "0.0539"


shoes = (
    st.lists(st.integers(0, 12), min_size=13, max_size=13).filter(lambda c: sum(c) >= 6).map(Shoe.from_counts)
)


@settings(max_examples=25, deadline=None)
@given(shoes)
def test_identities_on_any_shoe(shoe: Shoe) -> None:
    dist = distribution(shoe)
    p = dist.winner_probabilities()
    b, pl, t = p[Winner.BANKER], p[Winner.PLAYER], p[Winner.TIE]
    assert b + pl + t == 1
    ev = {name: analyze(bet, dist).expectation for name, bet in RANK_BETS.items()}
    assert ev["player"] == pl - b
    assert ev["banker"] == Fraction(19, 20) * b - pl
    assert ev["tie"] == 9 * t - 1
    assert ev["tie-9to1"] == 10 * t - 1
    d7 = dist.probability(lambda o: o.winner == "banker" and o.banker_total == 7 and o.banker_cards == 3)
    assert ev["dragon7"] == 41 * d7 - 1
    assert ev["ez-banker"] == (b - d7) - pl
    six = dist.probability(lambda o: o.winner == "banker" and o.banker_total == 6)
    assert ev["super6-banker"] == b - pl - six / 2
    n = shoe.size
    pair = Fraction(sum(c * (c - 1) for c in shoe.counts), n * (n - 1))
    assert ev["player-pair"] == 12 * pair - 1 == ev["banker-pair"]
    for name, bet in RANK_BETS.items():
        a = analyze(bet, dist)
        assert sum(row.probability for row in a.lines) == 1, name
        assert a.variance >= 0, name
        assert a.house_edge == -a.expectation


@settings(max_examples=15, deadline=None)
@given(
    st.lists(st.integers(0, 3), min_size=13, max_size=13).filter(lambda c: sum(c) >= 6).map(Shoe.from_counts)
)
def test_bets_agree_with_the_plain_enumerator(shoe: Shoe) -> None:
    fast, slow = distribution(shoe), plain_distribution(shoe)
    for bet in RANK_BETS.values():
        assert analyze(bet, fast) == analyze(bet, slow)


def test_first_matching_line_wins() -> None:
    bet = bet_from_mapping(
        "x",
        {
            "lines": [
                {"when": {"winner": "banker", "banker_total": 6}, "pays": "1/2"},
                {"when": {"winner": "banker"}, "pays": 1},
                {"when": {"winner": "tie"}, "pays": "push"},
            ]
        },
    )
    mine, builtin = analyze(bet, EIGHT), analyze(RANK_BETS["super6-banker"], EIGHT)
    assert [row.probability for row in mine.lines] == [row.probability for row in builtin.lines]
    assert (mine.expectation, mine.push, mine.variance) == (
        builtin.expectation,
        builtin.push,
        builtin.variance,
    )
    # In the other order, the general Banker line swallows the wins with 6.
    swapped = Bet("y", "y", (bet.lines[1], bet.lines[0], bet.lines[2]))
    assert (
        analyze(swapped, EIGHT).expectation
        == EIGHT.winner_probabilities()[Winner.BANKER] - (EIGHT.winner_probabilities()[Winner.PLAYER])
    )


def test_commission_banker_matches_builtin() -> None:
    assert analyze(commission_banker(Fraction(1, 20)), EIGHT).expectation == -edge("banker")
    assert analyze(commission_banker(Fraction(1, 25)), EIGHT).expectation == -edge("banker-4pct")
    assert commission_banker(Fraction(3, 100)).name == "banker-3pct"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"lines": [{"when": {"shade": "red"}, "pays": 1}]}, "unknown field 'shade'"),
        ({"lines": [{"when": {"p7_rank": "K"}, "pays": 1}]}, "unknown field 'p7_rank'"),
        ({"lines": [{"when": {"colour": "green"}, "pays": 1}]}, "'green' is not allowed"),
        ({"lines": [{"when": {"p1_suit": "X"}, "pays": 1}]}, "'X' is not allowed"),
        ({"lines": [{"when": {"player_first_two": "A8"}, "pays": 1}]}, "'A8' is not allowed"),
        ({"lines": [{"when": {"count_first_four": {"9X": 1}}, "pays": 1}]}, "unknown suit 'X'"),
        ({"lines": [{"when": {"count_first_four": {"9": 5}}, "pays": 1}]}, "5 is not allowed"),
        ({"lines": [{"when": {"winner": "tie"}, "pays": "lose 2"}]}, "partial loss"),
        ({"lines": [{"when": {"winner": "tie"}, "pays": "1/2 for 1"}]}, "less than the stake"),
        ({"lines": [{"when": {"winner": "dragon"}, "pays": 1}]}, "'dragon' is not allowed"),
        ({"lines": [{"when": {"banker_total": 10}, "pays": 1}]}, "10 is not allowed"),
        ({"lines": [{"when": {"natural": 1}, "pays": 1}]}, "1 is not allowed"),
        ({"lines": [{"when": {"winner": []}, "pays": 1}]}, "empty list never matches"),
        ({"lines": [{"when": {"winner": "tie"}, "pays": -2}]}, "-2 is not a payout ratio"),
        ({"lines": [{"when": {"winner": "tie"}, "pays": "lots"}]}, "'lots' is not a payout ratio"),
        ({"lines": [{"when": {"winner": "tie"}}]}, "missing pays"),
        ({"lines": []}, "non-empty list"),
        ({"lines": [{"when": {"winner": "tie"}, "pays": 8, "odds": 3}]}, "unknown key 'odds'"),
        ({"lines": [{"when": {"winner": "tie"}, "pays": 8}], "colour": 1}, "unknown key 'colour'"),
        ({"kind": "main", "lines": [{"when": {"winner": "tie"}, "pays": 8}]}, "'main' is not allowed"),
    ],
)
def test_bad_bets_name_the_bad_key_or_value(data: dict, message: str) -> None:
    with pytest.raises(AnalyzerError, match=message) as error:
        bet_from_mapping("mine", data)
    assert "\n" not in str(error.value)


def test_for_one_payouts_and_partial_losses() -> None:
    """ "N for 1" returns N in all (net N - 1); "lose half" / "lose 1/4" lose part of the stake."""
    from analyzer.core.bets import parse_pays

    assert parse_pays("10 for 1", "x") == 9
    assert parse_pays("lose half", "x") == Fraction(-1, 2)
    assert parse_pays("lose 1/4", "x") == Fraction(-1, 4)
    assert parse_pays("lose", "x") == -1 and parse_pays("push", "x") is None


def test_parse_ratio_is_exact() -> None:
    assert parse_ratio(0.95, "x") == Fraction(19, 20)
    assert parse_ratio("19/20", "x") == Fraction(19, 20)
    assert parse_ratio(0.54, "x") == Fraction(27, 50)
    with pytest.raises(AnalyzerError):
        parse_ratio(True, "x")


def test_settle() -> None:
    bet = Bet(
        "b", "b", (Line((("winner", ("banker",)),), Fraction(19, 20)), Line((("winner", ("tie",)),), None))
    )
    outcomes = {o.winner: o for o in EIGHT.weights}
    assert bet.settle(outcomes[Winner.BANKER]) == Fraction(19, 20)
    assert bet.settle(outcomes[Winner.TIE]) is None
    assert bet.settle(outcomes[Winner.PLAYER]) == -1


@pytest.mark.parametrize("decks", [1, 8])
def test_analyze_prices_the_distribution_it_is_given(decks: int) -> None:
    """A distribution of a full-deck shoe that is not the shoe's own (here: the coups without
    a natural) is priced on its own weights, not from the shoe's shipped polynomials."""
    full = distribution(Shoe.decks(decks))
    weights = {o: w for o, w in full.weights.items() if not o.natural}
    cond = Distribution(full.shoe, full.rules, weights, sum(weights.values()))
    tie = sum(w for o, w in weights.items() if o.winner is Winner.TIE)
    assert analyze(RANK_BETS["tie"], cond).lines[0].probability == Fraction(tie, cond.total)
    assert analyze(RANK_BETS["tie"], cond) != analyze(RANK_BETS["tie"], full)


_pays = st.one_of(st.none(), st.fractions(min_value=-1, max_value=10**6, max_denominator=40))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10**20), _pays), min_size=1, max_size=8), st.integers(0, 10**20))
def test_analysis_moments_equal_the_fraction_sums(
    lines: list[tuple[int, Fraction | None]], lost: int
) -> None:
    """`analysis_from_weights` sums the moments in integers over the payouts' common
    denominator: the same exact values as summing Fractions weight by weight."""
    from analyzer.core.analysis import analysis_from_weights

    bet = Bet("b", "b", tuple(Line(when=(), pays=p, label=f"line {i}") for i, (_, p) in enumerate(lines)))
    weights = [w for w, _ in lines] + [lost]
    total = sum(weights) or 1
    paid = [(w, p) for w, p in lines if p is not None] + [(lost, Fraction(-1))]
    expectation = sum((w * p for w, p in paid), Fraction(0)) / total
    second = sum((w * p**2 for w, p in paid), Fraction(0)) / total
    analysis = analysis_from_weights(bet, weights, total, finite=True)
    assert analysis.expectation == expectation
    assert analysis.variance == second - expectation**2
    assert analysis.push == Fraction(sum(w for w, p in lines if p is None), total)
    assert analysis.hit_frequency == Fraction(sum(w for w, p in paid if p > 0), total)


def test_uncached_line_index_is_line_index() -> None:
    """`Bet.uncached_line_index` (the counting studies' tables) settles a bet whose second
    line overlaps its first on the first, as `line_index` does."""
    outcomes = list(distribution(Shoe.decks(1)).weights)
    overlapping = Bet("overlap", "", (Line((("winner", ("banker",)),), Fraction(1)), Line((), Fraction(2))))
    settled = [overlapping.uncached_line_index(o) for o in outcomes]
    assert settled == [0 if o.winner == Winner.BANKER else 1 for o in outcomes]
    assert set(settled) == {0, 1} and settled == [overlapping.line_index(o) for o in outcomes]
