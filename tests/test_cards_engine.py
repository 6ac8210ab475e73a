"""The card-level engine against the plain card-by-card path and the rank-level engine."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.cards import suitclasses
from analyzer.cards.batch import analyze_cards
from analyzer.cards.engine import card_line_weights, outcome_weights, plan_line_weights
from analyzer.cards.plain import plain_card_line_weights
from analyzer.cards.suitclasses import suit_options
from analyzer.core.bets import Bet, bet_from_mapping
from analyzer.core.catalogue import CARD_BETS, RANK_BETS
from analyzer.core.errors import AnalyzerError
from analyzer.core.rules import BANCO_4_DRAWS_ON_0_1, STANDARD
from analyzer.core.shoe import Shoe
from analyzer.ranks.enumeration import distribution

# Bets that between them read every card-level field.
SPECS = {
    "pairs": [
        {"when": {"player_perfect_pair": True, "banker_perfect_pair": True}, "pays": 250},
        {"when": {"player_perfect_pair": True}, "pays": 25},
        {"when": {"banker_perfect_pair": True}, "pays": "lose 1/2"},
        {"when": {"pairs_same_rank": True}, "pays": 4},
    ],
    "colours": [
        {"when": {"winner": "tie", "colour": ["red", "black"]}, "pays": 100},
        {"when": {"player_colour": "red", "banker_colour": "mixed"}, "pays": 25},
        {"when": {"banker_colour": "black", "player_highest": [7, 8, 9]}, "pays": 3},
        {"when": {"winner": "tie"}, "pays": 7},
    ],
    "counts": [
        {"when": {"count_first_four": {"9": 3, "9S": 3}}, "pays": 100},
        {"when": {"count_first_four": {"9D": 1}}, "pays": 2},
        {"when": {"count_coup": {"value 0": [2, 3], "9H": 1}}, "pays": "3 for 1"},
        {"when": {"count_coup": {"A": [1, 2]}}, "pays": "push"},
    ],
    "positions": [
        {"when": {"player_first_two": ["A-8", "2-7", "3-6", "4-5"], "player_suited": True}, "pays": 20},
        {"when": {"p3_suit": "H", "b1_rank": "K"}, "pays": 3},
        {"when": {"pairs_same_card": True}, "pays": "lose half"},
        {"when": {"b3_rank": "none", "highest": [5, 6], "banker_suited": True}, "pays": 5},
        {"when": {"banker_highest": 9, "p2_suit": ["S", "C"]}, "pays": 1},
    ],
    # Suits compared (pairs, suited) and read by name (9D, KH, b1_suit) at one position.
    "relations-and-names": [
        {"when": {"player_perfect_pair": True, "count_first_four": {"9D": 1}}, "pays": 30},
        {"when": {"banker_suited": True, "count_coup": {"KH": 1}}, "pays": 8},
        {"when": {"pairs_same_card": True}, "pays": 100},
        {"when": {"player_perfect_pair": True, "colour": "red"}, "pays": 12},
        {"when": {"b1_suit": "D", "banker_perfect_pair": True}, "pays": 5},
        {"when": {"player_suited": True, "count_first_four": {"9": 2, "9S": 1}}, "pays": 3},
        {"when": {"player_suited": True, "banker_suited": True, "winner": "banker"}, "pays": 2},
    ],
}
BETS_UNDER_TEST = [bet_from_mapping(name, {"lines": lines}) for name, lines in SPECS.items()]


@st.composite
def tiny_suited_shoes(draw: st.DrawFn) -> Shoe:
    """52-type shoes of 6 to 8 cards, often lopsided (few types, several copies)."""
    size = draw(st.integers(6, 8))
    pool = draw(st.lists(st.integers(0, 51), min_size=1, max_size=size, unique=True))
    types = [0] * 52
    for _ in range(size):
        types[draw(st.sampled_from(pool))] += 1
    return Shoe.from_cards(types)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_suited_shoes(), st.sampled_from(BETS_UNDER_TEST))
def test_engine_matches_plain_path(shoe: Shoe, bet: Bet) -> None:
    assert card_line_weights(bet, shoe) == plain_card_line_weights(bet, shoe)


@pytest.mark.parametrize("bet", BETS_UNDER_TEST, ids=lambda b: b.name)
def test_engine_matches_plain_path_on_a_fixed_shoe(bet: Bet) -> None:
    shoe = Shoe.from_cards([1 if t in (0, 8, 12, 21, 25, 34, 38, 47) else 0 for t in range(52)])
    fast, total = card_line_weights(bet, shoe)
    assert (fast, total) == plain_card_line_weights(bet, shoe)
    assert sum(fast) == total


@pytest.mark.parametrize("bet", BETS_UNDER_TEST[:3], ids=lambda b: b.name)
def test_infinite_deck_weights_sum_to_52_to_the_6(bet: Bet) -> None:
    fast, total = card_line_weights(bet, Shoe.infinite())
    assert sum(fast) == total == 52**6


def test_infinite_deck_perfect_pairs() -> None:
    """Every card type has probability 1/52 on every draw: a perfect pair in one hand has
    probability 1/52, in both 1/52**2."""
    weights, total = card_line_weights(CARD_BETS["perfect-pairs-v2"], Shoe.infinite())
    assert Fraction(weights[0], total) == Fraction(1, 52**2)
    assert Fraction(weights[1], total) == Fraction(1, 52) - Fraction(1, 52**2)


def _lopsided() -> Shoe:
    return Shoe.from_cards([(3 * t) % 7 + (t % 13 == 8) * 5 for t in range(52)])


@pytest.mark.parametrize(
    ("shoe", "rules"),
    [
        (Shoe.decks(8), STANDARD),
        (Shoe.decks(1), STANDARD),
        (_lopsided(), STANDARD),
        (Shoe.decks(8), BANCO_4_DRAWS_ON_0_1),
    ],
    ids=["8 decks", "1 deck", "lopsided", "8 decks, banco-4-draws-on-0-1"],
)
def test_rank_level_outcomes_agree(shoe: Shoe, rules: object) -> None:
    """Every rank-level outcome has the same exact weight from both engines."""
    weights, total = outcome_weights(shoe, rules)  # type: ignore[arg-type]
    dist = distribution(shoe, rules)  # type: ignore[arg-type]
    assert total == dist.total and weights == dist.weights


@pytest.mark.parametrize("name", list(RANK_BETS))
def test_rank_level_bets_agree_on_a_suited_shoe(name: str) -> None:
    from analyzer.analyses.pricing import analyze

    shoe = _lopsided()
    weights, total = card_line_weights(RANK_BETS[name], shoe)
    won = sum(w * (line.pays or 0) for w, line in zip(weights, RANK_BETS[name].lines, strict=False))
    assert Fraction(won - weights[-1], total) == analyze(RANK_BETS[name], distribution(shoe)).expectation


def test_infinite_deck_probabilities_agree() -> None:
    weights, total = outcome_weights(Shoe.infinite())
    dist = distribution(Shoe.infinite())
    assert {o: Fraction(w, total) for o, w in weights.items()} == {
        o: Fraction(w, dist.total) for o, w in dist.weights.items()
    }


def test_suit_bet_on_a_rank_level_shoe_is_an_error() -> None:
    with pytest.raises(AnalyzerError, match="suits are not known"):
        analyze_cards(CARD_BETS["perfect-pairs-v1"], Shoe.from_counts([32] * 13))
    with pytest.raises(AnalyzerError, match="suits are not known"):
        analyze_cards(CARD_BETS["perfect-pairs-v1"], Shoe.decks(8).remove(["K"]))


def test_rank_bets_need_no_suits() -> None:
    """Tie Max reads only point values: it prices on a shoe given per rank."""
    by_rank = analyze_cards(CARD_BETS["tie-max-high"], Shoe.from_counts([32] * 13))
    assert by_rank.expectation == analyze_cards(CARD_BETS["tie-max-high"], Shoe.decks(8)).expectation


def test_suited_removal_changes_only_that_card() -> None:
    shoe = Shoe.decks(1).remove(["KH"])
    assert shoe.types is not None and shoe.types[13 + 12] == 0 and sum(shoe.types) == 51
    assert shoe.counts == Shoe.decks(1).remove(["K"]).counts


def test_suits_of_removed_cards_matter() -> None:
    """Lucky Nines pays more on a nine of diamonds: removing it is worse than removing 9H."""
    nines = CARD_BETS["lucky-nines"]
    less_diamond = analyze_cards(nines, Shoe.decks(1).remove(["9D"])).expectation
    less_heart = analyze_cards(nines, Shoe.decks(1).remove(["9H"])).expectation
    assert less_diamond < less_heart


@settings(max_examples=80, deadline=None)
@given(st.sets(st.integers(0, 5), min_size=1, max_size=4), st.data())
def test_suit_classes_count_every_assignment_of_suits_once(positions: set[int], data: st.DataObject) -> None:
    cols = sorted(positions)
    components = [data.draw(st.sampled_from([None, 0, 1])) for _ in cols]
    lumped = data.draw(st.sets(st.sampled_from(cols)))
    named = [data.draw(st.integers(0, 15)) for _ in cols]
    options = suit_options(cols, components, lumped, named)

    def suits_of(mask: int) -> list[int]:
        return [s for s in range(4) if mask >> s & 1]

    covered = Counter(suits for option in options for suits in product(*[suits_of(m) for _, m in option]))
    assert covered == Counter(product(range(4), repeat=len(cols)))  # a partition of the assignments
    for option in options:
        assert all(mask >> suit & 1 for suit, mask in option)  # the representative is in its class
        for i, ((_, mask), names, component) in enumerate(zip(option, named, components, strict=True)):
            if len(suits_of(mask)) > 1:  # a class of several suits: none named, none of an
                assert not mask & names  # earlier position compared with it
                assert component is None or cols[i] in lumped
                same = [d for d in range(i) if component is not None and components[d] == component]
                assert not any(mask >> option[d][0] & 1 for d in same)


def _every_suit(
    cols: list[int], components: list[int | None], lumped: set[int], named: list[int]
) -> list[list[tuple[int, int]]]:
    return [[(suit, 1 << suit) for suit in suits] for suits in product(range(4), repeat=len(cols))]


@pytest.mark.parametrize("bet", BETS_UNDER_TEST, ids=lambda b: b.name)
def test_suit_classes_weigh_as_every_suit_enumerated(bet: Bet, monkeypatch: pytest.MonkeyPatch) -> None:
    # 30 cards of four ranks in every suit, lopsided: pairs, same-rank hands and suits galore.
    counts = {0: 3, 8: 2, 12: 2, 4: 1}  # A, 9, K, 5: copies of each suit
    shoe = Shoe.from_cards([counts.get(t % 13, 0) + (t == 21) for t in range(52)])  # one 9 of diamonds more
    classes = card_line_weights(bet, shoe)
    monkeypatch.setattr(suitclasses, "suit_options", _every_suit)
    assert plan_line_weights(bet, shoe) == classes
