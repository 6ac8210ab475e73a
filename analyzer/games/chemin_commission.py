"""Casino chemin de fer: a commission on Banker wins makes it a bimatrix game; every Nash
equilibrium, exactly.

Model (Ethier and Lee's Model B2, Downton and Lockwood's model): cards are dealt without
replacement from the shoe; the Banker sees his two cards and the Player's third card (or
that he stood); the Player knows only his total, so his one free choice is to draw or stand
on 5 (draw with probability p). Payoffs per unit staked: on a Banker win the Banker gets
1 - commission and the Player loses 1; on a Player win the Player gets 1 and the Banker
loses 1; ties push. The commission goes to the house, so the game is not zero-sum.

Method. Both payoffs are bilinear in (p, q), q the Banker's draw probability at each of his
information sets (`analyzer.games.chemin_graph`). Against p the Banker's gain from drawing at
set i is linear, g_i(p) = a_i p + b_i, so his best reply is set by set and constant in p
between the breakpoints -b_i / a_i. The Player's gain from drawing on 5 is linear in q. An
equilibrium is a p with a Banker best reply q against which p is a Player best reply: at each
breakpoint and endpoint of [0, 1] the sets with g_i(p) = 0 are free and the Player's
indifference (or, at p = 0 or 1, his preference) is a linear condition on them; between
breakpoints the best reply is pure and the Player must be indifferent along the whole
interval. Every candidate is then checked as mutual best responses. All in Fractions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import pairwise, product

import sympy

from analyzer.core.errors import AnalyzerError, quoted
from analyzer.core.rules import STANDARD, Rules
from analyzer.core.shoe import Shoe
from analyzer.games.chemin import (
    ScaledGrid,
    banker_best_value,
    expectation,
    player_best_value,
    tableau_strategy,
)
from analyzer.games.chemin_graph import InfoKey, InfoModel, game_form
from analyzer.games.hands import FREE_TOTAL

__all__ = [
    "MAX_COMMISSION",
    "MODEL",
    "CommissionGame",
    "Equilibrium",
    "Switch",
    "commission_switches",
    "is_equilibrium",
    "solve_commission",
]

#: The information model of the bimatrix game (Ethier and Lee's Model B2).
MODEL = InfoModel.BANKER_HANDS

#: The largest commission the solver accepts (Ethier and Lee study 0 to 10%).
MAX_COMMISSION = Fraction(1, 10)

#: Most free Banker sets at one breakpoint the vertex enumeration accepts.
_MAX_FREE = 12

Grid = list[list[Fraction]]


@dataclass(frozen=True)
class Equilibrium:
    """One Nash equilibrium (an extreme one when they are not unique).

    `draw_on_five`: the Player's probability of drawing on 5; `banker`: the Banker's draw
    probability at each set (the game's `banker_sets` order); `banker_value` and
    `player_value`: each side's expectation per unit staked (the Banker's net of the
    commission).
    """

    draw_on_five: Fraction
    banker: tuple[Fraction, ...]
    banker_value: Fraction
    player_value: Fraction

    @property
    def house_take(self) -> Fraction:
        """What the commission takes per unit staked: -(banker_value + player_value)."""
        return -(self.banker_value + self.player_value)


@dataclass(frozen=True)
class CommissionGame:
    """Every Nash equilibrium of chemin de fer with `commission` on one shoe (Model B2).

    `equilibria` are sorted by the Player's draw probability; when `unique` is False they
    are the extreme points of the equilibrium set (`continuum` names an interval of p on
    which the Player is indifferent under one Banker reply, if there is one).
    """

    shoe: Shoe
    rules: Rules
    commission: Fraction
    banker_sets: tuple[InfoKey, ...]
    unreachable: frozenset[InfoKey]
    equilibria: tuple[Equilibrium, ...]
    continuum: tuple[Fraction, Fraction] | None = None

    @property
    def unique(self) -> bool:
        return len(self.equilibria) == 1 and self.continuum is None

    @property
    def equilibrium(self) -> Equilibrium:
        """The equilibrium (the first extreme one when there are several)."""
        return self.equilibria[0]

    def mixed(self, eq: Equilibrium | None = None) -> dict[InfoKey, Fraction]:
        """The Banker sets where `eq` (default: the first) mixes, with the draw probability."""
        eq = self.equilibrium if eq is None else eq
        return {k: q for k, q in zip(self.banker_sets, eq.banker, strict=True) if 0 < q < 1}


def check_commission(commission: Fraction) -> Fraction:
    """`commission` as a Fraction, or AnalyzerError outside 0 to MAX_COMMISSION."""
    rate = Fraction(commission)
    if not 0 <= rate <= MAX_COMMISSION:
        raise AnalyzerError(
            f"commission {float(rate) * 100:g}%: chemin de fer's bimatrix game takes 0% to "
            f"{float(MAX_COMMISSION) * 100:g}%"
        )
    return rate


def solve_commission(
    shoe: Shoe | None = None, rules: Rules = STANDARD, commission: Fraction | int = Fraction(1, 20)
) -> CommissionGame:
    """Every Nash equilibrium of the bimatrix game (default: 6 decks, 5% commission)."""
    return _solve(Shoe.decks(6) if shoe is None else shoe, rules, check_commission(Fraction(commission)))


def is_equilibrium(
    banker_grid: Grid | ScaledGrid, free_grid: Grid | ScaledGrid, p: Fraction, q: Sequence[Fraction]
) -> bool:
    """True when (p, q) are mutual best responses: neither side gains by any deviation.

    `banker_grid` is the Banker's payoff (with the commission), `free_grid` the
    commission-free one (minus the Player's payoff).
    """
    x = [p]
    banker_ok = banker_best_value(banker_grid, x) == expectation(banker_grid, x, q)
    player_ok = player_best_value(free_grid, q) == expectation(free_grid, x, q)
    return banker_ok and player_ok


@lru_cache(maxsize=32)
def _solve(shoe: Shoe, rules: Rules, commission: Fraction) -> CommissionGame:
    if FREE_TOTAL in range(rules.natural, 10):
        raise AnalyzerError(
            f"rules {quoted(rules.name)}: a total of {FREE_TOTAL} is a natural, so no one chooses"
        )
    form = game_form(shoe, rules, MODEL)
    if not form.player_sets:
        raise AnalyzerError(f"shoe {shoe}: the Player never holds {FREE_TOTAL}, so no one chooses")
    # The grids as integer numerators (`ScaledGrid`): no Fractions.
    banker_grid, free_grid = form.payoff_numerators(commission), form.payoff_numerators(Fraction(0))
    (banker_ints, _), (free_ints, free_scale) = banker_grid, free_grid
    n = len(form.banker_sets)
    lines = _Lines(
        slope=banker_ints[0][:n],
        base=banker_ints[1][:n],
        cost=free_ints[0][:n],
        cost0=free_ints[0][n],
        cost_scale=free_scale,
        tableau=tableau_strategy(form),
    )
    breaks = {Fraction(0), Fraction(1)}
    roots = (Fraction(-b, a) for a, b in zip(lines.slope, lines.base, strict=True) if a)
    breaks |= {root for root in roots if 0 <= root <= 1}
    points = sorted(breaks)
    found: dict[tuple[Fraction, tuple[Fraction, ...]], None] = {}
    continuum = None
    for t in points:
        for q in _at_point(t, lines):
            found[(t, q)] = None
    for lo, hi in pairwise(points):
        mid = (lo + hi) / 2
        qs = _at_point(mid, lines)
        if qs:  # the Player is indifferent all along (lo, hi): a continuum of p
            continuum = (lo, hi)
            for q in qs:
                found[(lo, q)] = found[(hi, q)] = None
    equilibria = []
    for t, q in found:
        if not is_equilibrium(banker_grid, free_grid, t, q):
            raise ArithmeticError("chemin de fer with commission: a candidate is not an equilibrium")
        equilibria.append(
            Equilibrium(
                draw_on_five=t,
                banker=q,
                banker_value=expectation(banker_grid, [t], q),
                player_value=-expectation(free_grid, [t], q),
            )
        )
    if not equilibria:
        raise ArithmeticError("chemin de fer with commission: no equilibrium found")
    return CommissionGame(
        shoe=shoe,
        rules=rules,
        commission=commission,
        banker_sets=form.banker_sets,
        unreachable=frozenset(k for k, w in zip(form.banker_sets, form.reach, strict=True) if w == 0),
        equilibria=tuple(sorted(equilibria, key=lambda e: (e.draw_on_five, e.banker))),
        continuum=continuum,
    )


_ZERO, _ONE = Fraction(0), Fraction(1)


@dataclass(frozen=True)
class _Lines:
    """One game's linear pieces as integers: the Banker's gain from drawing at set i against
    p is (slope_i p + base_i) / scale for some scale > 0; the Player's gain from drawing on 5
    against q is -(cost0 + sum_i cost_i q_i) / cost_scale; `tableau`: each set's tableau q."""

    slope: list[int]
    base: list[int]
    cost: list[int]
    cost0: int
    cost_scale: int
    tableau: list[Fraction]


def _at_point(t: Fraction, lines: _Lines) -> list[tuple[Fraction, ...]]:
    """The Banker best replies q to p = t against which t is a Player best reply (their extreme
    points when there are many)."""
    q: list[Fraction] = []
    free: list[int] = []
    fixed_sum = lines.cost0  # cost0 + the fixed sets' cost_i q_i (q_i is 1, 0, or has cost_i 0)
    t_num, t_den = t.numerator, t.denominator
    for i, (a, b, c) in enumerate(zip(lines.slope, lines.base, lines.cost, strict=True)):
        gain = a * t_num + b * t_den  # the sign of the Banker's gain at p = t
        if gain > 0:
            q.append(_ONE)
            fixed_sum += c
        elif gain < 0:
            q.append(_ZERO)
        elif c:
            free.append(i)
            q.append(_ZERO)
        else:
            q.append(lines.tableau[i])
    if len(free) > _MAX_FREE:
        raise ArithmeticError(f"chemin de fer with commission: {len(free)} free Banker sets at p = {t}")
    fixed = Fraction(-fixed_sum, lines.cost_scale)
    cost = {i: Fraction(lines.cost[i], lines.cost_scale) for i in free}

    def draw_gain(values: Sequence[Fraction]) -> Fraction:
        return fixed - sum((cost[i] * v for i, v in zip(free, values, strict=True)), Fraction(0))

    def player_ok(values: Sequence[Fraction]) -> bool:
        gain = draw_gain(values)
        return gain == 0 or (t == 0 and gain < 0) or (t == 1 and gain > 0)

    vertices: dict[tuple[Fraction, ...], None] = {}
    # Where the Player is indifferent: one free coordinate solves the equation, the others at 0 or 1.
    for j, free_j in enumerate(free):
        for corner in product((Fraction(0), Fraction(1)), repeat=len(free) - 1):
            values = [*corner[:j], Fraction(0), *corner[j:]]
            value = draw_gain(values) / cost[free_j]
            if 0 <= value <= 1:
                values[j] = value
                vertices[tuple(values)] = None
    # At p = 0 or 1 a strict preference is enough: the corners where it holds.
    if t in (0, 1) or not free:
        for corner in product((Fraction(0), Fraction(1)), repeat=len(free)):
            if player_ok(corner):
                vertices[corner] = None
    out = []
    for vertex in vertices:
        if not player_ok(vertex):
            continue
        full = list(q)
        for i, v in zip(free, vertex, strict=True):
            full[i] = v
        out.append(tuple(full))
    return out


@dataclass(frozen=True)
class Switch:
    """A commission strictly between two rates at which the Banker's best action at `cell` flips.

    At exactly that commission the Banker is indifferent at `cell` too, so the equilibria form
    a segment (Ethier and Lee's rare exceptions). `commission` is the exact root (a sympy
    algebraic number, generally irrational) of `polynomial` in the commission `a`.
    """

    cell: InfoKey
    commission: sympy.Expr
    polynomial: sympy.Expr


def commission_switches(
    shoe: Shoe, rules: Rules = STANDARD, low: Fraction = Fraction(0), high: Fraction = MAX_COMMISSION
) -> tuple[Switch, ...]:
    """Every commission in (low, high) where the unique equilibrium's pure part changes.

    The Player's equilibrium p makes the Banker indifferent at his mixed cell m, p = -b_m / a_m
    (a, b: the Banker's gain slope and intercept, linear in the commission); the action at
    another cell i flips where a_m b_i - a_i b_m = 0, a quadratic in the commission. Requires
    the same single mixed cell at both ends.
    """
    ends = [_solve(shoe, rules, check_commission(c)) for c in (low, high)]
    mixed = [list(game.mixed()) for game in ends]
    if not all(game.unique for game in ends) or len(mixed[0]) != 1 or mixed[0] != mixed[1]:
        raise AnalyzerError(
            f"commissions {low} to {high}: the equilibrium's mixed cell changes; use a narrower range"
        )
    form = game_form(shoe, rules, MODEL)
    m = form.banker_sets.index(mixed[0][0])
    rate = sympy.Symbol("a")

    def linear(row: int, i: int) -> tuple[int, int]:
        """The Banker's gain coefficient (1 - a) W - L as (constant, slope in a)."""
        return form.wins[row][i] - form.losses[row][i], -form.wins[row][i]

    switches = []
    for i, key in enumerate(form.banker_sets):
        if i == m or form.reach[i] == 0:
            continue
        (p0, p1), (q0, q1) = linear(0, m), linear(1, i)
        (r0, r1), (s0, s1) = linear(0, i), linear(1, m)
        coeffs = (p1 * q1 - r1 * s1, p0 * q1 + p1 * q0 - r0 * s1 - r1 * s0, p0 * q0 - r0 * s0)
        if not any(coeffs) or not _root_near(coeffs, low, high):
            continue
        poly = sympy.Poly(coeffs, rate)
        for root in poly.real_roots():
            if low < root < high:
                switches.append(Switch(cell=key, commission=root, polynomial=sympy.factor(poly.as_expr())))
    return tuple(sorted(switches, key=lambda sw: float(sw.commission)))


def _root_near(coeffs: tuple[int, int, int], low: Fraction, high: Fraction) -> bool:
    """A quick float screen: may c2 a^2 + c1 a + c0 have a root in [low, high] (with a margin)?"""
    c2, c1, c0 = (float(c) for c in coeffs)
    if c2 == 0:
        roots = [] if c1 == 0 else [-c0 / c1]
    else:
        disc = c1 * c1 - 4 * c2 * c0
        roots = [] if disc < 0 else [(-c1 + sign * disc**0.5) / (2 * c2) for sign in (1, -1)]
    margin = 1e-6
    return any(float(low) - margin <= r <= float(high) + margin for r in roots)
