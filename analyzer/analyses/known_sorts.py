"""The best sort: every split of the ten point values (or of the 13 ranks) into a sorted
class and the rest, valued exactly for the given positions and bets, and ranked.

A split and its complement tell the sorter the same, so each is searched once, as the class
holding the 9: 511 splits of the values (the 1,022 nonempty proper subsets, in pairs), 4,095
of the ranks. The numerators are aggregated once per assignment of point values (or ranks)
to the known positions (`analyzer.analyses.known_tensor`); each split then sums them into
its classes, for a batch of splits at once, in int64 where a bound shows the sums fit (else
Python integers), and takes one Fraction per split at the end.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from analyzer.analyses.known_shown import numerators
from analyzer.analyses.known_tensor import bet_nets
from analyzer.core.bets import Bet
from analyzer.core.ranks import RANK_POINTS, RANKS
from analyzer.core.rules import Rules
from analyzer.core.shoe import Shoe

__all__ = ["SplitSums", "members", "split_sums", "splits"]

_BATCH = 128  # splits summed at a time
_INT64_BOUND = 2**62


def splits(by_ranks: bool) -> list[frozenset[int]]:
    """Every split, as the class (point values 0-9, or rank indexes) holding the 9."""
    items = 13 if by_ranks else 10
    nine = RANKS.index("9") if by_ranks else 9
    others = [i for i in range(items) if i != nine]
    found = []
    for mask in range(2 ** len(others) - 1):  # the all-ones mask would sort every card
        found.append(frozenset({nine, *(item for bit, item in enumerate(others) if mask >> bit & 1)}))
    return found


def members(split: frozenset[int], by_ranks: bool) -> tuple[str, ...]:
    """A split as its point values or ranks are written."""
    if by_ranks:
        return tuple(str(RANKS[r]) for r in sorted(split))
    return tuple(str(v) for v in sorted(split))


@dataclass(frozen=True)
class SplitSums:
    """Every split's integer sums: `gained[i]`, the best positive expectation of each state
    summed, over `common * total`; `bet_weight[i]`, the weight of the states bet, over
    `total`. `found[i]` is the split (point values, or rank indexes)."""

    found: tuple[frozenset[int], ...]
    gained: tuple[int, ...]
    bet_weight: tuple[int, ...]
    common: int
    total: int


def split_sums(
    shoe: Shoe, rules: Rules, bets: Sequence[Bet], positions: Sequence[int], by_ranks: bool = False
) -> SplitSums:
    """The sums of every split (`splits`) for the known `positions`, from one tensor of
    numerators (`known_shown.numerators`) summed into point values (unless `by_ranks`)."""
    tensor = numerators(shoe, rules, bets, positions)
    common = math.lcm(*tensor.scales)
    factors = [common // scale for scale in tensor.scales]
    wide = tensor.weights.dtype == object or any(bet.card_level for bet in bets)
    if not wide:
        largest = max(int(abs(bet_nets(bet, rules)).max()) * f for bet, f in zip(bets, factors, strict=True))
        wide = tensor.total * max(1, largest) >= _INT64_BOUND
    kind: Any = object if wide else np.int64
    arrays = [num.astype(kind) * f for num, f in zip(tensor.nums, factors, strict=True)]
    arrays.append(tensor.weights.astype(kind))
    stacked: np.ndarray = np.stack(arrays)  # (bets + 1, 13, ..., 13)
    classes = 13
    if not by_ranks:  # ranks summed into point values along each position
        to_value = np.zeros((13, 10), dtype=np.int64)
        for rank, points in enumerate(RANK_POINTS):
            to_value[rank, points] = 1
        for axis in range(1, len(positions) + 1):
            summed = np.tensordot(stacked, to_value.astype(stacked.dtype), axes=([axis], [0]))
            stacked = np.moveaxis(summed, -1, axis)
        classes = 10
    found = splits(by_ranks)
    gained: list[int] = []
    bet_weight: list[int] = []
    for start in range(0, len(found), _BATCH):
        batch = found[start : start + _BATCH]
        member = np.zeros((len(batch), classes, 2), dtype=stacked.dtype)
        for i, split in enumerate(batch):
            for c in range(classes):
                member[i, c, 0 if c in split else 1] = 1
        g, w = _batch_sums(stacked, member, len(positions))
        gained += g
        bet_weight += w
    return SplitSums(tuple(found), tuple(gained), tuple(bet_weight), common, tensor.total)


def _batch_sums(stacked: np.ndarray, member: np.ndarray, axes: int) -> tuple[list[int], list[int]]:
    """Each split's sums: the arrays (scaled numerators per bet, then weights) summed into
    the split's classes along every known position, then the best bet of each state."""
    letters = "abcdef"[:axes]
    out: Any = np.einsum(f"z{letters},saA->sz{'A' + letters[1:]}", stacked, member)
    for k in range(1, axes):  # (splits, bets + 1, classes...)
        src = "sz" + letters[:k].upper() + letters[k] + letters[k + 1 :]
        dst = "sz" + letters[:k].upper() + letters[k].upper() + letters[k + 1 :]
        out = np.einsum(f"{src},s{letters[k]}{letters[k].upper()}->{dst}", out, member)
    flat = out.reshape(member.shape[0], out.shape[1], -1)
    nums, weights = flat[:, :-1, :], flat[:, -1, :]
    top = nums.max(axis=1)  # (splits, states)
    positive = top > 0
    gained = np.where(positive, top, 0).sum(axis=1)
    bet_weight = np.where(positive, weights, 0).sum(axis=1)
    return [int(g) for g in gained.tolist()], [int(w) for w in bet_weight.tolist()]
