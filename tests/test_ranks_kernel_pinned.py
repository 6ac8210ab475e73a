"""The pinned valuation kernel (analyzer.ranks.kernel_pinned) is exact: every numerator is
the exact integer path's, each float64 estimate lies within the error bound the kernel
reports, and that bound is at least u / (1 - K u) times the exact sum S of the module's
proof (so the monomial bound holds); compositions it cannot pin are the uint64 kernel's. Skipped
without numba."""

from __future__ import annotations

from fractions import Fraction
from math import perm

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from analyzer.core.rules import Rules
from analyzer.core.shoe import Shoe
from analyzer.ranks import kernel
from analyzer.ranks.compiler import basis_values
from analyzer.ranks.enumeration import compile_rules
from analyzer.ranks.fast import FastEvaluator
from analyzer.ranks.kernel import FusedForm
from analyzer.ranks.kernel_pinned import CARDS, part_trie
from tests.test_ranks_kernel import evaluator, exact_numerators

# Shoes at the bound's edge (the 8 main bets' bound, limit 2**14): lopsided ones of up to
# CARDS cards just within it (2**13.96) and just past it (2**14.2), one far past every
# layout's limit, and one card past CARDS.
EDGE = [
    [45] * 9 + [10] * 4,
    [50] * 9 + [2] * 4,
    [0] * 9 + [114] * 4,
    [CARDS - 12] + [1] * 12,
    [CARDS + 1] + [0] * 12,
]


@pytest.fixture(autouse=True)
def kernel_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """On even when the suite runs with BACCARAT_KERNEL=numpy, and loaded."""
    monkeypatch.delenv("BACCARAT_KERNEL", raising=False)
    kernel.warm()


def fused(ev: FastEvaluator) -> FusedForm:
    """The evaluator's layout for the compiled kernels (they are loaded)."""
    form = ev._fused()
    assert form is not None
    return form


def exact_sums(form: FusedForm, rules: Rules, keep: np.ndarray, counts: list[int]) -> int:
    """S of the module's proof, the largest over the outputs, in Python integers: each
    entry's |C_e| monomial_e times its roundings K_e and |relation|, and the anchor's term."""
    values, _ = basis_values(compile_rules(rules), Shoe.from_counts(counts))
    terms = form._pinned_terms()
    entries = np.abs(form._entry_coef.view(np.int64)).astype(object) * terms.passes.astype(object)
    entries *= values.astype(object)[keep][form._entry_monomial]
    relation, anchor = np.abs(form._relation.view(np.int64)), np.abs(form._anchor.view(np.int64))
    sizes = [
        (form.columns + 1) * int(a) * perm(sum(counts), 6) + int(entries @ r[form._entry_col].astype(object))
        for a, r in zip(anchor, relation, strict=True)
    ]
    return max(sizes)


def ranks(decks: int) -> st.SearchStrategy[list[int]]:
    """Any composition of up to `decks` decks with at least 6 cards left."""
    return st.lists(st.integers(0, 4 * decks), min_size=13, max_size=13).filter(lambda c: sum(c) >= 6)


@settings(max_examples=25, deadline=None)
@given(
    rows=st.lists(st.sampled_from([1, 2, 6, 8]).flatmap(ranks), min_size=1, max_size=6),
    which=st.sampled_from(["dragon7", "main", "all"]),
)
@example(rows=EDGE, which="dragon7")
@example(rows=EDGE, which="main")
@example(rows=EDGE, which="all")
def test_pinned_rows_are_exact_and_their_estimates_within_the_bound(
    rows: list[list[int]], which: str
) -> None:
    pytest.importorskip("numba")
    ev = evaluator(which)
    form = fused(ev)
    counts = np.array(rows, dtype=np.int64)
    pinned, estimates, error = form.pinned(counts)
    got = form.evaluate(counts, 2**62)
    assert got is not None
    limit = form._pinned_terms().limit
    gamma = form._pinned_terms().gamma
    for row, shoe in enumerate(rows):
        exact = exact_numerators(ev, shoe)
        assert [int(x) for x in got[row]] == exact
        if sum(shoe) > CARDS:
            assert error[row] == np.inf
            continue
        assert error[row] >= gamma * exact_sums(form, ev.rules, ev._keep, shoe)
        assert all(
            abs(Fraction(float(e)) - x) <= error[row] for e, x in zip(estimates[row], exact, strict=True)
        )
        if error[row] <= limit:
            assert [int(x) for x in pinned[row]] == exact


def test_the_residues_width_follows_the_bound_and_edge_shoes_come_near_it() -> None:
    """Dragon 7 and the 8 main bets take residues modulo 2**16 (their bound on a full 8-deck
    shoe within 2**14), all 19 bets modulo 2**32; lopsided shoes come just within and just
    past the 2**14 limit, far past every limit, and past CARDS cards (the uint64 kernel's)."""
    pytest.importorskip("numba")
    layouts = [fused(evaluator(which)) for which in ("dragon7", "main", "all")]
    assert [form._pinned_terms().limit for form in layouts] == [2.0**14, 2.0**14, 2.0**30]
    _, _, error = layouts[1].pinned(np.array(EDGE, dtype=np.int64))
    assert 2.0**14 / 1.1 < error[0] <= 2.0**14 < error[1] < 2.0**14 * 1.2
    for form in layouts:
        _, _, error = form.pinned(np.array(EDGE, dtype=np.int64))
        assert form._pinned_terms().limit < error[3] < np.inf == error[4]


def test_rows_it_cannot_pin_are_the_uint64_kernels(monkeypatch: pytest.MonkeyPatch) -> None:
    """Within a batch, the compositions past CARDS cards or past the bound go to the uint64
    kernel, the others not; a batch known to be past CARDS goes to it whole."""
    pytest.importorskip("numba")
    ev = evaluator("main")
    form = fused(ev)
    counts = np.array([[32] * 13, EDGE[1], [4] * 13, EDGE[4]], dtype=np.int64)
    sent: list[int] = []
    wrapped = form._wrapped
    monkeypatch.setattr(form, "_wrapped", lambda rows: sent.append(len(rows)) or wrapped(rows))
    got = form.evaluate(counts, 2**62)
    assert got is not None and sent == [2]
    assert [[int(x) for x in row] for row in got] == [exact_numerators(ev, row) for row in counts.tolist()]
    whole = form.evaluate(counts, 2**62, CARDS + 1)
    assert whole is not None and (whole == got).all() and sent == [2, 4]


def test_each_part_is_one_multiply_from_a_node_before_it() -> None:
    """The trie: node q is table[row[q]] times node parent[q] < q (the ones row when a
    single row), and each part's node multiplies out to exactly its rows."""
    rows = np.array([[5, 9, 0, 0, 0, 2], [5, 0, 0, 0, 0, 1], [5, 9, 12, 0, 0, 3], [7, 9, 12, 0, 0, 3]])
    parent, row, node = part_trie(rows)
    ones = len(parent)
    assert all(p < q or p == ones for q, p in enumerate(parent.tolist()))

    def product(q: int) -> list[int]:
        return [] if q == ones else [*product(int(parent[q])), int(row[q])]

    for part, q in zip(rows, node.tolist(), strict=True):
        assert sorted(product(q)) == sorted(part[: part[5]].tolist())
    assert len(parent) == 6  # the 4 parts and the shorter products 7*9 and 7 of the last
