"""Card-level bets exact at every accepted shoe size: 1 to 10**6 decks, --cards counts up to
52,000,000 cards in all, uniform and lopsided, against the slow paths.

The references share no fixed-width arithmetic with the fast paths: the card-by-card
enumerator (`analyzer.cards.plain`, Python integers) on shoes of a few card types, however
large their counts, and the card engine's rows (`plan_line_weights`, Python integers once
(N)**6 passes 2**62) on every shoe; on the few-type shoes the two agree with each other too.
"""

from __future__ import annotations

import json
from fractions import Fraction
from math import perm

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from analyzer.cards.batch import CardEvaluator, shoe_line_weights
from analyzer.cards.engine import plan_line_weights
from analyzer.cards.plain import plain_card_line_weights
from analyzer.core.bets import Bet, bet_from_mapping
from analyzer.core.catalogue import CARD_BETS
from analyzer.core.shoe import MAX_DECKS, Shoe
from analyzer.core.suits import TYPES
from analyzer.counting.record import sample_path
from tests.clirun import run

FIRST_FOUR = tuple(bet for bet in CARD_BETS.values() if bet.name.startswith(("perfect", "lucky")))
COUP = tuple(bet for bet in CARD_BETS.values() if bet not in FIRST_FOUR)
MOST_CARDS = 52 * MAX_DECKS
#: Deck counts about each bound of the fast paths: (N)_6 near 2**63 (28 decks), the hand pairs'
#: float64 limit (54 to 55 decks), their old float limits and (N)_4 near 2**63 (760 to 1,060
#: decks), the reported 1,100 to 3,000 decks.
EDGES = (1, 2, 27, 28, 29, 54, 55, 700, 763, 764, 1059, 1060, 1100, 1500, 2000, 3000, 10**5, MAX_DECKS)


def expectation(bet: Bet, weights: list[int], total: int) -> Fraction:
    return Fraction(sum(w * bet.net(line) for line, w in enumerate(weights)), total)


def check_fast_paths(bets: tuple[Bet, ...], types: list[int], reference: dict[str, list[int]]) -> None:
    """Every fast path of `bets` on `types` gives the reference line weights: one shoe (the
    CLI's path), and the batch evaluator's weights and expectations with an 8-deck shoe
    beside it (a batch of mixed sizes, as effects of removal and replays give)."""
    shoe, total = Shoe.from_cards(types), perm(sum(types), 6)
    for bet in bets:
        assert shoe_line_weights(bet, shoe) == (reference[bet.name], total), bet.name
    evaluator = CardEvaluator(bets)
    batch = np.array([types, [8] * TYPES])
    weights, totals = evaluator.line_weights(batch)
    numerators, _ = evaluator.expectations(batch)
    assert int(totals[0]) == total
    for i, bet in enumerate(bets):
        assert [int(w) for w in weights[0, evaluator.slots[i]]] == reference[bet.name], bet.name
        value = Fraction(int(numerators[0, i]), evaluator.denominators[i] * total)
        assert value == expectation(bet, reference[bet.name], total), bet.name


@st.composite
def shoes(draw: st.DrawFn) -> list[int]:
    """52 card-type counts of 1 to 10**6 decks: uniform less a few cards, or lopsided (some
    types none or one card, some far more than the others)."""
    decks = draw(st.one_of(st.sampled_from(EDGES), st.integers(1, MAX_DECKS)))
    types = [decks] * TYPES
    if draw(st.booleans()):
        for t in draw(st.lists(st.integers(0, TYPES - 1), max_size=4)):
            types[t] = max(types[t] - 1, 0)
    else:
        for t in draw(st.lists(st.integers(0, TYPES - 1), min_size=1, max_size=12, unique=True)):
            room = MOST_CARDS - sum(types) + types[t]
            types[t] = draw(st.sampled_from([0, 1, room, room // 2, draw(st.integers(0, room))]))
    if sum(types) < 7:
        types[0] += 7
    return types


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shoes())
@example([1] * TYPES)
@example([MAX_DECKS] * TYPES)
@example(list(Shoe.decks(1500).remove(["9H", "8D", "KS", "2C"]).types or ()))
@example([60_000] + [1] * (TYPES - 1))
def test_first_four_bets_exact_on_every_size(types: list[int]) -> None:
    shoe = Shoe.from_cards(types)
    check_fast_paths(FIRST_FOUR, types, {bet.name: plan_line_weights(bet, shoe)[0] for bet in FIRST_FOUR})


@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shoes())
@example([MAX_DECKS] * TYPES)
def test_coup_bets_exact_on_every_size(types: list[int]) -> None:
    shoe = Shoe.from_cards(types)
    check_fast_paths(COUP, types, {bet.name: plan_line_weights(bet, shoe)[0] for bet in COUP})


@st.composite
def few_types(draw: st.DrawFn) -> list[int]:
    """Shoes of two to four card types, each of one card or up to the whole 52,000,000."""
    chosen = draw(st.lists(st.integers(0, TYPES - 1), min_size=2, max_size=4, unique=True))
    types = [0] * TYPES
    for i, t in enumerate(chosen):
        room = MOST_CARDS - sum(types) - (len(chosen) - 1 - i)  # a card left for each type after
        sizes = st.one_of(st.integers(1, min(3, room)), st.integers(1, room), st.just(max(1, room // 2)))
        types[t] = draw(sizes)
    if sum(types) < 6:
        types[chosen[0]] += 6
    return types


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(few_types())
@example([MOST_CARDS - 3, 1, 1, 1] + [0] * (TYPES - 4))
def test_every_built_in_equals_the_card_by_card_path_on_huge_lopsided_shoes(types: list[int]) -> None:
    shoe = Shoe.from_cards(types)
    bets = tuple(CARD_BETS.values())
    reference = {bet.name: plain_card_line_weights(bet, shoe)[0] for bet in bets}
    for bet in bets:
        assert plan_line_weights(bet, shoe)[0] == reference[bet.name], bet.name  # the references agree
    check_fast_paths(bets, types, reference)


def test_coup_restrictions_sum_their_sets_exactly() -> None:
    """A bet on the highest card value, on 674 aces of spades: its sets of cards (value at
    most 1, at most 2, ...) are priced in int64 while their bounds fit and in Python ints
    beyond; the partial sums of the first sets passed 2**63 before the wide one joined them
    (an OverflowError, from `baccarat eor --table FILE` too). Every coup's highest card is
    an ace: the bet pays 100 for 1."""
    bet = bet_from_mapping(
        "highest",
        {
            "lines": [
                {"when": {"highest": [1]}, "pays": 100},
                {"when": {"highest": [2]}, "pays": 50},
                {"when": {"highest": [0, 4, 5, 6, 7, 8, 9]}, "pays": 100},
            ]
        },
    )
    size = 674  # 100 (N)_6 < 2**63 <= 101 (N)_6: the batch's numerators, a set beyond int64
    assert 100 * perm(size, 6) < 2**63 <= 101 * perm(size, 6)
    evaluator = CardEvaluator([bet])
    numerators, totals = evaluator.expectations(np.array([[size] + [0] * (TYPES - 1)]))
    assert evaluator.paths == ("restrictions",)
    assert Fraction(int(numerators[0, 0]), evaluator.denominators[0] * int(totals[0])) == 100


# -- the commands of the report --------------------------------------------------------------


def reference_edge(name: str, shoe: Shoe) -> Fraction:
    bet = CARD_BETS[name]
    return -expectation(bet, *plan_line_weights(bet, shoe))


def test_edges_on_a_large_depleted_shoe(capsys: pytest.CaptureFixture[str]) -> None:
    """Perfect Pairs on 1,500 decks less four cards: 1.0257% (it printed -98.67%), and every
    hand-pairs bet from 3,000 decks (a numpy casting traceback)."""
    removed = ["9H", "8D", "KS", "2C"]
    for decks in (1500, 3000):
        code, out, _ = run(
            capsys, "edges", "--bets", "perfect-pairs-v1,perfect-pairs-v2,perfect-9-bonus",
            "--decks", str(decks), "--remove", ",".join(removed), "--format", "json",
        )  # fmt: skip
        assert code == 0
        shoe = Shoe.decks(decks).remove(removed)
        for name, figures in json.loads(out)["bets"].items():
            assert Fraction(figures["house_edge"]) == reference_edge(name, shoe), (decks, name)
    assert reference_edge("perfect-pairs-v1", Shoe.decks(1500).remove(removed)) == Fraction(
        15814341252416963, 1541859039374426535
    )


def test_effects_of_removal_on_a_uniform_large_shoe_are_zero(capsys: pytest.CaptureFixture[str]) -> None:
    """On a whole shoe every card type is alike: each effect is exactly 0 (1,500 decks printed
    non-zero effects and an identity sum of 2**64/...; 3,000 decks a traceback)."""
    for decks in (1500, 3000):
        code, out, _ = run(
            capsys, "eor", "--bets", "perfect-pairs-v1", "--decks", str(decks), "--format", "json"
        )
        assert code == 0
        found = json.loads(out)
        assert set(found["bets"]["perfect-pairs-v1"].values()) == {"0"}
        assert found["identity"]["perfect-pairs-v1"] == "0"
        assert Fraction(found["expectation"]["perfect-pairs-v1"]) == -reference_edge(
            "perfect-pairs-v1", Shoe.decks(decks)
        )


def test_track_on_a_large_shoe(capsys: pytest.CaptureFixture[str]) -> None:
    """A recorded shoe replayed on 3,000 decks (a traceback): the value before the first coup
    is that of the shoe less the burned cards."""
    code, out, _ = run(
        capsys, "track", sample_path(), "--bets", "perfect-pairs-v1", "--decks", "3000", "--format", "json"
    )
    assert code == 0
    burned = ["JH", "2C", "5H", "2D", "QD", "4C", "8S", "10C", "6D", "8H", "8H"]
    shoe = Shoe.decks(3000).remove(burned)
    start = json.loads(out)["start"]
    assert start["cards_left"] == shoe.size
    value = Fraction(start["next"]["perfect-pairs-v1"]["expectation"])
    assert value == -reference_edge("perfect-pairs-v1", shoe)


def test_a_lopsided_shoe_has_a_standard_deviation(capsys: pytest.CaptureFixture[str]) -> None:
    """60,000 aces of spades and one of every other card: exact figures, not "math domain
    error" (a negative variance of wrong weights)."""
    cards = ",".join(["60000"] + ["1"] * (TYPES - 1))
    code, out, err = run(
        capsys, "edges", "--bets", "perfect-pairs-v1,perfect-9-bonus", "--cards", cards, "--format", "json"
    )
    assert (code, err) == (0, "")
    shoe = Shoe.from_cards([60000] + [1] * (TYPES - 1))
    for name, figures in json.loads(out)["bets"].items():
        assert Fraction(figures["house_edge"]) == reference_edge(name, shoe)
        assert float(figures["std_dev"]) > 0
