"""A card-level bet's lines as conditions (each a rank-level outcome field or a card-level
field of `analyzer.core.fields`, evaluated on arrays of coup rows), and its payouts as
integers over one denominator."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from math import lcm
from typing import Any

import numpy as np

from analyzer.core.bets import FIELDS, Bet
from analyzer.core.errors import AnalyzerError, quoted
from analyzer.core.fields import CardField, CardRows, card_field
from analyzer.core.outcome import Outcome

__all__ = [
    "Condition",
    "LazyPayoffs",
    "bet_conditions",
    "bet_payoffs",
    "bet_slots",
    "condition_holds",
    "needs_coup",
    "needs_ranks",
    "outcome_table",
]


@dataclass(frozen=True)
class Condition:
    """One condition of a line: a field name and its allowed values."""

    name: str
    allowed: tuple[Any, ...]
    card: CardField | None  # None: a rank-level Outcome field


def bet_conditions(bet: Bet) -> list[list[Condition]]:
    """Each line of `bet` as its list of conditions."""
    result = []
    for line in bet.lines:
        conds = []
        for name, allowed in line.when:
            card = None if name in FIELDS else card_field(name)
            conds.append(Condition(name, allowed, card))
        result.append(conds)
    return result


_RANK_OUTCOME_FIELDS = {"player_pair", "banker_pair"}


def needs_ranks(lines: list[list[Condition]]) -> bool:
    """Whether a condition tells apart the ten-valued ranks (10, J, Q, K)."""
    return any(
        c.name in _RANK_OUTCOME_FIELDS if c.card is None else c.card.ranks for conds in lines for c in conds
    )


def needs_coup(bet: Bet) -> bool:
    """Whether a condition of `bet` reads past the first four cards (or the outcome)."""
    return any(c.card is None or c.card.coup for conds in bet_conditions(bet) for c in conds)


_TABLES: dict[tuple[int, str, tuple[Any, ...]], tuple[Sequence[Outcome], np.ndarray]] = {}


def outcome_table(outcomes: Sequence[Outcome], name: str, allowed: tuple[Any, ...]) -> np.ndarray:
    """Whether each outcome (and, last, 'no outcome') meets a rank-level condition (cached)."""
    key = (id(outcomes), name, allowed)
    hit = _TABLES.get(key)
    if hit is None or hit[0] is not outcomes:
        read = FIELDS[name][0]
        hit = (outcomes, np.array([read(o) in allowed for o in outcomes] + [False]))
        _TABLES[key] = hit
    return hit[1]


def condition_holds(cond: Condition, rows: CardRows, outcomes: Sequence[Outcome]) -> np.ndarray:
    """Whether each row meets `cond` (rank-level fields read the rows' outcomes)."""
    if cond.card is None:
        return np.asarray(outcome_table(outcomes, cond.name, cond.allowed)[rows.outcome])
    values = cond.card.evaluate(rows)
    if values.dtype == bool:
        return values if cond.allowed == (True,) else np.isin(values, cond.allowed)
    if isinstance(cond.card.values[0], int) and not isinstance(cond.card.values[0], bool):
        wanted = [int(v) for v in cond.allowed]
    else:
        wanted = [cond.card.values.index(v) for v in cond.allowed]  # the values' codes
    if len(values) == 0 or int(values.min()) < 0:
        return np.isin(values, wanted)
    table = np.zeros(max(int(values.max()), *wanted) + 1, dtype=bool)  # a lookup: faster than isin
    table[wanted] = True
    return np.asarray(table[values])


def bet_slots(bets: Sequence[Bet]) -> tuple[range, ...]:
    """Each bet's columns when the bets' line weights stand side by side: its lines, then
    one for no line matched."""
    slots, start = [], 0
    for bet in bets:
        slots.append(range(start, start + len(bet.lines) + 1))
        start += len(bet.lines) + 1
    return tuple(slots)


def bet_payoffs(bets: Sequence[Bet], slots: Sequence[range]) -> tuple[tuple[int, ...], np.ndarray]:
    """Each bet's denominator and its net payouts over it, (all slots, bets) int64: bet i's
    lines are rows `slots[i]` (last: no line matched)."""
    nets = [[bet.net(line) for line in range(len(s))] for bet, s in zip(bets, slots, strict=True)]
    denominators = tuple(lcm(*(n.denominator for n in row)) for row in nets)
    payoffs = np.zeros((slots[-1].stop if slots else 0, len(bets)), dtype=np.int64)
    for i, (row, d) in enumerate(zip(nets, denominators, strict=True)):
        scaled = [int(n * d) for n in row]
        if max(map(abs, scaled)) >= 2**63 or d >= 2**63:
            raise AnalyzerError(
                f"bet {quoted(bets[i].name)}: its payouts, over one denominator, exceed 2**63; "
                "counting takes smaller payouts (edges and effects of removal price any payout)"
            )
        payoffs[slots[i].start : slots[i].stop, i] = scaled
    return denominators, payoffs


class LazyPayoffs:
    """The payoffs of `bets` over `slots` (`bet_payoffs`), built when first asked: line weights
    need none, so a bet whose payouts pass int64 has line weights (`edges` prices from them)
    while its numerators here are refused."""

    bets: tuple[Bet, ...]
    slots: tuple[range, ...]

    @cached_property
    def _priced(self) -> tuple[tuple[int, ...], np.ndarray]:
        return bet_payoffs(self.bets, self.slots)

    @property
    def denominators(self) -> tuple[int, ...]:
        """Each bet's denominator (the lcm of its payouts'): numerators are over it."""
        return self._priced[0]

    @property
    def _payoffs(self) -> np.ndarray:
        return self._priced[1]

    @cached_property
    def _largest_payoff(self) -> int:
        return int(np.abs(self._payoffs).max(initial=1))

    def check_payoffs(self) -> None:
        """An AnalyzerError now, naming the bet, if its payoffs pass int64: for a caller that
        will ask for numerators (effects of removal, counting)."""
        self._priced  # noqa: B018 - built (or refused) here
