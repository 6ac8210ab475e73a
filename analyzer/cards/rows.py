"""Every rank sequence of a coup under a tableau, unrolled from its continuations: the rows the
card-level engine settles bets on (about 1.7 million under the standard tableau; only the
13**4 first-four deals when a bet looks no further).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from analyzer.core.outcome import Outcome
from analyzer.core.ranks import RANK_POINTS
from analyzer.core.rules import STANDARD, Rules
from analyzer.ranks.tableau import continuations

__all__ = ["CoupRows", "coup_rows", "first_four_rows"]


@dataclass(frozen=True, eq=False)
class CoupRows:
    """Every rank sequence of a coup (or of the first four cards) under `rules`.

    `ranks` (R, 6) rank indices in dealing order p1, b1, p2, b2, p3, b3 (-1: not dealt);
    `outcome` (R,) index into `outcomes` (-1 for first-four rows); `repeats` (R, 6) how
    many earlier positions hold the same rank (for the rank-level weight).
    """

    rules: Rules | None
    by_value: bool  # symbol 9 ("10") stands for every ten-valued rank
    ranks: np.ndarray
    outcome: np.ndarray
    outcomes: tuple[Outcome, ...]
    repeats: np.ndarray = field(repr=False)


def _repeats(ranks: np.ndarray) -> np.ndarray:
    rep = np.zeros(ranks.shape, dtype=np.int8)
    for i in range(1, ranks.shape[1]):
        rep[:, i] = ((ranks[:, :i] == ranks[:, i : i + 1]) & (ranks[:, i : i + 1] >= 0)).sum(axis=1)
    return rep


def _deals(symbols: int) -> np.ndarray:
    r = np.arange(symbols, dtype=np.int8)
    return np.stack(np.meshgrid(r, r, r, r, indexing="ij"), axis=-1).reshape(-1, 4)


@lru_cache(maxsize=1)
def first_four_rows() -> CoupRows:
    """The 13**4 rank sequences of the first four cards (p1, b1, p2, b2)."""
    ranks = np.full((13**4, 6), -1, dtype=np.int8)
    ranks[:, :4] = _deals(13)
    return CoupRows(None, False, ranks, np.full(len(ranks), -1), (), _repeats(ranks))


@lru_cache(maxsize=8)
def coup_rows(rules: Rules = STANDARD, by_value: bool = False) -> CoupRows:
    """Every rank sequence of a whole coup under `rules`, with its rank-level outcome.

    With `by_value`, the ten-valued ranks are one symbol (9, read "10"): every sequence of
    point values, for bets that never tell a 10 from a king (5x fewer rows).
    """
    conts = continuations(rules)
    symbols = 10 if by_value else 13
    by_point = [[r for r in range(symbols) if RANK_POINTS[r] == v] for v in range(10)]
    keys: list[tuple[int, int, Any]] = []  # (player_initial, banker_initial, continuation)
    block_rows: list[list[tuple[int, int, int]]] = []  # per state: (third p, third b, key)
    for state in range(100):
        p, b = divmod(state, 10)
        rows: list[tuple[int, int, int]] = []
        for c in conts[(p, b)]:
            keys.append((p, b, c))
            pr = [-1] if c.player_third is None else by_point[c.player_third]
            br = [-1] if c.banker_third is None else by_point[c.banker_third]
            rows.extend((x, y, len(keys) - 1) for x in pr for y in br)
        block_rows.append(rows)
    sizes = np.array([len(rows) for rows in block_rows])
    table = np.array([row for rows in block_rows for row in rows], dtype=np.int64)
    starts = np.cumsum(sizes) - sizes
    deals = _deals(symbols)
    points = np.array(RANK_POINTS)
    state = (points[deals[:, 0]] + points[deals[:, 2]]) % 10 * 10 + (
        points[deals[:, 1]] + points[deals[:, 3]]
    ) % 10
    per_deal = sizes[state]
    row_deal = np.repeat(np.arange(len(deals)), per_deal)
    offsets = np.arange(per_deal.sum()) - np.repeat(np.cumsum(per_deal) - per_deal, per_deal)
    row_cont = np.repeat(starts[state], per_deal) + offsets
    ranks = np.empty((len(row_deal), 6), dtype=np.int8)
    ranks[:, :4] = deals[row_deal]
    ranks[:, 4:] = table[row_cont, :2]
    pairs = 2 * (deals[:, 0] == deals[:, 2]) + (deals[:, 1] == deals[:, 3])
    code = table[row_cont, 2] * 4 + pairs[row_deal]
    seen = np.zeros(4 * len(keys), dtype=bool)
    seen[code] = True
    unique = np.flatnonzero(seen)
    outcome = (np.cumsum(seen) - 1)[code]
    outcomes = []
    for key in unique.tolist():
        p, b, c = keys[key // 4]
        outcomes.append(
            Outcome(
                p,
                b,
                c.player_total,
                c.banker_total,
                2 if c.player_third is None else 3,
                2 if c.banker_third is None else 3,
                c.natural,
                bool(key & 2),
                bool(key & 1),
            )
        )
    repeats = np.zeros(ranks.shape, dtype=np.int8)
    repeats[:, :4] = _repeats(deals)[row_deal]
    for i in (4, 5):  # column by column: several times faster than a sum along rows
        column = ranks[:, i]
        for j in range(i):
            repeats[:, i] += ranks[:, j] == column
        repeats[column < 0, i] = 0
    return CoupRows(rules, by_value, ranks, outcome, tuple(outcomes), repeats)


# -- weights -----------------------------------------------------------------------------
