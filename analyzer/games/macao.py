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
(integers scaled by the count of draw sequences, one Fraction per start), for every threshold;
the best threshold is reported with all the others.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from itertools import product
from math import perm

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
    """Exact recursion over (non-ten cards left, both hands); memoised across thresholds.

    The recursion runs on integers: a node with `s` non-ten cards left and at most `r` draws
    still to come (r = 2 max_cards - cards held) returns its expectation times the number of
    ordered draw sequences `s (s-1) ... (s-r+1)` (`9**r` for the infinite shoe), so a draw is
    a plain weighted sum of its children and one Fraction is made per coup.
    """

    def __init__(self, shoe: Shoe, model: MacaoModel) -> None:
        self.model = model
        self.infinite = shoe.counts is None
        self.counts = (4, *([1] * 9)) if shoe.counts is None else shoe.value_counts()
        self.banker = lru_cache(maxsize=None)(self._banker)
        self.player = lru_cache(maxsize=None)(self._player)
        self.sequences = lru_cache(maxsize=None)(self._sequences)
        self.draws = lru_cache(maxsize=None)(self._draws)
        # adds[value][card]: a hand's value after adding card (`MacaoModel.add`, tabulated).
        self.adds = tuple(tuple(model.add(value, card) for card in range(10)) for value in range(BUST))

    def _sequences(self, left_total: int, draws: int) -> int:
        """The scale of a node: ordered sequences of `draws` draws from `left_total` non-tens."""
        return 9**draws if self.infinite else perm(left_total, draws)

    def _draws(self, left: tuple[int, ...]) -> list[tuple[int, int, tuple[int, ...]]]:
        """(card 1-9, ways, non-ten counts after) for the next non-ten card: its probability is
        ways / sum(left) (ways 1 of 9 for the infinite shoe)."""
        if self.infinite:
            return [(v, 1, left) for v in range(1, 10)]
        out = []
        for v in range(1, 10):
            if left[v - 1]:
                after = list(left)
                after[v - 1] -= 1
                out.append((v, left[v - 1], tuple(after)))
        return out

    def _draws_left(self, pc: int, bc: int) -> int:
        return 2 * self.model.max_cards - pc - bc

    def _banker(self, left: tuple[int, ...], pv: int, pc: int, bv: int, bc: int) -> int:
        """The banker's node, scaled by `sequences` (see the class docstring)."""
        m = self.model
        if bv != BUST and bv <= m.banker_draws_to and bc < m.max_cards and sum(left) > 0:
            adds = self.adds[bv]
            return sum(w * self.banker(after, pv, pc, adds[v], bc + 1) for v, w, after in self.draws(left))
        return _settle(m, pv, pc, bv, bc) * self.sequences(sum(left), self._draws_left(pc, bc))

    def _player(self, left: tuple[int, ...], pv: int, pc: int, bv: int, bc: int, t: int) -> int:
        """The player's node with threshold t, scaled by `sequences` (see the class docstring)."""
        m = self.model
        if pv == BUST:
            return -self.sequences(sum(left), self._draws_left(pc, bc))
        if pv <= t and pc < m.max_cards and sum(left) > 0:
            adds = self.adds[pv]
            return sum(
                w * self.player(after, adds[v], pc + 1, bv, bc, self.threshold(pc + 1, adds[v], t))
                for v, w, after in self.draws(left)
            )
        return self.banker(left, pv, pc, bv, bc)

    def threshold(self, pc: int, pv: int, t: int) -> int:
        """The threshold `player` is called with for a node of `pc` cards and value `pv`: 9
        where the node's value is the same for every threshold that reaches it (it holds the
        most cards; or it draws its last card, pv <= t, and the children stand whatever t
        is), so that those thresholds share one cached value; else t."""
        last = self.model.max_cards
        return 9 if pc >= last or (pc + 1 == last and pv <= t) else t

    def deals(self) -> tuple[dict[tuple[int, int, tuple[int, ...]], int], int]:
        """Each start (player's value, banker's value, non-ten counts left) with its number of
        ordered deals, and the number of ordered deals in all (the probability's denominator)."""
        n = self.model.start
        size = 13 if self.infinite else sum(self.counts)
        out: dict[tuple[int, int, tuple[int, ...]], int] = {}
        for cards in product(range(10), repeat=2 * n):
            left = list(self.counts)
            ways = 1
            for v in cards:
                ways *= left[v]
                if not self.infinite:
                    left[v] -= 1
            if ways:
                key = (self.start_value(cards[:n]), self.start_value(cards[n:]), tuple(left[1:]))
                out[key] = out.get(key, 0) + ways
        total = size ** (2 * n) if self.infinite else perm(size, 2 * n)
        return out, total

    def start_value(self, cards: tuple[int, ...]) -> int:
        value = 0
        for card in cards:
            value = self.model.add(value, card)
        return value

    def expectation(self, t: int, deals: tuple[dict[tuple[int, int, tuple[int, ...]], int], int]) -> Fraction:
        """The player's expectation per unit staked with threshold t."""
        return self._expectation(t, deals, naturals_only=False)

    def naturals(self, deals: tuple[dict[tuple[int, int, tuple[int, ...]], int], int]) -> Fraction:
        """The part of the expectation from coups that end on a natural."""
        return self._expectation(-1, deals, naturals_only=True)

    def _expectation(
        self, t: int, deals: tuple[dict[tuple[int, int, tuple[int, ...]], int], int], naturals_only: bool
    ) -> Fraction:
        """The expectation's sum, in integers per coup scale, over every start (with
        `naturals_only`, over the starts with a natural)."""
        starts, total = deals
        sums: dict[int, int] = {}  # a coup's scale -> the sum of ways times scaled value
        for (pv, bv, left), ways in starts.items():
            if naturals_only and not {pv, bv} & {8, 9}:
                continue
            value, scale = self._coup(pv, bv, left, t)
            sums[scale] = sums.get(scale, 0) + ways * value
        return sum((Fraction(value, scale * total) for scale, value in sums.items()), Fraction(0))

    def _coup(self, pv: int, bv: int, left: tuple[int, ...], t: int) -> tuple[int, int]:
        """A start's value to the player as (value times scale, scale)."""
        if pv == BUST:  # only Victoria's two-card start can bust
            return -1, 1
        if pv in (8, 9) or bv in (8, 9):
            if pv in (8, 9) and not (bv in (8, 9) and bv >= pv):
                return (3 if pv == 9 else 2), 1
            return -1, 1
        n = self.model.start
        value = self.player(left, pv, n, bv, n, self.threshold(n, pv, t))
        return value, self.sequences(sum(left), self._draws_left(n, n))


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
