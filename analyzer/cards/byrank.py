"""Card-level bets given the rank of the card at one of the first four positions, for every
rank at once (`baccarat known`): what `analyzer.cards.engine.card_line_weights` gives for
the shown card `{position: (rank, None)}`, one rank at a time, from one plan per bet of the
rows of every rank instead of 13 plans, each row weighed once.

A plan settles each row alone (whatever else is shown), so the plan of the rows of every rank
at `position`, its line weights summed by (rank at `position`, line), holds the 13 shown-card
results: the same exact integers. Rows by point value (for bets that never tell a 10 from a
king) serve the ranks A-9; the ten-valued ranks, told apart, take the rows by rank where
`position` holds one, as a shown 10, J, Q or K does, unless the bet reads no suit there or
those ranks hold alike cards of every suit (whole decks): then each takes its share of the
ten-valued cards' weights. A row no shoe card can deal is left out, as the engine leaves it
out of a small shoe's plan.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from analyzer.cards.engine import (
    ANY_SUIT,
    _exact_sums,
    _factors,
    _part_sums,
    _plan_rows,
    _weigh_ranks,
    check_suits_known,
    plan_in_parts,
)
from analyzer.cards.rows import CoupRows
from analyzer.core.bets import Bet
from analyzer.core.rules import STANDARD, Rules
from analyzer.core.shoe import Shoe

__all__ = ["rank_line_weights"]

_TENS = range(9, 13)  # the ten-valued ranks (10, J, Q, K), as indexes into RANKS
_SUMS = 1 << 19  # rows summed at a time (the engine's float sums are exact below 2**20 rows)

LineWeights = tuple[list[int], int]  # each line's weight (last: no line matched), the total


def rank_line_weights(
    bets: Sequence[Bet], shoe: Shoe, position: int, rules: Rules = STANDARD
) -> list[list[LineWeights]]:
    """For each bet, for each rank r (indexes into RANKS): the line weights and total of
    `card_line_weights(bet, shoe, rules, {position: (r, None)})`, `position` 0-3 (p1, b1,
    p2, b2). The bets' suits must be priceable on `shoe` (`check_suits_known`)."""
    weighed: dict[tuple[int, int], tuple[CoupRows, np.ndarray, np.ndarray]] = {}

    def group(bet: Bet, rows: CoupRows, ranks: range) -> tuple[list[LineWeights], bool]:
        key = (id(rows), ranks.start)
        if key not in weighed:
            weighed[key] = _live_rows(rows, shoe, position, ranks)
        return _group_weights(bet, rules, shoe, position, ranks, *weighed[key])

    settled: dict[tuple[Any, ...], list[LineWeights]] = {}  # by the bet's conditions
    found = []
    for bet in bets:
        check_suits_known(bet, shoe, {})
        conditions = tuple(line.when for line in bet.lines)
        if conditions not in settled:
            rows = _plan_rows(bet, rules, {})
            by_rank, tens_refined = group(bet, rows, range(10 if rows.by_value else 13))
            if rows.by_value:  # symbol 9 is every ten-valued rank: 10, J, Q and K told apart
                tens = by_rank.pop()
                if tens_refined and not _tens_alike(shoe):  # suits read there: the rows by rank
                    by_rank += group(bet, _plan_rows(bet, rules, {position: (_TENS[0], None)}), _TENS)[0]
                else:
                    by_rank += _tens_shares(tens, shoe)
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


def _tens_shares(tens: LineWeights, shoe: Shoe) -> list[LineWeights]:
    """The line weights of each ten-valued rank at the position from those of every
    ten-valued card, where no suit is read: each row's weight holds the factor m (the
    ten-valued cards) for the position, which a rank's n replaces (the cards that follow
    are counted alike), so each rank takes n / m of every line, exactly."""
    of_rank, of_value = _factors(shoe, False).sizes, _factors(shoe, True).sizes
    m = int(of_value[9, ANY_SUIT])
    found = []
    for rank in _TENS:
        n = int(of_rank[rank, ANY_SUIT])
        line_weights = [w * n // m if m else 0 for w in tens[0]]
        assert not m or all(w * n % m == 0 for w in tens[0])
        found.append((line_weights, sum(line_weights)))
    return found


def _live_rows(
    rows: CoupRows, shoe: Shoe, position: int, ranks: range
) -> tuple[CoupRows, np.ndarray, np.ndarray]:
    """The rows whose card at `position` is of `ranks` and that the shoe can deal: the rows,
    which of them (a mask of every row) and their rank-level weights."""
    symbols = rows.ranks[:, position]
    chosen = np.flatnonzero((symbols >= ranks.start) & (symbols < ranks.stop))
    subset = replace(
        rows, ranks=rows.ranks[chosen], outcome=rows.outcome[chosen], repeats=rows.repeats[chosen]
    )
    weights = _weigh_ranks(subset, _factors(shoe, rows.by_value))
    live = weights != 0
    alive = np.zeros(len(rows.ranks), dtype=bool)
    alive[chosen[live]] = True
    return rows, alive, weights[live]


def _group_weights(
    bet: Bet,
    rules: Rules,
    shoe: Shoe,
    position: int,
    ranks: range,
    rows: CoupRows,
    alive: np.ndarray,
    weights: np.ndarray,
) -> tuple[list[LineWeights], bool]:
    """The line weights of `bet` for each rank (or symbol) of `ranks` at `position`, from one
    plan of the `alive` rows (`weights`, their rank-level weights in row order), and whether
    the plan refines by suit a row whose `position` holds the ten-valued symbol 9."""
    plan, parts = plan_in_parts(bet, rules, {}, alive, rows)
    slots, f = plan.slots, _factors(shoe, rows.by_value)
    size = len(ranks) * slots
    group = (rows.ranks[plan.chosen, position].astype(np.int64) - ranks.start) * slots
    keep = plan.settled >= 0
    sums = _sums(group[keep] + plan.settled[keep], weights[keep], size)
    refined_group = group[plan.refined]
    tens_refined = bool(rows.by_value and (refined_group == 9 * slots).any())
    for part in parts:
        grouped = replace(part, lines=tuple(refined_group[part.parent] + lines for lines in part.lines))
        extra = _part_sums(grouped, np.ones(len(part.parent), dtype=bool), f, size)
        sums = [a + b for a, b in zip(sums, extra, strict=True)]
    found = [sums[at : at + slots] for at in range(0, size, slots)]
    return [(line_weights, sum(line_weights)) for line_weights in found], tens_refined


def _sums(keys: np.ndarray, weights: np.ndarray, size: int) -> list[int]:
    """Exact sums of `weights` by `keys` (the engine's, a bounded number of rows at a time)."""
    sums = [0] * size
    for at in range(0, len(keys), _SUMS):
        extra = _exact_sums(keys[at : at + _SUMS], weights[at : at + _SUMS], size)
        sums = [a + b for a, b in zip(sums, extra, strict=True)]
    return sums
