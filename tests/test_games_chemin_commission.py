"""Casino chemin de fer with a commission: the bimatrix game's Nash equilibria (Model B2).

Source: Ethier and Lee, "A game-theoretic analysis of baccara chemin de fer, II", Games 14
(2023) 63, arXiv:2308.00118: under Model B2 the game is 2 x 2^484 for commissions from 0 to
10%, and the Nash equilibrium is unique with rare exceptions. The checks here are exact:
the commission-free game must reproduce the zero-sum solution, and every equilibrium is
checked as mutual best responses by a walk over the cards that shares no code with the solver.
"""

from __future__ import annotations

from fractions import Fraction
from math import perm

import pytest

from analyzer.core.errors import AnalyzerError
from analyzer.core.rules import STANDARD
from analyzer.core.shoe import Shoe
from analyzer.games.chemin import solve_chemin
from analyzer.games.chemin_commission import (
    CommissionGame,
    commission_switches,
    is_equilibrium,
    solve_commission,
)
from analyzer.games.chemin_graph import InfoModel, game_form
from analyzer.games.hands import HANDS

ONE, ZERO = Fraction(1), Fraction(0)


@pytest.fixture(scope="module")
def six_decks_5() -> CommissionGame:
    return solve_commission(Shoe.decks(6), STANDARD, Fraction(1, 20))


def test_game_size_is_ethier_and_lee_s_2_by_2_to_the_484(six_decks_5: CommissionGame) -> None:
    assert len(six_decks_5.banker_sets) == 484
    assert not six_decks_5.unreachable


@pytest.mark.parametrize("shoe", [Shoe.decks(6), Shoe.decks(1)], ids=str)
def test_commission_free_game_is_today_s_zero_sum_solution(shoe: Shoe) -> None:
    zero_sum = solve_chemin(shoe, STANDARD, 0, "banker-hands")
    game = solve_commission(shoe, STANDARD, 0)
    assert game.unique
    eq = game.equilibrium
    assert [eq.draw_on_five] == list(zero_sum.player.values())
    assert eq.banker == tuple(zero_sum.banker.values())
    assert eq.banker_value == zero_sum.value
    assert eq.player_value == -zero_sum.value


def test_infinite_deck_equilibria_are_not_unique() -> None:
    """With replacement, Banker hands of one total are interchangeable, so the Banker's mix on
    6 (Player stood) can be spread over them: many equilibria, one value, the same p = 9/11."""
    zero_sum = solve_chemin(Shoe.infinite(), STANDARD, 0, "banker-hands")
    game = solve_commission(Shoe.infinite(), STANDARD, 0)
    assert not game.unique
    assert {(eq.draw_on_five, eq.banker_value, eq.player_value) for eq in game.equilibria} == {
        (Fraction(9, 11), zero_sum.value, -zero_sum.value)
    }
    form = game_form(Shoe.infinite(), STANDARD, InfoModel.BANKER_HANDS)
    q = list(zero_sum.banker.values())
    assert is_equilibrium(form.payoff(ZERO), form.payoff(ZERO), Fraction(9, 11), q)


def test_six_decks_five_percent(six_decks_5: CommissionGame) -> None:
    """The measured equilibrium: unique; the Banker mixes only at (0+6, Player stood)."""
    assert six_decks_5.unique
    eq = six_decks_5.equilibrium
    assert eq.draw_on_five == Fraction(2372272, 2881749)
    assert six_decks_5.mixed() == {("banker", (0, 6), None): Fraction(77143741, 121269912)}
    assert eq.banker_value == Fraction(-211928003523064, 21038347771318605)
    # Against the Banker's mix the Player is indifferent, so he gets the zero-sum value.
    assert eq.player_value == -solve_chemin(Shoe.decks(6), STANDARD, 0, "banker-hands").value
    assert eq.house_take > 0


Key = tuple[object, ...]


def _walk(
    counts: list[int], commission: Fraction, p: Fraction, q: dict[Key, Fraction]
) -> tuple[Fraction, Fraction, dict[Key, Fraction], Fraction]:
    """A direct walk over the cards: (Banker's value, Player's value, the Banker's gain from
    drawing at each of his sets, the Player's gain from drawing on 5), all exact."""
    n = sum(counts)
    left = list(counts)
    keep = 1 - commission
    # Integer weights, by (set or None for naturals, class, action) and cards used:
    # class 0 forced, 1 the Player drew on 5, 2 he stood on 5.
    wins: dict[tuple[object, ...], int] = {}
    losses: dict[tuple[object, ...], int] = {}

    def add(key: tuple[object, ...], k: int, w: int, p_total: int, b_total: int) -> None:
        if b_total > p_total:
            wins[(*key, k)] = wins.get((*key, k), 0) + w
        elif p_total > b_total:
            losses[(*key, k)] = losses.get((*key, k), 0) + w

    def take(v: int) -> int:
        ways = left[v]
        left[v] -= 1
        return ways

    for ph in HANDS:
        for bh in HANDS:
            w = 1
            for v in ph + bh:
                w *= take(v)
            w *= (1 if ph[0] == ph[1] else 2) * (1 if bh[0] == bh[1] else 2)
            pt, bt = sum(ph) % 10, sum(bh) % 10
            if w and (pt >= 8 or bt >= 8):
                add((None, 0, "stand"), 4, w, pt, bt)
            elif w:
                forced = [(0, range(10) if pt <= 4 else [None])]
                choices = [(1, range(10)), (2, [None])] if pt == 5 else forced
                for cls, thirds in choices:
                    for v in thirds:
                        w3 = w if v is None else w * take(v)
                        pf = pt if v is None else (pt + v) % 10
                        k = 4 if v is None else 5
                        if w3:
                            add(((bh, v), cls, "stand"), k, w3, pf, bt)
                            for c in range(10):
                                add(((bh, v), cls, "draw"), k + 1, w3 * take(c), pf, (bt + c) % 10)
                                left[c] += 1
                        if v is not None:
                            left[v] += 1
            for v in ph + bh:
                left[v] += 1

    def weight(table: dict[Key, int], key: object, action: str, draw_five: Fraction) -> Fraction:
        prob = {0: ONE, 1: draw_five, 2: 1 - draw_five}
        return sum(
            (
                prob[cls] * Fraction(w, perm(n, k))
                for (s, cls, a, k), w in table.items()
                if s == key and a == action
            ),
            ZERO,
        )

    sets = {key[0] for key in (*wins, *losses) if key[0] is not None}

    def values(draw_five: Fraction) -> tuple[Fraction, Fraction, dict[tuple[object, ...], Fraction]]:
        banker = keep * weight(wins, None, "stand", draw_five) - weight(losses, None, "stand", draw_five)
        player = weight(losses, None, "stand", draw_five) - weight(wins, None, "stand", draw_five)
        gains = {}
        for s in sets:
            net = {
                a: (weight(wins, s, a, draw_five), weight(losses, s, a, draw_five)) for a in ("stand", "draw")
            }
            qs = q[s]
            for a, share in (("stand", 1 - qs), ("draw", qs)):
                won, lost = net[a]
                banker += share * (keep * won - lost)
                player += share * (lost - won)
            gains[s] = (keep * net["draw"][0] - net["draw"][1]) - (keep * net["stand"][0] - net["stand"][1])
        return banker, player, gains

    banker, player, gains = values(p)
    return banker, player, gains, values(ONE)[1] - values(ZERO)[1]


SMALL_SHOES = [
    Shoe.decks(1),
    Shoe.from_counts([2, 3, 1, 4, 2, 3, 2, 4, 1, 3, 2, 2, 3]),
]


@pytest.mark.slow
@pytest.mark.parametrize("shoe", SMALL_SHOES, ids=str)
@pytest.mark.parametrize("commission", [Fraction(1, 20), Fraction(1, 10), Fraction(3, 100)], ids=str)
def test_equilibria_are_mutual_best_responses_by_brute_force(shoe: Shoe, commission: Fraction) -> None:
    game = solve_commission(shoe, STANDARD, commission)
    for eq in game.equilibria:
        q = {(key[1], key[2]): v for key, v in zip(game.banker_sets, eq.banker, strict=True)}
        banker, player, gains, draw_gain = _walk(list(shoe.value_counts()), commission, eq.draw_on_five, q)
        assert (banker, player) == (eq.banker_value, eq.player_value)
        for s, gain in gains.items():  # no Banker deviation at any set gains
            assert (gain > 0 and q[s] == 1) or (gain < 0 and q[s] == 0) or gain == 0
        if 0 < eq.draw_on_five < 1:  # no Player deviation gains
            assert draw_gain == 0
        else:
            assert draw_gain * (1 if eq.draw_on_five == 1 else -1) >= 0


def test_commission_range_and_bad_shoes() -> None:
    for bad in (Fraction(11, 100), Fraction(-1, 100)):
        with pytest.raises(AnalyzerError, match="0% to 10%") as error:
            solve_commission(Shoe.decks(6), STANDARD, bad)
        assert "\n" not in str(error.value)
    assert solve_commission(Shoe.decks(6), STANDARD, Fraction(1, 10)).equilibria


def test_equilibrium_moves_with_the_commission() -> None:
    """Across 0%..10% on 6 decks: the Banker's net expectation falls as the commission rises."""
    values = [solve_commission(Shoe.decks(6), STANDARD, Fraction(c, 100)).equilibria for c in range(0, 11)]
    banker = [eqs[0].banker_value for eqs in values]
    assert banker == sorted(banker, reverse=True)
    assert all(eq.house_take >= 0 for eqs in values for eq in eqs)


@pytest.mark.parametrize("decks", [8, 10**6])
def test_any_number_of_decks(decks: int) -> None:
    """Large shoes too, exactly: on 10^6 decks the Player's expectation is within 10^-6 of the
    infinite deck's (Kemeny and Snell's value, -679568/53094899, since hands then tell nothing
    more than totals)."""
    game = solve_commission(Shoe.decks(decks), STANDARD, Fraction(1, 20))
    assert game.unique
    assert list(game.mixed()) == [("banker", (0, 6), None)]
    if decks == 10**6:
        assert abs(game.equilibrium.player_value - Fraction(-679568, 53094899)) < Fraction(1, 10**6)


def test_the_one_switch_between_0_and_10_percent_on_six_decks() -> None:
    """(3+3, Player's third card 6) flips from draw to stand at an irrational commission near
    6.2002%; rationals just either side of the root bracket the flip."""
    switches = commission_switches(Shoe.decks(6))
    assert [sw.cell for sw in switches] == [("banker", (3, 3), 6)]
    root = switches[0].commission
    below, above = Fraction(62001709, 10**9), Fraction(62001710, 10**9)
    assert below < root < above
    actions = []
    for rate in (below, above):
        game = solve_commission(Shoe.decks(6), STANDARD, rate)
        assert game.unique
        actions.append(game.equilibrium.banker[game.banker_sets.index(("banker", (3, 3), 6))])
    assert actions == [ONE, ZERO]
