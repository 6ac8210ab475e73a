"""Effects of removal for card-level bets: per card type for bets that read suits or
colours, per rank otherwise, exact, with the identity sum_t n_t EoR_t = 0."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from analyzer.cards.batch import card_evaluator
from analyzer.cards.engine import analyze_cards
from analyzer.core.bets import Bet, check_card_bets
from analyzer.core.errors import AnalyzerError
from analyzer.core.outcome import CARDS_PER_COUP
from analyzer.core.ranks import RANKS
from analyzer.core.rules import STANDARD, Rules
from analyzer.core.shoe import Shoe
from analyzer.core.suits import TYPES, card_name

__all__ = ["CardEffects", "card_effects_of_removal"]


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


def card_effects_of_removal(bets: Sequence[Bet], shoe: Shoe, rules: Rules = STANDARD) -> CardEffects:
    """Effects of removal of every card type (suit bets) or rank (others) on every bet: the
    shoe and each one-card removal valued together by the batch card-level evaluator."""
    if shoe.counts is None or shoe.size <= CARDS_PER_COUP:
        raise AnalyzerError(f"effects of removal need a finite shoe of at least 7 cards, not {shoe}")
    base: dict[str, Fraction] = {}
    effects: dict[str, dict[str, Fraction]] = {}
    per: dict[str, str] = {}
    identity: dict[str, Fraction] = {}
    check_card_bets(bets, shoe)
    for bet in bets:
        if bet.needs_suits and shoe.types is not None:
            start = list(shoe.types)
            names = [card_name(t) for t in range(len(start))]
            per[bet.name] = "card type"
        else:
            start, names = list(shoe.counts), [str(rank) for rank in RANKS]
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
    except AnalyzerError:  # payouts beyond int64: the card engine in Python integers
        return [analyze_cards(bet, make(row), rules).expectation for row in rows]
    numerators, totals = evaluator.expectations(np.array(rows, dtype=np.int64))
    d = evaluator.denominators[0]
    return [Fraction(int(n), d * int(total)) for n, total in zip(numerators[:, 0], totals, strict=True)]
