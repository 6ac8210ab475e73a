"""The coup's six shoe positions as a tensor: each rank-level bet's exact integer numerator
for every assignment of ranks to the positions known before betting.

Positions are the order cards leave the shoe: 1 Player's first, 2 Banker's first, 3 Player's
second, 4 Banker's second, 5 the next card (Player's third if the Player draws, else
Banker's third if the Banker draws, else unused), 6 the one after (Banker's third when both
draw). Weights count ordered 6-card sequences (the convention of `analyzer.ranks`): a known
card the coup does not use still leaves the shoe. A sequence of classes (ranks at positions
1-4 and at known positions 5-6, point values at unknown positions 5-6) weighs the ordered
ways to deal distinct cards of those classes, rank classes placed first:
prod_i (n(C_i) - #{earlier j: C_j within C_i}).

For known positions P, `numerators` gives, per bet, an integer tensor over the ranks at P
(13 per axis, in position order): the sum over the sequences agreeing with those ranks of
weight times the bet's net win times the bet's `scale` (the lcm of its payouts'
denominators), and `weights` the sum of the weights alone. The state's expectation is then
numerator / (scale * weight). Arithmetic is int64 where a bound shows every sum fits, else
Python integers (numpy object arrays); the leaves are taken 13**3 * 100 (or * 169) at a time,
one first card at a time.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from typing import Any

import numpy as np

from analyzer.core.bets import FIELDS, Bet
from analyzer.core.outcome import (
    CARDS_PER_COUP,
    Outcome,
    Winner,
    outcome_digits,
    pack_codes,
    unpack_outcomes,
)
from analyzer.core.ranks import RANK_POINTS
from analyzer.core.rules import Rules
from analyzer.core.shoe import Shoe

__all__ = ["KEY_SHAPE", "KnownTensor", "bet_nets", "known_tensor", "outcome_of_key", "release_keys"]

#: The key of a coup: Player's and Banker's two-card totals, the pair flags, and the point
#: values of positions 5 and 6 (read only where the coup deals them).
KEY_SHAPE = (10, 10, 2, 2, 10, 10)
_POINTS = np.array(RANK_POINTS, dtype=np.int64)
_RANKS = np.arange(13)
_INT64_BOUND = 2**62


@dataclass(frozen=True)
class KnownTensor:
    """The numerators of `bets` (`nums[i]`, scaled by `scales[i]`) and the weights over the
    ranks at `positions` (1-based, ascending); `total` is every weight summed."""

    positions: tuple[int, ...]
    bets: tuple[Bet, ...]
    scales: tuple[int, ...]
    nums: tuple[np.ndarray, ...]
    weights: np.ndarray
    total: int


def outcome_of_key(rules: Rules, key: tuple[int, int, int, int, int, int]) -> Outcome:
    """The coup a key settles into: the two-card totals, pair flags, values at positions 5, 6."""
    p, b, pp, bp, v5, v6 = key
    pairs = (bool(pp), bool(bp))
    if rules.is_natural(p) or rules.is_natural(b):
        return Outcome(p, b, p, b, 2, 2, True, *pairs)
    if not rules.player_draws_on(p):
        if rules.banker_draws_on(b, None):
            return Outcome(p, b, p, (b + v5) % 10, 2, 3, False, *pairs)
        return Outcome(p, b, p, b, 2, 2, False, *pairs)
    final = (p + v5) % 10
    if rules.banker_draws_on(b, v5):
        return Outcome(p, b, final, (b + v6) % 10, 3, 3, False, *pairs)
    return Outcome(p, b, final, b, 3, 2, False, *pairs)


@lru_cache(maxsize=16)
def _outcomes(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """The distinct outcomes of every key, as outcome codes (`analyzer.core.outcome.pack_codes`,
    ascending), and each key's index among them (KEY_SHAPE order). The tableau is read once
    per (two-card totals, value at position 5); the value at position 6 changes only the
    Banker's total, where both hands draw."""
    fields = np.array(
        [outcome_of_key(rules, (p, b, 0, 0, v5, 0))[:7] for p, b, v5 in product(range(10), repeat=3)],
        dtype=np.int64,
    ).reshape(10, 10, 1, 1, 10, 1, 7)
    player_initial, banker_initial, player_total, banker_total, player_cards, banker_cards, natural = (
        fields[..., i] for i in range(7)
    )
    v6 = np.arange(10).reshape(1, 1, 1, 1, 1, 10)
    both = (player_cards == 3) & (banker_cards == 3)
    banker_total = np.where(both, (banker_initial + v6) % 10, banker_total)
    player_pair = np.arange(2).reshape(1, 1, 2, 1, 1, 1)
    banker_pair = np.arange(2).reshape(1, 1, 1, 2, 1, 1)
    columns = (player_initial, banker_initial, player_total, banker_total, player_cards - 2, banker_cards - 2)
    codes = pack_codes([*columns, natural, player_pair, banker_pair])
    distinct, index = np.unique(np.broadcast_to(codes, KEY_SHAPE), return_inverse=True)
    return distinct, index.reshape(-1)


#: Outcome's own fields, read from the digits of outcome codes (card counts less 2).
_DIGITS = {name: i for i, name in enumerate(Outcome._fields)}
_OUTCOME_OFFSET = (0, 0, 0, 0, 2, 2, 0, 0, 0)
_FLAGS = frozenset({"natural", "player_pair", "banker_pair"})
_WINNERS = (str(Winner.TIE), str(Winner.PLAYER), str(Winner.BANKER))  # by the sign of p - b


@lru_cache(maxsize=16)
def _digits(rules: Rules) -> list[np.ndarray]:
    return outcome_digits(_outcomes(rules)[0])


@lru_cache(maxsize=256)
def _column(rules: Rules, name: str) -> tuple[np.ndarray, tuple[Any, ...]]:
    """Field `name` of each distinct outcome of `_outcomes`, as an index into its values
    (the values as its reader in FIELDS gives them: a test checks every field)."""
    codes = _outcomes(rules)[0]
    digits = _digits(rules)
    player, banker = digits[_DIGITS["player_total"]], digits[_DIGITS["banker_total"]]
    value: Any = int
    if name in _DIGITS:
        column = digits[_DIGITS[name]] + _OUTCOME_OFFSET[_DIGITS[name]]
        value = bool if name in _FLAGS else int
    elif name == "winner":
        column, value = np.sign(player - banker), _WINNERS.__getitem__
    elif name == "margin":
        column = np.abs(player - banker)
    elif name == "cards":
        column = digits[_DIGITS["player_cards"]] + digits[_DIGITS["banker_cards"]] + 4
    else:  # a field of its own reader
        found: dict[Any, int] = {}
        read = FIELDS[name][0]
        index = [found.setdefault(read(o), len(found)) for o in unpack_outcomes(codes)]
        return np.array(index, dtype=np.int64), tuple(found)
    distinct, inverse = np.unique(column, return_inverse=True)
    return inverse.reshape(-1).astype(np.int64), tuple(value(v) for v in distinct.tolist())


def _scale(bet: Bet) -> int:
    return math.lcm(*(net.denominator for net in bet.nets))


@lru_cache(maxsize=256)
def bet_nets(bet: Bet, rules: Rules) -> np.ndarray:
    """The bet's net win times its scale, an integer for every key (flat, KEY_SHAPE order):
    int64, or Python integers (an object array) when a net reaches 2**62; outcomes alike in
    the fields the bet reads are settled once."""
    outcomes, index = _outcomes(rules)
    names = sorted({name for line in bet.lines for name, _ in line.when})
    combined = np.zeros(len(outcomes), dtype=np.int64)
    columns = [_column(rules, name) for name in names]
    for codes, values in columns:
        combined = combined * len(values) + codes
    distinct, inverse = np.unique(combined, return_inverse=True)
    position = {name: i for i, name in enumerate(names)}
    scale, nets = _scale(bet), []
    for code in distinct.tolist():
        key: list[Any] = []
        for _, values in reversed(columns):
            code, digit = divmod(code, len(values))
            key.append(values[digit])
        key.reverse()
        line = next(
            (
                i
                for i, line in enumerate(bet.lines)
                if all(key[position[name]] in allowed for name, allowed in line.when)
            ),
            bet.no_line,
        )
        nets.append(int(bet.net(line) * scale))
    dtype: Any = object if max(map(abs, nets)) >= _INT64_BOUND else np.int64
    result: np.ndarray = np.array(nets, dtype=dtype)[inverse.reshape(-1)][index]
    return result


def _falling(n: int, k: int) -> int:
    return math.perm(n, k) if n >= k else 0


def known_tensor(shoe: Shoe, rules: Rules, bets: Sequence[Bet], positions: Sequence[int]) -> KnownTensor:
    """The numerators and weights over the ranks at `positions` (1-based, each 1-6 once),
    read-only arrays; the last few tensors are kept (the known-cards report asks for some
    three or four times: a sort of the first card, the best sorts of the first cards)."""
    return _known_tensor(shoe, rules, tuple(bets), tuple(sorted(positions)))


@lru_cache(maxsize=8)
def _known_tensor(shoe: Shoe, rules: Rules, bets: tuple[Bet, ...], positions: tuple[int, ...]) -> KnownTensor:
    known5, known6 = 5 in positions, 6 in positions
    infinite = shoe.counts is None
    size = 13 if infinite else shoe.size
    total = 13**CARDS_PER_COUP if infinite else _falling(size, CARDS_PER_COUP)
    scales = tuple(_scale(bet) for bet in bets)
    nets = [bet_nets(bet, rules) for bet in bets]
    largest = max((int(np.abs(n).max()) for n in nets), default=1)
    wide = total * max(largest, 1) >= _INT64_BOUND or (not infinite and size**CARDS_PER_COUP >= _INT64_BOUND)
    dtype: Any = object if wide else np.int64
    counts = [1] * 13 if shoe.counts is None else list(shoe.counts)
    n = np.array(counts, dtype=dtype)
    values = [0] * 10
    for rank, points in enumerate(RANK_POINTS):
        values[points] += counts[rank]
    m = np.array(values, dtype=dtype)
    dep = 0 if infinite else 1

    def axis(length: int, at: int) -> np.ndarray:
        shape = [1] * 5
        shape[at] = length
        return np.arange(length).reshape(shape)

    r2, r3, r4 = axis(13, 0), axis(13, 1), axis(13, 2)
    x5, x6 = axis(13 if known5 else 10, 3), axis(13 if known6 else 10, 4)
    # The axes of a chunk (r2, r3, r4, x5, x6) summed: those of unknown positions.
    summed = tuple(i for i, p in enumerate((2, 3, 4, 5, 6)) if p not in positions)
    known_shape = (13,) * len(positions)
    out = [np.zeros(known_shape, dtype=dtype) for _ in bets]
    weights = np.zeros(known_shape, dtype=dtype)
    # A single known position past the first (or none) and sums below 2**53: bin the leaves.
    chunk_known = [i for i, p in enumerate((2, 3, 4, 5, 6)) if p in positions]
    inner = chunk_known[0] if chunk_known else None
    binned = None
    if not wide and len(chunk_known) <= 1 and total < 2**53:
        binned = np.zeros((13 if chunk_known else 1, _KEYS), dtype=np.int64)
    for r1 in range(13):
        if counts[r1] == 0:
            continue
        deal = (
            n[r1]
            * (n[r2] - dep * (r2 == r1))
            * (n[r3] - dep * ((r3 == r1).astype(np.int64) + (r3 == r2)))
            * (n[r4] - dep * ((r4 == r1).astype(np.int64) + (r4 == r2) + (r4 == r3)))
        )
        firsts = (r1, r2, r3, r4)
        if known5 or not known6:
            w5 = _class_size(n, m, x5, known5, firsts, dep)
            w6 = _class_size(n, m, x6, known6, firsts, dep) - dep * _within(x5, known5, x6, known6)
        else:  # position 6 a rank, position 5 a value class: the rank class goes first
            w6 = _class_size(n, m, x6, known6, firsts, dep)
            w5 = _class_size(n, m, x5, known5, firsts, dep) - dep * _within(x6, known6, x5, known5)
        leaf = np.broadcast_to(deal * w5 * w6, (13, 13, 13, x5.size, x6.size))
        where: Any = (r1,) if 1 in positions else ()
        if binned is not None:  # the leaves summed by (state, key) first, then each bet
            block = _binned(leaf, _chunk_index(r1, known5, known6, inner), inner)
            if where:
                for i, net in enumerate(nets):
                    out[i][where] = (block * net).sum(axis=1).reshape(known_shape[1:])
                weights[where] = block.sum(axis=1).reshape(known_shape[1:])
            else:
                binned += block
            continue
        key = _chunk_key(r1, known5, known6)
        for i, net in enumerate(nets):
            part = (leaf * net[key]).sum(axis=summed)
            if where:
                out[i][where] = part
            else:
                out[i] += part
        part = leaf.sum(axis=summed)
        if where:
            weights[where] = part
        else:
            weights += part
    if binned is not None and 1 not in positions:
        out = [(binned * net).sum(axis=1).reshape(known_shape) for net in nets]
        weights = binned.sum(axis=1).reshape(known_shape)
    for array in (*out, weights):
        array.setflags(write=False)  # kept in the cache: shared by every caller
    return KnownTensor(positions, bets, scales, tuple(out), weights, total)


_KEYS = math.prod(KEY_SHAPE)
#: The dtype of the chunks' keys and bins (below 13 * _KEYS): half the memory of int64 in
#: `_chunk_key`'s cache (it and `_chunk_index`'s held about 230 MB as int64 after the
#: known-cards report, 65 MB now).
_INDEX = np.int32
assert np.iinfo(_INDEX).max > 13 * _KEYS


@lru_cache(maxsize=64)
def _chunk_key(r1: int, known5: bool, known6: bool) -> np.ndarray:
    """The key of every leaf of the chunk of first card `r1` (axes r2, r3, r4, x5, x6; x5
    and x6 ranks when known, else point values): the same for every shoe."""
    r2, r3, r4 = (np.arange(13).reshape([13 if i == at else 1 for i in range(5)]) for at in range(3))
    x5 = np.arange(13 if known5 else 10).reshape(1, 1, 1, -1, 1)
    x6 = np.arange(13 if known6 else 10).reshape(1, 1, 1, 1, -1)
    v5 = _POINTS[x5] if known5 else x5
    v6 = _POINTS[x6] if known6 else x6
    p = (_POINTS[r1] + _POINTS[r3]) % 10
    b = (_POINTS[r2] + _POINTS[r4]) % 10
    key = ((((p * 10 + b) * 2 + (r3 == r1)) * 2 + (r4 == r2)) * 10 + v5) * 10 + v6
    result: np.ndarray = np.broadcast_to(key, (13, 13, 13, x5.size, x6.size)).astype(_INDEX)
    return result


def release_keys() -> None:
    """Drop the cached chunk keys (`_chunk_key`: about 40 MB after the known-cards report's
    tensors), for a process that has more to do than known cards; the next tensor computes
    the keys it needs again."""
    _chunk_key.cache_clear()


def _chunk_index(r1: int, known5: bool, known6: bool, inner: int | None) -> np.ndarray:
    """The bin of every leaf of the chunk: its key, offset by the rank (or value) at the
    chunk's one known axis `inner` (none: the key alone), flat. Not cached: one pass over
    the cached key, against 64 cached arrays of up to 1.5 MB each for a third of misses."""
    key = _chunk_key(r1, known5, known6)
    if inner is None:
        return key.reshape(-1)
    shape = [1] * key.ndim
    shape[inner] = key.shape[inner]
    offsets = np.arange(key.shape[inner], dtype=_INDEX).reshape(shape) * _INDEX(_KEYS)
    index: np.ndarray = (key + offsets).reshape(-1)
    return index


def _binned(leaf: np.ndarray, index: np.ndarray, inner: int | None) -> np.ndarray:
    """The leaves' weights summed by bin (`_chunk_index`: the state of the known position
    `inner` among the chunk's axes, or none, and the key): float64 sums, exact because every
    sum is below 2**53."""
    states = 1 if inner is None else leaf.shape[inner]
    sums = np.bincount(index, weights=leaf.astype(np.float64).reshape(-1), minlength=states * _KEYS)
    block: np.ndarray = sums.astype(np.int64).reshape(states, _KEYS)
    return block


def _class_size(
    n: np.ndarray, m: np.ndarray, x: np.ndarray, rank: bool, firsts: tuple[Any, ...], dep: int
) -> Any:
    """Cards left of position 5's or 6's class (rank `x` if `rank`, else point value `x`)
    after the four cards of the deal."""
    if rank:
        taken = sum((x == r).astype(np.int64) for r in firsts)
        return n[x] - dep * taken
    taken = sum((x == _POINTS[r]).astype(np.int64) for r in firsts)
    return m[x] - dep * taken


def _within(inner: np.ndarray, inner_rank: bool, outer: np.ndarray, outer_rank: bool) -> Any:
    """Whether the earlier class `inner` lies within `outer` (so one of its cards is gone)."""
    if inner_rank == outer_rank:
        return (inner == outer).astype(np.int64)
    assert inner_rank and not outer_rank
    return (_POINTS[inner] == outer).astype(np.int64)
