"""Baccarat banque: one Banker hand against two sides (analyzer.games.banque).

The model is stated in the module docstring. Ethier and Lee, "On the three-person game
baccara banque", Games 6 (2015) 57-78, study the three-person game under a with-replacement
assumption; their figures were not available to compare, so these tests check the exact
solution against the engine and against every pure reply.
"""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

from analyzer.analyses.odds import odds
from analyzer.core.errors import AnalyzerError
from analyzer.core.rules import STANDARD
from analyzer.core.shoe import Shoe
from analyzer.games.banque import (
    NATURAL,
    PROFILES,
    STOOD,
    BanqueGame,
    BanqueSolution,
    banque_game,
    banque_reply,
    profile_value,
    sides_guarantee,
    solve_banque,
    strategy_value,
)
from analyzer.games.banque_table import _counts, _falling_table, _sides, _tabulate, _weighted_sums

SHOES = [Shoe.infinite(), Shoe.decks(3)]


@pytest.fixture(scope="module", params=SHOES, ids=str)
def game(request: pytest.FixtureRequest) -> BanqueGame:
    return banque_game(request.param, STANDARD, Fraction(0))


@pytest.fixture(scope="module")
def solution(game: BanqueGame) -> BanqueSolution:
    return solve_banque(game.shoe, STANDARD, Fraction(0))


def _total(key: object) -> int:
    return key if isinstance(key, int) else sum(key) % 10  # type: ignore[arg-type]


def test_each_side_against_the_tableau_is_punto_banco(game: BanqueGame) -> None:
    """If the Banker plays the tableau against the right side alone, that side is a punto
    banco coup: its value must be the engine's Banker expectation, whatever the left side does."""
    reply = banque_reply(game)
    tableau = {}
    for key, o1, o2 in reply.draws:
        if o1 != NATURAL:
            third = None if o1 == STOOD else o1
            tableau[(key, o1, o2)] = Fraction(int(STANDARD.banker_draws_on(_total(key), third)))
    right, _ = strategy_value(game, tableau)
    o = odds(game.shoe)
    assert right == o.banker - o.player


def test_best_reply_beats_every_pure_reply(game: BanqueGame) -> None:
    reply = banque_reply(game)
    assert reply.right == reply.left  # the two sides are exchangeable
    best = {s: Fraction(int(d)) for s, d in reply.draws.items()}
    assert sum(strategy_value(game, best)) == reply.total
    rng = random.Random(3)
    sets = list(best)
    for _ in range(3):  # random pure strategies and single changes never do better
        pure = {s: Fraction(rng.randint(0, 1)) for s in sets}
        assert sum(strategy_value(game, pure)) <= reply.total
    for s in rng.sample(sets, 3):
        changed = {**best, s: 1 - best[s]}
        assert sum(strategy_value(game, changed)) <= reply.total


def test_customary_values(game: BanqueGame) -> None:
    """Regression values of the Banker's best reply to sides that draw on 5."""
    expected = {
        "infinite deck": Fraction(195569024, 10604499373),
        "3 decks": Fraction(239105300012, 12667693528875),
    }
    assert banque_reply(game).total == expected[str(game.shoe)]
    stand = banque_reply(game, Fraction(0))
    assert stand.total > banque_reply(game).total  # standing on 5 helps the Banker


def test_full_game_saddle_point(game: BanqueGame, solution: BanqueSolution) -> None:
    """The Banker's strategy holds every pure profile of the sides to at least the value (with
    equality on the profiles they use), and the sides' mixture holds the Banker's best reply to it."""
    values = {k: profile_value(game, k, solution.banker) for k in PROFILES}
    assert min(values.values()) == solution.value
    for k, weight in solution.profile.items():
        if weight:
            assert values[k] == solution.value
    assert sum(solution.profile.values()) == 1
    assert sides_guarantee(game, solution.profile) == solution.value
    right, left = solution.side_probabilities()
    assert right == left


def test_full_game_banker_indifferent_where_it_mixes(game: BanqueGame, solution: BanqueSolution) -> None:
    mixed = [s for s, p in solution.banker.items() if 0 < p < 1]
    assert mixed
    for s in mixed[:1]:
        payoffs = []
        for action in (Fraction(0), Fraction(1)):
            banker = {**solution.banker, s: action}
            payoffs.append(
                sum(
                    (w * profile_value(game, k, banker) for k, w in solution.profile.items() if w),
                    Fraction(0),
                )
            )
        assert payoffs[0] == payoffs[1] == solution.value


def test_infinite_deck_full_game() -> None:
    solution = solve_banque(Shoe.infinite(), STANDARD, Fraction(0))
    assert solution.value == Fraction(33311029920, 1919414386513)
    assert solution.profile == {
        (1, 1): Fraction(323, 543), (1, 0): Fraction(110, 543), (0, 1): Fraction(110, 543), (0, 0): 0,
    }  # fmt: skip
    assert not solution.independent  # the sides do better by never both standing


def test_banque_bad_input() -> None:
    with pytest.raises(AnalyzerError, match="banque needs at least 9 cards") as error:
        banque_game(Shoe.from_counts([1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 0]))
    assert "\n" not in str(error.value)


def test_weighted_sums_limbs_match_python_ints() -> None:
    """The int64 path splits the weights into limbs; it must give the exact sums of the
    object path and of plain Python ints, here with products far past 2**63."""
    rng = np.random.default_rng(5)
    weight = rng.integers(0, 2**50, size=400)
    ways = rng.integers(0, 2**30, size=(400, 7))
    starts = np.array([0, 3, 150, 390])
    ends = [*starts[1:], 400]
    expected = [
        [sum(int(weight[r]) * int(ways[r, c]) for r in range(s, e)) for c in range(7)]
        for s, e in zip(starts, ends, strict=True)
    ]
    assert _weighted_sums(weight, ways, starts).tolist() == expected
    assert _weighted_sums(weight.astype(object), ways, starts).tolist() == expected
    assert max(max(row) for row in expected) > 2**63
    # negative values take the object path: exact, and ended (limbs of a negative weight never run out)
    negative = np.array([-3, 5, -(2**62), -(2**62), -(2**62)])
    sums = _weighted_sums(negative, np.ones((5, 1), dtype=np.int64), np.array([0, 2]))
    assert sums.tolist() == [[2], [-3 * 2**62]]


def test_tabulation_int64_matches_object_arithmetic() -> None:
    """The tabulation in int64 (with the left side's ways by set of removed cards) gives the
    same Python ints as the same tabulation in exact object arithmetic."""
    shoe = Shoe.decks(1)
    counts, _ = _counts(shoe)
    ff = _falling_table(shoe)
    assert ff.dtype == np.int64
    fast = _tabulate(_sides(STANDARD), counts, False, ff, STANDARD)
    exact = _tabulate(_sides(STANDARD), counts, False, ff.astype(object), STANDARD)
    assert fast.keys() == exact.keys()
    assert all(fast[k].tolist() == exact[k].tolist() for k in fast)
    assert any(fast[k].any() for k in fast)
