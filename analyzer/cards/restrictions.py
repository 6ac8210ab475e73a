"""Coup restrictions: card-level bets on the rank-level outcome and on every card of the
coup lying in a set of card types (the coup's colour, its highest value).

A condition such as "the coup is all red" or "no card is above 5" holds exactly when every
dealt card belongs to one set of card types, and the weight of an outcome on such coups is
the rank-level coup classes (`analyzer.ranks.compiler`) evaluated on the shoe's cards of that
set, with the whole shoe's tails (the cards that would follow come from the whole shoe).
Each value of such a field is a signed sum of these terms (`CardField.within`: mixed colours
are all coups less the red and the black ones; highest value h is "at most h" less "at most
h - 1"), so a bet's line weights are integer combinations of the coup classes on a few
sub-shoes. In a batch each sub-shoe's combination is a `MonomialForm`, one column per line
and number of cards dealt k: the form's tails are the sub-shoe's own, (n-k)_(6-k), which
are divided out and replaced by the whole shoe's (N-k)_(6-k), exactly; a sub-shoe of fewer
than six cards (whose tails vanish) takes the exact row path.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property, lru_cache
from itertools import product
from math import perm

import numpy as np

from analyzer.cards.conditions import LazyPayoffs, bet_conditions, bet_slots, outcome_table
from analyzer.core.bets import Bet
from analyzer.core.outcome import CARDS_PER_COUP
from analyzer.core.ranks import RANKS
from analyzer.core.rules import Rules
from analyzer.core.shoe import Shoe
from analyzer.core.suits import TYPES
from analyzer.ranks.compiler import basis_values
from analyzer.ranks.enumeration import compile_rules
from analyzer.ranks.fast import PinnedForm
from analyzer.ranks.polyeval import MonomialForm

__all__ = ["Restrictions", "restrictions"]

_INT64 = 2**63
#: Shoes per form evaluation: as `analyzer.ranks.fast.FastEvaluator`'s batches, work arrays
#: that stay in cache.
BATCH = 768
Cells = dict[frozenset[int], np.ndarray]  # a set of card types -> (outcomes, slots) signs


def _bet_signs(bet: Bet, outcomes: Sequence[object], offset: int, width: int, signs: Cells) -> None:
    """Add `bet`'s signed terms (columns offset.. of `width`) to `signs`, per set of card types."""
    lines = bet_conditions(bet)
    fields = sorted({c.card.name: c.card for conds in lines for c in conds if c.card is not None}.items())
    rank_truth = {
        c: outcome_table(outcomes, c.name, c.allowed)[:-1]  # type: ignore[arg-type]
        for conds in lines
        for c in conds
        if c.card is None
    }
    everything = frozenset(range(TYPES))
    rows = np.arange(len(outcomes))
    for cell in product(*(field.values for _, field in fields)):
        value = {name: v for (name, _), v in zip(fields, cell, strict=True)}
        line = np.full(len(outcomes), len(lines), dtype=np.int64)
        open_rows = np.ones(len(outcomes), dtype=bool)
        for index, conds in enumerate(lines):
            ok = open_rows.copy()
            for c in conds:
                ok &= rank_truth[c] if c.card is None else value[c.card.name] in c.allowed
            line[ok] = index
            open_rows &= ~ok
        terms: list[tuple[int, frozenset[int]]] = [(1, everything)]
        for (_, field), v in zip(fields, cell, strict=True):
            assert field.within is not None
            terms = [(s * t, a & b) for s, a in terms for t, b in field.within(v)]
        for sign, kinds in terms:
            if kinds:
                table = signs.setdefault(kinds, np.zeros((len(outcomes), width), dtype=np.int64))
                np.add.at(table, (rows, offset + line), sign)


class Restrictions(LazyPayoffs):
    """Exact line weights and expectation numerators of coup-restriction `bets` (see the
    module's text) under `rules`, the bets' slots side by side (`slots[i]` for bet i;
    last of each: no line matched)."""

    def __init__(self, bets: Sequence[Bet], rules: Rules) -> None:
        self.bets = tuple(bets)
        self._classes = compile_rules(rules)
        self.slots = bet_slots(self.bets)
        self.width = self.slots[-1].stop if self.slots else 0
        signs: Cells = {}
        for bet, s in zip(self.bets, self.slots, strict=True):
            _bet_signs(bet, self._classes.outcomes, s.start, self.width, signs)
        self._tables = []  # per set of card types: (outcomes, slots) signs, its cards by rank
        for kinds, table in signs.items():
            ranks = np.zeros((TYPES, len(RANKS)), dtype=np.int64)
            for t in kinds:
                ranks[t, t % len(RANKS)] = 1
            if table.any():
                self._tables.append((table, ranks))
        self._columns: dict[bool, list[tuple[np.ndarray, np.ndarray, np.ndarray, int]]] = {}
        self._forms: dict[bool, list[tuple[MonomialForm, np.ndarray, int]]] = {}

    @cached_property
    def _anchor(self) -> np.ndarray:
        """Each bet's no-line payoff."""
        return np.asarray(self._payoffs[[s.stop - 1 for s in self.slots], range(len(self.bets))])

    @cached_property
    def _shifted(self) -> np.ndarray:
        """The payoffs less each bet's no-line payoff (its own slots only; no line: 0): int64,
        or Python ints where a difference could pass int64."""
        own = np.zeros(self._payoffs.shape, dtype=bool)
        for i, s in enumerate(self.slots):
            own[s, i] = True
        if 2 * self._largest_payoff >= _INT64:  # Python ints (astype(object) gives ints, not int64s)
            return np.asarray(self._payoffs.astype(object) - np.where(own, self._anchor.astype(object), 0))
        return np.asarray(self._payoffs - np.where(own, self._anchor[None, :], 0))

    def _set_columns(self, numerators: bool) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, int]]:
        """Per set: its cards by rank, the basis rows used and their coefficients, a column
        per slot or, with `numerators`, per bet (its payouts less its no-line payout folded
        in), and the largest |coefficient| of an outcome (a column's result is within that
        many times (N)_6)."""
        if numerators not in self._columns:
            classes, found = self._classes, []
            for table, ranks in self._tables:
                coefficient = table @ self._shifted if numerators else table  # (outcomes, columns)
                basis = np.zeros((len(classes.basis), coefficient.shape[1]), dtype=coefficient.dtype)
                terms = classes.entry_coef[:, None] * coefficient[classes.entry_outcome]
                np.add.at(basis, classes.entry_basis, terms)
                keep = np.flatnonzero(basis.any(axis=1))
                if len(keep):
                    found.append((ranks, keep, basis[keep], int(np.abs(coefficient).max())))
            self._columns[numerators] = found
        return self._columns[numerators]

    def _batch_forms(self, numerators: bool) -> list[tuple[MonomialForm, np.ndarray, int]]:
        """`_set_columns` as batch forms: (form, cards by rank, bound per unit of (N)_6)."""
        if numerators not in self._forms:
            classes = self._classes
            self._forms[numerators] = [
                (MonomialForm(classes.basis[keep], classes.basis_zero_kind[keep], coefficients), ranks, scale)
                for ranks, keep, coefficients, scale in self._set_columns(numerators)
            ]
        return self._forms[numerators]

    def exact_row(self, types: np.ndarray, numerators: bool = False) -> list[int]:
        """Line weights (or numerators) of one shoe of 52 card-type counts, in Python ints."""
        shoe = Shoe.from_cards([int(n) for n in types])
        sums = [0] * (len(self.bets) if numerators else self.width)
        for ranks, keep, coefficients, _ in self._set_columns(numerators):
            values = _within_values(self._classes.rules, shoe, tuple(int(n) for n in types @ ranks))
            column = values[keep].astype(object) @ coefficients.astype(object)
            sums = [a + int(b) for a, b in zip(sums, column, strict=True)]
        if numerators:
            total = perm(shoe.size, CARDS_PER_COUP)
            sums = [v + total * int(a) for v, a in zip(sums, self._anchor, strict=True)]
        return sums

    def _sum(self, types: np.ndarray, numerators: bool) -> np.ndarray:
        """(W, columns) the sets' results summed, exact: int64 while the sum of their bounds
        (each set's scale times the largest (N)_6) is below 2**63, so that every partial
        sum is the result itself; else each set's exact result in Python ints."""
        sizes = types.sum(axis=1)
        width = len(self.bets) if numerators else self.width
        largest = perm(int(sizes.max(initial=CARDS_PER_COUP)), CARDS_PER_COUP)
        forms = self._batch_forms(numerators)
        narrow = largest * sum(scale for _, _, scale in forms) < _INT64
        result: np.ndarray = np.zeros((len(types), width), dtype=np.int64 if narrow else object)
        for form, ranks, scale in forms:
            counts = types @ ranks
            values = form.evaluate(counts, largest * scale, sizes)
            if values is None:
                zero = np.zeros(form.columns, dtype=np.int64)
                values = PinnedForm(form, np.eye(form.columns, dtype=np.int64), zero).exact(counts, sizes)
                if values is None:
                    return np.array([self.exact_row(row, numerators) for row in types], dtype=object)
            result = result + (values if narrow else values.astype(object))
        return result

    def _batched(self, types: np.ndarray, numerators: bool) -> np.ndarray:
        """`_sum` over batches of `BATCH` shoes (the forms' work arrays stay in cache)."""
        parts = [self._sum(types[i : i + BATCH], numerators) for i in range(0, len(types), BATCH)]
        if not parts:
            return np.zeros((0, len(self.bets) if numerators else self.width), dtype=np.int64)
        if any(part.dtype == object for part in parts):
            return np.vstack([part.astype(object) for part in parts])
        return np.vstack(parts)

    def weights(self, types: np.ndarray) -> np.ndarray:
        """(W, width) exact line weights of (W, 52) card-type counts (int64 when they fit,
        else Python ints)."""
        return self._batched(types, numerators=False)

    def numerators(self, types: np.ndarray) -> np.ndarray:
        """(W, bets) exact expectation numerators over `denominators` of (W, 52) card-type
        counts (int64 when they fit, else Python ints)."""
        sizes = types.sum(axis=1)
        largest = perm(int(sizes.max(initial=CARDS_PER_COUP)), CARDS_PER_COUP)
        # A numerator sum_l w_l p_l (w_l >= 0 summing to (N)_6) is within +-(N)_6 max |p_l|,
        # its part over the payoffs less the no-line payoff within twice that: int64
        # arithmetic, exact modulo 2**64, gives them below 2**63; else the line weights times
        # the payoffs in Python ints (the int64 sums, wrapped, would be wrong).
        if 2 * largest * self._largest_payoff >= _INT64:
            return np.asarray(self.weights(types).astype(object) @ self._payoffs.astype(object))
        sums = self._batched(types, numerators=True)
        totals = np.ones(len(sizes), dtype=np.int64)
        for k in range(CARDS_PER_COUP):
            totals *= sizes - k
        return np.asarray(sums + totals[:, None] * self._anchor[None, :])


@lru_cache(maxsize=64)
def _within_values(rules: Rules, shoe: Shoe, within: tuple[int, ...]) -> np.ndarray:
    """The coup classes' monomials on the coups of `shoe` that use only the cards `within`
    (rank counts): computed once per shoe and sub-shoe, whichever bets share them (several
    bets on one shoe read its red cards, or all of it)."""
    return basis_values(compile_rules(rules), shoe, list(within))[0]


@lru_cache(maxsize=16)
def restrictions(bets: tuple[Bet, ...], rules: Rules) -> Restrictions:
    """The `Restrictions` of `bets` under `rules`, built once per process."""
    return Restrictions(bets, rules)
