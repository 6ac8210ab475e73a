"""Chemin de fer as a two-person zero-sum game, solved exactly.

The Player draws on 0-4 and stands on 6-7 by custom (from the rules' Punto tableau) and is
free on 5; naturals end the coup; the Banker is free at every decision. Payoff per unit
staked, to the Banker: +1 (or 1 - commission) on a Banker win, -1 on a Player win, 0 on a
tie. With a commission the real game is not zero-sum; we solve the zero-sum game on the
Banker's net result, whose value is what the Banker can guarantee.

Method (see `analyzer.games.chemin_graph`): the Banker's expectation is bilinear in the two sides'
behaviour strategies, V(x, q) = sum G[a][b] X_a Q_b. Against a fixed x the Banker's best
reply is separate at each of its sets (draw where the gain of drawing is positive), so the
Player's guaranteed value is convex piecewise-linear in x; likewise for the Banker in q.
Both are minimised exactly by `analyzer.games.lp`, and the solver checks that the two
guarantees are equal (the minimax theorem), which proves both strategies optimal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import lcm, perm

from analyzer.core.errors import AnalyzerError, quoted
from analyzer.core.rules import STANDARD, Rules
from analyzer.core.shoe import Shoe
from analyzer.games.chemin_graph import INFOS, GameForm, InfoKey, InfoModel, game_form
from analyzer.games.common import scaled
from analyzer.games.hands import FREE_TOTAL, HANDS
from analyzer.games.lp import Piece, PiecewiseLinear, minimize

__all__ = [
    "MODELS",
    "CheminSolution",
    "CustomPlay",
    "ScaledGrid",
    "banker_best_value",
    "banker_gains",
    "expectation",
    "player_best_value",
    "player_gains",
    "solve_chemin",
    "tableau_strategy",
]

Grid = list[list[Fraction]]

#: Information models and how the report names them.
MODELS = {
    InfoModel.HANDS: "each side sees its own two cards (Ethier and Gamez's model 3)",
    InfoModel.BANKER_HANDS: (
        "the Banker sees its two cards, the Player its total (Downton and Lockwood's model 2)"
    ),
    InfoModel.TOTALS: "each side sees only its own total (Kemeny and Snell's model 1)",
}


# -- the bilinear form ------------------------------------------------------------------


#: A grid as integer numerators over one positive denominator (`GameForm.payoff_numerators`):
#: the functions below take it in place of a Grid with the same values, and skip the Fractions.
ScaledGrid = tuple[list[list[int]], int]


def _scaled_grid(grid: Grid | ScaledGrid) -> ScaledGrid:
    """`grid` as integer numerators over one common denominator: (numerators, it)."""
    if isinstance(grid, tuple):
        return grid
    scale = lcm(*(g.denominator for row in grid for g in row))
    return [[g.numerator * (scale // g.denominator) for g in row] for row in grid], scale


def expectation(grid: Grid | ScaledGrid, x: Sequence[Fraction], q: Sequence[Fraction]) -> Fraction:
    """V(x, q): the Banker's expectation per unit staked for draw probabilities x and q."""
    (xs, x_scale), (qs, q_scale) = scaled([*x, Fraction(1)]), scaled([*q, Fraction(1)])
    rows, scale = _scaled_grid(grid)
    total = sum(
        xa * sum(g * qb for g, qb in zip(row, qs, strict=True)) for row, xa in zip(rows, xs, strict=True)
    )
    return Fraction(total, scale * x_scale * q_scale)


def _banker_numerators(grid: Grid | ScaledGrid, x: Sequence[Fraction]) -> tuple[list[int], int]:
    """V(x, q)'s column sums against x (each Banker set's gain, then the all-stand value last)
    as integer numerators over one denominator: (numerators, it)."""
    xs, x_scale = scaled([*x, Fraction(1)])
    rows, scale = _scaled_grid(grid)
    sums = [0] * len(rows[0])
    for row, xa in zip(rows, xs, strict=True):
        if xa:
            sums = [s + g * xa for s, g in zip(sums, row, strict=True)]
    return sums, scale * x_scale


def _player_numerators(grid: Grid | ScaledGrid, q: Sequence[Fraction]) -> tuple[list[int], int]:
    """V(x, q)'s row sums against q (each free Player set's gain, then the all-stand value
    last) as integer numerators over one denominator: (numerators, it)."""
    qs, q_scale = scaled([*q, Fraction(1)])
    rows, scale = _scaled_grid(grid)
    return [sum(g * qb for g, qb in zip(row, qs, strict=True)) for row in rows], scale * q_scale


def banker_gains(grid: Grid | ScaledGrid, x: Sequence[Fraction]) -> list[Fraction]:
    """For each Banker set, what drawing there adds to V(x, q) over standing (per unit staked)."""
    sums, scale = _banker_numerators(grid, x)
    return [Fraction(s, scale) for s in sums[:-1]]


def player_gains(grid: Grid | ScaledGrid, q: Sequence[Fraction]) -> list[Fraction]:
    """For each free Player set, what drawing there adds to V(x, q) over standing."""
    sums, scale = _player_numerators(grid, q)
    return [Fraction(s, scale) for s in sums[:-1]]


def banker_best_value(grid: Grid | ScaledGrid, x: Sequence[Fraction]) -> Fraction:
    """The most the Banker can get against x: the payoff of its best pure reply."""
    sums, scale = _banker_numerators(grid, x)
    return Fraction(sums[-1] + sum(max(0, s) for s in sums[:-1]), scale)


def player_best_value(grid: Grid | ScaledGrid, q: Sequence[Fraction]) -> Fraction:
    """The least the Player can hold the Banker to against q: its best pure reply's payoff."""
    sums, scale = _player_numerators(grid, q)
    return Fraction(sums[-1] + sum(min(0, s) for s in sums[:-1]), scale)


def tableau_strategy(form: GameForm) -> list[Fraction]:
    """The Banker's draw probability at each set under the punto banco tableau of `form.rules`."""
    q = []
    for _, seen, v in form.banker_sets:
        total = seen if isinstance(seen, int) else sum(seen) % 10
        q.append(Fraction(int(form.rules.banker_draws_on(total, v))))
    return q


# -- solving ------------------------------------------------------------------------------


@dataclass(frozen=True)
class CustomPlay:
    """The Banker's expectation per unit staked when custom is kept: by one side (the other
    replying best) or by both (punto banco's rules)."""

    player_always_draws_on_5: Fraction
    player_always_stands_on_5: Fraction
    banker_follows_tableau: Fraction
    both_follow_custom: Fraction


@dataclass(frozen=True)
class CheminSolution:
    """An exact solution of chemin de fer on one shoe, in one information model.

    - `value`: the Banker's expectation per unit staked under optimal play (the game value).
    - `player` / `banker`: optimal draw probability at each free set (keys from the tree).
    - `contested`: Banker sets whose best action depends on the Player's play on 5; every
      other set has an action that is best against every Player strategy.
    - `five_weights`: P(Player set | two-card total 5, no natural), for averaging `player`.
    - `custom`: values when one side keeps to custom and the other plays its best reply.
    - `unreachable`: Banker sets the shoe can never deal (they keep the tableau's action).
    """

    shoe: Shoe
    rules: Rules
    info: InfoModel
    commission: Fraction
    value: Fraction
    player: dict[InfoKey, Fraction]
    banker: dict[InfoKey, Fraction]
    contested: tuple[InfoKey, ...]
    five_weights: dict[InfoKey, Fraction]
    custom: CustomPlay
    tableau_reply: dict[InfoKey, Fraction]
    unreachable: frozenset[InfoKey] = frozenset()  # Banker sets this shoe can never deal

    @property
    def draw_on_five(self) -> Fraction:
        """P(the Player draws | two-card total 5, no natural)."""
        return sum((self.five_weights[k] * p for k, p in self.player.items()), Fraction(0))

    def player_draw_probability(self) -> dict[str, Fraction]:
        """Draw probability by Player total, from custom and the solution on FREE_TOTAL."""
        totals = [t for t in range(10) if not self.rules.is_natural(t)]
        return {
            str(t): self.draw_on_five if t == FREE_TOTAL else Fraction(int(self.rules.player_draws_on(t)))
            for t in totals
        }

    def grid(self) -> Grid:
        return game_form(self.shoe, self.rules, self.info).payoff(self.commission)


def default_info(shoe: Shoe) -> InfoModel:
    """Kemeny and Snell's totals model for the infinite deck; hands for finite shoes."""
    return InfoModel.TOTALS if shoe.is_infinite else InfoModel.HANDS


def solve_chemin(
    shoe: Shoe | None = None,
    rules: Rules = STANDARD,
    commission: Fraction | int = 0,
    info: InfoModel | str | None = None,
) -> CheminSolution:
    """Solve chemin de fer exactly (default: 6 decks, each side seeing its own two cards)."""
    shoe = Shoe.decks(6) if shoe is None else shoe
    if info is None:
        model = default_info(shoe)
    elif info in INFOS:
        model = InfoModel(info)
    else:
        raise AnalyzerError(f"information model {quoted(info)}: use one of {', '.join(INFOS)}")
    return _solve(shoe, rules, Fraction(commission), model)


@lru_cache(maxsize=16)
def _solve(shoe: Shoe, rules: Rules, commission: Fraction, info: InfoModel) -> CheminSolution:
    if FREE_TOTAL in range(rules.natural, 10):
        raise AnalyzerError(
            f"rules {quoted(rules.name)}: a total of {FREE_TOTAL} is a natural, so no one chooses"
        )
    form = game_form(shoe, rules, info)
    grid = form.payoff(commission)
    n_p, n_b = len(form.player_sets), len(form.banker_sets)
    five_weights = _five_weights(shoe, rules, form.player_sets)
    if not five_weights:
        raise AnalyzerError(
            f"shoe {shoe}: the Player never holds {FREE_TOTAL} without a natural on either side, "
            "so no one chooses"
        )
    gains = [Piece(grid[n_p][i], tuple(grid[h][i] for h in range(n_p))) for i in range(n_b)]
    # The Player: minimise the Banker's best-reply value over x in [0, 1]^n_p.
    player_value, x = minimize(
        PiecewiseLinear(grid[n_p][n_b], tuple(row[n_b] for row in grid[:n_p]), tuple(gains))
    )
    # The Banker: fix every set whose gain keeps one sign for all x, then solve for the rest.
    tableau = tableau_strategy(form)
    q: list[Fraction] = []
    contested = []
    for i, piece in enumerate(gains):
        low, high = piece.low(), piece.high()
        if low == high == 0:
            q.append(tableau[i])  # drawing and standing are worth the same whatever x is
        elif low >= 0:
            q.append(Fraction(1))
        elif high <= 0:
            q.append(Fraction(0))
        else:
            q.append(Fraction(0))
            contested.append(i)
    ints, scale = form.payoff_numerators(commission)  # the grid's values, without the Fractions
    # q is 0 or 1 at every set so far: each row's value with the fixed sets' q.
    base = [
        Fraction(row[n_b] + sum(g for g, qi in zip(row[:n_b], q, strict=True) if qi), scale) for row in ints
    ]
    banker_func = PiecewiseLinear(
        -base[n_p],
        tuple(-grid[n_p][i] for i in contested),
        tuple(Piece(-base[h], tuple(-grid[h][i] for i in contested)) for h in range(n_p)),
    )
    banker_min, mix = minimize(banker_func)
    for i, p in zip(contested, mix, strict=True):
        q[i] = p
    banker_value = -banker_min
    numerators = (ints, scale)
    # The check that makes the pair a solution: each guarantees the same value.
    if not (
        player_value == banker_value == banker_best_value(numerators, x) == player_best_value(numerators, q)
    ):
        raise ArithmeticError("chemin de fer: the two guarantees differ; the solution is wrong")
    ones, zeros = [Fraction(1)] * n_p, [Fraction(0)] * n_p
    reply = [
        Fraction(int(g < 0)) for g in player_gains(numerators, tableau)
    ]  # the Player draws where it lowers V
    custom = CustomPlay(
        player_always_draws_on_5=banker_best_value(numerators, ones),
        player_always_stands_on_5=banker_best_value(numerators, zeros),
        banker_follows_tableau=player_best_value(numerators, tableau),
        both_follow_custom=expectation(numerators, ones, tableau),
    )
    return CheminSolution(
        shoe=shoe,
        rules=rules,
        info=info,
        commission=commission,
        value=player_value,
        player=dict(zip(form.player_sets, x, strict=True)),
        banker=dict(zip(form.banker_sets, q, strict=True)),
        contested=tuple(form.banker_sets[i] for i in contested),
        five_weights=five_weights,
        custom=custom,
        tableau_reply=dict(zip(form.player_sets, reply, strict=True)),
        unreachable=frozenset(k for k, w in zip(form.banker_sets, form.reach, strict=True) if w == 0),
    )


def _five_weights(shoe: Shoe, rules: Rules, sets: Sequence[InfoKey]) -> dict[InfoKey, Fraction]:
    """P(the Player's set | its two-card total is FREE_TOTAL and no one has a natural); empty
    when that never happens with this shoe."""
    counts = [4] + [1] * 9 if shoe.counts is None else list(shoe.value_counts())
    falling = (lambda c, j: c**j) if shoe.counts is None else perm

    def weight(cards: tuple[int, ...]) -> int:
        used = [cards.count(v) for v in range(10)]
        w = 1
        for v in range(10):
            w *= falling(counts[v], used[v])
        return w

    by_hand: dict[tuple[int, int], int] = {}
    for ph in HANDS:
        if sum(ph) % 10 != FREE_TOTAL:
            continue
        orders = 1 if ph[0] == ph[1] else 2
        by_hand[ph] = sum(
            orders * (1 if bh[0] == bh[1] else 2) * weight(ph + bh)
            for bh in HANDS
            if not rules.is_natural(sum(bh) % 10)
        )
    total = sum(by_hand.values())
    result: dict[InfoKey, Fraction] = {}
    if total == 0:
        return result
    for key in sets:
        seen = key[1]
        share = by_hand.get(seen, 0) if isinstance(seen, tuple) else total
        result[key] = Fraction(share, total)
    return result
