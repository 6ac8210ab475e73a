"""The batch card-level evaluator against the one-shoe card-level engine, exactly."""

from __future__ import annotations

from fractions import Fraction
from math import perm

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.cards.batch import CardEvaluator, analyze_cards, card_evaluator
from analyzer.cards.engine import card_line_weights, plan_line_weights
from analyzer.cards.restrictions import Restrictions
from analyzer.core.bets import Bet, bet_from_mapping
from analyzer.core.catalogue import CARD_BETS
from analyzer.core.errors import AnalyzerError
from analyzer.core.rules import BANCO_4_DRAWS_ON_0_1, STANDARD
from analyzer.core.shoe import Shoe

BUILT_IN = tuple(CARD_BETS.values())
# Bets reading the fields the built-ins do not: colours of one hand, positions, counts, pairs.
OTHERS = tuple(
    bet_from_mapping(name, {"lines": lines})
    for name, lines in {
        "colours": [
            {
                "when": {"winner": "banker", "cards": 4, "player_colour": "red", "banker_colour": "mixed"},
                "pays": 25,
            },
            {"when": {"winner": "player", "banker_colour": "black", "player_highest": [8, 9]}, "pays": 3},
            {"when": {"count_coup": {"value 0": [2, 3], "9H": 1}}, "pays": "3 for 1"},
        ],
        "first-four": [
            {"when": {"pairs_same_card": True}, "pays": 500},
            {"when": {"p2_suit": "H", "b1_rank": "K"}, "pays": "lose 1/2"},
            {"when": {"count_first_four": {"A": [1, 2]}}, "pays": "push"},
        ],
    }.items()
)
# A bet telling the ten-valued ranks apart on the whole coup (rows by rank, not by value).
TENS = bet_from_mapping(
    "tens",
    {"lines": [{"when": {"b3_rank": "none", "banker_first_two": "10-K", "banker_suited": True}, "pays": 40}]},
)


def reference(bets: tuple[Bet, ...], types: list[int], rules: object = STANDARD) -> list[int]:
    shoe = Shoe.from_cards(types)
    return [w for bet in bets for w in card_line_weights(bet, shoe, rules)[0]]  # type: ignore[arg-type]


@st.composite
def suited_shoes(draw: st.DrawFn) -> list[int]:
    """52-type shoes: tiny and lopsided (6 to 12 cards of a few types) or depleted 1-2 decks."""
    if draw(st.booleans()):
        pool = draw(st.lists(st.integers(0, 51), min_size=1, max_size=6, unique=True))
        types = [0] * 52
        for _ in range(draw(st.integers(6, 12))):
            types[draw(st.sampled_from(pool))] += 1
        return types
    decks = draw(st.integers(1, 2))
    return [decks - draw(st.integers(0, decks)) if draw(st.booleans()) else decks for _ in range(52)]


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(suited_shoes(), min_size=1, max_size=2))
def test_line_weights_equal_the_card_level_engine(shoes: list[list[int]]) -> None:
    shoes = [types for types in shoes if sum(types) >= 6]
    if not shoes:
        return
    bets = BUILT_IN + OTHERS
    weights, totals = card_evaluator(bets).line_weights(np.array(shoes))
    for row, types in enumerate(shoes):
        assert [int(w) for w in weights[row]] == reference(bets, types)
        assert int(totals[row]) == perm(sum(types), 6)


def test_rows_by_rank_on_a_tiny_and_a_depleted_shoe() -> None:
    tiny = [3 if t in (9, 12, 22, 25, 47) else 0 for t in range(52)]  # 10S, KS, 10H, KH, 9C: three of each
    depleted = [1 - (t % 3 == 0) for t in range(52)]
    weights, _ = card_evaluator((TENS,)).line_weights(np.array([tiny, depleted]))
    for row, types in enumerate((tiny, depleted)):
        assert [int(w) for w in weights[row]] == reference((TENS,), types)
    assert int(weights[0, 0]) > 0


def test_expectations_equal_analyze_cards_on_depleted_eight_deck_shoes() -> None:
    rng = np.random.default_rng(5)
    shoes = [rng.multivariate_hypergeometric([8] * 52, int(n)) for n in (416, 300, 180, 60)]
    evaluator = card_evaluator(BUILT_IN)
    numerators, totals = evaluator.expectations(np.array(shoes), batch=3)
    for row, types in enumerate(shoes):
        shoe = Shoe.from_cards(types.tolist())
        for i, bet in enumerate(BUILT_IN):
            expected = analyze_cards(bet, shoe).expectation
            assert Fraction(int(numerators[row, i]), evaluator.denominators[i] * int(totals[row])) == expected


def test_expectations_in_blocks_of_shoes_are_the_expectations_of_all_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Shoes valued `_ROWS` at a time (here 2: blocks of 2, 2 and 1) give every row as one
    block of all of them does."""
    import analyzer.cards.batch as batch

    rng = np.random.default_rng(7)
    shoes = np.array([rng.multivariate_hypergeometric([8] * 52, int(n)) for n in (416, 350, 200, 120, 40)])
    evaluator = card_evaluator(BUILT_IN)
    whole, totals = evaluator.expectations(shoes)
    monkeypatch.setattr(batch, "_ROWS", 2)
    blocks, block_totals = evaluator.expectations(shoes)
    assert blocks.tolist() == whole.tolist() and block_totals.tolist() == totals.tolist()
    assert len({tuple(row) for row in whole.tolist()}) == len(shoes)  # five shoes, five rows apart


def test_big_shoes_take_the_python_integer_paths_in_batch() -> None:
    """Ten decks: a 1000:1 payout times (N)_6 passes 2**63 (Python-int payouts); thirty
    decks: (N)_6 itself does; a thousand decks: the coup restrictions' results too. Every
    size stays on the batch paths (no shoe-by-shoe engine), exact against the engine."""
    bets = (CARD_BETS["lucky-nines"], CARD_BETS["super-tie"], CARD_BETS["perfect-pairs-v2"])
    evaluator = CardEvaluator(bets)
    calls: list[int] = []
    one_shoe = Restrictions.exact_row

    def counted(self: Restrictions, row: np.ndarray, numerators: bool = False) -> list[int]:
        calls.append(1)
        return one_shoe(self, row, numerators)

    for decks, removed in ((10, 37), (30, 0), (1000, 5)):
        types = [decks] * 52
        for t in range(removed):
            types[(7 * t) % 52] -= 1
        calls.clear()
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(Restrictions, "exact_row", counted)
            numerators, totals = evaluator.expectations(np.array([types, types]))
        assert numerators.dtype == object and not calls  # the path taken
        shoe = Shoe.from_cards(types)
        for i, bet in enumerate(bets):
            value = Fraction(int(numerators[1, i]), evaluator.denominators[i] * int(totals[1]))
            weights, total = plan_line_weights(bet, shoe)  # the plan: an independent path
            assert value == sum(w * bet.net(line) for line, w in enumerate(weights)) / total


def test_other_rules_and_rank_counts() -> None:
    """Another tableau; bets that read no suits accept (W, 13) rank counts; bets that read
    suits refuse them."""
    tie_max = (CARD_BETS["tie-max-low"], CARD_BETS["tie-max-high"])
    types = [2, 1, 0, 3] * 13
    bets = (*tie_max, CARD_BETS["super-tie"], OTHERS[1])
    weights, _ = CardEvaluator(bets, BANCO_4_DRAWS_ON_0_1).line_weights(np.array([types]))
    assert [int(w) for w in weights[0]] == reference(bets, types, BANCO_4_DRAWS_ON_0_1)
    counts = np.array([[5, 7, 6, 6, 6, 6, 4, 6, 7, 5, 6, 6, 6]])
    ranked, _ = card_evaluator(tie_max).line_weights(counts)
    shoe = Shoe.from_counts(counts[0].tolist())
    assert [int(w) for w in ranked[0]] == [w for bet in tie_max for w in card_line_weights(bet, shoe)[0]]
    with pytest.raises(AnalyzerError, match="perfect-pairs-v1 read suits"):
        card_evaluator(BUILT_IN[:1]).expectations(counts)
    with pytest.raises(AnalyzerError, match="at least 6 cards"):
        card_evaluator(tie_max).expectations(np.array([[1] * 5 + [0] * 8]))


def test_payouts_past_int64_have_line_weights_and_edges_prices_them() -> None:
    """A plan-path bet paying 10**19 on a tie: its line weights (what `edges` prices from)
    need no payoffs, so they are those of the same lines paying 8; its numerators here are
    refused (they were refused on building the evaluator, and `edges` with them). The edge
    is the 8:1 bet's less (10**19 - 8) times P(tie)."""
    lines: list[dict[str, object]] = [
        {"when": {"winner": "tie"}, "pays": 10**19},
        {"when": {"player_perfect_pair": True}, "pays": 25},
    ]
    huge = bet_from_mapping("huge", {"lines": lines})
    small = huge.with_pays({0: 8})
    shoes = np.array([[8] * 52])
    evaluator = CardEvaluator([huge])
    assert evaluator.paths == ("plan",)
    weights, totals = evaluator.line_weights(shoes)
    expected, expected_totals = CardEvaluator([small]).line_weights(shoes)
    assert weights.tolist() == expected.tolist() and totals.tolist() == expected_totals.tolist()
    with pytest.raises(AnalyzerError, match=r"exceed 2\*\*63"):
        evaluator.expectations(shoes)
    tie = Fraction(619306544887, 6508331087895)  # P(tie), 8 decks
    edge = analyze_cards(huge, Shoe.decks(8)).house_edge
    assert edge == analyze_cards(small, Shoe.decks(8)).house_edge - (10**19 - 8) * tie


@pytest.mark.parametrize("pays", [2**63 - 1, 2**62])
def test_restrictions_are_exact_when_a_payout_less_the_no_line_payout_passes_int64(pays: int) -> None:
    """A colour bet paying `pays` on red, 1 on black, -1 otherwise: its payoffs less the
    no-line payoff pass int64 (2**63 - 1 + 1), which the int64 columns wrapped (a negative
    numerator where the true one is about 4e27). Both `numerators` and `exact_row` equal the
    line weights times the payouts in Python ints."""
    lines = [{"when": {"colour": "red"}, "pays": pays}, {"when": {"colour": "black"}, "pays": 1}]
    bet = bet_from_mapping("big", {"lines": lines})
    found = Restrictions((bet,), STANDARD)
    for shoe in (Shoe.decks(1), Shoe.decks(8), Shoe.decks(1).remove(["5H", "KS"])):
        types = np.array([shoe.types], dtype=np.int64)
        weights = [int(w) for w in found.weights(types)[0]]
        payoffs = [int(p) for p in found._payoffs[:, 0]]
        exact = sum(w * p for w, p in zip(weights, payoffs, strict=True))
        assert exact > 0 and int(found.numerators(types)[0, 0]) == exact
        assert found.exact_row(types[0], True) == [exact]
