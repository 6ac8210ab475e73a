"""Exact enumeration of a coup: outcome distributions for any shoe, from the compiled coup
classes (`analyzer.ranks.compiler`) or, for full decks, from each outcome's polynomial in
the number of decks (`analyzer.ranks.polynomials`).

Weights follow the ordered 6-card-sequence convention: a coup that uses k cards is
counted once for every ordering of the 6 - k cards that would follow it, so the weights
of a finite shoe of N cards sum to N(N-1)...(N-5). For the infinite deck the weights sum
to 13**6 and each rank sequence of k cards has weight 13**(6-k).

>>> from analyzer import Shoe
>>> dist = distribution(Shoe.decks(8))
>>> dist.winner_counts()["tie"], dist.total
(475627426473216, 4998398275503360)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypeVar

from analyzer.core.conventions import check_arguments
from analyzer.core.outcome import Outcome, Winner
from analyzer.core.rules import STANDARD, Rules
from analyzer.core.shoe import Shoe
from analyzer.ranks.coupstore import StoredClasses, stored_classes
from analyzer.ranks.polynomials import full_decks, outcome_polynomials

if TYPE_CHECKING:  # the compiler loads when a shoe is not full decks: `odds --decks 8` needs none
    from analyzer.ranks.compiler import CoupClasses

__all__ = [
    "Distribution",
    "class_distribution",
    "compile_rules",
    "distribution",
    "forget_distributions",
    "winner_weights",
]

K = TypeVar("K")


@lru_cache(maxsize=32)
def compile_rules(rules: Rules = STANDARD) -> CoupClasses:
    """The coup classes of `rules` (cached per rules): read from the shipped or cached
    compiled file (see analyzer.ranks.coupstore), compiled by `compile_fresh` when there is none."""
    import numpy as np

    from analyzer.ranks.compiler import CoupClasses

    stored = stored_classes(rules)
    a = stored.arrays
    basis = np.array(a["basis"], dtype=np.int64).reshape(-1, 11)
    return CoupClasses(
        rules=rules,
        outcomes=stored.outcomes,
        basis=basis[:, 1:].copy(),
        basis_zero_kind=basis[:, 0].copy(),
        basis_cards=basis[:, 1:].sum(axis=1),
        entry_outcome=np.array(a["entry_outcome"], dtype=np.int64),
        entry_basis=np.array(a["entry_basis"], dtype=np.int64),
        entry_coef=np.array(a["entry_coef"], dtype=np.int64),
    )


@dataclass(frozen=True, eq=False)
class Distribution:
    """Exact outcome distribution of one coup from `shoe` under `rules`.

    `weights[outcome] / total` is the outcome's probability. For finite shoes the weights
    are counts of ordered 6-card sequences (total = N(N-1)...(N-5)); for the infinite deck
    the total is 13**6. `classes` (optional) are the stored coup classes the weights came
    from, in their order, which lets `analyze` price bets with per-column lookups.
    """

    shoe: Shoe
    rules: Rules
    weights: dict[Outcome, int]
    total: int
    classes: StoredClasses | None = field(default=None, repr=False, compare=False)
    weight_list: list[int] | None = field(default=None, repr=False, compare=False)

    def count(self, event: Callable[[Outcome], bool]) -> int:
        """Weight of the outcomes where `event` holds (6-card sequences for finite shoes)."""
        return sum(w for outcome, w in self.weights.items() if event(outcome))

    def probability(self, event: Callable[[Outcome], bool]) -> Fraction:
        """Exact probability of `event`."""
        return Fraction(self.count(event), self.total)

    def conditional(self, event: Callable[[Outcome], bool], given: Callable[[Outcome], bool]) -> Fraction:
        """Exact probability of `event` given `given` (which must have positive probability)."""
        return Fraction(self.count(lambda o: event(o) and given(o)), self.count(given))

    def group(self, key: Callable[[Outcome], K]) -> dict[K, int]:
        """Weights summed by `key` of the outcome."""
        result: dict[K, int] = {}
        for outcome, w in self.weights.items():
            k = key(outcome)
            result[k] = result.get(k, 0) + w
        return result

    def winner_counts(self) -> dict[Winner, int]:
        """Weights of a Banker win, a Player win and a tie."""
        counts = self.group(lambda o: o.winner)
        return {w: counts.get(w, 0) for w in (Winner.BANKER, Winner.PLAYER, Winner.TIE)}

    def winner_probabilities(self) -> dict[Winner, Fraction]:
        return {w: Fraction(c, self.total) for w, c in self.winner_counts().items()}

    # -- notebook use (the weights print as 1.3 million characters: keep them out) ------------

    def __repr__(self) -> str:
        shown = ", ".join(f"{w} {float(p):.6f}" for w, p in self.winner_probabilities().items())
        return f"Distribution({self.shoe}, {self.rules.name} rules: {len(self.weights):,} outcomes; {shown})"

    def to_frame(self, exact: bool = True) -> Any:
        """A pandas DataFrame, one row per distinct outcome: its fields, weight and exact
        probability (a float with `exact=False`)."""
        from analyzer.core.frames import frame

        rows = [(*o, o.winner.value, w, Fraction(w, self.total)) for o, w in self.weights.items()]
        return frame(rows, [*Outcome._fields, "winner", "weight", "probability"], exact=exact)


def distribution(shoe: Shoe, rules: Rules = STANDARD) -> Distribution:
    """The exact outcome distribution of one coup dealt from `shoe`: for full decks of a
    built-in tableau, each outcome's weight polynomial in the number of decks (see
    analyzer.ranks.polynomials), else the coup classes (the same weights). The last few are
    kept (`baccarat report` asked for 14 distributions 58 times: 0.5 CPU s, 0.1 once each),
    and each call gets its own copy of the weights, holding `shoe` and `rules` as given (an
    equal shoe may differ in its label and card types)."""
    check_arguments("distribution()", shoe=shoe, rules=rules)
    kept = _distribution_of(shoe, rules)
    weight_list = None if kept.weight_list is None else list(kept.weight_list)
    return replace(kept, shoe=shoe, rules=rules, weights=dict(kept.weights), weight_list=weight_list)


def forget_distributions() -> None:
    """Forget the distributions `distribution` keeps (so a timing measures the work itself)."""
    _distribution_of.cache_clear()


@lru_cache(maxsize=8)  # about 0.6 MB each
def _distribution_of(shoe: Shoe, rules: Rules) -> Distribution:
    """`distribution` of checked arguments (of an equal shoe and rules)."""
    stored = stored_classes(rules)
    d = full_decks(shoe)
    polys = None if d is None else outcome_polynomials(rules)
    if d is not None and polys is not None and polys.matches(stored):
        weights, total = polys.outcome_weights(d), polys.total(d)
        return _distribution(shoe, rules, stored, weights, total)
    return class_distribution(shoe, rules)


def class_distribution(shoe: Shoe, rules: Rules = STANDARD) -> Distribution:
    """The exact outcome distribution of one coup dealt from `shoe`, from the coup classes."""
    from analyzer.ranks.compiler import shoe_factors

    stored = stored_classes(rules)
    ff, zero, tail, total = shoe_factors(shoe)
    weights = stored.outcome_weights(stored.monomial_values(ff, zero, tail))
    return _distribution(shoe, rules, stored, weights, total)


def _distribution(
    shoe: Shoe, rules: Rules, stored: StoredClasses, weights: list[int], total: int
) -> Distribution:
    return Distribution(
        shoe=shoe,
        rules=rules,
        weights={o: w for o, w in zip(stored.outcomes, weights, strict=True) if w},
        total=total,
        classes=stored,
        weight_list=weights,
    )


def winner_weights(shoe: Shoe, rules: Rules = STANDARD) -> tuple[dict[Winner, int], int]:
    """Weights of a Banker win, a Player win and a tie, and the total weight: the same
    figures as `distribution(shoe, rules).winner_counts()`, from three folded coefficient rows
    (full decks of a built-in tableau: three polynomials in the number of decks)."""
    d = full_decks(shoe)
    polys = None if d is None else outcome_polynomials(rules)
    if d is not None and polys is not None:
        banker, player, tie = polys.winner_weights(d)
        return {Winner.BANKER: banker, Winner.PLAYER: player, Winner.TIE: tie}, polys.total(d)
    from analyzer.ranks.compiler import shoe_factors

    stored = stored_classes(rules)
    ff, zero, tail, total = shoe_factors(shoe)
    banker, player, tie = stored.winner_weights(stored.monomial_values(ff, zero, tail))
    return {Winner.BANKER: banker, Winner.PLAYER: player, Winner.TIE: tie}, total
