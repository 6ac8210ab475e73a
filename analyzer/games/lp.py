"""Exact minimisation of a convex piecewise-linear function on the unit cube (sympy's exact LP).

Both sides of the games here reduce to the same problem: the other side's best reply is
additive over its information sets, so a strategy's guaranteed payoff is

    f(y) = f0 + f . y + sum_k max(0, a_k + b_k . y),    y in [0, 1]^n,

a convex piecewise-linear function. Pieces that keep one sign on the whole cube are folded
into the linear part first; the rest go to `sympy.solvers.simplex.linprog` in rationals.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from sympy import Rational
from sympy.solvers.simplex import linprog

__all__ = ["Piece", "PiecewiseLinear", "minimize"]


@dataclass(frozen=True)
class Piece:
    """max(0, a + b . y)."""

    a: Fraction
    b: tuple[Fraction, ...]

    def at(self, y: Sequence[Fraction]) -> Fraction:
        return self.a + sum((bi * yi for bi, yi in zip(self.b, y, strict=True)), Fraction(0))

    def low(self) -> Fraction:
        """Minimum of a + b . y on the unit cube."""
        return self.a + sum((min(bi, 0) for bi in self.b), Fraction(0))

    def high(self) -> Fraction:
        """Maximum of a + b . y on the unit cube."""
        return self.a + sum((max(bi, 0) for bi in self.b), Fraction(0))


@dataclass(frozen=True)
class PiecewiseLinear:
    """f(y) = f0 + f . y + sum over pieces of max(0, a + b . y)."""

    f0: Fraction
    f: tuple[Fraction, ...]
    pieces: tuple[Piece, ...]

    def __call__(self, y: Sequence[Fraction]) -> Fraction:
        linear = self.f0 + sum((fi * yi for fi, yi in zip(self.f, y, strict=True)), Fraction(0))
        return linear + sum((max(Fraction(0), piece.at(y)) for piece in self.pieces), Fraction(0))


def _rational(value: Fraction) -> Rational:
    return Rational(value.numerator, value.denominator)


def _fraction(value: object) -> Fraction:
    number = Rational(value)
    return Fraction(int(number.p), int(number.q))


def minimize(func: PiecewiseLinear) -> tuple[Fraction, tuple[Fraction, ...]]:
    """The exact minimum of `func` on [0, 1]^n and a minimiser (a vertex of the LP)."""
    n = len(func.f)
    f0, f = func.f0, list(func.f)
    contested = []
    for piece in func.pieces:
        if piece.high() <= 0:
            continue  # max(0, .) = 0 on the whole cube
        if piece.low() >= 0:
            f0 += piece.a  # max(0, .) = the affine function on the whole cube
            f = [fi + bi for fi, bi in zip(f, piece.b, strict=True)]
            continue
        contested.append(piece)
    if n == 0:
        return f0 + sum((max(Fraction(0), p.a) for p in contested), Fraction(0)), ()
    # Variables: y_1..y_n in [0, 1], then t_k >= 0 with t_k >= a_k + b_k . y.
    cost = [_rational(fi) for fi in f] + [Rational(1)] * len(contested)
    rows = [
        [_rational(bi) for bi in p.b]
        + [Rational(-1) if j == k else Rational(0) for j in range(len(contested))]
        for k, p in enumerate(contested)
    ]
    rhs = [_rational(-p.a) for p in contested]
    bounds = [(0, 1)] * n + [(0, None)] * len(contested)
    if rows:
        optimum, point = linprog(cost, rows, rhs, bounds=bounds)
    else:
        optimum, point = linprog(cost, bounds=bounds)
    y = tuple(_fraction(v) for v in point[:n])
    value = f0 + _fraction(optimum)
    if value != func(y):  # the LP's optimum must be the function's value at its point
        raise ArithmeticError("exact LP: optimum and point disagree")
    return value, y
