"""Card-level bets valued from the cards they read: the factored card-level evaluation.

A bet's card-level fields say what they read (`CardField.positions`, `counted`, `within`).
Three shapes of bet are valued without unrolling the coup's rank sequences:

- *hand pairs*: every condition reads the Player's first two cards or the Banker's first two
  (perfect pairs, the Player's first two cards and their suits). A hand's condition values
  split its 52 x 52 first-two card types into a few signatures; the four cards' weight of a
  Player signature and a Banker signature is a sum of quadratic forms in the shoe's card-type
  counts (the Banker's two cards drawn from the shoe less the Player's two).
- *first-four counts*: every condition counts the first four cards of some kinds (Lucky
  Nines): card types that every count treats alike form one class, and the weight of each
  way to deal four cards by class is a product of falling factorials.
- *coup restrictions*: rank-level outcome conditions and conditions on every card of the
  coup lying in a set of card types (the coup's colour, its highest value: Super Tie, Tie
  Max): each such set's weight is the rank-level coup classes evaluated on the shoe's cards
  of that set (with the whole shoe's tails), combined with signs.

Every form gives exact integer line weights in ordered 6-card sequences for (W, 52)
card-type counts, the convention of `analyzer.cards.engine.card_line_weights`, which the
tests check them against. Each proves from the batch's largest shoe, before it computes,
that its int64 values are exact (each value in range, or a result in range of int64
arithmetic modulo 2**64), and takes Python integers where they may not be. Other bets take
the card engine's plans.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from math import factorial, perm, prod
from typing import Any, ClassVar, Protocol

import numpy as np

from analyzer.cards.conditions import Condition, bet_conditions, condition_holds
from analyzer.core.bets import Bet
from analyzer.core.fields import CardRows
from analyzer.core.outcome import CARDS_PER_COUP
from analyzer.core.ranks import RANKS
from analyzer.core.rules import Rules
from analyzer.core.suits import TYPES

__all__ = [
    "FactoredForm",
    "FirstFourCounts",
    "HandPairs",
    "factored_form",
    "factored_weights",
    "restricted_bet",
]

_INT64 = 2**63
_FLOAT_EXACT = 2**53  # float64 integers are exact below this
_FIRST_FOUR = (0, 1, 2, 3)
_HANDS = ((0, 2), (1, 3))  # the Player's and the Banker's first two cards
_MOST_CLASSES = 10  # first-four counts: at most this many classes of card types


class FactoredForm(Protocol):
    """A bet's line weights on batches of shoes, from the cards the bet reads."""

    @property
    def slots(self) -> int:
        """The bet's lines and, last, no line matched."""
        ...

    @property
    def path(self) -> str:
        """The shape's name, as `CardEvaluator.paths` gives it."""
        ...

    def weights(self, types: np.ndarray) -> np.ndarray:
        """(W, slots) exact line weights (last: no line matched) of (W, 52) card-type counts."""
        ...


def _with_tail(head: np.ndarray, sizes: np.ndarray, dealt: int) -> np.ndarray:
    """Weights `head` (W, slots) of the first `dealt` cards times (N - dealt)_(6 - dealt), the
    orderings of the cards that follow: int64 when every (N)_6 fits, else Python ints."""
    largest = int(sizes.max(initial=CARDS_PER_COUP))
    if perm(largest, CARDS_PER_COUP) < _INT64 and head.dtype != object:
        tail = np.ones(len(sizes), dtype=np.int64)
        for k in range(dealt, CARDS_PER_COUP):
            tail *= sizes - k
        return np.asarray(head.astype(np.int64) * tail[:, None])
    tails = np.array([perm(int(n) - dealt, CARDS_PER_COUP - dealt) for n in sizes], dtype=object)
    return np.asarray(head.astype(object) * tails[:, None])


def _first_line(lines: list[list[Condition]], truth: dict[Condition, bool]) -> int:
    """The first line whose every condition holds (len(lines): none)."""
    for index, conds in enumerate(lines):
        if all(truth[c] for c in conds):
            return index
    return len(lines)


@dataclass(frozen=True, eq=False)
class HandPairs:
    """A bet whose conditions each read one hand's first two cards (see the module's text).

    The bet's (52, 52) 0/1 indicators of the first-two card types with each Player signature
    s (P_s) and each Banker signature t (Q_t) enter as `symmetric` (52, 52 k) = [M + M^T]
    over M = P_s, then Q_t, then per line L the Player-Banker coincidence terms
    sum of P_s * K_t over the pairs (s, t) that settle on L, with `diagonals` (k, 52);
    `pairs` lists (s, t, line)."""

    slots: int
    signatures: tuple[int, int]
    path: ClassVar[str] = "hand pairs"
    symmetric: np.ndarray
    diagonals: np.ndarray
    pairs: tuple[tuple[int, int, int], ...]

    def weights(self, types: np.ndarray) -> np.ndarray:
        sizes = types.sum(axis=1)
        largest = int(sizes.max(initial=0))
        # With c the matrices' largest entry and N the largest shoe, an entry of n @ (M + M^T)
        # is at most c N, a quadratic form's double 2 n^T M n and a side's entry at most
        # `bound` = c N**2, every term of `shared` and of a head (all >= 0, the heads at most
        # (N)_4) at most bound**2: float64 is exact while bound**2 < 2**53 (the 8-deck path),
        # int64 while bound < 2**63, the heads' products and sums then modulo 2**64 (exact
        # while (N)_4 < 2**63); Python ints beyond.
        bound = max(int(self.symmetric.max(initial=1)), 1) * largest * largest
        dtype: Any = np.float64 if bound * bound < _FLOAT_EXACT else np.int64 if bound < _INT64 else object
        n, products, diagonal = self._linear(types, dtype)
        # sum over u, v of M[u, v] n_u (n_v - [u = v]), each M
        quadratic = list(((n[:, None, :] * products).sum(axis=2) // 2 - diagonal).T)
        players, bankers = self.signatures
        sides = [  # each Player signature's row plus column sums of M[u, v] n_u (n_v - [u = v])
            n * products[:, s] - 2 * n * self.diagonals[s] for s in range(players)
        ]
        if dtype is np.int64 and perm(largest, len(_FIRST_FOUR)) >= _INT64:
            products, quadratic = products.astype(object), [q.astype(object) for q in quadratic]
            sides = [side.astype(object) for side in sides]
        head = np.zeros((len(types), self.slots), dtype=products.dtype)
        for line in range(self.slots):
            head[:, line] = quadratic[players + bankers + line]
        for s, t, line in self.pairs:
            # the Banker's two cards drawn from the shoe less the Player's two
            shared = (products[:, players + t] * sides[s]).sum(axis=1)
            head[:, line] += quadratic[players + t] * quadratic[s] - shared
        if head.dtype == np.float64:
            head = np.rint(head).astype(np.int64)
        return _with_tail(head, sizes, len(_FIRST_FOUR))

    def _linear(self, types: np.ndarray, dtype: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(counts n, n @ (M + M^T) of each M (W, k, 52), n @ diagonals (W, k)) in `dtype`,
        exact: the products' entries, at most c N, by a float64 product below 2**53."""
        floats = types.astype(np.float64)
        scale = max(int(self.symmetric.max(initial=1)), 1)
        if scale * float(floats.sum(axis=1).max(initial=0)) >= _FLOAT_EXACT:
            n = types.astype(object)
            products = n @ self.symmetric.astype(object)
            diagonal = n @ self.diagonals.T
        else:
            products, diagonal = floats @ self.symmetric, floats @ self.diagonals.T
            if dtype is not np.float64:
                products, diagonal = np.rint(products).astype(np.int64), np.rint(diagonal).astype(np.int64)
            n = floats if dtype is np.float64 else types.astype(dtype)
        shape = (len(types), -1, TYPES)
        return n, products.astype(dtype, copy=False).reshape(shape), diagonal.astype(dtype, copy=False)


def _hand_rows(hand: tuple[int, int]) -> CardRows:
    """Rows dealing every pair of card types (u, v) to a hand's first two positions (the other
    first-four positions hold an ace of spades; nothing is read there)."""
    u, v = np.divmod(np.arange(TYPES * TYPES), TYPES)
    ranks = np.zeros((len(u), 6), dtype=np.int8)
    suits = np.zeros((len(u), 6), dtype=np.int8)
    ranks[:, 4:] = suits[:, 4:] = -1
    for position, t in zip(hand, (u, v), strict=True):
        ranks[:, position], suits[:, position] = t % len(RANKS), t // len(RANKS)
    return CardRows(ranks, suits, np.full((len(u), 2), -1, dtype=np.int8), np.full(len(u), -1))


def _hand_pairs(bet: Bet, lines: list[list[Condition]]) -> HandPairs | None:
    sides: list[list[Condition]] = [[], []]
    for cond in (c for conds in lines for c in conds):
        positions = cond.card.positions if cond.card is not None else None
        side = next((h for h, hand in enumerate(_HANDS) if positions and set(positions) <= set(hand)), None)
        if side is None:
            return None
        if cond not in sides[side]:
            sides[side].append(cond)
    signatures = []
    for hand, conds in zip(_HANDS, sides, strict=True):
        rows = _hand_rows(hand)
        code = np.zeros(TYPES * TYPES, dtype=np.int64)
        for i, cond in enumerate(conds):
            code += condition_holds(cond, rows, ()).astype(np.int64) << i
        distinct = np.unique(code)
        indicators = (code[None, :] == distinct[:, None]).reshape(len(distinct), TYPES, TYPES)
        signatures.append((conds, distinct.tolist(), indicators.astype(np.int64)))
    (p_conds, p_codes, player), (b_conds, b_codes, banker) = signatures
    slots = len(bet.lines) + 1
    settle = np.zeros((len(p_codes), len(b_codes)), dtype=np.int64)
    for (s, pc), (t, bc) in product(enumerate(p_codes), enumerate(b_codes)):
        truth = {c: bool(pc >> i & 1) for i, c in enumerate(p_conds)}
        truth |= {c: bool(bc >> i & 1) for i, c in enumerate(b_conds)}
        settle[s, t] = _first_line(lines, truth)
    # Signatures that settle alike against every signature of the other hand are one.
    player, settle = _merged(player, settle)
    banker, settle_t = _merged(banker, settle.T)
    settle = settle_t.T
    coincide = np.zeros((slots, TYPES, TYPES), dtype=np.int64)
    pairs = []
    for s, t in product(range(len(player)), range(len(banker))):
        line = int(settle[s, t])
        pairs.append((s, t, line))
        q = banker[t]
        diagonal = np.diag(q)
        coincide[line] += player[s] * (2 * diagonal[:, None] + 2 * diagonal[None, :] + q + q.T)
    matrices = [*player, *banker, *coincide]
    symmetric = np.concatenate([m + m.T for m in matrices], axis=1)
    diagonals = np.array([np.diag(m) for m in matrices])
    return HandPairs(slots, (len(player), len(banker)), symmetric, diagonals, tuple(pairs))


def _merged(indicators: np.ndarray, settle: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Signatures (rows of `settle`, lines against the other hand's) merged where their rows
    agree: the summed indicators and the distinct rows."""
    rows, which = np.unique(settle, axis=0, return_inverse=True)
    merged = np.zeros((len(rows), *indicators.shape[1:]), dtype=np.int64)
    np.add.at(merged, which.ravel(), indicators)
    return merged, rows


@dataclass(frozen=True, eq=False)
class FirstFourCounts:
    """A bet whose conditions each count the first four cards of some kinds (see the module's
    text): `member` (52, C) each card type's class, `deals` (D, C) every way to deal four
    cards by class, `line` (D,) the line each settles, `ways` (D,) its orderings."""

    slots: int
    member: np.ndarray
    path: ClassVar[str] = "first-four counts"
    deals: np.ndarray
    line: np.ndarray
    ways: np.ndarray

    def weights(self, types: np.ndarray) -> np.ndarray:
        sizes = types.sum(axis=1)
        # A deal's weight, its orderings (at most 4!) times the ordered draws of its classes,
        # is at most 4! (N)_4, and so is every partial sum of a head: int64 below 2**63.
        wide = perm(int(sizes.max(initial=0)), len(_FIRST_FOUR)) * 24 >= _INT64
        counts = types @ self.member  # (W, C) cards of each class
        counts = counts.astype(object) if wide else counts
        falling = [np.ones_like(counts)]
        for j in range(len(_FIRST_FOUR)):
            falling.append(falling[-1] * (counts - j))
        head = np.zeros((len(types), self.slots), dtype=object if wide else np.int64)
        for deal, line, ways in zip(self.deals, self.line.tolist(), self.ways.tolist(), strict=True):
            weight = ways * prod((falling[int(m)][:, c] for c, m in enumerate(deal)), start=1)
            head[:, line] += weight
        return _with_tail(head, sizes, len(_FIRST_FOUR))


def _first_four_counts(bet: Bet, lines: list[list[Condition]]) -> FirstFourCounts | None:
    conds = [c for conds in lines for c in conds]
    if any(c.card is None or c.card.counted is None or c.card.positions != _FIRST_FOUR for c in conds):
        return None
    kinds = sorted({c.card.counted for c in conds if c.card is not None and c.card.counted}, key=sorted)
    membership = [tuple(t in kind for kind in kinds) for t in range(TYPES)]
    classes = sorted(set(membership))
    if len(classes) > _MOST_CLASSES:
        return None
    member = np.zeros((TYPES, len(classes)), dtype=np.int64)
    for t, key in enumerate(membership):
        member[t, classes.index(key)] = 1
    deals = [m for m in product(range(5), repeat=len(classes)) if sum(m) == len(_FIRST_FOUR)]
    line, ways = [], []
    for deal in deals:
        truth = {}
        for cond in conds:
            assert cond.card is not None and cond.card.counted is not None
            k = kinds.index(cond.card.counted)
            truth[cond] = sum(m for m, key in zip(deal, classes, strict=True) if key[k]) in cond.allowed
        line.append(_first_line(lines, truth))
        ways.append(factorial(len(_FIRST_FOUR)) // prod(factorial(m) for m in deal))
    return FirstFourCounts(
        len(bet.lines) + 1, member, np.array(deals, dtype=np.int64), np.array(line), np.array(ways)
    )


def restricted_bet(bet: Bet) -> bool:
    """Whether `bet`'s conditions are rank-level outcome fields and conditions on every card
    of the coup (the coup-restrictions shape)."""
    conds = [c for conds in bet_conditions(bet) for c in conds]
    return any(c.card is not None for c in conds) and all(
        c.card is None or c.card.within is not None for c in conds
    )


@lru_cache(maxsize=64)
def factored_form(bet: Bet) -> FactoredForm | None:
    """The hand-pairs or first-four-counts form of `bet`, or None (cached per bet; the
    coup restrictions, which need the rules, are `Restrictions`)."""
    lines = bet_conditions(bet)
    if any(c.card is None for conds in lines for c in conds):
        return None
    return _first_four_counts(bet, lines) or _hand_pairs(bet, lines)


def factored_weights(bet: Bet, types: Sequence[int], rules: Rules) -> list[int] | None:
    """Exact line weights of `bet` on one shoe of 52 card-type counts by a factored form,
    or None when the bet has none."""
    counts = np.array([types], dtype=np.int64)
    form = factored_form(bet)
    if form is not None:
        return [int(w) for w in form.weights(counts)[0]]
    if restricted_bet(bet):
        from analyzer.cards.restrictions import restrictions

        return [int(w) for w in restrictions((bet,), rules).exact_row(counts[0])]
    return None
