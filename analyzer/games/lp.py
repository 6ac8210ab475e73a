"""Exact linear programming for the game solvers: a bounded-variable simplex in Fractions.

Both sides of the games here reduce to small LPs:

- `minimize`: a convex piecewise-linear function on the unit cube (or the unit simplex),
  f(y) = f0 + f . y + sum_k max(0, a_k + b_k . y). A side's guaranteed payoff has this form,
  because the other side's best reply is separate at each of its information sets.
- `maximin`: max over y in the cube of min over rows of c_k + d_k . y, with the optimal
  weights on the rows (the LP's dual) as the other side's optimal mixture.

The simplex keeps box bounds implicit (a variable rests at either bound), so the tableau has
one row per constraint only, and uses Bland's rule. Everything is exact; each function
checks its answer by evaluating the objective at the returned point. (sympy's exact
`linprog` was tried first: it took minutes on banque's 62-column problem and can stop with
"Oscillating system" on small degenerate ones. The tests compare this simplex with vertex
enumeration and with its own dual.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

try:  # optional: gmpy2's rationals are much faster on the large numbers of big shoes
    from gmpy2 import mpq as _mpq
except ImportError:  # pragma: no cover - depends on the environment
    _mpq = None

__all__ = ["Piece", "PiecewiseLinear", "gmpy2_available", "maximin", "minimize", "simplex"]

Bound = Fraction | None  # None: no bound


@dataclass(frozen=True)
class Piece:
    """max(0, a + b . y)."""

    a: Fraction
    b: tuple[Fraction, ...]

    def at(self, y: Sequence[Fraction]) -> Fraction:
        return self.a + sum((bi * yi for bi, yi in zip(self.b, y, strict=True)), Fraction(0))

    def low(self) -> Fraction:
        """Minimum of a + b . y on the unit cube."""
        return sum((bi for bi in self.b if bi < 0), self.a)

    def high(self) -> Fraction:
        """Maximum of a + b . y on the unit cube."""
        return sum((bi for bi in self.b if bi > 0), self.a)


@dataclass(frozen=True)
class PiecewiseLinear:
    """f(y) = f0 + f . y + sum over pieces of max(0, a + b . y)."""

    f0: Fraction
    f: tuple[Fraction, ...]
    pieces: tuple[Piece, ...]

    def __call__(self, y: Sequence[Fraction]) -> Fraction:
        linear = self.f0 + sum((fi * yi for fi, yi in zip(self.f, y, strict=True)), Fraction(0))
        return linear + sum((max(Fraction(0), piece.at(y)) for piece in self.pieces), Fraction(0))


def gmpy2_available() -> bool:
    """True when gmpy2 is installed: `simplex` then does its arithmetic in gmpy2.mpq."""
    return _mpq is not None


def simplex(
    cost: Sequence[Fraction],
    rows: Sequence[Sequence[Fraction]],
    rhs: Sequence[Fraction],
    lower: Sequence[Bound],
    upper: Sequence[Bound],
    basis: Sequence[int],
    fast: bool | None = None,
) -> tuple[list[Fraction], list[Fraction]]:
    """Minimise cost . x subject to rows . x = rhs and lower <= x <= upper, exactly.

    `basis` names one column per row whose submatrix is invertible and which, with every
    other variable at a finite bound (its lower bound), gives a feasible start; variables
    without a finite bound must be in it. Returns the optimal x and the reduced costs
    (zero on basic columns; for a row's slack column, minus that row's dual value).
    `fast`: do the arithmetic in gmpy2.mpq (None: when gmpy2 is installed); the result is
    the same Fractions either way, only faster on large numbers.
    """
    number: Callable[[Any], Any] = Fraction
    if fast or (fast is None and _mpq is not None):
        if _mpq is None:
            raise ArithmeticError("simplex: fast=True needs gmpy2: pip install '.[fast]' (in the project)")
        number = _mpq
    x, reduced = _simplex(
        [number(c) for c in cost],
        [[number(v) for v in row] for row in rows],
        [number(v) for v in rhs],
        [None if lo is None else number(lo) for lo in lower],
        [None if hi is None else number(hi) for hi in upper],
        basis,
        number(0),
    )
    return [_fraction(v) for v in x], [_fraction(v) for v in reduced]


def _fraction(value: Any) -> Fraction:
    """A Fraction from a Fraction or a gmpy2.mpq."""
    return value if isinstance(value, Fraction) else Fraction(int(value.numerator), int(value.denominator))


# The simplex proper works on whichever exact rationals it is given (Fraction or gmpy2.mpq):
# every value below is one of them, so its lists are typed Any.


def _simplex(
    cost: list[Any],
    tab: list[list[Any]],
    rhs: list[Any],
    lower: list[Any],
    upper: list[Any],
    basis: Sequence[int],
    zero: Any,
) -> tuple[list[Any], list[Any]]:
    m, n = len(tab), len(cost)
    x: list[Any] = [lo if lo is not None else zero for lo in lower]
    b = [
        v - sum((row[j] * x[j] for j in range(n) if j not in basis), zero)
        for row, v in zip(tab, rhs, strict=True)
    ]
    order = list(basis)
    for r, j in enumerate(order):  # Gauss-Jordan on the starting basis
        p = next(i for i in range(r, m) if tab[i][j] != 0)
        tab[r], tab[p], b[r], b[p] = tab[p], tab[r], b[p], b[r]
        _pivot(tab, b, r, j)
    for r, j in enumerate(order):
        x[j] = b[r]
        lo, hi = lower[j], upper[j]
        if (lo is not None and x[j] < lo) or (hi is not None and x[j] > hi):
            raise ArithmeticError("simplex: the starting basis is not feasible")
    basic = set(order)
    reduced: list[Any] = []
    while True:
        if not reduced:  # reduced costs change only when the basis does
            reduced = [cost[j] - sum((cost[order[r]] * tab[r][j] for r in range(m)), zero) for j in range(n)]
        entering, direction = None, 0
        for j in range(n):  # Bland: the first improving column
            if j in basic:
                continue
            lo, hi = lower[j], upper[j]
            if reduced[j] < 0 and (hi is None or x[j] < hi):
                entering, direction = j, 1
                break
            if reduced[j] > 0 and (lo is None or x[j] > lo):
                entering, direction = j, -1
                break
        if entering is None:
            return x, [zero if j in basic else reduced[j] for j in range(n)]
        j = entering
        step: Any = None
        lo, hi = lower[j], upper[j]
        if lo is not None and hi is not None:
            step = hi - lo
        leaving, leave_at = None, zero
        for r in range(m):
            rate = -direction * tab[r][j]
            k = order[r]
            lo, hi = lower[k], upper[k]
            if rate < 0 and lo is not None:
                limit, bound = (x[k] - lo) / -rate, lo
            elif rate > 0 and hi is not None:
                limit, bound = (hi - x[k]) / rate, hi
            else:
                continue
            if step is None or limit < step or (limit == step and leaving is not None and k < order[leaving]):
                step, leaving, leave_at = limit, r, bound
        if step is None:
            raise ArithmeticError("simplex: the problem is unbounded")
        x[j] += direction * step
        for r in range(m):
            x[order[r]] -= direction * tab[r][j] * step
        if leaving is None:
            continue  # the entering variable moved to its other bound
        x[order[leaving]] = leave_at
        basic.discard(order[leaving])
        basic.add(j)
        order[leaving] = j
        _pivot(tab, None, leaving, j)
        reduced = []


def _pivot(tab: list[list[Any]], b: list[Any] | None, r: int, j: int) -> None:
    """Make column j the unit vector of row r (b is updated along, when given)."""
    inv = 1 / tab[r][j]
    tab[r] = [v * inv for v in tab[r]]
    if b is not None:
        b[r] *= inv
    for i, row in enumerate(tab):
        factor = row[j]
        if i == r or factor == 0:
            continue
        pivot_row = tab[r]
        tab[i] = [v - factor * pv for v, pv in zip(row, pivot_row, strict=True)]
        if b is not None:
            b[i] -= factor * b[r]


def minimize(
    func: PiecewiseLinear, on_simplex: bool = False, fast: bool | None = None
) -> tuple[Fraction, tuple[Fraction, ...]]:
    """The exact minimum of `func` on [0, 1]^n (with `on_simplex`: also sum y <= 1) and a
    minimiser (`fast`: as for `simplex`). Pieces that keep one sign on the cube are folded
    into the linear part first (valid on the simplex too, which lies in the cube)."""
    n = len(func.f)
    f0, f = func.f0, list(func.f)
    contested = []
    for piece in func.pieces:
        if piece.high() <= 0:
            continue
        if piece.low() >= 0:
            f0 += piece.a
            f = [fi + bi for fi, bi in zip(f, piece.b, strict=True)]
            continue
        contested.append(piece)
    k = len(contested)
    # Columns: y (n), t (k), slacks (k, plus one for the simplex row).
    # Rows: b_j . y - t_j + s_j = -a_j ; sum y + s = 1.
    extra = 1 if on_simplex else 0
    width = n + 2 * k + extra
    rows, rhs, basis = [], [], []
    for j, piece in enumerate(contested):
        row = [*piece.b, *([Fraction(0)] * (k + k + extra))]
        row[n + j] = Fraction(-1)
        row[n + k + j] = Fraction(1)
        rows.append(row)
        rhs.append(-piece.a)
        basis.append(n + j if piece.a > 0 else n + k + j)  # y = 0: t_j = max(0, a_j)
    if on_simplex:
        rows.append([Fraction(1)] * n + [Fraction(0)] * (2 * k) + [Fraction(1)])
        rhs.append(Fraction(1))
        basis.append(width - 1)
    cost = [*f, *([Fraction(1)] * k), *([Fraction(0)] * (k + extra))]
    lower: list[Bound] = [Fraction(0)] * width
    upper: list[Bound] = [Fraction(1)] * n + [None] * (width - n)
    x, _ = simplex(cost, rows, rhs, lower, upper, basis, fast)
    y = tuple(x[:n])
    value = func(y)
    if value != f0 + sum((fi * yi for fi, yi in zip(f, y, strict=True)), Fraction(0)) + sum(x[n : n + k]):
        raise ArithmeticError("minimize: the LP optimum and the function disagree")
    return value, y


def maximin(
    rows: Sequence[tuple[Fraction, Sequence[Fraction]]], fast: bool | None = None
) -> tuple[Fraction, tuple[Fraction, ...], tuple[Fraction, ...]]:
    """max over y in [0, 1]^n of min over rows (c, d) of c + d . y, exactly.

    Returns the value, a maximiser y, and optimal weights on the rows (non-negative, summing
    to 1: the dual, i.e. the opponent's optimal mixture over the rows).
    """
    m, n = len(rows), len(rows[0][1])
    # Columns: y (n), t (free), slacks (m). Rows: t - d_k . y + s_k = c_k. Minimise -t.
    table, rhs = [], []
    for k, (c, d) in enumerate(rows):
        row = [-Fraction(di) for di in d] + [Fraction(1)] + [Fraction(0)] * m
        row[n + 1 + k] = Fraction(1)
        table.append(row)
        rhs.append(Fraction(c))
    first = min(range(m), key=lambda k: rows[k][0])  # y = 0: t = the smallest c
    basis = [n + 1 + k for k in range(m)]
    basis[first] = n
    cost = [Fraction(0)] * n + [Fraction(-1)] + [Fraction(0)] * m
    lower: list[Bound] = [Fraction(0)] * n + [None] + [Fraction(0)] * m
    upper: list[Bound] = [Fraction(1)] * n + [None] + [None] * m
    x, reduced = simplex(cost, table, rhs, lower, upper, basis, fast)
    y = tuple(x[:n])
    weights = tuple(reduced[n + 1 + k] for k in range(m))
    value = min(
        Fraction(c) + sum((Fraction(di) * yi for di, yi in zip(d, y, strict=True)), Fraction(0))
        for c, d in rows
    )
    if value != x[n] or sum(weights) != 1 or min(weights) < 0:
        raise ArithmeticError("maximin: the LP optimum is inconsistent")
    return value, y, weights
