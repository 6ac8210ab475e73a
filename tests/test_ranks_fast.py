"""Fast exact evaluator and effects of removal.

Published 8-deck effects of removal: Wizard of Odds, baccarat card counting appendix
(Banker: A +0.0000440, 4 +0.0001157, 6 -0.0001132; Tie: 6 -0.0011595, 8 +0.0006543).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer import BANCO_4_DRAWS_ON_0_1, Shoe, distribution
from analyzer.analyses.effects import effects_of_removal, estimate_quality, linear_estimates
from analyzer.analyses.pricing import analyze
from analyzer.core.bets import Bet, bet_from_mapping
from analyzer.core.catalogue import RANK_BETS
from analyzer.present.text import decimal
from analyzer.ranks.fast import FLOAT_EXACT_CARDS, FastEvaluator, payoff_lattice

MAIN = [
    RANK_BETS[n]
    for n in ("player", "banker", "tie", "tie-9to1", "super6-banker", "ez-banker", "dragon7", "panda8")
]
EVALUATOR = FastEvaluator(list(RANK_BETS.values()))


def exact(shoe_counts: list[int]) -> dict[str, Fraction]:
    dist = distribution(Shoe.from_counts(shoe_counts))
    return {bet.name: analyze(bet, dist).expectation for bet in RANK_BETS.values()}


depleted = st.lists(st.integers(0, 32), min_size=13, max_size=13).filter(lambda c: sum(c) >= 6)


@settings(max_examples=25, deadline=None)
@given(depleted)
def test_fast_evaluator_equals_the_enumerator(counts: list[int]) -> None:
    assert EVALUATOR.expectation_fractions(counts) == exact(counts)


@pytest.mark.parametrize(
    "counts",
    [
        [32] * 13,  # full 8 decks
        [0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 2, 1, 0],  # ten-valued only: pairs of different ranks
        [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5],  # tiny lopsided
        [36] * 13,  # above the float-exact limit: the exact integer path
    ],
)
def test_fast_evaluator_edge_cases(counts: list[int]) -> None:
    assert EVALUATOR.expectation_fractions(counts) == exact(counts)


def test_float_limit_is_where_6_card_counts_reach_2_53() -> None:
    from math import perm

    assert perm(FLOAT_EXACT_CARDS, 6) < 2**53 <= perm(FLOAT_EXACT_CARDS + 1, 6)


def test_batches_equal_one_by_one_and_other_rules() -> None:
    rng = np.random.default_rng(5)
    counts = np.array([rng.multinomial(int(rng.integers(6, 400)), [1 / 13] * 13) for _ in range(150)])
    fast = FastEvaluator(MAIN)
    numerators, totals = fast.expectations(counts, batch=64)
    again, _ = fast.expectations(counts, batch=7)
    assert (numerators == again).all()
    for row in (0, 77, 149):
        dist = distribution(Shoe.from_counts(counts[row].tolist()))
        for i, bet in enumerate(MAIN):
            value = Fraction(int(numerators[row, i]), fast.denominators[i] * int(totals[row]))
            assert value == analyze(bet, dist).expectation
    seed004 = FastEvaluator(MAIN, BANCO_4_DRAWS_ON_0_1)
    dist = distribution(Shoe.from_counts(counts[3].tolist()), BANCO_4_DRAWS_ON_0_1)
    assert seed004.expectation_fractions(counts[3].tolist()) == {
        b.name: analyze(b, dist).expectation for b in MAIN
    }


@pytest.mark.parametrize(
    ("bet", "rank", "published"),
    [
        ("banker", "A", "+0.0000440"),
        ("banker", "4", "+0.0001157"),
        ("banker", "6", "-0.0001132"),
        ("tie", "6", "-0.0011595"),
        ("tie", "8", "+0.0006543"),
    ],
)
def test_published_8_deck_effects(bet: str, rank: str, published: str) -> None:
    eor = effects_of_removal([RANK_BETS[bet]], Shoe.decks(8))
    value = eor.effects[bet][rank]
    assert ("+" if value > 0 else "") + decimal(value, 7) == published


@settings(max_examples=10, deadline=None)
@given(st.lists(st.integers(1, 12), min_size=13, max_size=13))
def test_effects_sum_to_zero_over_the_shoe(counts: list[int]) -> None:
    """Removing a random card leaves the expectation unchanged: sum_r n_r EoR_r = 0."""
    shoe = Shoe.from_counts(counts)
    eor = effects_of_removal(MAIN, shoe)
    for bet in MAIN:
        assert (
            sum(n * eor.effects[bet.name][str(r)] for n, r in zip(counts, eor.effects[bet.name], strict=True))
            == 0
        )


def test_effects_are_exact_differences() -> None:
    shoe = Shoe.decks(1)
    eor = effects_of_removal([RANK_BETS["banker"]], shoe)
    full = analyze(RANK_BETS["banker"], distribution(shoe)).expectation
    less = analyze(RANK_BETS["banker"], distribution(shoe.remove(["7"]))).expectation
    assert eor.effects["banker"]["7"] == less - full
    assert eor.base["banker"] == full


def test_linear_estimate_is_exact_to_first_order() -> None:
    """On the full shoe the estimate is the exact expectation; one card out, it is the EoR
    scaled by N0/(N0-1) from the proportions."""
    eor = effects_of_removal([RANK_BETS["banker"]], Shoe.decks(8))
    full = np.array([[32] * 13])
    assert linear_estimates(eor, "banker", full)[0] == pytest.approx(float(eor.base["banker"]), abs=1e-15)
    one_out = np.array([[31] + [32] * 12])
    exact_one_out = float(eor.base["banker"] + eor.effects["banker"]["A"])
    assert linear_estimates(eor, "banker", one_out)[0] == pytest.approx(exact_one_out, abs=1e-15)
    quality = estimate_quality(eor, [RANK_BETS["banker"]], np.array([[32] * 13, [31] + [32] * 12, [30] * 13]))
    assert quality[0].worst_error < 1e-5 and quality[0].correlation > 0.99


@pytest.mark.parametrize(
    ("bets", "columns"), [(MAIN, 5), (list(RANK_BETS.values()), 13), ([RANK_BETS["dragon7"]], 1)]
)
def test_payoff_lattice_spans_the_payoffs_with_fewest_columns(bets: list[Bet], columns: int) -> None:
    """payoffs = lattice @ relation + anchor exactly, on as many columns as the rank of the
    payoffs with the all-ones column, less one."""
    payoffs = FastEvaluator(bets).payoffs
    lattice, relation, anchor = payoff_lattice(payoffs)
    assert (lattice @ relation.T + anchor == payoffs).all()
    with_ones = np.column_stack([payoffs, np.ones(len(payoffs), dtype=np.int64)])
    assert lattice.shape[1] == np.linalg.matrix_rank(with_ones.astype(float)) - 1 == columns


def test_payoff_lattice_with_integer_relations() -> None:
    """Payoffs 8 and 9 on a tie: the columns differ by a non-integer multiple, yet one
    lattice column with integer relations spans both (tie = 9 T - 1, tie 9:1 = 10 T - 1)."""
    payoffs = np.array([[8, 9], [-1, -1], [-1, -1]], dtype=np.int64)
    lattice, relation, anchor = payoff_lattice(payoffs)
    assert lattice.shape == (3, 1) and (lattice @ relation.T + anchor == payoffs).all()


def test_payouts_too_large_for_float_limbs_take_the_exact_path() -> None:
    """A bet paying 10**12 cannot be folded into float64 limbs; its expectations still come
    out exact (atom weights times payoffs in Python integers), with no error."""
    huge = bet_from_mapping("huge", {"lines": [{"when": {"winner": "tie"}, "pays": 10**12}]})
    counts = np.array([[32] * 13, [3, 31, 12, 30, 0, 5, 32, 17, 8, 32, 31, 2, 29]])
    evaluator = FastEvaluator([huge, RANK_BETS["banker"]])
    assert evaluator._bet_form is None
    for row in counts:
        expected = analyze(huge, distribution(Shoe.from_counts([int(c) for c in row]))).expectation
        assert evaluator.expectation_fractions(row)["huge"] == expected


def test_an_empty_batch_gives_empty_results() -> None:
    empty = np.zeros((0, 13), dtype=np.int64)
    assert EVALUATOR.atom_weights(empty).shape == (0, len(EVALUATOR.atoms))
    numerators, totals = EVALUATOR.expectations(empty)
    assert numerators.shape == (0, len(EVALUATOR.bets)) and totals.shape == (0,)


@pytest.mark.parametrize("kernel", ["always", "numpy"])
def test_compositions_past_the_largest_shoe_are_refused_on_every_path(
    kernel: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Counts whose row sum wraps past 2**63 (four of 2**62: the sum 0 modulo 2**64 plus
    52,000,000) and shoes of more than 10**6 decks' cards are refused with the limit named,
    never priced (the compiled kernels took the wrapped size as the shoe's and returned
    numerators of 5e48 for a 720-sequence shoe)."""
    from math import perm

    from analyzer.core.errors import AnalyzerError

    monkeypatch.setenv("BACCARAT_KERNEL", kernel)
    evaluator = FastEvaluator([RANK_BETS[name] for name in ("player", "banker", "tie")])
    wrapping = [[2**62] * 4 + [52_000_000] + [0] * 8, [2**62] * 4 + [0] * 8 + [6]]
    with pytest.raises(
        AnalyzerError, match=r"a count of 4,611,686,018,427,387,904 cards: use at most 52,000,000"
    ):
        evaluator.expectations(np.array(wrapping))
    with pytest.raises(AnalyzerError, match=r"a composition of 52,000,001 cards: use at most 52,000,000"):
        evaluator.expectations(np.array([[4_000_000] * 12 + [4_000_001]]))
    numerators, totals = evaluator.expectations(np.array([[4_000_000] * 13]))
    assert totals[0] == perm(52_000_000, 6) and numerators.shape == (1, 3)  # the largest shoe is priced
