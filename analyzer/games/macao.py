"""Macao and Victoria, the ancestors of baccarat: a player's best threshold strategy, exact.

The model, every choice stated (`MacaoModel` holds the parameters):

- One player against the banker (other players' cards are not modelled), dealt from the
  shoe (2 decks by default): macao deals one card each to start, Victoria two. Cards are
  dealt player first, then banker.
- Counting: "modulo" (the later game: the total modulo 10, as in baccarat) or "bust" (the
  early game: the plain sum, ten-valued cards 0; a hand over 9 is bust).
- Naturals: a starting hand worth 9 or 8 is a natural, and naturals end the coup at once.
  A player's natural 9 wins 3 times the stake and a natural 8 twice, unless the banker has
  the same natural (equal value and card count: the banker wins) or a 9 against an 8. A
  banker's natural beats a player without one.
- Otherwise the player draws, one card at a time, while its value is at most the threshold
  t (t = -1: never draws), then the banker draws while its value is at most
  `banker_draws_to` (default 5, the baccarat banker's rule when the player stood); a hand
  holds at most `max_cards` cards (default 3). Drawn cards are face up.
- Refusal: a player may refuse a drawn ten-valued card and take another; a ten adds no value
  but one card (fewer cards win ties), so refusing is always right, and the banker is
  assumed to refuse too. A refused card is discarded. So every draw is the next card of
  value 1-9, whose distribution depends only on the non-ten cards left.
- Bust (early counting): a player who goes over 9 loses at once; a banker who goes over 9
  loses to a player still standing.
- Settlement: the higher value wins; on equal values fewer cards win; equal value and card
  count go to the banker. Wins other than naturals pay even money.

The player's expectation per unit staked is computed by exact recursion over the cards left
(Fractions), for every threshold; the best threshold is reported with all the others.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from itertools import product

from analyzer.core.errors import AnalyzerError, quoted
from analyzer.core.shoe import Shoe

__all__ = ["COUNTINGS", "VARIANTS", "Counting", "MacaoModel", "MacaoResult", "Variant", "solve_macao"]


class Variant(StrEnum):
    """The game: macao deals one card to each hand at the start, Victoria two."""

    MACAO = "macao"
    VICTORIA = "victoria"


class Counting(StrEnum):
    """How a hand is counted: modulo 10 (the later game) or the plain sum, bust over 9 (the early)."""

    MODULO = "modulo"
    BUST = "bust"


#: Cards dealt to each hand at the start.
VARIANTS = {Variant.MACAO: 1, Variant.VICTORIA: 2}
COUNTINGS = tuple(Counting)
BUST = 10  # a hand's value when it is over 9 under bust counting


@dataclass(frozen=True)
class MacaoModel:
    """The stated modelling choices (see the module docstring)."""

    variant: Variant = Variant.MACAO
    counting: Counting = Counting.MODULO
    max_cards: int = 3
    banker_draws_to: int = 5

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise AnalyzerError(f"variant {quoted(self.variant)}: use one of {', '.join(VARIANTS)}")
        if self.counting not in COUNTINGS:
            raise AnalyzerError(f"counting {quoted(self.counting)}: use one of {', '.join(COUNTINGS)}")
        object.__setattr__(self, "variant", Variant(self.variant))  # a name given as a str
        object.__setattr__(self, "counting", Counting(self.counting))
        start = VARIANTS[self.variant]
        if not start <= self.max_cards <= 9:
            raise AnalyzerError(f"max_cards {self.max_cards}: use {start}-9 for {self.variant}")
        if not -1 <= self.banker_draws_to <= 9:
            raise AnalyzerError(f"banker_draws_to {self.banker_draws_to}: use -1 (never draws) to 9")

    @property
    def start(self) -> int:
        return VARIANTS[self.variant]

    def add(self, value: int, card: int) -> int:
        """A hand's value after adding `card` (BUST once over 9 under bust counting)."""
        if self.counting == Counting.MODULO:
            return (value + card) % 10
        return BUST if value + card > 9 else value + card


@dataclass(frozen=True)
class MacaoResult:
    """The player's exact expectation per unit staked for each threshold, and the best one."""

    shoe: Shoe
    model: MacaoModel
    expectations: dict[int, Fraction]  # threshold t (draws while value <= t) -> expectation
    naturals: Fraction  # the part of every expectation from coups that end on a natural

    @property
    def best(self) -> int:
        return max(self.expectations, key=lambda t: (self.expectations[t], -t))

    @property
    def value(self) -> Fraction:
        return self.expectations[self.best]


def _settle(model: MacaoModel, pv: int, pc: int, bv: int, bc: int) -> int:
    """The player's result (+1 or -1) once both hands have finished drawing."""
    if pv == BUST:
        return -1
    if bv == BUST:
        return 1
    if pv != bv:
        return 1 if pv > bv else -1
    return 1 if pc < bc else -1  # equal value: fewer cards win; equal count: the banker


class _Solver:
    """Exact recursion over (non-ten cards left, both hands); memoised across thresholds."""

    def __init__(self, shoe: Shoe, model: MacaoModel) -> None:
        self.model = model
        self.infinite = shoe.counts is None
        self.counts = (4, *([1] * 9)) if shoe.counts is None else shoe.value_counts()
        self.banker = lru_cache(maxsize=None)(self._banker)
        self.player = lru_cache(maxsize=None)(self._player)

    def _draws(self, left: tuple[int, ...]) -> list[tuple[int, Fraction, tuple[int, ...]]]:
        """(card 1-9, probability, non-ten counts after) for the next non-ten card."""
        if self.infinite:
            return [(v, Fraction(1, 9), left) for v in range(1, 10)]
        total = sum(left)
        out = []
        for v in range(1, 10):
            if left[v - 1]:
                after = list(left)
                after[v - 1] -= 1
                out.append((v, Fraction(left[v - 1], total), tuple(after)))
        return out

    def _banker(self, left: tuple[int, ...], pv: int, pc: int, bv: int, bc: int) -> Fraction:
        m = self.model
        if bv != BUST and bv <= m.banker_draws_to and bc < m.max_cards and sum(left) > 0:
            return sum(
                (p * self.banker(after, pv, pc, m.add(bv, v), bc + 1) for v, p, after in self._draws(left)),
                Fraction(0),
            )
        return Fraction(_settle(m, pv, pc, bv, bc))

    def _player(self, left: tuple[int, ...], pv: int, pc: int, bv: int, bc: int, t: int) -> Fraction:
        m = self.model
        if pv == BUST:
            return Fraction(-1)
        if pv <= t and pc < m.max_cards and sum(left) > 0:
            return sum(
                (
                    p * self.player(after, m.add(pv, v), pc + 1, bv, bc, t)
                    for v, p, after in self._draws(left)
                ),
                Fraction(0),
            )
        return self.banker(left, pv, pc, bv, bc)

    def deals(self) -> dict[tuple[int, int, tuple[int, ...]], Fraction]:
        """Probability of each start: (player's value, banker's value, non-ten counts left)."""
        n = self.model.start
        size = 13 if self.infinite else sum(self.counts)
        out: dict[tuple[int, int, tuple[int, ...]], Fraction] = {}
        for cards in product(range(10), repeat=2 * n):
            left = list(self.counts)
            p = Fraction(1)
            for i, v in enumerate(cards):
                if self.infinite:
                    p *= Fraction(self.counts[v], size)
                    continue
                if left[v] == 0:
                    p = Fraction(0)
                    break
                p *= Fraction(left[v], size - i)
                left[v] -= 1
            if p:
                key = (self.start_value(cards[:n]), self.start_value(cards[n:]), tuple(left[1:]))
                out[key] = out.get(key, Fraction(0)) + p
        return out

    def start_value(self, cards: tuple[int, ...]) -> int:
        value = 0
        for card in cards:
            value = self.model.add(value, card)
        return value

    def expectation(self, t: int, deals: dict[tuple[int, int, tuple[int, ...]], Fraction]) -> Fraction:
        """The player's expectation per unit staked with threshold t."""
        return sum((p * self._coup(pv, bv, left, t) for (pv, bv, left), p in deals.items()), Fraction(0))

    def naturals(self, deals: dict[tuple[int, int, tuple[int, ...]], Fraction]) -> Fraction:
        """The part of the expectation from coups that end on a natural."""
        return sum(
            (p * self._coup(pv, bv, left, -1) for (pv, bv, left), p in deals.items() if {pv, bv} & {8, 9}),
            Fraction(0),
        )

    def _coup(self, pv: int, bv: int, left: tuple[int, ...], t: int) -> Fraction:
        if pv == BUST:  # only Victoria's two-card start can bust
            return Fraction(-1)
        if pv in (8, 9) or bv in (8, 9):
            if pv in (8, 9) and not (bv in (8, 9) and bv >= pv):
                return Fraction(3 if pv == 9 else 2)
            return Fraction(-1)
        n = self.model.start
        return self.player(left, pv, n, bv, n, t)


def solve_macao(shoe: Shoe | None = None, model: MacaoModel | None = None) -> MacaoResult:
    """Every threshold's exact expectation (default: 2 decks, macao, modulo counting)."""
    shoe = Shoe.decks(2) if shoe is None else shoe
    model = MacaoModel() if model is None else model
    return _solve(shoe, model)


@lru_cache(maxsize=16)
def _solve(shoe: Shoe, model: MacaoModel) -> MacaoResult:
    if shoe.counts is not None:
        non_tens = shoe.size - shoe.value_counts()[0]
        if shoe.size < 2 * model.start or non_tens < 2 * model.max_cards:
            raise AnalyzerError(
                f"shoe {shoe}: {model.variant} needs at least {2 * model.start} cards and "
                f"{2 * model.max_cards} cards of value 1-9"
            )
    solver = _Solver(shoe, model)
    deals = solver.deals()
    expectations = {t: solver.expectation(t, deals) for t in range(-1, 9)}
    return MacaoResult(shoe=shoe, model=model, expectations=expectations, naturals=solver.naturals(deals))
