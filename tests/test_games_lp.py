"""The exact bounded-variable simplex (analyzer.games.lp).

The minimiser is checked against brute-force vertex enumeration (a convex piecewise-linear
function attains its minimum on the cube at a vertex of the arrangement of its pieces'
hyperplanes and the faces), and maximin against its own dual. sympy's exact `linprog` is not
used as the oracle: on such small degenerate problems it can stop with "Oscillating system
led to invalid solution" or cycle.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.games.lp import Piece, PiecewiseLinear, gmpy2_available, maximin, minimize

small = st.integers(min_value=-6, max_value=6).map(Fraction)


@st.composite
def piecewise(draw: st.DrawFn) -> PiecewiseLinear:
    n = draw(st.integers(min_value=1, max_value=3))
    k = draw(st.integers(min_value=0, max_value=5))
    f = tuple(draw(small) for _ in range(n))
    pieces = tuple(Piece(draw(small), tuple(draw(small) for _ in range(n))) for _ in range(k))
    return PiecewiseLinear(draw(small), f, pieces)


def _solve(rows: list[list[Fraction]], rhs: list[Fraction]) -> list[Fraction] | None:
    """The unique solution of a square system, or None (Gauss-Jordan in Fractions)."""
    n = len(rows)
    m = [[*row, b] for row, b in zip(rows, rhs, strict=True)]
    for c in range(n):
        p = next((r for r in range(c, n) if m[r][c] != 0), None)
        if p is None:
            return None
        m[c], m[p] = m[p], m[c]
        m[c] = [v / m[c][c] for v in m[c]]
        for r in range(n):
            if r != c and m[r][c] != 0:
                m[r] = [v - m[r][c] * w for v, w in zip(m[r], m[c], strict=True)]
    return [row[-1] for row in m]


def _vertex_minimum(func: PiecewiseLinear, on_simplex: bool) -> Fraction:
    """Minimum over every vertex of the arrangement: n of the hyperplanes a + b.y = 0, y_i = 0,
    y_i = 1 (and sum y = 1 on the simplex) meeting in one feasible point."""
    n = len(func.f)
    planes = [(list(p.b), -p.a) for p in func.pieces]
    for i in range(n):
        unit = [Fraction(int(j == i)) for j in range(n)]
        planes += [(unit, Fraction(0)), (unit, Fraction(1))]
    if on_simplex:
        planes.append(([Fraction(1)] * n, Fraction(1)))
    best = None
    for chosen in combinations(planes, n):
        y = _solve([row for row, _ in chosen], [b for _, b in chosen])
        if y is None or not all(0 <= v <= 1 for v in y) or (on_simplex and sum(y) > 1):
            continue
        value = func(y)
        best = value if best is None else min(best, value)
    assert best is not None
    return best


@settings(max_examples=100, deadline=None)
@given(piecewise(), st.booleans())
def test_minimize_agrees_with_vertex_enumeration(func: PiecewiseLinear, on_simplex: bool) -> None:
    value, y = minimize(func, on_simplex)
    assert value == func(y)
    assert all(0 <= yi <= 1 for yi in y)
    if on_simplex:
        assert sum(y) <= 1
    assert value == _vertex_minimum(func, on_simplex)


@settings(max_examples=100, deadline=None)
@given(
    st.integers(min_value=1, max_value=4).flatmap(
        lambda n: st.lists(st.tuples(small, st.lists(small, min_size=n, max_size=n)), min_size=1, max_size=4)
    )
)
def test_maximin_and_its_dual(rows: list[tuple[Fraction, list[Fraction]]]) -> None:
    value, y, weights = maximin(rows)
    assert value == min(c + sum(d * yi for d, yi in zip(ds, y, strict=True)) for c, ds in rows)
    # The weights are the opponent's optimal mixture: against it no y does better than the value.
    n = len(rows[0][1])
    best_reply = sum(w * c for w, (c, _) in zip(weights, rows, strict=True)) + sum(
        max(Fraction(0), sum(w * ds[i] for w, (_, ds) in zip(weights, rows, strict=True))) for i in range(n)
    )
    assert best_reply == value
    assert sum(weights) == 1 and min(weights) >= 0


def test_kemeny_snell_shape() -> None:
    """A one-variable problem with a kink at 9/11 is minimised exactly there."""
    pieces = (Piece(Fraction(-9), (Fraction(11),)), Piece(Fraction(9), (Fraction(-11),)))
    func = PiecewiseLinear(Fraction(0), (Fraction(0),), pieces)
    assert minimize(func) == (Fraction(0), (Fraction(9, 11),))


big = st.integers(min_value=-(10**40), max_value=10**40).map(lambda v: Fraction(v, 10**39 + 7))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(big, st.lists(big, min_size=2, max_size=2)), min_size=1, max_size=5), piecewise())
def test_gmpy2_and_fraction_paths_give_identical_results(
    rows: list[tuple[Fraction, list[Fraction]]], func: PiecewiseLinear
) -> None:
    """gmpy2.mpq (the `fast` extra) and Fraction give the same Fractions, on large numbers too."""
    assert gmpy2_available()
    fast, slow = maximin(rows, fast=True), maximin(rows, fast=False)
    assert fast == slow
    assert minimize(func, fast=True) == minimize(func, fast=False)
    assert all(type(v) is Fraction for v in (fast[0], *fast[1], *fast[2], *slow[1]))


def test_banque_is_identical_with_and_without_gmpy2(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole banque game (its LP through `maximin`) on the infinite deck, both ways."""
    from analyzer.core.shoe import Shoe
    from analyzer.games import banque, lp

    with_gmpy2 = banque.solve_banque.__wrapped__(Shoe.infinite())
    monkeypatch.setattr(lp, "_mpq", None)
    assert not gmpy2_available()
    without = banque.solve_banque.__wrapped__(Shoe.infinite())
    assert (with_gmpy2.value, with_gmpy2.profile, with_gmpy2.banker) == (
        without.value,
        without.profile,
        without.banker,
    )
