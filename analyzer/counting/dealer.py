"""Many shoes dealt at once: the casino procedure of `analyzer.counting.simulation`, vectorised
across a batch of shoes (the shoes advance in lockstep, one coup per step).

Shoe number `index` of a run seeded with `seed` is shuffled by its own generator
(`shuffle_keys`), so a shoe's cards do not depend on which batch deals it. The scalar
dealer `analyzer.counting.simulation.deal_cards` is the reference; tests check both deal the same
coups.

With numba (the `fast` extra), once a long study has loaded it, the coups are dealt by
`analyzer.counting.fastdeal`, shoe by shoe in one compiled loop, from the same shuffles
(the same batches).

A shoe given by its 52 card-type counts is dealt once as card types and its ranks read
off them (type % 13). The unshuffled shoe lists its cards rank by rank (each rank's cards
by suit), so the same keys put the same rank at every position as for the shoe given by
its 13 rank counts: the coups, outcomes and counts are the same, and each card also has
a suit (`SuitedBatch`).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from typing import Self

import numpy as np

from analyzer.core.outcome import outcome_digits, pack_codes
from analyzer.core.ranks import RANK_POINTS
from analyzer.core.rules import Rules
from analyzer.core.suits import TYPES
from analyzer.counting import fastdeal

__all__ = [
    "CoupBatch",
    "SuitedBatch",
    "deal_batch",
    "shuffle_keys",
    "shuffled_cards",
    "shuffled_deck",
]

_POINTS = np.array(RANK_POINTS, dtype=np.int64)


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_KEYS_AT_ONCE = 1 << 15  # shuffle keys sorted in one pass (256 KB: in cache, with their temporaries)
_MASK = (1 << 64) - 1


def _mix(x: np.ndarray) -> np.ndarray:
    """SplitMix64's finaliser: a bijective 64-bit hash (uint64 arrays, wrapping)."""
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    mixed: np.ndarray = x ^ (x >> np.uint64(31))
    return mixed


def shuffle_keys(seed: int, indices: np.ndarray, size: int) -> np.ndarray:
    """(shoes, size) random 64-bit sort keys: card position j of shoe `index` of a run
    seeded with `seed` gets a hash of (seed, index, j), so each shoe's shuffle depends on
    nothing else."""
    run = _mix(np.array([seed & _MASK], dtype=np.uint64) + _GOLDEN)
    shoe = _mix(run ^ _mix(np.asarray(indices, dtype=np.uint64) * _GOLDEN + _GOLDEN))
    return _mix(shoe[:, None] + np.arange(1, size + 1, dtype=np.uint64) * _GOLDEN)


def shuffled_cards(counts: Sequence[int], seed: int, index: int) -> np.ndarray:
    """Shoe number `index` of a run seeded with `seed`, shuffled (the cards sorted by their
    random keys): rank indices, top card first."""
    cards: np.ndarray = shuffled_deck(counts, seed, np.array([index]))[0]
    return cards


def _deck(counts: Sequence[int]) -> np.ndarray:
    """The unshuffled shoe of 13 rank counts (rank indices) or of 52 card-type counts (card
    types): rank by rank, each rank's cards by suit."""
    if len(counts) == 13:
        return np.repeat(np.arange(13, dtype=np.int64), counts)
    by_rank = [s * 13 + r for r in range(13) for s in range(TYPES // 13)]
    return np.repeat(np.array(by_rank, dtype=np.int64), [counts[t] for t in by_rank])


def shuffled_deck(counts: Sequence[int], seed: int, indices: np.ndarray) -> np.ndarray:
    """(shoes, cards) shoes `indices` of a run seeded with `seed`, shuffled, top card first:
    rank indices for 13 rank counts, card types for 52 card-type counts (whose ranks,
    type % 13, are the shoe's of the same rank counts, card for card)."""
    deck = _deck(counts)
    indices = np.asarray(indices)
    shuffled = np.empty((len(indices), len(deck)), dtype=deck.dtype)
    rows = max(1, _KEYS_AT_ONCE // max(len(deck), 1))  # some shoes at a time: about 35% faster
    for at in range(0, len(indices), rows):
        keys = shuffle_keys(seed, indices[at : at + rows], len(deck))
        shuffled[at : at + rows] = deck[_key_order(keys)]
    return shuffled


def _key_order(keys: np.ndarray) -> np.ndarray:
    """np.argsort(keys, axis=1) of distinct 64-bit keys, by a plain sort (faster than an
    argsort): each key's low bits replaced by its position, the positions read
    off the sorted keys. That is the argsort's order unless two keys of a row agree above
    those bits (about 2**-38 a shoe of 416 cards), which is checked: then argsort."""
    size = keys.shape[1]
    bits = np.uint64(max(size - 1, 1).bit_length())
    low = (np.uint64(1) << bits) - np.uint64(1)
    packed = np.sort((keys & ~low) | np.arange(size, dtype=np.uint64), axis=1)
    high = packed >> bits
    if (high[:, 1:] == high[:, :-1]).any():  # a tie above the low bits: the sort may differ
        return np.argsort(keys, axis=1)
    return (packed & low).astype(np.intp)


@dataclass(frozen=True)
class CoupBatch:
    """Every coup of a batch of shoes, shoe by shoe in dealing order.

    - `shoe`: (C,) the coup's shoe, 0..shoes-1 within the batch;
    - `left`: (C, 13) cards left before the coup; `dealt`: (C, 13) cards dealt face up in
      the shoe's earlier coups (burn cards excluded);
    - `outcome`: (C,) outcome codes (`analyzer.core.outcome.unpack_outcomes`);
    - `extra`: (C,) the coup played after the cut card's coup (only with `extra_coup`);
    - `first`: (S, 13) the face-up burn card, one-hot (zeros without burn);
      `burned`: (S, 13) every burned card.
    """

    shoes: int
    shoe: np.ndarray
    left: np.ndarray
    dealt: np.ndarray
    outcome: np.ndarray
    extra: np.ndarray
    first: np.ndarray
    burned: np.ndarray

    def seen(self, burn: str = "first") -> np.ndarray:
        """(C, 13) cards the counter has seen before each coup: the cards dealt, plus none,
        the face-up first ("first") or all ("all") of the burned cards."""
        burned = self._burned_seen(burn)
        if burned is None:
            return self.dealt
        seen: np.ndarray = self.dealt + np.take(burned, self.shoe, axis=0)  # take: faster than [shoe]
        return seen

    def seen_total(self, weights: np.ndarray, burn: str = "first") -> np.ndarray:
        """(C,) `seen(burn)` @ `weights` (13 integers): each coup's cards seen, weighted
        (a count's tags), without the (C, 13) table of `seen`."""
        total: np.ndarray = self.dealt @ weights
        burned = self._burned_seen(burn)
        if burned is not None:
            total += np.take(burned @ weights, self.shoe)
        return total

    def coups(self, rows: np.ndarray) -> Self:
        """The batch of only its coups `rows` (indices, increasing), of the same shoes."""
        per_shoe = ("shoes", "first", "burned")
        return replace(
            self, **{f.name: getattr(self, f.name)[rows] for f in fields(self) if f.name not in per_shoe}
        )

    def _burned_seen(self, burn: str) -> np.ndarray | None:
        """(shoes, 13) the burned cards the counter sees per shoe under `burn`; None for none."""
        return None if burn == "none" else self.first if burn == "first" else self.burned


@dataclass(frozen=True, kw_only=True)  # keyword-only: CoupBatch may gain fields with defaults
class SuitedBatch(CoupBatch):
    """A `CoupBatch` with the cards' suits: `types_left` (C, 52) card types left before each
    coup; `ranks`, `suits` (C, 6) its cards in dealing order p1, b1, p2, b2, p3, b3 (-1
    where no card is dealt)."""

    types_left: np.ndarray
    ranks: np.ndarray
    suits: np.ndarray


_CARDS_AT_ONCE = 1 << 21  # cards of the shoes dealt in one pass (bounds the prefix counts' memory)
_TYPES_AT_ONCE = 1 << 20  # coups x 52 card-type counts computed in one pass


def _concatenate(parts: Sequence[CoupBatch]) -> CoupBatch:
    offsets = np.cumsum([0] + [p.shoes for p in parts])
    columns: dict[str, object] = {"shoes": int(offsets[-1])}
    for item in fields(parts[0]):
        if item.name == "shoe":
            columns["shoe"] = np.concatenate([p.shoe + o for p, o in zip(parts, offsets, strict=False)])
        elif item.name != "shoes":
            columns[item.name] = np.concatenate([getattr(p, item.name) for p in parts])
    return type(parts[0])(**columns)  # type: ignore[arg-type]


def _rule_tables(rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    natural = np.array([rules.is_natural(t) for t in range(10)])
    player = np.array([rules.player_draws_on(t) for t in range(10)])
    banker = np.array(
        [[rules.banker_draws_on(b, None if t == 10 else t) for t in range(11)] for b in range(10)]
    )
    return natural, player, banker


def deal_batch(
    counts: Sequence[int],
    rules: Rules,
    seed: int,
    indices: range,
    cut_card: int,
    extra_coup: bool = False,
    burn: bool = True,
) -> CoupBatch:
    """Shuffle and deal shoes `indices` of a run seeded with `seed` by the casino procedure
    (see `analyzer.counting.simulation`): burn, coups until the cut card, `cut_card` cards from the
    end, comes out, that coup finished and, with `extra_coup`, one more.

    `counts`: the shoe's 13 rank counts, or its 52 card-type counts; then each shoe is
    dealt once as card types, the coups are those of its rank counts, and the batch is a
    `SuitedBatch`."""
    size = int(sum(counts))
    step = max(1, _CARDS_AT_ONCE // size)
    if len(indices) > step:  # big shoes: deal in parts (the result is the same)
        parts = [
            deal_batch(counts, rules, seed, range(i, min(i + step, indices.stop)), cut_card, extra_coup, burn)
            for i in range(indices.start, indices.stop, step)
        ]
        return _concatenate(parts)
    shoes = len(indices)
    cards = np.zeros((shoes, size + 6), dtype=np.int64)  # padded: a coup never reads past the end
    deck = np.zeros(0, dtype=np.int64)
    if len(counts) == 13:
        cards[:, :size] = shuffled_deck(counts, seed, np.arange(indices.start, indices.stop))
    else:  # card types, kept for their suits
        deck = shuffled_deck(counts, seed, np.arange(indices.start, indices.stop))
        cards[:, :size] = deck % 13
    ranks = np.arange(13)
    start = (
        (1 + np.where(_POINTS[cards[:, 0]] == 0, 10, _POINTS[cards[:, 0]]))
        if burn
        else np.zeros(shoes, dtype=np.int64)
    )
    start = np.minimum(start, size)  # a tiny shoe can burn all its cards
    first = (cards[:, :1] == ranks).astype(np.int16) if burn else np.zeros((shoes, 13), dtype=np.int16)
    if fastdeal.ready():  # the compiled dealer, loaded for a long study: the same coups
        shoe, at, code, extra, left, dealt, burned = fastdeal.deal_shoes(
            cards, size, start, _rule_tables(rules), cut_card, extra_coup
        )
        batch = CoupBatch(shoes, shoe, left, dealt, code, extra, first, burned)
        return batch if len(counts) == 13 else _with_suits(batch, deck, counts, start, at)
    prefix = np.zeros((shoes, size + 1, 13), dtype=np.int16)  # prefix[s, k]: counts of the first k cards
    np.cumsum(cards[:, :size, None] == ranks, axis=1, out=prefix[:, 1:])
    total = prefix[:, size]
    rows = np.arange(shoes)
    burned = prefix[rows, start]
    natural_on, player_on, banker_on = _rule_tables(rules)
    stop = size - cut_card  # a coup whose cards go past index `stop` brings out the cut card
    pos = start.copy()
    last = np.zeros(shoes, dtype=bool)
    active = np.flatnonzero(size - pos >= 6)
    steps: list[tuple[np.ndarray, ...]] = []
    while len(active):
        at = pos[active]
        c = cards[active[:, None], at[:, None] + np.arange(6)]  # the next six cards
        pts = _POINTS[c]
        p0, b0 = (pts[:, 0] + pts[:, 2]) % 10, (pts[:, 1] + pts[:, 3]) % 10
        natural = natural_on[p0] | natural_on[b0]
        pdraw = ~natural & player_on[p0]
        third = np.where(pdraw, pts[:, 4], 10)
        bdraw = ~natural & banker_on[b0, third]
        bcard = pts[np.arange(len(active)), 4 + pdraw]
        p = np.where(pdraw, (p0 + pts[:, 4]) % 10, p0)
        b = np.where(bdraw, (b0 + bcard) % 10, b0)
        code = pack_codes(
            [p0, b0, p, b, pdraw.astype(np.int64), bdraw.astype(np.int64), natural.astype(np.int64),
             (c[:, 0] == c[:, 2]).astype(np.int64), (c[:, 1] == c[:, 3]).astype(np.int64)]
        )  # fmt: skip
        steps.append((active, at, code, last[active]))
        used = 4 + pdraw + bdraw
        pos[active] = at + used
        cut_out = at + used > stop
        done = last[active] | (cut_out & (not extra_coup))
        last[active] = cut_out
        keep = ~done & (size - pos[active] >= 6)
        active = active[keep]
    shoe, at, code, extra = (np.concatenate([s[k] for s in steps]) for k in range(4)) if steps else (
        np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64),
        np.zeros(0, dtype=bool),
    )  # fmt: skip
    order = np.argsort(shoe, kind="stable")  # shoe by shoe, each in dealing order
    shoe, at, code, extra = shoe[order], at[order], code[order], extra[order]
    before = prefix[shoe, at]
    batch = CoupBatch(
        shoes=shoes,
        shoe=shoe,
        left=(total[shoe] - before).astype(np.int64),
        dealt=(before - burned[shoe]).astype(np.int64),
        outcome=code,
        extra=extra,
        first=first,
        burned=burned,
    )
    return batch if len(counts) == 13 else _with_suits(batch, deck, counts, start, at)


def _with_suits(
    batch: CoupBatch, deck: np.ndarray, types: Sequence[int], start: np.ndarray, at: np.ndarray
) -> SuitedBatch:
    """`batch` with its cards' types: `deck` (shoes, cards) the card types dealt, `start`
    each shoe's first card after the burn, `at` each coup's first card."""
    shoes, coups = batch.shoes, len(batch.shoe)
    digits = outcome_digits(batch.outcome)
    player_third, banker_third = digits[4] == 1, digits[5] == 1  # card counts are stored less 2
    offsets = np.full((coups, 6), -1, dtype=np.int64)  # each card's place in the coup, p1 b1 p2 b2 p3 b3
    offsets[:, :4] = np.arange(4)
    offsets[:, 4] = np.where(player_third, 4, -1)
    offsets[:, 5] = np.where(banker_third, 4 + player_third, -1)
    dealt = offsets >= 0
    cards = np.where(dealt, deck[batch.shoe[:, None], np.where(dealt, at[:, None] + offsets, 0)], -1)
    # Card types left before each coup: the shoe less its burned cards and its earlier
    # coups' cards (each coup starts where the one before ended), shoes in groups.
    burn = np.arange(int(start.max(initial=0))) < start[:, None]
    flat = (np.arange(shoes)[:, None] * TYPES + deck[:, : burn.shape[1]])[burn]
    burned = np.bincount(flat, minlength=shoes * TYPES).reshape(shoes, TYPES)
    unburned = np.array(types, dtype=np.int64) - burned
    types_left = np.empty((coups, TYPES), dtype=np.int64)
    step = max(1, _TYPES_AT_ONCE // ((deck.shape[1] // 4 + 1) * TYPES))  # a coup takes 4 cards or more
    for lo, hi in itertools.pairwise(np.searchsorted(batch.shoe, [*range(0, shoes, step), shoes]).tolist()):
        n, shoe = hi - lo, batch.shoe[lo:hi]
        taken = np.bincount((np.arange(n)[:, None] * TYPES + cards[lo:hi])[dealt[lo:hi]], minlength=n * TYPES)
        earlier = np.zeros((n, TYPES), dtype=np.int64)
        np.cumsum(taken.reshape(n, TYPES)[:-1], axis=0, out=earlier[1:])
        earlier -= earlier[np.searchsorted(shoe, shoe)]  # from the shoe's first coup
        np.subtract(unburned[shoe], earlier, out=types_left[lo:hi])
    inherited = {item.name: getattr(batch, item.name) for item in fields(batch)}
    return SuitedBatch(
        **inherited,
        types_left=types_left,
        ranks=np.where(dealt, cards % 13, -1),
        suits=np.where(dealt, cards // 13, -1),
    )
