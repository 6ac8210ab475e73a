"""Card-level bets given the rank of the card at one of the first four positions, for every
rank at once (`baccarat known`): what `analyzer.cards.engine.card_line_weights` gives for
the shown card `{position: (rank, None)}`, one rank at a time, from one plan per bet of the
rows of every rank instead of 13 plans.

A plan settles each row alone (whatever else is shown), so the plan of the rows of every rank
at `position`, its line weights summed by (rank at `position`, line), holds the 13 shown-card
results: the same exact integers. Rows by point value (for bets that never tell a 10 from a
king) serve the ranks A-9; the ten-valued ranks, told apart, take the rows by rank where
`position` holds one, as a shown 10, J, Q or K does, unless the bet reads no suit there or
those ranks hold alike cards of every suit (whole decks): then each takes its share of the
ten-valued cards' weights.

The plan's rows are grouped by their factors into products (`analyzer.cards.products`), each
with its signed multiplicity on every (rank, line): the same for every shoe, so they are
cached on disk (`analyzer.cards.plancache`, keyed by the bet's conditions, the tableau, the
position, the ranks and the code's version). A shoe then costs one product of at most seven
factors per product and a sum per (rank, line): exact in int64 (modulo 2**64) where every
line weight is below 2**63, else in Python integers. A row the shoe cannot deal weighs 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from math import perm
from typing import Any

import numpy as np

from analyzer.cards.engine import check_suits_known, plan_in_parts, plan_rows, rows_kind, shoe_types
from analyzer.cards.plancache import plan_key, read_arrays, write_arrays
from analyzer.core.bets import Bet
from analyzer.core.outcome import CARDS_PER_COUP
from analyzer.core.rules import STANDARD, Rules
from analyzer.core.shoe import Shoe
from analyzer.core.suits import TYPES

__all__ = ["RankProducts", "rank_line_weights", "rank_products"]

_TENS = range(9, 13)  # the ten-valued ranks (10, J, Q, K), as indexes into RANKS
_INT64 = 2**63
_STORED = ("keys", "index", "multiplicity", "bounds", "flags")  # a cached RankProducts' arrays

LineWeights = tuple[list[int], int]  # each line's weight (last: no line matched), the total


@dataclass(frozen=True, eq=False)
class RankProducts:
    """A bet's plan of the rows whose card at a position is of `ranks` (rank indexes, or
    point values for rows by value), as products: `keys` (P,) product keys; `index` and
    `multiplicity` (E,) the products counted on each column, (rank - ranks.start) * slots +
    line, and their signed multiplicities, column by column (column c's are the entries
    bounds[c]:bounds[c + 1]); `tens_refined`: the plan refines by suit a row whose position
    holds the ten-valued symbol 9 (rows by value)."""

    ranks: range
    slots: int
    keys: np.ndarray
    index: np.ndarray
    multiplicity: np.ndarray
    bounds: np.ndarray
    tens_refined: bool


def rank_line_weights(
    bets: Sequence[Bet], shoe: Shoe, position: int, rules: Rules = STANDARD
) -> list[list[LineWeights]]:
    """For each bet, for each rank r (indexes into RANKS): the line weights and total of
    `card_line_weights(bet, shoe, rules, {position: (r, None)})`, `position` 0-3 (p1, b1,
    p2, b2). The bets' suits must be priceable on `shoe` (`check_suits_known`)."""
    from analyzer.cards.products import FACTOR_IDS, factor_table

    types = np.array([1] * TYPES if shoe.counts is None else shoe_types(shoe), dtype=np.int64)
    infinite = shoe.counts is None
    total = TYPES**CARDS_PER_COUP if infinite else perm(shoe.size, CARDS_PER_COUP)
    dtype: Any = np.int64 if total < _INT64 else object  # every line weight is within [0, total]
    table = factor_table(np.arange(FACTOR_IDS), types[None, :], infinite, dtype)[:, 0]  # by factor id
    settled: dict[tuple[Any, ...], list[LineWeights]] = {}  # by the bet's conditions
    found = []
    for bet in bets:
        check_suits_known(bet, shoe, {})
        conditions = tuple(line.when for line in bet.lines)
        if conditions not in settled:
            by_value = rows_kind(bet, {})[1]
            products = rank_products(bet, rules, position, range(10 if by_value else 13))
            by_rank = _weights(products, table)
            if by_value:  # symbol 9 is every ten-valued rank: 10, J, Q and K told apart
                tens = by_rank.pop()
                if products.tens_refined and not _tens_alike(shoe):  # suits read there: the rows by rank
                    by_rank += _weights(rank_products(bet, rules, position, _TENS), table)
                else:
                    by_rank += _tens_shares(tens, types)
            settled[conditions] = by_rank
        found.append(settled[conditions])
    return found


def _tens_alike(shoe: Shoe) -> bool:
    """Whether the ten-valued ranks hold the same cards of every suit (as in whole decks): a
    bet that never tells a 10 from a king (rows by value) then weighs alike each of them at
    the position, suits read or not, for exchanging two of those ranks maps the shoe's
    sequences onto themselves, keeping every point value and suit. So each takes n / m of
    the ten-valued cards' weights, as where no suit is read, without the rows by rank."""
    if shoe.counts is None:
        return True
    if shoe.types is None:
        return False
    return len({tuple(shoe.types[s * 13 + rank] for s in range(4)) for rank in _TENS}) == 1


def _tens_shares(tens: LineWeights, types: np.ndarray) -> list[LineWeights]:
    """The line weights of each ten-valued rank at the position from those of every
    ten-valued card, where no suit is read: each row's weight holds the factor m (the
    ten-valued cards) for the position, which a rank's n replaces (the cards that follow
    are counted alike), so each rank takes n / m of every line, exactly."""
    of_rank = types.reshape(4, 13).sum(axis=0).tolist()
    m = sum(of_rank[rank] for rank in _TENS)
    found = []
    for rank in _TENS:
        n = of_rank[rank]
        line_weights = [w * n // m if m else 0 for w in tens[0]]
        assert not m or all(w * n % m == 0 for w in tens[0])
        found.append((line_weights, sum(line_weights)))
    return found


def _weights(products: RankProducts, table: np.ndarray) -> list[LineWeights]:
    """The line weights and total of each rank of `products` on a shoe, `table` the value of
    every factor id on it (int64, whose sums wrap, exact modulo 2**64, or Python ints)."""
    from analyzer.cards.products import factor_products, product_factors

    values = factor_products(table, product_factors(products.keys))
    terms = products.multiplicity.astype(table.dtype) * values[products.index]
    running = np.concatenate([np.zeros(1, dtype=table.dtype), np.cumsum(terms)])
    sums = running[products.bounds[1:]] - running[products.bounds[:-1]]
    found = []
    for at in range(0, len(sums), products.slots):
        line_weights = [int(w) for w in sums[at : at + products.slots].tolist()]
        found.append((line_weights, sum(line_weights)))
    return found


@lru_cache(maxsize=64)
def rank_products(bet: Bet, rules: Rules, position: int, ranks: range) -> RankProducts:
    """`_products_of`, read from the disk cache or computed and cached there."""
    key = plan_key(bet, rules, "by rank", position, ranks.start, ranks.stop)
    slots = len(bet.lines) + 1
    found = read_arrays(key, _STORED)
    if found is not None:
        keys, index, multiplicity, bounds, flags = (found[name] for name in _STORED)
        if (
            keys.ndim == index.ndim == multiplicity.ndim == 1
            and len(index) == len(multiplicity)
            and bounds.shape == (len(ranks) * slots + 1,)
            and bounds[0] == 0
            and bounds[-1] == len(index)
            and bool((np.diff(bounds) >= 0).all())
            and (index.size == 0 or (index.min() >= 0 and index.max() < len(keys)))
            and flags.shape == (1,)
            and 0 <= int(flags[0]) <= 1
        ):
            return RankProducts(ranks, slots, keys, index, multiplicity, bounds, bool(flags[0]))
    products = _products_of(bet, rules, position, ranks)
    stored = (products.keys, products.index, products.multiplicity, products.bounds)
    flags = np.array([int(products.tens_refined)], dtype=np.int64)
    write_arrays(key, **dict(zip(_STORED, (*stored, flags), strict=True)))
    return products


def _products_of(bet: Bet, rules: Rules, position: int, ranks: range) -> RankProducts:
    """The products of the plan of `bet` on the rows whose card at `position` is of `ranks`
    (the ten-valued ranks: the rows by rank a shown ten takes), their lines numbered by
    (rank - ranks.start) * slots + line."""
    from analyzer.cards.products import grouped_products

    rows = plan_rows(bet, rules, {position: (_TENS[0], None)} if ranks == _TENS else {})
    symbols = rows.ranks[:, position]
    plan, parts = plan_in_parts(bet, rules, {}, (symbols >= ranks.start) & (symbols < ranks.stop), rows)
    slots = plan.slots
    group = (rows.ranks[plan.chosen, position].astype(np.int64) - ranks.start) * slots
    settled = np.where(plan.settled >= 0, group + plan.settled, plan.settled)
    refined_group = group[plan.refined]
    tens_refined = bool(rows.by_value and (refined_group == 9 * slots).any())
    by_rank = replace(plan, settled=settled, slots=len(ranks) * slots)
    grouped = (
        replace(part, lines=tuple(refined_group[part.parent] + lines for lines in part.lines))
        for part in parts
    )
    keys, lines = grouped_products(by_rank, grouped)
    column, index = np.nonzero(lines.T)  # column by column
    bounds = np.searchsorted(column, np.arange(lines.shape[1] + 1)).astype(np.int64)
    multiplicity = lines[index, column]
    return RankProducts(ranks, slots, keys, index.astype(np.int64), multiplicity, bounds, tens_refined)
