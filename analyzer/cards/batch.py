"""Exact values of card-level bets for many 52-card-type compositions at once.

Each bet takes the cheapest exact path that serves it: a factored form from the cards it
reads (`analyzer.cards.factored`: hand pairs, first-four counts), the coup restrictions
shared by every bet of that shape (`analyzer.cards.restrictions`: the rank-level coup
classes on sub-shoes), else the products of its card-engine plan
(`analyzer.cards.products`). `CardEvaluator.paths` names the path of each bet.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from analyzer.cards.conditions import LazyPayoffs, bet_slots
from analyzer.cards.engine import card_line_weights, check_suits_known, shoe_types
from analyzer.cards.factored import FactoredForm, factored_form, restricted_bet
from analyzer.cards.products import PlanProducts
from analyzer.core.analysis import BetAnalysis, analysis_from_weights
from analyzer.core.bets import Bet
from analyzer.core.conventions import check_arguments
from analyzer.core.errors import AnalyzerError
from analyzer.core.outcome import CARDS_PER_COUP
from analyzer.core.progress import working
from analyzer.core.rules import STANDARD, Rules
from analyzer.core.shoe import Shoe
from analyzer.core.suits import TYPES
from analyzer.ranks.fast import one_blas_thread, sequence_totals

if TYPE_CHECKING:  # the coup classes load only for bets of that shape
    from analyzer.cards.restrictions import Restrictions

__all__ = ["CardEvaluator", "analyze_cards", "card_evaluator", "shoe_line_weights"]

_INT64 = 2**63
#: Shoes valued at once by `CardEvaluator.expectations` (a study's chunk of 200 shoes is about
#: 16,000 coups: their work arrays at once took about 150 MB).
_ROWS = 2048


class CardEvaluator(LazyPayoffs):
    """Exact line weights and expectations of card-level `bets` for batches of finite shoes
    given as (W, 52) card-type counts (or (W, 13) rank counts when no bet reads suits).

    `line_weights` gives every bet's line weights (the columns of `slots[i]` for bet i; last:
    no line matched) in ordered 6-card sequences, as `analyzer.cards.engine.card_line_weights`;
    `expectations` gives numerators over `denominators` and totals, as `FastEvaluator`.

    >>> import numpy as np
    >>> from fractions import Fraction
    >>> from analyzer import CardEvaluator, get_bet
    >>> evaluator = CardEvaluator([get_bet("perfect-pairs-v1")])
    >>> numerators, totals = evaluator.expectations(np.array([[1] * 52, [8] * 52]))  # 1 and 8 decks
    >>> [Fraction(int(n), evaluator.denominators[0] * int(t)) for n, t in zip(numerators[:, 0], totals)]
    [Fraction(-1, 1), Fraction(-220127, 1689465)]
    >>> evaluator.paths
    ('hand pairs',)
    """

    def __init__(self, bets: Sequence[Bet], rules: Rules = STANDARD) -> None:
        self.bets = tuple(bets)
        self.rules = rules
        self.suits = any(bet.needs_suits for bet in self.bets)
        self.slots = bet_slots(self.bets)
        forms = [factored_form(bet) for bet in self.bets]
        self._forms: list[tuple[int, FactoredForm]] = [(i, f) for i, f in enumerate(forms) if f is not None]
        rest = [i for i, f in enumerate(forms) if f is None]
        self._restricted = [i for i in rest if restricted_bet(self.bets[i])]
        self._planned = [i for i in rest if i not in self._restricted]
        self._restrictions: Restrictions | None = None
        if self._restricted:
            from analyzer.cards.restrictions import restrictions

            self._restrictions = restrictions(tuple(self.bets[i] for i in self._restricted), rules)
        self._plans = PlanProducts([self.bets[i] for i in self._planned], rules) if self._planned else None
        #: The plan products evaluated per shoe (0 when every bet takes a factored path).
        self.products = self._plans.products if self._plans is not None else 0
        paths = {i: f.path for i, f in self._forms}
        paths |= {i: "restrictions" for i in self._restricted} | {i: "plan" for i in self._planned}
        #: Each bet's path: hand pairs, first-four counts, restrictions or plan.
        self.paths = tuple(paths[i] for i in range(len(self.bets)))

    def _types(self, counts: np.ndarray) -> np.ndarray:
        """(W, 52) int64 card-type counts, each shoe of at least six cards."""
        counts = np.asarray(counts, dtype=np.int64)
        if counts.ndim != 2 or counts.shape[1] not in (13, TYPES):
            raise AnalyzerError(
                f"compositions of shape {counts.shape}: give (W, 52) card types or (W, 13) ranks"
            )
        if counts.shape[1] == 13:
            if self.suits:
                names = ", ".join(bet.name for bet in self.bets if bet.needs_suits)
                raise AnalyzerError(f"{names} read suits: give the shoes' 52 card-type counts")
            counts = np.hstack([counts, np.zeros((len(counts), TYPES - 13), dtype=np.int64)])  # all as spades
        if counts.min(initial=0) < 0 or counts.sum(axis=1).min(initial=CARDS_PER_COUP) < CARDS_PER_COUP:
            raise AnalyzerError("every composition needs counts >= 0 and at least 6 cards")
        return counts

    def _weights(self, types: np.ndarray) -> np.ndarray:
        """(W, all slots) exact line weights (int64, or Python ints beyond int64)."""
        with one_blas_thread():  # these small products only lose from more threads
            return self._all_weights(types)

    def _all_weights(self, types: np.ndarray) -> np.ndarray:
        parts: list[tuple[list[int], np.ndarray]] = [([i], form.weights(types)) for i, form in self._forms]
        if self._restrictions is not None:
            parts.append((self._restricted, self._restrictions.weights(types)))
        if self._plans is not None:
            parts.append((self._planned, self._plans.line_weights(types)[0]))
        wide = any(w.dtype == object for _, w in parts)
        width = self.slots[-1].stop if self.slots else 0
        weights = np.zeros((len(types), width), dtype=object if wide else np.int64)
        for indexes, w in parts:
            columns = [c for i in indexes for c in self.slots[i]]
            weights[:, columns] = w
        return weights

    def line_weights(self, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(weights (W, all slots), totals (W,)): exact line weights of every bet on every shoe
        (int64 when (N)_6 fits, else Python ints) and each shoe's (N)_6."""
        types = self._types(counts)
        return self._weights(types), sequence_totals(types.sum(axis=1))

    def expectations(self, counts: np.ndarray, batch: int = 32) -> tuple[np.ndarray, np.ndarray]:
        """Exact expectations of every bet: (numerators (W, bets), totals (W,)); bet i's
        expectation on shoe w is numerators[w, i] / (denominators[i] * totals[w]). The plan
        products go `batch` shoes at a time (their work arrays stay in cache)."""
        types = self._types(counts)
        totals = sequence_totals(types.sum(axis=1))
        if totals.dtype == object or int(totals.max(initial=1)) * self._largest_payoff >= _INT64:
            weights = self._weights(types).astype(object)
            return np.asarray(weights @ self._payoffs.astype(object)), totals.astype(object)
        with one_blas_thread():
            return self._numerators(types, batch), totals

    def _numerators(self, types: np.ndarray, batch: int) -> np.ndarray:
        """int64 numerators (W, bets), `_ROWS` shoes at a time (each shoe's row is its own:
        the work arrays of a block, not of every shoe, are held at once)."""
        numerators = np.zeros((len(types), len(self.bets)), dtype=np.int64)
        for at in range(0, len(types), _ROWS):
            part, rows = types[at : at + _ROWS], numerators[at : at + _ROWS]
            for i, form in self._forms:
                rows[:, i] = form.weights(part) @ self._payoffs[self.slots[i], i]
            if self._restrictions is not None:
                rows[:, self._restricted] = self._restrictions.numerators(part)
            if self._plans is not None:
                rows[:, self._planned] = self._plans.expectations(part, batch)[0]
        return numerators


@lru_cache(maxsize=8)
def card_evaluator(bets: tuple[Bet, ...], rules: Rules = STANDARD) -> CardEvaluator:
    """The evaluator of `bets` under `rules`, built once per process."""
    return CardEvaluator(bets, rules)


def shoe_line_weights(bet: Bet, shoe: Shoe, rules: Rules = STANDARD) -> tuple[list[int], int]:
    """`analyzer.cards.engine.card_line_weights` of one shoe by the fastest exact path: a
    factored form, else (a finite shoe of 52 cards or more) the products of the bet's plan,
    computed once and cached on disk by the bet's conditions, else the card engine."""
    if shoe.counts is None or shoe.size < 52 or factored_form(bet) is not None or restricted_bet(bet):
        return card_line_weights(bet, shoe, rules)
    check_suits_known(bet, shoe, {})
    types = shoe_types(shoe)
    with working(f"{bet.name}: its plan's products (cached after the first run)"):
        evaluator = card_evaluator((bet,), rules)
    weights, totals = evaluator.line_weights(np.array([types]))
    return [int(w) for w in weights[0]], int(totals[0])


def analyze_cards(bet: Bet, shoe: Shoe, rules: Rules = STANDARD) -> BetAnalysis:
    """Exact figures of a card-level bet on `shoe` (as `analyzer.analyses.pricing.analyze`).

    >>> from analyzer import Shoe, analyze_cards, get_bet
    >>> bet = get_bet("perfect-pairs-v1")  # one deck holds no two identical cards
    >>> analyze_cards(bet, Shoe.decks(1)).house_edge, analyze_cards(bet, Shoe.decks(8)).house_edge
    (Fraction(1, 1), Fraction(220127, 1689465))
    """
    check_arguments("analyze_cards()", bet=bet, shoe=shoe, rules=rules)
    weights, total = shoe_line_weights(bet, shoe, rules)
    return analysis_from_weights(bet, weights, total, finite=not shoe.is_infinite)
