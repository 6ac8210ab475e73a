"""Study summaries: fixed size, exact sums, memory that does not grow with the shoes."""

from __future__ import annotations

import pickle
import tracemalloc
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction

import numpy as np
import pytest

from analyzer import Shoe
from analyzer.core.catalogue import RANK_BETS
from analyzer.counting.simulation import Procedure, evaluate_systems
from analyzer.counting.summary import ExactSum, SystemEvaluation
from analyzer.counting.systems import SYSTEMS

D7 = [SYSTEMS["dragon7-jacobson"]], [RANK_BETS["dragon7"]]


def test_exact_sum_matches_fractions() -> None:
    rng = np.random.default_rng(5)
    totals = rng.choice([720, 5040, 20160, 60480], size=500).astype(np.int64)
    numerators = rng.integers(-(2**62), 2**62, size=500, dtype=np.int64)
    total = ExactSum()
    total.add(numerators, totals, 7)
    expected = sum(
        (Fraction(int(n), 7 * int(t)) for n, t in zip(numerators, totals, strict=True)), Fraction(0)
    )
    assert total.value() == expected


def _study(shoes: int) -> SystemEvaluation:
    return evaluate_systems(*D7, Procedure(shoe=Shoe.decks(1), cut_card=7), shoes=shoes, seed=4, chunk=25)[0]


def test_summary_size_does_not_depend_on_the_number_of_shoes() -> None:
    small, large = _study(50), _study(800)
    assert large.shoes == 800
    for result in (small, large):  # bounded by the shoe: one exact sum per cards-left value
        assert all(len(s.by_total) <= 52 for s in result.sums.values())
        assert len(result.by_count) <= 2 * 2 * 52 + 1  # |true count| <= 2 * 52 for tags of level 2
    assert len(pickle.dumps(large)) < 1.5 * len(pickle.dumps(small)) + 4000


def test_memory_does_not_grow_with_the_number_of_shoes() -> None:
    peaks = []
    for shoes in (40, 160, 640):
        tracemalloc.start()
        _study(shoes)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    assert peaks[2] < 1.25 * peaks[0], peaks  # 16 times the shoes, the same peak


def test_any_executor_and_any_workers_give_identical_results() -> None:
    procedure = Procedure(shoe=Shoe.decks(2), cut_card=14, extra_coup=True)
    systems = [SYSTEMS["dragon7-jacobson"], SYSTEMS["natural9-thorp"]]
    bets = [RANK_BETS["dragon7"], RANK_BETS["banker-natural-9"]]
    alone = evaluate_systems(systems, bets, procedure, shoes=90, seed=2, chunk=20)
    with ThreadPoolExecutor(3) as pool:
        threaded = evaluate_systems(systems, bets, procedure, shoes=90, seed=2, chunk=20, executor=pool)
    assert [vars(r) for r in alone] == [vars(r) for r in threaded]


def test_bad_chunk() -> None:
    with pytest.raises(Exception, match="chunk 0"):
        evaluate_systems(*D7, Procedure(), shoes=5, chunk=0)


def test_binned_sums_match_fractions_coup_by_coup() -> None:
    """Each bin's exact sum is the sum of its terms' Fractions, for any sign and size."""
    from analyzer.counting.summary import binned_sums

    rng = np.random.default_rng(11)
    totals = rng.choice([720, 5040, 20160, 60480, 3 * 10**15], size=2000).astype(np.int64)
    numerators = rng.integers(-(2**62), 2**62, size=2000, dtype=np.int64)
    raw = rng.integers(-9, 12, size=2000)
    keys, index = np.unique(raw, return_inverse=True)
    found = binned_sums(keys, index, numerators, totals, 7)
    for key in keys.tolist():
        terms = [(int(n), int(t)) for n, t, k in zip(numerators, totals, raw, strict=True) if k == key]
        assert found[key].value() == sum((Fraction(n, 7 * t) for n, t in terms), Fraction(0))
    objects = binned_sums(keys, index, numerators.astype(object), totals.astype(object), 7)
    assert {k: v.value() for k, v in objects.items()} == {k: v.value() for k, v in found.items()}


def test_the_exact_mean_by_count_sums_to_every_coup() -> None:
    """The bins' exact sums add up to the exact sum of every coup, merged over chunks and
    workers alike, and agree with the display floats."""
    one = evaluate_systems(*D7, Procedure(shoe=Shoe.decks(8)), shoes=30, seed=4)[0]
    many = evaluate_systems(*D7, Procedure(shoe=Shoe.decks(8)), shoes=30, seed=4, chunk=7)[0]
    values = one.by_count_values
    assert sum(n for n, _ in values.values()) == one.coups
    assert sum((ev for _, ev in values.values()), Fraction(0)) == one.expectation_all
    assert values == many.by_count_values
    for k, (n, ev) in values.items():
        assert abs(float(ev) - one.by_count[k][1]) < 1e-9 * max(1, n)


def test_a_study_without_exact_bins_refuses_its_exact_means_by_count() -> None:
    """Par sheets skip the exact sums by count (they show none): asking for them is an error,
    never a silent zero."""
    [found] = evaluate_systems(*D7, Procedure(shoe=Shoe.decks(8)), shoes=3, seed=4, exact_bins=False)
    assert found.by_count and not found.by_count_exact
    with pytest.raises(ValueError, match="no exact sums by count"):
        assert found.by_count_values is None  # never reached: the property raises


def test_sums_by_shoe_size_equal_the_sums_by_total() -> None:
    from math import perm

    from analyzer.counting.summary import binned_sums, distinct_values

    rng = np.random.default_rng(11)
    sizes = rng.integers(14, 417, size=3000)
    totals = np.array([perm(int(n), 6) for n in sizes], dtype=np.int64)
    numerators = rng.integers(-(2**62), 2**62, size=3000, dtype=np.int64)
    floors = rng.integers(-40, 40, size=3000)
    keys, index = distinct_values(floors)
    assert keys.tolist() == sorted(set(floors.tolist())) and (keys[index] == floors).all()
    wide = np.array([-(2**40), 3, 2**40, 3])  # a range too wide to count: sorted instead
    assert [v.tolist() for v in distinct_values(wide)] == [[-(2**40), 3, 2**40], [0, 1, 2, 1]]
    by_size = binned_sums(keys, index, numerators, totals, 7, sizes)
    by_total = binned_sums(keys, index, numerators, totals, 7)
    assert list(by_size) == list(by_total) == keys.tolist()
    for key in keys.tolist():  # the same dicts, in the same order, each sum exact
        assert list(by_size[key].by_total.items()) == list(by_total[key].by_total.items())
        terms = [(int(n), int(t)) for n, t, f in zip(numerators, totals, floors, strict=True) if f == key]
        assert by_size[key].value() == sum((Fraction(n, 7 * t) for n, t in terms), Fraction(0))
    whole, merged = ExactSum(), ExactSum()
    whole.add(numerators, totals, 7, sizes)
    for part in np.array_split(np.arange(3000), 3):
        merged.merge(_added(numerators[part], totals[part], sizes[part]))
    assert merged.value() == whole.value() == sum((s.value() for s in by_size.values()), Fraction(0))


def _added(numerators: np.ndarray, totals: np.ndarray, sizes: np.ndarray) -> ExactSum:
    total = ExactSum()
    total.add(numerators, totals, 7, sizes)
    return total
