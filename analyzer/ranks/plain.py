"""The plain enumerator: nested loops over card ranks, the independent slow path.

It shares nothing with the compiled enumerator but the rules object and the Outcome
type: it walks every rank sequence of a coup card by card, multiplying the number of
cards of each rank left in the shoe. Used by tests as the reference and by the benchmark
as the baseline.
"""

from __future__ import annotations

from collections.abc import Callable
from math import perm

from analyzer.core.outcome import CARDS_PER_COUP, Outcome
from analyzer.core.ranks import RANK_POINTS
from analyzer.core.rules import STANDARD, Rules
from analyzer.core.shoe import Shoe
from analyzer.ranks.enumeration import Distribution

__all__ = ["plain_distribution"]


def plain_distribution(shoe: Shoe, rules: Rules = STANDARD) -> Distribution:
    """The exact outcome distribution, by walking every rank sequence (slow).

    >>> from analyzer import Shoe, distribution, plain_distribution
    >>> ten = Shoe.from_counts([1] * 10 + [0] * 3)  # A, 2, ..., 10 once each
    >>> plain = plain_distribution(ten)
    >>> plain.weights == distribution(ten).weights, plain.total == 10 * 9 * 8 * 7 * 6 * 5
    (True, True)
    """
    infinite = shoe.counts is None
    left = [1] * 13 if shoe.counts is None else list(shoe.counts)
    size = 13 if infinite else shoe.size
    ranks = range(13)
    weights: dict[Outcome, int] = {}

    def take(r: int) -> int:
        """Number of ways to draw rank r now; removes one card (finite shoes)."""
        ways = left[r]
        if not infinite:
            left[r] -= 1
        return ways

    def give(r: int) -> None:
        if not infinite:
            left[r] += 1

    def settle(w: int, cards: int, outcome: Outcome) -> None:
        # Ordered 6-card-sequence convention: the unused cards may follow in any order.
        rest = 13 ** (CARDS_PER_COUP - cards) if infinite else perm(size - cards, CARDS_PER_COUP - cards)
        weights[outcome] = weights.get(outcome, 0) + w * rest

    for p1 in ranks:
        w1 = take(p1)
        for b1 in ranks:
            w2 = w1 * take(b1)
            for p2 in ranks:
                w3 = w2 * take(p2)
                for b2 in ranks:
                    w4 = w3 * take(b2)
                    if w4:
                        _finish(rules, (p1, p2), (b1, b2), w4, take, give, settle)
                    give(b2)
                give(p2)
            give(b1)
        give(p1)
    total = 13**CARDS_PER_COUP if infinite else perm(size, CARDS_PER_COUP)
    return Distribution(shoe=shoe, rules=rules, weights=weights, total=total)


def _finish(
    rules: Rules,
    player: tuple[int, int],
    banker: tuple[int, int],
    w: int,
    take: Callable[[int], int],
    give: Callable[[int], None],
    settle: Callable[[int, int, Outcome], None],
) -> None:
    """Play out the coup after the deal, drawing third cards rank by rank."""
    p = (RANK_POINTS[player[0]] + RANK_POINTS[player[1]]) % 10
    b = (RANK_POINTS[banker[0]] + RANK_POINTS[banker[1]]) % 10
    pairs = (player[0] == player[1], banker[0] == banker[1])

    def outcome(pf: int, bf: int, np_: int, nb: int, natural: bool) -> Outcome:
        return Outcome(p, b, pf, bf, np_, nb, natural, *pairs)

    if rules.is_natural(p) or rules.is_natural(b):
        settle(w, 4, outcome(p, b, 2, 2, True))
        return
    if not rules.player_draws_on(p):
        if rules.banker_draws_on(b, None):
            for r3 in range(13):
                w5 = w * take(r3)
                if w5:
                    settle(w5, 5, outcome(p, (b + RANK_POINTS[r3]) % 10, 2, 3, False))
                give(r3)
        else:
            settle(w, 4, outcome(p, b, 2, 2, False))
        return
    for r3 in range(13):
        w5 = w * take(r3)
        if w5:
            v = RANK_POINTS[r3]
            pf = (p + v) % 10
            if rules.banker_draws_on(b, v):
                for r4 in range(13):
                    w6 = w5 * take(r4)
                    if w6:
                        settle(w6, 6, outcome(pf, (b + RANK_POINTS[r4]) % 10, 3, 3, False))
                    give(r4)
            else:
                settle(w5, 5, outcome(pf, b, 3, 2, False))
        give(r3)
