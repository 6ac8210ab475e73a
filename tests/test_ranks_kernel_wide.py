"""The kernel beyond int64 with primes below 2**41 (analyzer.ranks.kernel_wide) is exact:
every numerator is the exact integer path's (and the small primes' kernel's and the numpy
paths'), from 6 cards to 10**6 decks, on lopsided shoes and on both sides of every bound
where the number of primes changes; one prime fewer, or chunks longer than the proof
allows, give wrong numerators (so these tests can fail); layouts outside the proof's bounds
take the small primes. Skipped without numba."""

from __future__ import annotations

from math import perm, prod

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from sympy import isprime

from analyzer.core.shoe import MAX_DECKS
from analyzer.ranks import kernel, kernel_wide
from analyzer.ranks.fast import FastEvaluator
from analyzer.ranks.kernel import FusedForm
from analyzer.ranks.kernel_modular import entry_columns
from tests.test_ranks_kernel import DECKS, SETS, composition, evaluator, exact_numerators, numpy_numerators

pytest.importorskip("numba")

LOPSIDED = [
    [4 * MAX_DECKS] + [0] * 12,  # one value: every card an ace
    [1] * 9 + [4 * MAX_DECKS] * 4,  # tens nearly all the cards
    [0] * 9 + [4 * 10**4] * 4,  # tens only
    [4 * 10**4] + [1] * 12,
    [5 * 10**4] * 9 + [3] * 4,  # no tens to speak of
]


@pytest.fixture(autouse=True)
def kernel_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """On and loaded, taken for any batch."""
    monkeypatch.setenv("BACCARAT_KERNEL", "always")
    kernel.warm()


def fused(ev: FastEvaluator) -> FusedForm:
    form = ev._fused()
    assert form is not None
    return form


def bound_of(ev: FastEvaluator, counts: np.ndarray) -> int:
    """The evaluator's bound on a batch's numerators: its largest shoe's sequences times the
    largest payoff."""
    return perm(int(counts.sum(axis=1).max()), 6) * ev._largest_payoff


def check(ev: FastEvaluator, rows: list[list[int]]) -> np.ndarray:
    """The wide kernel's numerators of `rows` in one batch, checked against the exact path and
    the small primes' kernel, and each row alone against the batch."""
    counts = np.array(rows, dtype=np.int64)
    form, bound = fused(ev), bound_of(ev, counts)
    assert kernel_wide.moduli_for(bound) is not None
    got = form.evaluate_beyond(counts, bound)
    assert got is not None and got.dtype == object
    assert form._wide is not None and form._wide.usable  # the wide kernel's, not the fallback's
    assert (got == form.evaluate_wide(counts, bound)).all()
    for row, shoe in enumerate(rows):
        assert [int(x) for x in got[row]] == exact_numerators(ev, shoe)
        alone = form.evaluate_beyond(counts[row : row + 1], perm(sum(shoe), 6) * ev._largest_payoff)
        assert alone is not None and (alone[0] == got[row]).all()
    return got


@settings(max_examples=30, deadline=None)
@given(rows=st.lists(DECKS.flatmap(composition), min_size=1, max_size=4), which=st.sampled_from(list(SETS)))
@example(rows=[[0, 0, 0, 6] + [0] * 9], which="all")  # 6 cards: one prime
@example(rows=LOPSIDED, which="main")
@example(rows=LOPSIDED, which="all")
def test_the_wide_kernel_equals_the_exact_path(rows: list[list[int]], which: str) -> None:
    """Any shoe, 6 cards to 10**6 decks, lopsided ones among them: the exact numerators."""
    check(evaluator(which), rows)


@pytest.mark.parametrize("which", ["main", "all", "dragon7"])
def test_shoes_either_side_of_each_change_in_the_number_of_primes(which: str) -> None:
    """For each k, the largest shoe whose bound k primes pin and the next one (k + 1
    primes), evenly and lopsidedly composed: the exact numerators."""
    ev = evaluator(which)
    payoff = ev._largest_payoff
    for k in range(1, 5):
        limit = prod(kernel_wide.MODULI[:k]) // 4
        low, high = 6, 52 * MAX_DECKS + 1
        while high - low > 1:  # the largest shoe within the limit
            middle = (low + high) // 2
            low, high = (middle, high) if perm(middle, 6) * payoff <= limit else (low, middle)
        if low >= 52 * MAX_DECKS:
            continue
        for cards in (low, low + 1):
            even = [cards // 13 + (i < cards % 13) for i in range(13)]
            lopsided = [cards - 12] + [1] * 12
            assert kernel_wide.moduli_for(perm(cards, 6) * payoff) == (k if cards == low else k + 1)
            for shoe in (even, lopsided):
                check(ev, [shoe])


def test_one_prime_fewer_gives_wrong_numerators(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bound matters: with one prime fewer than `moduli_for` asks, numerators of big shoes
    come out wrong (so the exactness tests above can fail)."""
    ev = evaluator("main")
    counts = np.array([[4 * 10**4] * 13, [4 * 10**6 - 1] + [4 * 10**6] * 12], dtype=np.int64)
    exact = [exact_numerators(ev, row) for row in counts.tolist()]
    form, bound = fused(ev), bound_of(ev, counts)
    right = form.evaluate_beyond(counts, bound)
    assert right is not None and right.tolist() == exact
    fewer = kernel_wide.moduli_for(bound)
    assert fewer is not None
    monkeypatch.setattr(kernel, "wide_moduli_for", lambda bound: fewer - 1)
    wrong = form.evaluate_beyond(counts, bound)
    assert wrong is not None and wrong.tolist() != exact


def largest_sum(terms: kernel_wide.WideTerms) -> int:
    """The largest sum of |coefficients| a column's sum takes in between two reductions of it,
    walked as the kernel walks the layout: each group's sums start at 0, a chunk flagged
    reduces its columns before its entries, and the group's end reduces them all."""
    group_chunk, _, chunk_start, chunk_cols, chunk_reduce, _, coef = terms.layout
    largest = 0
    for g in range(len(group_chunk) - 1):
        since: dict[int, int] = {}
        for chunk in range(int(group_chunk[g]), int(group_chunk[g + 1])):
            cols = [int(c) for c in chunk_cols[chunk] if c >= 0]
            rows = np.abs(coef[chunk_start[chunk] : chunk_start[chunk + 1]]).astype(np.int64)
            for j, col in enumerate(cols):
                since[col] = (0 if chunk_reduce[chunk] else since.get(col, 0)) + int(rows[:, j].sum())
                largest = max(largest, since[col])
    return largest


def test_chunks_stay_within_the_proof_and_a_looser_span_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every column's sum of |coefficients| between two reductions is within `_SPAN`, so
    its sums of products within 2**53, and the numerators of 10**4-deck shoes are exact;
    built with a looser span (2**20) the same walk finds sums past 2**53 / R (random signs
    keep real sums far below the worst case, so the walk, not the values, shows it)."""
    ev = evaluator("all")
    form = fused(ev)
    rng = np.random.default_rng(3)
    counts = rng.multivariate_hypergeometric([4 * 10**4] * 13, 40 * 10**4, size=6)
    exact = [exact_numerators(ev, row) for row in counts.tolist()]
    form._wide = None
    got = form.evaluate_beyond(counts, bound_of(ev, counts))
    assert got is not None and got.tolist() == exact
    assert form._wide is not None
    assert (1 + largest_sum(form._wide)) * kernel_wide._RESIDUE <= 2**53
    assert form._wide.layout[4].any()  # some sum reduced inside its group (all 19 bets)
    monkeypatch.setattr(kernel_wide, "_SPAN", 2**20)
    form._wide = None
    try:
        form.evaluate_beyond(counts[:1], bound_of(ev, counts))
        assert (1 + largest_sum(form._wide)) * kernel_wide._RESIDUE > 2**53
    finally:
        form._wide = None  # rebuilt with the proof's chunks on next use


@pytest.mark.parametrize("which", ["main", "all", "dragon7"])
def test_the_sets_hold_each_term_once_in_its_column(which: str) -> None:
    """`_sets` lays out every (group, part, column) term of the layout once, with its
    coefficient, in a block of one to four increasing columns, and nothing else (no zero
    coefficient within a block's width); the 8 bets' layout has blocks of every width and
    of columns apart (so the kernel test below runs every loop)."""
    form = fused(evaluator(which))
    coef, _, _, runs = form._signed_terms()
    group, col = entry_columns(*runs[:3])
    terms = {(int(g), int(p), int(c)): int(v) for g, p, c, v in zip(group, runs[3], col, coef, strict=True)}
    assert len(terms) == len(coef) and 0 not in terms.values()
    group_block, block_start, block_cols, parts, coefs = kernel_wide._sets(coef, *runs)
    laid: dict[tuple[int, int, int], int] = {}
    widths = set()
    for g in range(len(group_block) - 1):
        for block in range(int(group_block[g]), int(group_block[g + 1])):
            cols = [int(c) for c in block_cols[block] if c >= 0]
            assert cols == sorted(set(cols)) and cols == [int(c) for c in block_cols[block][: len(cols)]]
            widths.add((len(cols), cols[-1] - cols[0] + 1 > len(cols)))
            for e in range(int(block_start[block]), int(block_start[block + 1])):
                assert (coefs[e, len(cols) :] == 0).all() and (coefs[e, : len(cols)] != 0).all()
                for j, col in enumerate(cols):
                    key = (g, int(parts[e]), col)
                    assert key not in laid
                    laid[key] = int(coefs[e, j])
    assert laid == terms
    if which == "main":
        assert {width for width, _ in widths} == {1, 2, 3, 4} and any(apart for _, apart in widths)


def test_a_term_in_the_wrong_column_or_dropped_is_caught() -> None:
    """The 8 bets at 10**4 and 10**6 decks: the exact numerators; with one chunk's column
    moved to another column of its group, or one entry's coefficient dropped, numerators
    come out wrong (so the exactness tests catch a sum in the wrong column or a lost term)."""
    ev = evaluator("main")
    form = fused(ev)
    rng = np.random.default_rng(12)
    counts = np.vstack(
        [rng.multivariate_hypergeometric([4 * decks] * 13, 30 * decks, size=2) for decks in (10**4, 10**6)]
    )
    exact = [exact_numerators(ev, row) for row in counts.tolist()]
    form._wide = None
    assert (got := form.evaluate_beyond(counts, bound_of(ev, counts))) is not None and got.tolist() == exact
    terms = form._wide
    assert terms is not None
    group_chunk, group_cols, chunk_start, chunk_cols, chunk_reduce, entry_node, coef = terms.layout
    moved, dropped = chunk_cols.copy(), coef.copy()
    chunk = int(np.flatnonzero(chunk_cols[:, 1] < 0)[0])  # a one-column chunk: to another of its group's
    group = int(np.searchsorted(group_chunk, chunk, side="right")) - 1
    moved[chunk, 0] = next(int(c) for c in np.flatnonzero(group_cols[group]) if c != chunk_cols[chunk, 0])
    dropped[chunk_start[-1] // 2, 0] = 0.0  # every entry's first coefficient is a term's
    chunks = (group_chunk, group_cols, chunk_start)
    try:
        for layout in (
            (*chunks, moved, chunk_reduce, entry_node, coef),
            (*chunks, chunk_cols, chunk_reduce, entry_node, dropped),
        ):
            terms.layout = layout
            wrong = form.evaluate_beyond(counts, bound_of(ev, counts))
            assert wrong is not None and all(w != e for w, e in zip(wrong.tolist(), exact, strict=True))
    finally:
        form._wide = None


def test_layouts_outside_the_bounds_take_the_small_primes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A coefficient past `_SPAN` makes a layout unusable; `evaluate_beyond` then gives
    `evaluate_wide`'s numerators (the small primes' kernel), and so past the wide primes and
    for counts outside the proof's (a shoe of `CARDS` cards or more, a negative count)."""
    huge = kernel_wide.WideTerms(
        np.array([kernel_wide._SPAN + 1]), np.ones((1, 1), dtype=np.int64), np.ones(1, dtype=np.int64),
        (np.array([0, 1]), np.array([0, 1]), np.array([0]), np.array([0])),
        (np.array([[0, 0, 0, 0, 0, 1]]), np.array([[0, 0, 0, 0, 0, 1]]), *np.zeros((3, 1), dtype=np.int64)),
    )  # fmt: skip
    assert not huge.usable
    ev = evaluator("main")
    form = fused(ev)
    counts = np.array([[4 * 10**4] * 13], dtype=np.int64)
    calls: list[int] = []
    wide = form.evaluate_wide
    monkeypatch.setattr(form, "evaluate_wide", lambda c, b: calls.append(b) or wide(c, b))
    form.evaluate_beyond(counts, bound_of(ev, counts))
    assert not calls
    monkeypatch.setattr(form, "_wide", huge)
    got = form.evaluate_beyond(counts, bound_of(ev, counts))
    assert calls and got is not None and got.tolist() == [exact_numerators(ev, counts[0].tolist())]
    past = prod(kernel_wide.MODULI) // 4 + 1
    assert kernel_wide.moduli_for(past) is None and form.evaluate_beyond(counts, past) is None
    monkeypatch.setattr(form, "_wide", None)
    calls.clear()
    for shoe in ([kernel_wide.CARDS // 13 + 1] * 13, [-1] + [4 * 10**4] * 12):  # outside the proof's counts
        rows = np.array([shoe, [4 * 10**4] * 13], dtype=np.int64)
        bound = perm(int(np.abs(rows).sum(axis=1).max()), 6) * ev._largest_payoff
        got = form.evaluate_beyond(rows, bound)
        assert calls[-1:] == [bound] and got is not None and (got == wide(rows, bound)).all()


@pytest.mark.parametrize("which", ["main", "all"])
def test_the_evaluator_beyond_int64_equals_the_numpy_paths(
    which: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Batches of 10**4- and 10**6-deck shoes through `FastEvaluator.expectations` (the wide
    kernel): the numpy paths' numerators, and the exact path's on a row."""
    ev = evaluator(which)
    rng = np.random.default_rng(11)
    for decks in (10**4, 10**6):
        counts = rng.multivariate_hypergeometric([4 * decks] * 13, 30 * decks, size=300)
        numerators, totals = ev.expectations(counts)
        assert numerators.dtype == object and totals.dtype == object
        assert (numerators == numpy_numerators(ev, counts, monkeypatch)).all()
        assert [int(x) for x in numerators[7]] == exact_numerators(ev, counts[7].tolist())


def test_the_moduli_and_the_bounds_of_the_proof() -> None:
    """Distinct primes between 2**40 and 2**41; the fewest whose product is at least 4 *
    bound; R covers the proof's p/2 + 2**34 + 2**31 and (1 + _SPAN) R is within 2**53 (a
    chunk of at least 4,000 in sum |coefficient|: the shipped layouts' largest is 3,228);
    three primes pin 10**4 decks of the main bets, four the largest shoe."""
    assert all(2**40 < p < 2**41 and isprime(p) for p in kernel_wide.MODULI)
    assert len(set(kernel_wide.MODULI)) == len(kernel_wide.MODULI)
    for bound in (1, 2**39, 2**63, 2**100, 2**120, 2**161):
        used = kernel_wide.moduli_for(bound)
        assert used is not None
        assert prod(kernel_wide.MODULI[:used]) >= 4 * bound > prod(kernel_wide.MODULI[: used - 1])
    # the proof's bounds: |h - q p| < p/2 + 2**34 and |l| <= 2**31 make R; a chunk's sum stays exact
    assert max(kernel_wide.MODULI) / 2 + 2**34 + 2**31 <= kernel_wide._RESIDUE
    assert (1 + kernel_wide._SPAN) * kernel_wide._RESIDUE <= 2**53 and kernel_wide._SPAN >= 4_000
    payoff = evaluator("main")._largest_payoff
    assert kernel_wide.moduli_for(perm(52 * 10**4, 6) * payoff) == 3
    assert kernel_wide.moduli_for(perm(52 * MAX_DECKS, 6) * payoff) == 4


def test_the_fused_multiply_add_rounds_once() -> None:
    """`fma` compiled is LLVM's fused multiply-add: a * b less its rounded product, exactly."""
    numba = kernel.import_numba()
    kernel_wide.install()
    low = numba.njit(lambda a, b: kernel_wide.fma(a, b, -(a * b)))
    a = float(2**27 + 1)
    assert low(a, a) == 1.0 and low(3.0, 5.0) == 0.0
