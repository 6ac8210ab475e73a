"""Closed forms in the number of decks: each bet's result probabilities and house edge as
exact rational functions of d, derived from the compiled coup classes with sympy.

With d decks every value 1-9 has 4d cards, the ten-valued ranks 16d (4d of each rank) and
the shoe 52d. Each basis monomial of `analyzer.ranks.enumeration.compile_rules` is then a
polynomial in d of degree 6 (a product of falling factorials, with S2 = 4 (4d)_2 and
Q = S2**2 - 4 (4d)_2**2 + 4 (4d)_4 for the ten-valued pair kinds), so an outcome's weight
is an integer polynomial in d and its probability that polynomial over (52d)_6.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache

import numpy as np
import sympy as sp  # type: ignore[import-untyped,unused-ignore]

from analyzer.core.bets import Bet
from analyzer.core.conventions import check_arguments
from analyzer.core.outcome import CARDS_PER_COUP
from analyzer.core.rules import STANDARD, Rules
from analyzer.ranks.enumeration import compile_rules

__all__ = [
    "MAIN_BETS",
    "ClosedForm",
    "D",
    "closed_forms",
    "derived_outcome_polynomials",
    "evaluate",
    "to_fraction",
]

#: The bets `closed-form` and the closed-forms report give by default.
MAIN_BETS = ("banker", "player", "tie")

#: The number of decks, the variable of every closed form: a plain symbol (no assumptions),
#: so `expr.subs(sympy.Symbol("d"), 8)` substitutes as `expr.subs(D, 8)` does.
D = sp.Symbol("d")


@dataclass(frozen=True)
class ClosedForm:
    """One bet's figures as functions of the number of decks `D`.

    - `results`: (line label, probability) for each line of the paytable, then
      "any other outcome" (the stake is lost) when it can happen.
    - `house_edge`: minus the bettor's expectation per unit bet (pushes count as bets).
    - `*_limit`: the infinite-deck limits, exact rationals.
    """

    bet: Bet
    rules: Rules
    results: tuple[tuple[str, sp.Expr], ...]
    house_edge: sp.Expr
    results_limit: tuple[tuple[str, sp.Rational], ...]
    house_edge_limit: sp.Rational

    def __repr__(self) -> str:
        return f"ClosedForm({self.bet.name}: house edge {self.house_edge_limit} as d -> oo)"


def _falling(x: sp.Expr, j: int) -> sp.Expr:
    """The falling factorial (x)_j = x (x-1) ... (x-j+1)."""
    return sp.prod([x - i for i in range(j)]) if j > 0 else sp.Integer(1)


@cache
def _ten_factor(kind: int, j: int) -> sp.Poly:
    """The ten-valued factor of pair kind `kind` with j ten-valued cards, for d decks."""
    tens = 16 * D
    if kind == 0:
        expr = _falling(tens, j)
    else:
        pair = _falling(4 * D, 2)
        s2 = 4 * pair
        if kind == 1:
            expr = s2 * _falling(tens - 2, j - 2) if j >= 2 else sp.Integer(0)
        else:
            q = s2**2 - 4 * pair**2 + 4 * _falling(4 * D, 4)
            expr = q * _falling(tens - 4, j - 4) if j >= 4 else sp.Integer(0)
    return sp.Poly(sp.expand(expr), D)


@cache
def _monomial(kind: int, m0: int, others: tuple[int, ...], cards: int) -> tuple[int, ...]:
    """Integer coefficients (constant term first) of one basis monomial as a polynomial in d."""
    poly = _ten_factor(kind, m0)
    for m in others:
        poly = poly * sp.Poly(sp.expand(_falling(4 * D, m)), D)
    poly = poly * sp.Poly(sp.expand(_falling(52 * D - cards, CARDS_PER_COUP - cards)), D)
    coeffs = [int(c) for c in reversed(poly.all_coeffs())]
    return tuple(coeffs + [0] * (CARDS_PER_COUP + 1 - len(coeffs)))


@lru_cache(maxsize=8)
def _outcome_polynomials(rules: Rules) -> tuple[tuple[int, ...], ...]:
    """Weight of each outcome of the coup classes of `rules` as integer coefficients in d
    (constant term first), once per rules, shared by every bet: for a built-in tableau the
    shipped polynomials (`analyzer.ranks.polynomials`, as `distribution` reads them; the same
    integers, which the tests check against `derived_outcome_polynomials`), else derived."""
    from analyzer.ranks.coupstore import stored_classes
    from analyzer.ranks.polynomials import outcome_polynomials

    shipped = outcome_polynomials(rules)
    if shipped is not None and shipped.matches(stored_classes(rules)):
        return tuple(zip(*shipped.powers, strict=True))
    return derived_outcome_polynomials(rules)


def derived_outcome_polynomials(rules: Rules) -> tuple[tuple[int, ...], ...]:
    """`_outcome_polynomials` derived here from the coup classes' basis monomials as
    polynomials in d (sympy), not read from the shipped files."""
    classes = compile_rules(rules)
    basis = classes.basis.tolist()
    kinds = classes.basis_zero_kind.tolist()
    cards = classes.basis_cards.tolist()
    sums = [[0] * (CARDS_PER_COUP + 1) for _ in classes.outcomes]
    for outcome, b, coef in zip(
        classes.entry_outcome.tolist(), classes.entry_basis.tolist(), classes.entry_coef.tolist(), strict=True
    ):
        m = basis[b]
        key = (kinds[b], m[0], tuple(sorted(v for v in m[1:] if v)), cards[b])
        target = sums[outcome]
        for i, c in enumerate(_monomial(*key)):
            target[i] += coef * c
    return tuple(tuple(s) for s in sums)


def _line_polynomials(bet: Bet, rules: Rules) -> list[list[int]]:
    """Weight of each of the bet's lines (last: no line matched) as integer coefficients in d
    (the outcomes' lines as `analyzer.ranks.lines.line_indexes` settles them: in stored order,
    the order of `compile_rules(rules).outcomes`, each group of alike outcomes once)."""
    from analyzer.ranks.coupstore import stored_classes
    from analyzer.ranks.lines import line_indexes

    lines = line_indexes(bet, stored_classes(rules))
    matrix = _outcome_matrix(rules)
    if matrix is not None:  # summed in int64, exactly (`_outcome_matrix`)
        summed = np.zeros((len(bet.lines) + 1, CARDS_PER_COUP + 1), dtype=np.int64)
        np.add.at(summed, np.asarray(lines, dtype=np.intp), matrix)
        result: list[list[int]] = summed.tolist()
        return result
    sums = [[0] * (CARDS_PER_COUP + 1) for _ in range(len(bet.lines) + 1)]
    for line, weights in zip(lines, _outcome_polynomials(rules), strict=True):
        target = sums[line]
        for i, c in enumerate(weights):
            target[i] += c
    return sums


@lru_cache(maxsize=8)
def _outcome_matrix(rules: Rules) -> np.ndarray | None:
    """`_outcome_polynomials` as an int64 matrix (outcome, power of d), or None when a sum
    of some of them could leave int64: every partial sum is exact when, for each power, the
    absolute values of all outcomes' coefficients sum below 2**63 (for the standard tableau
    below 2**35)."""
    rows = _outcome_polynomials(rules)
    if any(sum(abs(c) for c in column) >= 2**63 for column in zip(*rows, strict=True)):
        return None
    return np.array(rows, dtype=np.int64).reshape(len(rows), CARDS_PER_COUP + 1)


def _as_expr(coefficients: Sequence[int]) -> sp.Expr:
    return sp.Add(*(c * D**i for i, c in enumerate(coefficients)))


def closed_forms(bets: Sequence[Bet], rules: Rules = STANDARD) -> list[ClosedForm]:
    """Each bet's result probabilities and house edge as simplified rational functions of d.

    >>> from analyzer import get_bet
    >>> from analyzer.analyses.closed_form import closed_forms, evaluate
    >>> [pair] = closed_forms([get_bet("player-pair")])
    >>> pair.house_edge, pair.house_edge_limit, evaluate(pair.house_edge, 8)
    ((4*d + 11)/(52*d - 1), 1/13, Fraction(43, 415))
    """
    check_arguments("closed_forms()", bets=bets, rules=rules)
    return [_closed_form(bet, rules) for bet in bets]


@lru_cache(maxsize=256)
def _closed_form(bet: Bet, rules: Rules) -> ClosedForm:
    """One bet's closed form (cached per bet and rules: a report asks for some twice).

    The infinite-deck limits are the leading coefficients' ratios: every weight has degree
    at most 6 in d and the total (52d)_6 leading coefficient 52**6."""
    total = _total()
    polys = _line_polynomials(bet, rules)
    labels = [line.describe() for line in bet.lines] + ["any other outcome"]
    pays = [line.payout for line in bet.lines] + [Fraction(-1)]
    results, limits = [], []
    edge_numerator = sp.Integer(0)
    edge_limit = Fraction(0)
    for label, coefficients, pay in zip(labels, polys, pays, strict=True):
        if label == "any other outcome" and not any(coefficients):
            continue
        weight, lead = _as_expr(coefficients), Fraction(coefficients[-1], 52**CARDS_PER_COUP)
        results.append((label, _share(tuple(coefficients))))
        limits.append((label, sp.Rational(lead.numerator, lead.denominator)))
        if pay is not None:
            edge_numerator -= sp.Rational(pay.numerator, pay.denominator) * weight
            edge_limit -= pay * lead
    edge = _simplified(sp.expand(edge_numerator) / total)
    limit = sp.Rational(edge_limit.numerator, edge_limit.denominator)
    return ClosedForm(bet, rules, tuple(results), edge, tuple(limits), limit)


@lru_cache(maxsize=1024)
def _share(coefficients: tuple[int, ...]) -> sp.Expr:
    """The weight of these coefficients over the total, simplified; once per weight (bets
    share lines: 61 lines of the 19 rank-level bets are 37 weights)."""
    return _simplified(_as_expr(coefficients) / _total())


def _simplified(ratio: sp.Expr) -> sp.Expr:
    """A ratio of integer (or rational) polynomials in d in lowest terms, factored: sympy's
    `factor` alone, which factors the numerator and the denominator into their canonical
    primitive factors, so that the common ones cancel in the product and the contents leave
    one rational coefficient: the same expression as `factor(cancel(ratio))` (checked on
    every built-in bet and tableau, and on random ratios), without cancel's own gcd pass,
    a third of the closed forms' time."""
    return sp.factor(ratio)


@cache
def _total() -> sp.Expr:
    """(52d)_6 expanded: the ordered 6-card sequences of d decks."""
    return sp.expand(_falling(52 * D, CARDS_PER_COUP))


def evaluate(expr: sp.Expr, decks: int) -> Fraction:
    """`expr` at d = `decks`, as an exact Fraction."""
    return to_fraction(expr.subs(D, decks))


def to_fraction(value: sp.Expr) -> Fraction:
    """A rational sympy value as an exact Fraction."""
    rational = sp.Rational(value)
    return Fraction(int(rational.p), int(rational.q))
