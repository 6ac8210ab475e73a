"""Effects of removal: the exact change in a bet's expectation per unit bet from removing
one card from the shoe. One entry, `effects_of_removal`, takes any bets: rank-level bets per
rank (every removal valued together by the rank-level batch evaluator), card-level bets per
card type when they read suits or colours and per rank otherwise (by the card-level batch
evaluator). `card_effects_of_removal` and `removal_effects` are its old names (deprecated).

Identity: over a shoe the effects weighted by the counts sum to zero, sum_r n_r EoR_r = 0,
because removing a random card leaves the expectation unchanged.

>>> from analyzer import Shoe, get_bet
>>> eor = effects_of_removal([get_bet("tie")], Shoe.decks(8))
>>> eor.effects["tie"]["6"]
Fraction(-103136982128, 88947191534565)
>>> sum(32 * effect for effect in eor.effects["tie"].values())
Fraction(0, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from analyzer.cards.batch import analyze_cards, card_evaluator
from analyzer.core.bets import Bet, check_card_bets
from analyzer.core.conventions import check_arguments
from analyzer.core.errors import AnalyzerError, quoted
from analyzer.core.outcome import CARDS_PER_COUP
from analyzer.core.progress import steps
from analyzer.core.ranks import RANKS
from analyzer.core.renames import renamed_function, warn_renamed
from analyzer.core.rules import STANDARD, Rules
from analyzer.core.shoe import Shoe
from analyzer.core.suits import TYPES, card_name
from analyzer.ranks.fast import FastEvaluator, expectations_by_bet

__all__ = [
    "CardEffects",
    "EffectsOfRemoval",
    "EstimateQuality",
    "RemovalEffects",
    "card_effects_of_removal",
    "effects_of_removal",
    "estimate_quality",
    "linear_estimates",
    "removal_effects",
]


# -- rank-level bets ----------------------------------------------------------------------


@dataclass(frozen=True)
class EffectsOfRemoval:
    """Exact change in each bet's expectation per unit bet from removing one card of each
    rank from `shoe`, by bet name then rank; `base` holds the shoe's own expectations."""

    shoe: Shoe
    rules: Rules
    base: dict[str, Fraction]
    effects: dict[str, dict[str, Fraction]]

    @property
    def identity(self) -> dict[str, Fraction]:
        """sum_r n_r * EoR_r of each bet over the shoe's counts: exactly 0."""
        counts = dict(zip(map(str, RANKS), self.shoe.counts or (), strict=False))
        return {
            bet: sum((counts[rank] * value for rank, value in effects.items()), Fraction(0))
            for bet, effects in self.effects.items()
        }

    @property
    def by_rank(self) -> dict[str, dict[str, Fraction]]:
        """The effects per rank: `effects` itself (as `RemovalEffects.by_rank`)."""
        return self.effects

    # -- notebook use --------------------------------------------------------------------

    def __repr__(self) -> str:
        return f"EffectsOfRemoval({self.shoe}, {self.rules.name} rules: {', '.join(self.effects)})"

    def to_frame(self, exact: bool = True) -> Any:
        """A pandas DataFrame: one row per rank removed, one column per bet, exact Fractions
        (floats with `exact=False`)."""
        return _rank_frame(self.effects, exact)


def _rank_frame(effects: dict[str, dict[str, Fraction]], exact: bool = True) -> Any:
    """Effects per rank as a pandas DataFrame: a row per rank removed, a column per bet."""
    from analyzer.core.frames import frame

    ranks = list(next(iter(effects.values()))) if effects else []
    rows = [(rank, *(by_bet[rank] for by_bet in effects.values())) for rank in ranks]
    return frame(rows, ["rank", *effects], index="rank", exact=exact)


def _finite_counts(shoe: Shoe) -> tuple[int, ...]:
    """The rank counts of `shoe`; an AnalyzerError unless it is finite with a card to remove
    before a coup."""
    if shoe.counts is None or shoe.size <= CARDS_PER_COUP:
        raise AnalyzerError(f"effects of removal need a finite shoe of at least 7 cards, not {shoe}")
    return shoe.counts


def _rank_level_only(where: str, bets: Sequence[Bet]) -> None:
    """Refuse a card-level bet (one that reads suits or card types), naming the function
    that values it."""
    for bet in bets:
        if bet.card_level:
            raise AnalyzerError(
                f"{where}: bet {quoted(bet.name)} is card-level (it reads individual cards); "
                "use effects_of_removal() for it"
            )


def _rank_effects(bets: Sequence[Bet], shoe: Shoe, rules: Rules) -> EffectsOfRemoval:
    """Effects of removal of every rank on the rank-level `bets` (arguments checked)."""
    counts = _finite_counts(shoe)
    evaluator = FastEvaluator.cached(tuple(bets), rules)  # a par sheet's study then builds none
    base = np.array(counts)
    rows = [base] + [base - np.eye(13, dtype=np.int64)[i] for i in range(13) if counts[i] > 0]
    present = [RANKS[i] for i in range(13) if counts[i] > 0]
    numerators, totals = evaluator.expectations(np.array(rows))
    ev = expectations_by_bet(evaluator.bets, evaluator.denominators, numerators, totals)
    effects = {
        bet.name: {str(rank): ev[j + 1][bet.name] - ev[0][bet.name] for j, rank in enumerate(present)}
        for bet in bets
    }
    return EffectsOfRemoval(shoe=shoe, rules=rules, base=ev[0], effects=effects)


@dataclass(frozen=True)
class EstimateQuality:
    """How well the linear estimate from full-shoe effects of removal predicts exact
    expectations over a set of depleted shoes (display values)."""

    bet: str
    compositions: int
    correlation: float
    worst_error: float
    rms_error: float


def linear_estimates(eor: EffectsOfRemoval | RemovalEffects, bet: str, counts: np.ndarray) -> np.ndarray:
    """Linear estimates of `bet`'s expectation for (B, 13) compositions (floats).

    EV(n) ~ EV0 - (N0 - 1) * sum_r (n_r / N - n0_r / N0) * EoR_r, the first-order expansion
    in the proportions of each rank, with EoR measured on the full shoe of N0 cards (exact for
    the removal of one card, by the identity sum_r n0_r EoR_r = 0).
    """
    base = np.array(eor.shoe.counts, dtype=np.float64)
    effects = np.array([float(eor.by_rank[bet].get(str(rank), 0)) for rank in RANKS])
    counts = np.asarray(counts, dtype=np.float64)
    shift = counts / counts.sum(axis=1, keepdims=True) - base / base.sum()
    return np.asarray(float(eor.base[bet]) - (base.sum() - 1) * (shift @ effects))


def estimate_quality(
    eor: EffectsOfRemoval | RemovalEffects, bets: Sequence[Bet], counts: np.ndarray
) -> list[EstimateQuality]:
    """Correlation and worst error of the linear estimate against exact expectations."""
    _rank_level_only("estimate_quality()", bets)
    evaluator = FastEvaluator(bets, eor.rules)
    numerators, totals = evaluator.expectations(counts)
    result = []
    for i, bet in enumerate(bets):
        exact = numerators[:, i].astype(np.float64) / (evaluator.denominators[i] * totals.astype(np.float64))
        error = linear_estimates(eor, bet.name, counts) - exact
        corr = float(np.corrcoef(exact, exact + error)[0, 1])
        result.append(
            EstimateQuality(
                bet.name, len(counts), corr, float(np.abs(error).max()), float(np.sqrt((error**2).mean()))
            )
        )
    return result


# -- card-level bets ----------------------------------------------------------------------


@dataclass(frozen=True)
class CardEffects:
    """Exact change in each bet's expectation per unit bet from removing one card of each
    type ("KH", for bets that read suits; `per` = "card type") or rank ("K"; `per` =
    "rank") from `shoe`; `identity` is sum n EoR over the shoe, exactly 0."""

    shoe: Shoe
    rules: Rules
    base: dict[str, Fraction]
    effects: dict[str, dict[str, Fraction]]
    per: dict[str, str]
    identity: dict[str, Fraction]

    @property
    def by_rank(self) -> dict[str, dict[str, Fraction]]:
        """Each bet's effect of removing a card of each rank: per card type, the rank's card
        types' effects weighted by their counts (exact: the change from removing a card of
        the rank drawn at random), so sum_r n_r EoR_r = 0 still holds."""
        return {bet: self._rank_effects(bet) for bet in self.effects}

    def _rank_effects(self, bet: str) -> dict[str, Fraction]:
        effects = self.effects[bet]
        if self.per[bet] == "rank":
            return effects
        types = self.shoe.types or ()
        result = {}
        for r, rank in enumerate(RANKS):
            held = [(types[t], card_name(t)) for t in range(r, len(types), len(RANKS)) if types[t]]
            if held:
                total = sum(n for n, _ in held)
                result[str(rank)] = sum((n * effects[name] for n, name in held), Fraction(0)) / total
        return result

    def __repr__(self) -> str:
        """One line for a notebook: the bets, what a card is for each, the shoe and rules."""
        bets = ", ".join(f"{name}: {len(self.effects[name])} {self.per[name]}s" for name in self.effects)
        return f"CardEffects({bets}; {self.shoe}, {self.rules.name})"


def _card_effects(bets: Sequence[Bet], shoe: Shoe, rules: Rules) -> CardEffects:
    """Effects of removal of every card type (suit bets) or rank (others) on every bet: the
    shoe and each one-card removal valued together by the batch card-level evaluator
    (arguments checked)."""
    counts = _finite_counts(shoe)
    base: dict[str, Fraction] = {}
    effects: dict[str, dict[str, Fraction]] = {}
    per: dict[str, str] = {}
    identity: dict[str, Fraction] = {}
    check_card_bets(bets, shoe)
    for bet in steps(bets, "effects of removal", name=lambda bet: bet.name):
        if bet.needs_suits and shoe.types is not None:
            start = list(shoe.types)
            names = [card_name(t) for t in range(len(start))]
            per[bet.name] = "card type"
        else:
            start, names = list(counts), [str(rank) for rank in RANKS]
            per[bet.name] = "rank"
        held = [i for i, n in enumerate(start) if n]
        rows = [start] + [[n - (j == i) for j, n in enumerate(start)] for i in held]
        values = _expectations(bet, rows, rules)
        base[bet.name] = ev = values[0]
        effects[bet.name] = {names[i]: value - ev for i, value in zip(held, values[1:], strict=True)}
        identity[bet.name] = sum((start[i] * effects[bet.name][names[i]] for i in held), Fraction(0))
    return CardEffects(shoe, rules, base, effects, per, identity)


def _expectations(bet: Bet, rows: list[list[int]], rules: Rules) -> list[Fraction]:
    """Exact expectation of `bet` on each shoe of `rows` (52 card-type or 13 rank counts):
    in one batch, or one shoe at a time when the payouts are too large for the batch."""
    make = Shoe.from_cards if len(rows[0]) == TYPES else Shoe.from_counts
    try:
        evaluator = card_evaluator((bet,), rules)
        evaluator.check_payoffs()
    except AnalyzerError:  # payouts beyond int64: the card engine in Python integers
        return [analyze_cards(bet, make(row), rules).expectation for row in rows]
    numerators, totals = evaluator.expectations(np.array(rows, dtype=np.int64))
    d = evaluator.denominators[0]
    return [Fraction(int(n), d * int(total)) for n, total in zip(numerators[:, 0], totals, strict=True)]


# -- any bets: one result ------------------------------------------------------------------


@dataclass(frozen=True)
class RemovalEffects:
    """Effects of removal of a set of bets on one shoe: the rank-level bets per rank
    (`ranks`), the card-level bets per card type or rank (`cards`); None where the set
    holds no bet of that kind. `base`, `effects`, `per`, `identity` and `by_rank` give
    every bet's, rank-level bets first."""

    shoe: Shoe
    rules: Rules
    ranks: EffectsOfRemoval | None
    cards: CardEffects | None

    @property
    def base(self) -> dict[str, Fraction]:
        """Each bet's expectation per unit bet on the shoe itself."""
        return {**(self.ranks.base if self.ranks else {}), **(self.cards.base if self.cards else {})}

    @property
    def effects(self) -> dict[str, dict[str, Fraction]]:
        """Each bet's effect of removing one card, by rank ("K") or card type ("KH", `per`)."""
        return {**(self.ranks.effects if self.ranks else {}), **(self.cards.effects if self.cards else {})}

    @property
    def per(self) -> dict[str, str]:
        """What a card removed is for each bet: "rank" or "card type"."""
        return {
            **dict.fromkeys(self.ranks.effects if self.ranks else (), "rank"),
            **(self.cards.per if self.cards else {}),
        }

    @property
    def identity(self) -> dict[str, Fraction]:
        """sum n EoR of each bet over the shoe: exactly 0."""
        return {**(self.ranks.identity if self.ranks else {}), **(self.cards.identity if self.cards else {})}

    @property
    def by_rank(self) -> dict[str, dict[str, Fraction]]:
        """Each bet's effect of removing a card of each rank (`CardEffects.by_rank` for bets
        per card type): what the best linear counts of ranks are derived from."""
        return {**(self.ranks.effects if self.ranks else {}), **(self.cards.by_rank if self.cards else {})}

    # -- notebook use --------------------------------------------------------------------

    def __repr__(self) -> str:
        bets = ", ".join(
            name + (" (per card type)" if per != "rank" else "") for name, per in self.per.items()
        )
        return f"RemovalEffects({self.shoe}, {self.rules.name} rules: {bets})"

    def to_frame(self, exact: bool = True) -> Any:
        """A pandas DataFrame: one row per rank removed, one column per bet (`by_rank`), exact
        Fractions (floats with `exact=False`)."""
        return _rank_frame(self.by_rank, exact)


def effects_of_removal(bets: Sequence[Bet], shoe: Shoe, rules: Rules = STANDARD) -> RemovalEffects:
    """Effects of removal of every bet of `bets` on the finite `shoe`, exact, each by the
    engine its fields call for (`Bet.card_level`): rank-level bets per rank, card-level bets
    per card type when they read suits or colours (and the shoe's suits are known), per rank
    otherwise.

    Identity: the effects weighted by the shoe's counts sum to zero, sum_r n_r EoR_r = 0,
    because removing a random card leaves the expectation unchanged.

    >>> from analyzer import Shoe, get_bet
    >>> both = effects_of_removal([get_bet("banker"), get_bet("perfect-pairs-v1")], Shoe.decks(8))
    >>> both.effects["banker"]["5"]
    Fraction(-551647413608, 6671039365092375)
    >>> both.per["perfect-pairs-v1"], both.identity["perfect-pairs-v1"]
    ('card type', Fraction(0, 1))
    """
    check_arguments("effects_of_removal()", bets=bets, shoe=shoe, rules=rules)
    _finite_counts(shoe)
    ranked = [bet for bet in bets if not bet.card_level]
    carded = [bet for bet in bets if bet.card_level]
    return RemovalEffects(
        shoe=shoe,
        rules=rules,
        ranks=_rank_effects(ranked, shoe, rules) if ranked else None,
        cards=_card_effects(carded, shoe, rules) if carded else None,
    )


#: The old name of `effects_of_removal` (deprecated).
removal_effects = renamed_function(effects_of_removal, "removal_effects")


def card_effects_of_removal(bets: Sequence[Bet], shoe: Shoe, rules: Rules = STANDARD) -> CardEffects:
    """Deprecated: `effects_of_removal(bets, shoe, rules).cards` for card-level bets. Every bet
    of `bets` is valued by the card-level engine, per card type (suit bets) or rank."""
    warn_renamed("card_effects_of_removal()", "effects_of_removal()")
    check_arguments("card_effects_of_removal()", bets=bets, shoe=shoe, rules=rules)
    return _card_effects(bets, shoe, rules)
