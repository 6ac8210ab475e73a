"""Baccarat banque (a deux tableaux): one Banker hand against a right and a left side, exact.

Model (every choice stated):

- Three two-card hands are dealt from the shoe (right side, left side, Banker); with the
  third cards a coup uses up to 2 + 2 + 2 + 1 + 1 + 1 = 9 cards.
- A Banker natural ends the coup: both sides are settled on their two cards. A side with a
  natural (and no Banker natural) is settled at once against the Banker's two-card total.
- A side without a natural draws on the tableau's Punto totals (0-4), stands on 6-7 and on
  5 makes a stated choice (draw, stand, or draw with a probability). Each side decides on its
  own cards only (the left side does not condition on the right side's third card).
- The Banker, without a natural, then draws or stands once for both sides, seeing its own
  two cards and each side's state: natural, stood, or the value of its face-up third card.
- Each side settles on its own final total against the Banker's: per unit staked on a side
  the Banker gets +1 (less the commission) on a win, -1 on a loss, 0 on a tie.

Computation: `analyzer.games.banque_table` tabulates the Banker's wins and losses at each
information set; this module finds the Banker's best reply and solves the full game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from analyzer.core.rules import STANDARD, Rules
from analyzer.core.shoe import Shoe
from analyzer.games.banque_table import (
    CARDS,
    NATURAL,
    OBSERVATIONS,
    STOOD,
    BanqueGame,
    banque_game,
    class_coef,
)
from analyzer.games.common import scaled
from analyzer.games.lp import maximin

__all__ = [
    "CARDS",
    "CUSTOMARY_FIVE",
    "NATURAL",
    "OBSERVATIONS",
    "PROFILES",
    "STOOD",
    "BanqueGame",
    "BanqueReply",
    "BanqueSolution",
    "banque_game",
    "banque_reply",
    "profile_value",
    "sides_guarantee",
    "solve_banque",
    "strategy_value",
]

# -- the Banker's best reply and the full game ------------------------------------------------

#: The customary choice on 5 assumed for both sides: draw (the punto banco rule).
CUSTOMARY_FIVE = Fraction(1)

InfoSet = tuple[Any, int, int]  # (Banker key, what it sees of the right side, of the left side)


def _class_weights(x_mine: Fraction, x_other: Fraction) -> list[list[Fraction | int]]:
    """Probability factor of each (class of my history, class of the other side's): integers
    when both sides play purely on 5, so that sums stay in integers."""
    weights = [[class_coef(c1, x_mine) * class_coef(c2, x_other) for c2 in range(3)] for c1 in range(3)]
    if all(w.denominator == 1 for row in weights for w in row):
        return [[int(w) for w in row] for row in weights]
    return weights  # type: ignore[return-value]


@lru_cache(maxsize=8)
def _sets(game: BanqueGame) -> tuple[InfoSet, ...]:
    """The Banker's information sets, in a fixed order (cached: read it, do not change it)."""
    seen = set()
    for key in game.keys:
        for a in (0, 1):
            for o1, o2 in game.right[key][a]:
                seen.add((key, o1, o2))
                seen.add((key, o2, o1))
    return tuple(sorted(seen, key=lambda s: (str(type(s[0])), s)))


@dataclass(frozen=True, eq=False)
class _Cells:
    """Every (Banker key, action, right's observation, left's) cell's 3x3 wins and losses
    combined into one row of numerators (over `game.denominator`; row-major over (class of
    the side's history, class of the other side's)), and where each set finds its cells:
    `right[i][a]` / `left[i][a]` index `nets` for set i and action a, as that side seen as
    mine (len(nets): no cell, worth 0). Combining is linear, so weighting the net row is
    weighting wins and losses and combining them."""

    nets: np.ndarray  # (cells, 9) Python ints
    right: list[tuple[int, int]]
    left: list[tuple[int, int]]


@lru_cache(maxsize=8)
def _cells(game: BanqueGame) -> _Cells:
    on_win, on_loss = game.stakes  # `game.combine`, written out for the tables (in ints)
    index: dict[tuple[Any, int, int, int], int] = {}
    wins: list[list[list[int]]] = []
    losses: list[list[list[int]]] = []
    for key in game.keys:
        for a in (0, 1):
            for (o1, o2), (won, lost) in game.right[key][a].items():
                index[(key, a, o1, o2)] = len(wins)
                wins.append(won)
                losses.append(lost)
    nets = (on_win * np.array(wins, dtype=object) - on_loss * np.array(losses, dtype=object)).reshape(-1, 9)
    none = len(nets)
    sets = _sets(game)
    right = [(index.get((k, 0, o1, o2), none), index.get((k, 1, o1, o2), none)) for k, o1, o2 in sets]
    left = [(index.get((k, 0, o2, o1), none), index.get((k, 1, o2, o1), none)) for k, o1, o2 in sets]
    return _Cells(nets, right, left)


def _weighted(cells: _Cells, weights: list[list[Fraction | int]]) -> list[int | Fraction]:
    """Each cell's numerator weighted by the 3x3 class weights (exact), then 0 for no cell."""
    flat = np.array([w for row in weights for w in row], dtype=object)
    return [*(cells.nets @ flat).tolist(), 0]


Numerator = int | Fraction  # over BanqueGame.denominator


@lru_cache(maxsize=32)
def _values(
    game: BanqueGame, x_right: Fraction, x_left: Fraction
) -> dict[InfoSet, tuple[tuple[Numerator, Numerator], tuple[Numerator, Numerator]]]:
    """At each Banker set: ((right, left) if it stands, (right, left) if it draws), as
    numerators over `game.denominator` (integers when both sides play purely on 5). Cached
    (the report asks for each pure profile up to four times): read it, do not change it."""
    cells = _cells(game)
    right = _weighted(cells, _class_weights(x_right, x_left))
    left = _weighted(cells, _class_weights(x_left, x_right))
    out = {}
    for s, (r0, r1), (l0, l1) in zip(_sets(game), cells.right, cells.left, strict=True):
        stand = (right[r0], left[l0])
        # Both sides naturals: nothing left to play for, the Banker does not draw.
        out[s] = (stand, stand if s[1] == s[2] == NATURAL else (right[r1], left[l1]))
    return out


@dataclass(frozen=True)
class BanqueReply:
    """The Banker's exact best reply to fixed play of the sides on 5 (draw probabilities).

    `draws[set]` is True where drawing is strictly better; `right` / `left` are the Banker's
    expectations per unit staked on each side, `total` their sum (per coup, both stakes).
    """

    shoe: Shoe
    rules: Rules
    commission: Fraction
    five: tuple[Fraction, Fraction]
    draws: dict[InfoSet, bool]
    right: Fraction
    left: Fraction

    @property
    def total(self) -> Fraction:
        return self.right + self.left


def banque_reply(
    game: BanqueGame, five: Fraction = CUSTOMARY_FIVE, five_left: Fraction | None = None
) -> BanqueReply:
    """The Banker's best reply when the sides draw on 5 with probabilities `five` (right) and
    `five_left` (left, default the same)."""
    x_left = five if five_left is None else five_left
    values = _values(game, five, x_left)
    draws = {s: sum(d) > sum(st) for s, (st, d) in values.items()}
    right = game.natural + Fraction(sum(v[draws[s]][0] for s, v in values.items())) / game.denominator
    left = game.natural + Fraction(sum(v[draws[s]][1] for s, v in values.items())) / game.denominator
    return BanqueReply(game.shoe, game.rules, game.commission, (five, x_left), draws, right, left)


#: The sides' pure profiles on 5 in the full game: (right draws, left draws).
PROFILES = ((1, 1), (1, 0), (0, 1), (0, 0))


@dataclass(frozen=True)
class BanqueSolution:
    """The zero-sum game of the Banker against the two sides together, solved exactly.

    The sides choose a joint (possibly correlated) distribution `profile` over PROFILES (each
    side draws or stands on its 5); the Banker a draw probability `banker` at each set. The
    Banker's optimal strategy guarantees `value` per coup (both stakes) against any play of
    the sides on 5, correlated or not; the sides' optimal profile holds it to `value`.
    """

    game: BanqueGame
    value: Fraction
    profile: dict[tuple[int, int], Fraction]
    banker: dict[InfoSet, Fraction]
    contested: tuple[InfoSet, ...]

    @property
    def independent(self) -> bool:
        """True when the optimal profile is a product: the sides need not correlate."""
        p = self.profile
        return p[(1, 1)] * p[(0, 0)] == p[(1, 0)] * p[(0, 1)]

    def side_probabilities(self) -> tuple[Fraction, Fraction]:
        """Each side's marginal probability of drawing on 5."""
        p = self.profile
        return p[(1, 1)] + p[(1, 0)], p[(1, 1)] + p[(0, 1)]


def _profile_values(game: BanqueGame) -> tuple[tuple[InfoSet, ...], list[Fraction], list[list[int]]]:
    """For each pure profile: the value with the Banker standing everywhere, and each set's
    gain from drawing (integer numerators over `game.denominator`)."""
    sets = _sets(game)
    base, gains = [], []
    for xr, xl in PROFILES:
        values = _values(game, Fraction(xr), Fraction(xl))
        stand = sum(sum(values[s][0]) for s in sets)
        base.append(game.natural * 2 + Fraction(stand, game.denominator))
        gains.append([int(sum(values[s][1]) - sum(values[s][0])) for s in sets])
    return sets, base, gains


@lru_cache(maxsize=8)
def solve_banque(
    shoe: Shoe | None = None, rules: Rules = STANDARD, commission: Fraction = Fraction(0)
) -> BanqueSolution:
    """Solve the Banker-against-both-sides game on `shoe` (default: the infinite deck)."""
    game = banque_game(Shoe.infinite() if shoe is None else shoe, rules, commission)
    sets, base, gains = _profile_values(game)
    # The Banker: fix sets whose gain has one sign under every profile, solve for the rest
    # (max over q of the minimum over the sides' pure profiles); the LP's dual gives the
    # sides' optimal mixture over the profiles.
    q, contested = [], []
    for i in range(len(sets)):
        column = [gains[k][i] for k in range(len(PROFILES))]
        q.append(Fraction(int(min(column) >= 0 and max(column) > 0)))
        if min(column) < 0 < max(column):
            contested.append(i)
    rows = []
    den = game.denominator
    for k in range(len(PROFILES)):
        fixed = base[k] + Fraction(sum(gains[k][i] for i in range(len(sets)) if q[i]), den)
        rows.append((fixed, [Fraction(gains[k][i], den) for i in contested]))
    banker_value, mix, weights = maximin(rows)
    for i, p in zip(contested, mix, strict=True):
        q[i] = p
    profile = dict(zip(PROFILES, weights, strict=True))
    side_value = sides_guarantee(game, profile)
    if side_value != banker_value:
        raise ArithmeticError("banque: the two guarantees differ; the solution is wrong")
    return BanqueSolution(
        game=game,
        value=side_value,
        profile=profile,
        banker=dict(zip(sets, q, strict=True)),
        contested=tuple(sets[i] for i in contested),
    )


def strategy_value(
    game: BanqueGame,
    banker: Mapping[InfoSet, Fraction],
    five_right: Fraction = CUSTOMARY_FIVE,
    five_left: Fraction | None = None,
) -> tuple[Fraction, Fraction]:
    """The Banker's expectation per unit on the right and on the left side when it draws with
    probability `banker[set]` (sets left out: it stands) and the sides draw on 5 with the
    given probabilities."""
    values = _values(game, Fraction(five_right), Fraction(five_right if five_left is None else five_left))
    right, left = Fraction(0), Fraction(0)
    for s, (stand, draw) in values.items():
        q = banker.get(s, Fraction(0))
        right += (1 - q) * stand[0] + q * draw[0]
        left += (1 - q) * stand[1] + q * draw[1]
    return game.natural + right / game.denominator, game.natural + left / game.denominator


def profile_value(game: BanqueGame, profile: tuple[int, int], banker: Mapping[InfoSet, Fraction]) -> Fraction:
    """The Banker's expectation per coup (both stakes) when the sides play a pure `profile`."""
    return sum(strategy_value(game, banker, Fraction(profile[0]), Fraction(profile[1])), Fraction(0))


def sides_guarantee(game: BanqueGame, profile: Mapping[tuple[int, int], Fraction]) -> Fraction:
    """The most the Banker can get per coup against the sides' (possibly correlated) mixture
    `profile` over PROFILES: its best reply, set by set."""
    shares, scale = scaled([Fraction(weight) for weight in profile.values()])  # over one denominator
    best: dict[InfoSet, list[Numerator]] = {}  # (stand, draw), over game.denominator * scale
    for k, share in zip(profile, shares, strict=True):
        if not share:
            continue
        values = _values(game, Fraction(k[0]), Fraction(k[1]))
        for s, (stand, draw) in values.items():
            pair = best.setdefault(s, [0, 0])
            pair[0] += share * sum(stand)
            pair[1] += share * sum(draw)
    total = sum(max(pair) for pair in best.values())
    return 2 * game.natural + Fraction(total) / (game.denominator * scale)
