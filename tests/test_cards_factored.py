"""The factored card-level paths (hand pairs, first-four counts, coup restrictions) against
the card engine's plans and the plain card-by-card path, exactly, with each path checked
to be the one taken."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.cards.batch import CardEvaluator
from analyzer.cards.engine import card_line_weights, plan_line_weights
from analyzer.cards.plain import plain_card_line_weights
from analyzer.core.bets import Bet, bet_from_mapping
from analyzer.core.catalogue import CARD_BETS
from analyzer.core.rules import BANCO_4_DRAWS_ON_0_1, STANDARD, Rules
from analyzer.core.shoe import Shoe

# Bets of each factored shape beyond the built-ins, reading what the built-ins do not.
SHAPED = {
    "hand pairs": {
        "hands": [
            {"when": {"p1_rank": ["9", "K"], "b2_suit": "D", "banker_perfect_pair": False}, "pays": 12},
            {"when": {"player_suited": True, "banker_first_two": ["10-J", "A-A"]}, "pays": "lose half"},
            {"when": {"b1_suit": ["H", "C"], "p2_rank": "none"}, "pays": "push"},
            {"when": {"player_perfect_pair": True, "b1_rank": "5"}, "pays": 90},
        ],
    },
    "first-four counts": {
        "counts": [
            {"when": {"count_first_four": {"value 0": [3, 4], "KH": 1}}, "pays": 40},
            {"when": {"count_first_four": {"A": 2, "AS": [0, 1]}}, "pays": "3 for 1"},
            {"when": {"count_first_four": {"value 0": 0}}, "pays": "push"},
        ],
    },
    "restrictions": {
        "restricted": [
            {"when": {"winner": "banker", "colour": "red", "highest": [7, 8]}, "pays": 60},
            {"when": {"winner": "tie", "player_total": [0, 5], "colour": "mixed"}, "pays": 30},
            {"when": {"highest": [0, 1, 2, 3], "cards": 6}, "pays": 200},
            {"when": {"natural": True, "colour": "black"}, "pays": "lose half"},
        ],
    },
}
CASES = [
    (path, bet_from_mapping(name, {"lines": lines}))
    for path, bets in SHAPED.items()
    for name, lines in bets.items()
]
BUILT_IN_PATHS = {
    "perfect-pairs-v1": "hand pairs",
    "perfect-pairs-v2": "hand pairs",
    "perfect-9-bonus": "hand pairs",
    "lucky-nines": "first-four counts",
    "super-tie": "restrictions",
    "super-tie-20": "restrictions",
    "tie-max-high": "restrictions",
    "tie-max-low": "restrictions",
}
CASES += [(path, CARD_BETS[name]) for name, path in BUILT_IN_PATHS.items()]
IDS = [bet.name for _, bet in CASES]


@st.composite
def suited_shoes(draw: st.DrawFn, smallest: int = 6, largest: int = 60) -> list[int]:
    """52 card-type counts: tiny, lopsided (few types, many copies) or depleted decks."""
    kind = draw(st.sampled_from(["lopsided", "depleted"] if largest > 52 else ["lopsided"]))
    if kind == "lopsided":
        size = draw(st.integers(smallest, min(largest, 24)))
        pool = draw(st.lists(st.integers(0, 51), min_size=1, max_size=6, unique=True))
        types = [0] * 52
        for _ in range(size):
            types[draw(st.sampled_from(pool))] += 1
        return types
    decks = draw(st.integers(1, 3))
    types = [decks] * 52
    for t in draw(st.lists(st.integers(0, 51), max_size=30)):
        if types[t] and sum(types) > smallest:
            types[t] -= 1
    return types


@pytest.mark.parametrize(("path", "bet"), CASES, ids=IDS)
def test_the_path_is_taken(path: str, bet: Bet) -> None:
    assert CardEvaluator([bet]).paths == (path,)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(suited_shoes(), st.sampled_from(CASES), st.sampled_from([STANDARD, BANCO_4_DRAWS_ON_0_1]))
def test_one_shoe_equals_the_plan(types: list[int], case: tuple[str, Bet], rules: Rules) -> None:
    _, bet = case
    shoe = Shoe.from_cards(types)
    assert card_line_weights(bet, shoe, rules) == plan_line_weights(bet, shoe, rules)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(suited_shoes(largest=7), st.sampled_from(CASES))
def test_tiny_shoes_equal_the_plain_card_by_card_path(types: list[int], case: tuple[str, Bet]) -> None:
    _, bet = case
    shoe = Shoe.from_cards(types)
    assert card_line_weights(bet, shoe) == plain_card_line_weights(bet, shoe)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(suited_shoes(), min_size=1, max_size=5), st.sampled_from([STANDARD, BANCO_4_DRAWS_ON_0_1]))
def test_batches_equal_the_plans(shoes: list[list[int]], rules: Rules) -> None:
    """Every factored bet at once, on a batch mixing tiny and depleted shoes (sub-shoes of
    fewer than six cards among them), line weights and expectations."""
    bets = [bet for _, bet in CASES]
    evaluator = CardEvaluator(bets, rules)
    weights, totals = evaluator.line_weights(np.array(shoes))
    numerators, _ = evaluator.expectations(np.array(shoes))
    for row, types in enumerate(shoes):
        shoe = Shoe.from_cards(types)
        for i, (bet, slots) in enumerate(zip(bets, evaluator.slots, strict=True)):
            plan, total = plan_line_weights(bet, shoe, rules)
            assert [int(w) for w in weights[row, slots]] == plan and int(totals[row]) == total
            net = sum(w * bet.net(line) for line, w in enumerate(plan))
            assert int(numerators[row, i]) == net * evaluator.denominators[i]


def test_rank_counts_serve_bets_that_read_no_suits() -> None:
    bet = CARD_BETS["tie-max-high"]
    counts = np.array([[3, 1, 0, 2, 4, 4, 4, 0, 1, 9, 0, 2, 1]])
    weights, _ = CardEvaluator([bet]).line_weights(counts)
    assert list(weights[0]) == plan_line_weights(bet, Shoe.from_counts([int(c) for c in counts[0]]))[0]
