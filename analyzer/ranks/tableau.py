"""Every way a coup goes on from its two-card totals, read straight from the tableau: the
continuations of `analyzer.ranks.graph` (the coup graph's walk, in the same order) without
building the graph, so the card engine's rows need no networkx (a test checks they agree).
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from analyzer.core.rules import Rules

__all__ = ["Continuation", "continuations"]


class Continuation(NamedTuple):
    """What follows two-card totals under the rules: third cards drawn and the settlement."""

    player_third: int | None
    banker_third: int | None
    player_total: int
    banker_total: int
    natural: bool


def _banker(rules: Rules, p: int, b: int, v: int | None) -> list[Continuation]:
    """The Banker's turn after the Player's total `p` (third card `v`, None: stood)."""
    if not rules.banker_draws_on(b, v):
        return [Continuation(v, None, p, b, False)]
    return [Continuation(v, w, p, (b + w) % 10, False) for w in range(10)]


@lru_cache(maxsize=32)
def continuations(rules: Rules) -> dict[tuple[int, int], tuple[Continuation, ...]]:
    """For each pair of two-card totals (p, b), every way the coup can go on under `rules`,
    in the order of the coup graph's walk (the Player's third card, then the Banker's)."""
    found: dict[tuple[int, int], tuple[Continuation, ...]] = {}
    for p in range(10):
        for b in range(10):
            if rules.is_natural(p) or rules.is_natural(b):
                found[p, b] = (Continuation(None, None, p, b, True),)
            elif rules.player_draws_on(p):
                found[p, b] = tuple(c for v in range(10) for c in _banker(rules, (p + v) % 10, b, v))
            else:
                found[p, b] = tuple(_banker(rules, p, b, None))
    return found
