"""The pinned valuation kernel (analyzer.ranks.kernel_pinned) is exact: every numerator is
the exact integer path's, each float64 estimate lies within the error bound the kernel
reports, and that bound is at least gamma_K times the exact sum S of the module's proof
(so the monomial bound holds); compositions it cannot pin are the uint64 kernel's. Skipped
without numba."""

from __future__ import annotations

from fractions import Fraction
from math import perm

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from analyzer.core.catalogue import RANK_BETS
from analyzer.core.shoe import Shoe
from analyzer.ranks import kernel
from analyzer.ranks.compiler import basis_values
from analyzer.ranks.enumeration import compile_rules
from analyzer.ranks.fast import FastEvaluator
from analyzer.ranks.kernel import FusedForm
from analyzer.ranks.kernel_pinned import CARDS, part_trie
from tests.test_ranks_kernel import evaluator, exact_numerators

SIDE = ["banker", "player", "tie", "dragon7", "panda8", "player-pair", "banker-pair"]
_SIDE: list[FastEvaluator] = []
# Shoes at the bound's edge: lopsided ones of up to CARDS cards whose bound comes within a
# factor 2**0.3 of the uint16 layouts' limit 2**14, and one card past CARDS.
EDGE = [[50] * 9 + [2] * 4, [0] * 9 + [114] * 4, [35] * 13, [CARDS - 12] + [1] * 12, [CARDS + 1] + [0] * 12]


@pytest.fixture(autouse=True)
def kernel_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """On even when the suite runs with BACCARAT_KERNEL=numpy, and loaded."""
    monkeypatch.delenv("BACCARAT_KERNEL", raising=False)
    kernel.warm()


def side() -> FastEvaluator:
    """The banker, player, tie, Dragon 7, Panda 8 and pair bets (residues modulo 2**16)."""
    if not _SIDE:
        _SIDE.append(FastEvaluator([RANK_BETS[name] for name in SIDE]))
    return _SIDE[0]


def fused(ev: FastEvaluator) -> FusedForm:
    """The evaluator's layout for the compiled kernels (they are loaded)."""
    form = ev._fused()
    assert form is not None
    return form


def exact_sums(ev: FastEvaluator, counts: list[int]) -> int:
    """S of the module's proof, the largest over the outputs, in Python integers."""
    values, _ = basis_values(compile_rules(ev.rules), Shoe.from_counts(counts))
    monomials = values.astype(object)[ev._keep]
    coefficients = np.abs((ev.matrix @ ev._lattice).astype(object))
    relation, anchor = np.abs(ev._relation.astype(object)), np.abs(ev._anchor.astype(object))
    total = perm(sum(counts), 6)
    return max(
        int(a * total + r @ (coefficients.T @ monomials)) for a, r in zip(anchor, relation, strict=True)
    )


def ranks(decks: int) -> st.SearchStrategy[list[int]]:
    """Any composition of up to `decks` decks with at least 6 cards left."""
    return st.lists(st.integers(0, 4 * decks), min_size=13, max_size=13).filter(lambda c: sum(c) >= 6)


@settings(max_examples=25, deadline=None)
@given(
    rows=st.lists(st.sampled_from([1, 2, 6, 8]).flatmap(ranks), min_size=1, max_size=6),
    which=st.sampled_from(["dragon7", "side", "main"]),
)
@example(rows=EDGE, which="side")
@example(rows=EDGE, which="dragon7")
@example(rows=EDGE, which="main")
def test_pinned_rows_are_exact_and_their_estimates_within_the_bound(
    rows: list[list[int]], which: str
) -> None:
    pytest.importorskip("numba")
    ev = side() if which == "side" else evaluator(which)
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
        assert error[row] >= gamma * exact_sums(ev, shoe)
        assert all(
            abs(Fraction(float(e)) - x) <= error[row] for e, x in zip(estimates[row], exact, strict=True)
        )
        if error[row] <= limit:
            assert [int(x) for x in pinned[row]] == exact


def test_the_residues_width_follows_the_bound_and_edge_shoes_come_near_it() -> None:
    """Dragon 7 and the side bets take residues modulo 2**16 (their bound on a full 8-deck
    shoe within 2**14), the 8 main bets modulo 2**32; a lopsided shoe comes within a factor
    1.25 of the 2**14 limit, and one past CARDS cards is left to the uint64 kernel."""
    pytest.importorskip("numba")
    assert [fused(ev)._pinned_terms().limit for ev in (side(), evaluator("dragon7"), evaluator("main"))] == [
        2.0**14,
        2.0**14,
        2.0**30,
    ]
    _, _, error = fused(side()).pinned(np.array(EDGE, dtype=np.int64))
    assert 2.0**14 / 1.25 < error[0] <= 2.0**14
    assert error[-1] == np.inf


def test_rows_it_cannot_pin_are_the_uint64_kernels(monkeypatch: pytest.MonkeyPatch) -> None:
    """Within a batch, the compositions past CARDS cards (or past the bound) go to the uint64
    kernel, the others not; a batch known to be past CARDS goes to it whole."""
    pytest.importorskip("numba")
    ev = evaluator("dragon7")
    form = fused(ev)
    counts = np.array([[32] * 13, [CARDS + 1] + [0] * 12, [4] * 13], dtype=np.int64)
    sent: list[int] = []
    wrapped = form._wrapped
    monkeypatch.setattr(form, "_wrapped", lambda rows: sent.append(len(rows)) or wrapped(rows))
    got = form.evaluate(counts, 2**62)
    assert got is not None and sent == [1]
    assert [[int(x) for x in row] for row in got] == [exact_numerators(ev, row) for row in counts.tolist()]
    whole = form.evaluate(counts, 2**62, CARDS + 1)
    assert whole is not None and (whole == got).all() and sent == [1, 3]


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
