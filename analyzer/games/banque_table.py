"""Tabulating baccarat banque: the Banker's wins and losses at every information set, exact.

The model is stated in `analyzer.games.banque`.

Computation: the Banker's expectation at each of its information sets, for each action, is
a sum over the side histories of the right side, weighted by the number of ways to deal the
left side's histories from what is left of the shoe (`left_ways` in `_tabulate`, once per set of
removed cards). Integer weights of ordered card sequences, one Fraction per set at the end.
The sides are exchangeable, so the left side's payoff is the right side's with the roles
swapped.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import perm
from typing import Any

import numpy as np

from analyzer.core.errors import AnalyzerError, quoted
from analyzer.core.rules import STANDARD, Rules
from analyzer.core.shoe import INFINITE, Shoe
from analyzer.games.common import need_cards
from analyzer.games.hands import FREE_TOTAL, HANDS, hand_counts

__all__ = [
    "CARDS",
    "FIVE_DRAW",
    "FIVE_STAND",
    "FORCED",
    "MAX_DECKS",
    "NATURAL",
    "OBSERVATIONS",
    "OBS_LABEL",
    "STOOD",
    "BanqueGame",
    "banque_game",
    "class_coef",
]

#: Most cards a coup of banque can use.
CARDS = 9

#: The largest shoe banque is solved on exactly. Beyond it the integers outgrow int64 and the
#: exact tabulation takes minutes; the infinite deck (--decks inf) is the limit such shoes approach.
MAX_DECKS = 100

#: What the Banker sees of a side: the value of its third card (0-9), that it stood, or a natural.
STOOD, NATURAL = 10, 11
OBSERVATIONS = (*range(10), STOOD, NATURAL)
OBS_LABEL = {**{v: str(v) for v in range(10)}, STOOD: "stood", NATURAL: "natural"}

#: Classes of side histories: forced by custom, or a 5 that drew, or a 5 that stood.
FORCED, FIVE_DRAW, FIVE_STAND = 0, 1, 2


def _obs_cards(obs: int) -> int:
    return 3 if obs < 10 else 2


def _compare(side: int, banker: int) -> int:
    """+1 when the Banker wins, -1 when the side wins, 0 on a tie."""
    return (banker > side) - (side > banker)


@dataclass(frozen=True, eq=False)
class _Sides:
    """Every history of one side: cards used, orderings, what the Banker sees, totals, class."""

    cards: np.ndarray  # (n, 10) value counts
    orders: np.ndarray
    obs: np.ndarray
    initial: np.ndarray
    final: np.ndarray
    cls: np.ndarray


@lru_cache(maxsize=8)
def _sides(rules: Rules) -> _Sides:
    rows = []
    for hand in HANDS:
        p = sum(hand) % 10
        orders = 1 if hand[0] == hand[1] else 2
        base = [hand.count(v) for v in range(10)]
        if rules.is_natural(p):
            rows.append((*base, orders, NATURAL, p, p, FORCED))
            continue
        free = p == FREE_TOTAL
        if free or rules.player_draws_on(p):
            for v in range(10):
                cards = list(base)
                cards[v] += 1
                rows.append((*cards, orders, v, p, (p + v) % 10, FIVE_DRAW if free else FORCED))
        if free or not rules.player_draws_on(p):
            rows.append((*base, orders, STOOD, p, p, FIVE_STAND if free else FORCED))
    t = np.array(rows, dtype=np.int64)
    return _Sides(
        cards=t[:, :10], orders=t[:, 10], obs=t[:, 11], initial=t[:, 12], final=t[:, 13], cls=t[:, 14]
    )


def _counts(shoe: Shoe) -> tuple[list[int], int]:
    """Per-value counts and size; the infinite deck as 13 cards drawn with replacement."""
    if shoe.counts is None:
        return [4] + [1] * 9, 13
    return list(shoe.value_counts()), shoe.size


def _falling_table(shoe: Shoe) -> np.ndarray:
    """ff[v, r, j]: ways to draw j cards of value v in order once r such cards are gone
    (0 when fewer than r are in the shoe; for the infinite deck count_v ** j, nothing is
    removed); r <= CARDS and j <= 6, the most one hand-up uses. Its size does not grow with
    the shoe."""
    counts, _ = _counts(shoe)
    ff = np.zeros((10, CARDS + 1, 7), dtype=object)
    for v in range(10):
        for r in range(CARDS + 1):
            for j in range(7):
                if shoe.counts is None:
                    ff[v, r, j] = counts[v] ** j
                elif r <= counts[v]:
                    ff[v, r, j] = perm(counts[v] - r, j)
    small = all(int(x) < 2**62 // 8 for x in ff[:, :, 6].ravel()) and max(counts) ** 6 < 2**58
    return ff.astype(np.int64) if small else ff


@dataclass(frozen=True, eq=False)
class BanqueGame:
    """The Banker's expectation against the right side at every information set, exact.

    `right[key][a]` maps (obs_right, obs_left) to (wins, losses): 3x3 integer tables over the
    sides' classes (FORCED, FIVE_DRAW, FIVE_STAND) of the weight of Banker wins and losses on
    the right side's stake, over histories with that Banker key (its hand, or its total for
    the infinite deck), action a (0 stand, 1 draw) and observations; probabilities are
    weights / `scale` (ordered 9-card sequences; 13**9 for the infinite deck). `natural` is
    the Banker's expectation from one side's stake over the coups where the Banker has a
    natural (no decision).
    """

    shoe: Shoe
    rules: Rules
    commission: Fraction
    keys: tuple[Any, ...]
    right: dict[Any, tuple[dict[tuple[int, int], tuple[list[list[int]], list[list[int]]]], ...]]
    natural: Fraction
    scale: int

    @property
    def denominator(self) -> int:
        """Numerators from `_side_value` are over this: commission denominator x scale."""
        return self.commission.denominator * self.scale

    @property
    def stakes(self) -> tuple[int, int]:
        """(on a win, on a loss): `combine(won, lost)` is the first times won minus the second
        times lost."""
        c = self.commission
        return c.denominator - c.numerator, c.denominator

    def combine(self, won: int | Fraction, lost: int | Fraction) -> int | Fraction:
        """The numerator (over `denominator`) of (1 - commission) won - lost."""
        on_win, on_loss = self.stakes
        return on_win * won - on_loss * lost


def class_coef(cls: int, x: Fraction) -> Fraction:
    """The probability factor of a side history of class `cls` when the side draws on 5 with probability x."""
    return Fraction(1) if cls == FORCED else x if cls == FIVE_DRAW else 1 - x


@lru_cache(maxsize=8)
def banque_game(shoe: Shoe, rules: Rules = STANDARD, commission: Fraction = Fraction(0)) -> BanqueGame:
    """Tabulate banque on `shoe` (exact; about a second for 3 decks)."""
    need_cards(shoe, CARDS, "banque")
    if shoe.counts is not None and shoe.size > 52 * MAX_DECKS:
        raise AnalyzerError(
            f"shoe of {shoe.size:,} cards: banque is solved exactly on at most {52 * MAX_DECKS:,} cards "
            f"({MAX_DECKS} decks); use {INFINITE} for the limit of larger shoes"
        )
    if FREE_TOTAL in range(rules.natural, 10):
        raise AnalyzerError(
            f"rules {quoted(rules.name)}: a total of {FREE_TOTAL} is a natural, so no one chooses"
        )
    sides = _sides(rules)
    counts, size = _counts(shoe)
    infinite = shoe.counts is None
    ff = _falling_table(shoe)
    keep = 1 - commission
    tables = _tabulate(sides, counts, infinite, ff, rules)
    scale = size**CARDS if infinite else perm(size, CARDS)
    # factors[a][i1, i2]: scales a history's weight (its ordered cards) up to `scale`.
    cards = [_obs_cards(o) for o in OBSERVATIONS]
    factors = [
        np.array(
            [
                [scale // (size**k if infinite else perm(size, k)) for k in (2 + c1 + c2 + a for c2 in cards)]
                for c1 in cards
            ],
            dtype=object,
        )[:, :, None, None]
        for a in (0, 1)
    ]
    sums: dict[Any, list[np.ndarray]] = {}  # Banker key -> per action, (wins, losses) stacked
    for (hand, a), table in sorted(tables.items(), key=lambda item: item[0]):
        key = sum(hand) % 10 if infinite else hand
        per_action = sums.setdefault(key, [np.zeros_like(table), np.zeros_like(table)])
        per_action[a] = per_action[a] + factors[a] * table
    right = {key: tuple(_cells(table) for table in per_action) for key, per_action in sums.items()}
    natural = _natural_part(counts, size, infinite, ff, rules, keep)
    return BanqueGame(
        shoe=shoe,
        rules=rules,
        commission=commission,
        keys=tuple(sums),
        right=right,
        natural=natural,
        scale=scale,
    )


def _cells(table: np.ndarray) -> dict[tuple[int, int], tuple[list[list[int]], list[list[int]]]]:
    """`BanqueGame.right`'s map for one key and action from its (wins, losses) table: the
    nonzero (obs_right, obs_left) cells' 3x3 tables as lists (one `tolist` for the table)."""
    wins, losses = table.tolist()
    cells = np.nonzero(table.any(axis=(0, 3, 4)))
    return {
        (OBSERVATIONS[i1], OBSERVATIONS[i2]): (wins[i1][i2], losses[i1][i2])
        for i1, i2 in zip(*(c.tolist() for c in cells), strict=True)
    }


def _remaining_ways(
    ff: np.ndarray, counts: list[int], removed: np.ndarray, cards: np.ndarray, infinite: bool
) -> np.ndarray:
    """(len(removed), len(cards)): ways to deal each row of `cards` in order after `removed`."""
    out = np.ones((len(removed), len(cards)), dtype=ff.dtype)
    for v in range(10):
        gone = np.zeros(len(removed), dtype=np.int64) if infinite else removed[:, v]
        ok = gone <= min(counts[v], CARDS)
        ways = ff[v][np.where(ok, gone, 0)] * ok[:, None]  # (rows, j): j more cards of value v
        out *= np.take(ways, cards[:, v], axis=1)
    return out


#: Place values that give each set of removed cards one integer code (at most CARDS < 10
#: cards of a value are removed).
_DIGITS = 10 ** np.arange(10, dtype=np.int64)


def _weighted_sums(weight: np.ndarray, ways: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Object array (len(starts), columns): for each run of rows from `starts`, the sum of
    weight[r] * ways[r] (exact Python ints). In int64, for nonnegative ones, the weights are
    split into limbs small enough that no partial sum passes 2**62; else object arithmetic."""
    if weight.dtype != object and ways.dtype != object and len(weight) and min(weight.min(), ways.min()) >= 0:
        longest = int(np.max(np.diff(np.append(starts, len(weight)))))
        bits = (2**62 // (max(1, int(np.max(ways))) * longest)).bit_length() - 1
        if bits >= 8:
            total: Any = 0
            rest, shift = weight.copy(), 0
            while True:
                limb = rest & ((1 << bits) - 1)
                part = np.add.reduceat(ways * limb[:, None], starts, axis=0).astype(object)
                total = total + (part << shift)
                rest >>= bits
                shift += bits
                if not rest.any():
                    return np.asarray(total, dtype=object)
    return np.add.reduceat(ways.astype(object) * weight.astype(object)[:, None], starts, axis=0)


def _tabulate(
    sides: _Sides, counts: list[int], infinite: bool, ff: np.ndarray, rules: Rules
) -> dict[tuple[Any, int], np.ndarray]:
    """Integer weights of Banker wins and losses from the right side's stake.

    Keys (Banker hand, action); values object arrays (2, obs_right, obs_left, class_right,
    class_left) of Python ints: [0] the wins, [1] the losses (observations in OBSERVATIONS
    order, classes FORCED, FIVE_DRAW, FIVE_STAND).
    """
    n_groups, n_obs, n = 3 * len(OBSERVATIONS), len(OBSERVATIONS), len(sides.cards)
    group = np.searchsorted(OBSERVATIONS, sides.obs) * 3 + sides.cls  # groups' index of each history
    by_group = np.argsort(group, kind="stable")  # the histories, group by group
    present, starts = np.unique(group[by_group], return_index=True)

    def left_ways(removed: np.ndarray) -> np.ndarray:
        """(rows, groups): ways to deal the left side's histories of each group after `removed`."""
        ways = _remaining_ways(ff, counts, removed, sides.cards, infinite) * sides.orders[None, :]
        out = np.zeros((len(ways), n_groups), dtype=ways.dtype)
        out[:, present] = np.add.reduceat(ways[:, by_group], starts, axis=1)
        return out

    # Each Banker hand's rows: the right side's histories after the hand standing (row block
    # 0) or drawing each third card w (block 1 + w); `removed` is every card dealt before the
    # left side's.
    thirds = np.vstack([np.zeros((1, 10), dtype=np.int64), np.eye(10, dtype=np.int64)])
    hands = [hand for hand in HANDS if not rules.is_natural(sum(hand) % 10)]
    right = sides.cards[None, :, :] + thirds[:, None, :]
    removed = {hand: (right + hand_counts(hand)).reshape(-1, 10) for hand in hands}
    # The left side's ways by group, once per set of removed cards (the infinite deck: one
    # row, nothing is removed), and each row's index into them.
    if infinite:
        table = left_ways(np.zeros((1, 10), dtype=np.int64))
        index = {hand: np.zeros(len(rows), dtype=np.int64) for hand, rows in removed.items()}
    else:
        codes = {hand: rows @ _DIGITS for hand, rows in removed.items()}
        known = np.unique(np.concatenate(list(codes.values())))
        cards = known[:, None] // _DIGITS % 10
        table = np.concatenate([left_ways(cards[i : i + 512]) for i in range(0, len(cards), 512)])
        index = {hand: np.searchsorted(known, code) for hand, code in codes.items()}
    action = np.repeat([0] + [1] * 10, n)  # per row: 0 stand, 1 draw
    tables: dict[tuple[Any, int], np.ndarray] = {}
    for hand in hands:
        b = sum(hand) % 10
        border = 1 if hand[0] == hand[1] else 2
        rows = removed[hand]
        # Ways to deal the Banker's hand, the right side and the Banker's third card.
        weight = _remaining_ways(ff, counts, np.zeros((1, 10), dtype=np.int64), rows, infinite)[0]
        weight = weight * np.tile(sides.orders, 11) * border
        final = np.array([b] + [(b + w) % 10 for w in range(10)])[:, None]
        against = np.where(sides.obs[None, :] == NATURAL, b, final)
        result = np.sign(against - sides.final[None, :]).ravel()  # +1: the Banker wins
        # Segments: (action, Banker wins or loses, right side's group); ties count for neither.
        segment = (action * 2 + (result < 0)) * n_groups + np.tile(group, 11)
        decided = np.flatnonzero(result)
        order = decided[np.argsort(segment[decided], kind="stable")]
        found, first = np.unique(segment[order], return_index=True)
        totals = np.zeros((4 * n_groups, n_groups), dtype=object)
        totals[found] = _weighted_sums(weight[order], table[index[hand][order]], first)
        for a in (0, 1):
            tables[(hand, a)] = np.stack(
                [
                    totals[(2 * a + s) * n_groups : (2 * a + s + 1) * n_groups]
                    .reshape(n_obs, 3, n_obs, 3)
                    .transpose(0, 2, 1, 3)
                    for s in (0, 1)
                ]
            )
    return tables


def _natural_part(
    counts: list[int], size: int, infinite: bool, ff: np.ndarray, rules: Rules, keep: Fraction
) -> Fraction:
    """The Banker's expectation from one side's stake over coups where the Banker has a natural."""
    two = np.array([[h.count(v) for v in range(10)] for h in HANDS], dtype=np.int64)
    orders = np.array([1 if h[0] == h[1] else 2 for h in HANDS], dtype=np.int64)
    totals = [sum(h) % 10 for h in HANDS]
    total = Fraction(0)
    for i, b in enumerate(totals):
        if not rules.is_natural(b):
            continue
        removed = two + two[i][None, :]
        ways = _remaining_ways(ff, counts, np.zeros((1, 10), dtype=np.int64), removed, infinite)[0]
        ways = ways * orders * orders[i]
        other = size**2 if infinite else (size - 4) * (size - 5)  # any two cards for the other side
        for j in range(len(HANDS)):
            r = _compare(totals[j], b)
            total += (keep if r > 0 else 1) * r * int(ways[j]) * other
    return total / (size**6 if infinite else perm(size, 6))
