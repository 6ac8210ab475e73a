"""The Monte Carlo dealer (analyzer.counting.montecarlo) against the exact enumerator.

The dealer shares no code with the enumerators: it shuffles a physical list of cards and
plays each coup card by card. Agreement within 4 standard errors on every tallied event
(a false alarm about once in 16,000 per event; the seeds are fixed, so the suite is
deterministic) checks the exact engine and the dealer against each other.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from analyzer.core.errors import AnalyzerError
from analyzer.core.outcome import Outcome, Winner
from analyzer.core.rules import BANCO_4_DRAWS_ON_0_1, STANDARD, Rules
from analyzer.core.shoe import Shoe
from analyzer.counting.montecarlo import EVENTS, MonteCarloResult, simulate
from analyzer.ranks.enumeration import distribution

PREDICATES = {
    "banker": lambda o: o.winner is Winner.BANKER,
    "player": lambda o: o.winner is Winner.PLAYER,
    "tie": lambda o: o.winner is Winner.TIE,
    "player_pair": lambda o: o.player_pair,
    "banker_pair": lambda o: o.banker_pair,
}

# Aces, deuces, and ten-valued cards in two ranks (10-10 is a pair, 10-J is not). Banco's 4
# (2 + 2) against a Punto third card of 0 or 1 is common here, so the beginner's guide's rule matters.
LOPSIDED = Shoe.from_counts([12, 16, 0, 0, 0, 0, 0, 0, 0, 4, 4, 0, 0])


def exact(shoe: Shoe, rules: Rules) -> dict[str, Fraction]:
    dist = distribution(shoe, rules)
    return {event: dist.probability(PREDICATES[event]) for event in EVENTS}


def assert_agrees(result: MonteCarloResult, probabilities: dict[str, Fraction]) -> None:
    assert result.banker + result.player + result.tie == result.coups
    for event, p in probabilities.items():
        z = result.z_score(event, p)
        assert abs(z) < 4, (event, result.frequency(event), float(p), z)


@pytest.mark.parametrize(
    ("shoe", "rules", "coups", "seed"),
    [
        (Shoe.decks(8), STANDARD, 200_000, 2024),
        (LOPSIDED, STANDARD, 200_000, 7),
        (LOPSIDED, BANCO_4_DRAWS_ON_0_1, 200_000, 8),
        (Shoe.infinite(), STANDARD, 100_000, 3),
        (Shoe.from_counts([0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 2]), STANDARD, 50_000, 5),
    ],
    ids=["8 decks", "lopsided", "lopsided seed004", "infinite", "six cards"],
)
def test_dealer_agrees_with_exact(shoe: Shoe, rules: Rules, coups: int, seed: int) -> None:
    assert_agrees(simulate(shoe, rules, coups, seed), exact(shoe, rules))


def test_the_check_has_power() -> None:
    """Dealt under the Russian-language beginner's guide's rules, the lopsided shoe is far
    (>4 SE) from the standard game."""
    result = simulate(LOPSIDED, BANCO_4_DRAWS_ON_0_1, 100_000, seed=11)
    standard = exact(LOPSIDED, STANDARD)
    assert abs(result.z_score("banker", standard["banker"])) > 4
    assert abs(result.z_score("tie", standard["tie"])) > 4


def test_degenerate_shoes_are_certain() -> None:
    """Six 5s: 5+5 = 0 on both sides, both draw a 5: a 5-5 tie with both hands paired.
    Six 9s: natural 8 against natural 8."""
    for counts in ([0, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0, 0]):
        result = simulate(Shoe.from_counts(counts), coups=1000, seed=0)
        assert (result.tie, result.player_pair, result.banker_pair) == (1000, 1000, 1000)
        assert (result.banker, result.player) == (0, 0)
    dist = distribution(Shoe.from_counts([0, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0]))
    assert list(dist.weights) == [Outcome(0, 0, 5, 5, 3, 3, False, True, True)]


def test_seeded_runs_repeat() -> None:
    a = simulate(Shoe.decks(1), coups=5000, seed=42)
    b = simulate(Shoe.decks(1), coups=5000, seed=42)
    c = simulate(Shoe.decks(1), coups=5000, seed=43)
    assert a == b
    assert (a.banker, a.player, a.tie) != (c.banker, c.player, c.tie)
    assert a.seed == 42 and a.coups == 5000 and a.rules is STANDARD


def test_frequency_and_standard_error() -> None:
    result = simulate(Shoe.decks(8), coups=10_000, seed=1)
    f, se = result.frequency("tie")
    assert f == result.tie / 10_000
    assert se == math.sqrt(f * (1 - f) / 10_000)
    assert result.count("player_pair") == result.player_pair
    with pytest.raises(AnalyzerError, match="unknown event"):
        result.count("dragon")


@pytest.mark.parametrize("coups", [0, -5, 1.5, True])
def test_bad_coups(coups: object) -> None:
    with pytest.raises(AnalyzerError, match="positive integer"):
        simulate(Shoe.decks(1), coups=coups)  # type: ignore[arg-type]
