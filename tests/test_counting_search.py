"""The exact search for the best count against brute force, and the figures it corrects."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer import Shoe
from analyzer.analyses.effects import effects_of_removal
from analyzer.core.bets import bet_from_mapping
from analyzer.core.catalogue import RANK_BETS
from analyzer.core.errors import AnalyzerError
from analyzer.core.ranks import RANKS
from analyzer.counting.search import brute_force_count, exact_best_count
from analyzer.counting.systems import best_linear_count, betting_correlation, derived_counts

LUCKY6 = bet_from_mapping(
    "lucky6",
    {
        "title": "Lucky 6",
        "lines": [
            {"when": {"winner": "banker", "banker_total": 6, "banker_cards": 2}, "pays": 12},
            {"when": {"winner": "banker", "banker_total": 6, "banker_cards": 3}, "pays": 23},
        ],
    },
)
EOR8 = effects_of_removal([LUCKY6, RANK_BETS["dragon7"], RANK_BETS["banker-natural-9"]], Shoe.decks(8))


def effects(bet: str) -> list[Fraction]:
    return [EOR8.effects[bet][str(rank)] for rank in RANKS]


def score(tags: tuple[int, ...], values: list[Fraction]) -> Fraction:
    """The brute force's exact score (squared correlation times a constant), in Fractions."""
    n, mean = len(values), sum(values, Fraction(0)) / len(values)
    top = sum((t * (v - mean) for t, v in zip(tags, values, strict=True)), Fraction(0))
    scale = math.lcm(*(v.denominator for v in values))
    return (n * scale * top) ** 2 / (n * sum(t * t for t in tags) - sum(tags) ** 2)


fractions = st.fractions(min_value=-1, max_value=1, max_denominator=50)


@settings(max_examples=40, deadline=None)
@given(st.lists(fractions, min_size=2, max_size=5), st.integers(1, 3), st.booleans())
def test_search_agrees_with_brute_force(values: list[Fraction], level: int, balanced: bool) -> None:
    """Every tag vector of up to 5 ranks at levels 1-3 (7^5 = 16,807) tried one by one: the
    search's count has the best correlation there is (ties may pick another vector)."""
    found, slow = exact_best_count(values, level, balanced), brute_force_count(values, level, balanced)
    assert (found is None) == (slow is None)
    if found is None or slow is None:
        return
    tags, search = found
    assert max(map(abs, tags)) <= level and (sum(tags) == 0 or not balanced)
    assert score(tags, values) == slow[1]
    assert search.vectors == (2 * level + 1) ** len(values) and search.balanced == balanced


def test_level_1_of_13_ranks_against_brute_force() -> None:
    """Lucky 6 on 8 decks, level 1, the ten-valued ranks tied: all 3^10 vectors."""
    values = effects("lucky6")
    for balanced in (True, False):
        found = exact_best_count(values, 1, balanced, "tied")
        slow = brute_force_count(values, 1, balanced, "tied")
        assert found is not None and slow is not None
        assert score(found[0], values) == slow[1]
        assert found[0][9:] == (found[0][9],) * 4


def test_lucky6_level_1() -> None:
    """The rounding heuristic's balanced level-1 count for Lucky 6 had correlation 0.7966
    (tags 6: -1, 7: +1); the exact search finds 0.8508 balanced, and 0.9884 unbalanced (the
    sixes against the 7s, 8s and 9s)."""
    values = effects("lucky6")
    tags, corr = best_linear_count(values, 1)
    assert tags[:10] == (0, 0, -1, -1, 0, -1, 1, 1, 1, 0) and round(corr, 4) == 0.8508
    old = (0, 0, 0, 0, 0, -1, 1, 0, 0, 0, 0, 0, 0)
    assert round(betting_correlation(old, values), 4) == 0.7966
    tags, corr = best_linear_count(values, 1, balanced=False)
    assert tags[:10] == (0, 0, 0, 0, 0, -1, 1, 1, 1, 0) and round(corr, 4) == 0.9884


def test_derived_counts_list_the_balanced_best_after_an_unbalanced_one() -> None:
    counts = derived_counts(EOR8, ["lucky6"])
    levels = [(1, False), (1, True), (2, False), (2, True), (3, False), (3, True)]
    assert [(c.level, c.balanced) for c in counts] == levels
    assert all(c.tens == "tied" and "tag vectors" in c.search for c in counts)
    level1, balanced1 = counts[:2]
    assert level1.correlation > balanced1.correlation
    # Natural 9: counting the nines alone is the best count at every level
    nine = derived_counts(EOR8, ["banker-natural-9"])
    assert nine[0].tags == (0,) * 8 + (-1,) + (0,) * 4 and round(nine[0].correlation, 6) == 1.0


def test_split_tens_when_their_effects_differ() -> None:
    values = [Fraction(0)] * 9 + [Fraction(1), Fraction(0), Fraction(0), Fraction(0)]
    tags, corr = best_linear_count(values, 1, balanced=False)
    assert tags == (0,) * 9 + (1, 0, 0, 0) and corr == pytest.approx(1.0)
    tags, corr = best_linear_count(values, 1, balanced=True)
    assert sum(tags) == 0 and tags[9] == 1 and corr > 0
    assert exact_best_count([Fraction(1)] * 13, 2) is None
    assert best_linear_count([Fraction(1)] * 13, 2) == ((0,) * 13, 0.0)


def test_bad_level() -> None:
    with pytest.raises(AnalyzerError, match="level 4: use 1, 2 or 3"):
        exact_best_count(effects("dragon7"), 4)
