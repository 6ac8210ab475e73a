"""Effects of removal for card-level bets: per card type for bets that read suits or
colours, per rank otherwise, exact, with the identity sum_t n_t EoR_t = 0."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from analyzer.bets import Bet
from analyzer.cardlevel import analyze_cards, needs_suits
from analyzer.cards import RANKS, Rank
from analyzer.enumerate import CARDS_PER_COUP
from analyzer.errors import AnalyzerError
from analyzer.rules import STANDARD, Rules
from analyzer.shoe import Shoe
from analyzer.suits import SUITS, Suit, card_name

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
    """Effects of removal of every card type (suit bets) or rank (others) on every bet."""
    if shoe.counts is None or shoe.size <= CARDS_PER_COUP:
        raise AnalyzerError(f"effects of removal need a finite shoe of at least 7 cards, not {shoe}")
    base: dict[str, Fraction] = {}
    effects: dict[str, dict[str, Fraction]] = {}
    per: dict[str, str] = {}
    identity: dict[str, Fraction] = {}
    for bet in bets:
        removals: list[tuple[str, tuple[Rank, Suit | None], int]]
        ev = analyze_cards(bet, shoe, rules).expectation
        base[bet.name] = ev
        if needs_suits(bet):  # (analyze_cards above refuses a shoe whose suits are unknown)
            assert shoe.types is not None
            removals = [
                (card_name(t), (RANKS[t % 13], SUITS[t // 13]), n) for t, n in enumerate(shoe.types) if n
            ]
            per[bet.name] = "card type"
        else:
            removals = [(str(rank), (rank, None), n) for rank, n in zip(RANKS, shoe.counts, strict=True) if n]
            per[bet.name] = "rank"
        effects[bet.name] = {
            name: analyze_cards(bet, shoe.remove([card]), rules).expectation - ev
            for name, card, _ in removals
        }
        identity[bet.name] = sum((n * effects[bet.name][name] for name, _, n in removals), Fraction(0))
    return CardEffects(shoe, rules, base, effects, per, identity)
