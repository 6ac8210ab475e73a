"""Chemin de fer as a zero-sum game (analyzer.games.chemin, analyzer.games.chemin_graph).

Sources: Kemeny and Snell (1957) solved the infinite-deck game where each side sees only its
total; Ethier and Gamez, "A game-theoretic analysis of baccara chemin de fer", Games 4
(2013) 711-737, arXiv:1305.5468, describe that model as a 2 x 2^88 matrix game, Downton and
Lockwood's (the Banker sees its two cards) as 2 x 2^484 and the one where both sides see
their two cards as 2^5 x 2^484. The brief quotes the Player's draw probability 9/11 on 5.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from math import perm

import networkx as nx
import pytest

from analyzer.analyses.odds import odds
from analyzer.core.errors import AnalyzerError
from analyzer.core.rules import STANDARD
from analyzer.core.shoe import Shoe
from analyzer.games.chemin import (
    CheminSolution,
    banker_best_value,
    banker_gains,
    expectation,
    player_best_value,
    player_gains,
    solve_chemin,
)
from analyzer.games.chemin_graph import chemin_graph, game_form
from analyzer.games.hands import HANDS

ONE, ZERO = Fraction(1), Fraction(0)


def strategies(s: CheminSolution) -> tuple[list[Fraction], list[Fraction]]:
    return list(s.player.values()), list(s.banker.values())


@pytest.fixture(scope="module")
def kemeny_snell() -> CheminSolution:
    return solve_chemin(Shoe.infinite())


@pytest.fixture(scope="module")
def six_decks() -> CheminSolution:
    return solve_chemin(Shoe.decks(6))


def test_kemeny_snell_player_draws_on_five_with_probability_9_11(kemeny_snell: CheminSolution) -> None:
    """Kemeny and Snell (1957), as quoted in the brief and by Ethier and Gamez (2013): 9/11."""
    assert kemeny_snell.info == "totals"
    assert kemeny_snell.player == {("player", 5): Fraction(9, 11)}
    assert kemeny_snell.player_draw_probability() == {
        "0": ONE, "1": ONE, "2": ONE, "3": ONE, "4": ONE, "5": Fraction(9, 11), "6": ZERO, "7": ZERO,
    }  # fmt: skip
    assert kemeny_snell.value == Fraction(679568, 53094899)  # about 1.28% to the Banker


def test_kemeny_snell_player_optimum_is_unique(kemeny_snell: CheminSolution) -> None:
    """The Player's guarantee is convex in x and strictly worse on both sides of 9/11."""
    grid = kemeny_snell.grid()
    eps = Fraction(1, 10**9)
    at = banker_best_value(grid, [Fraction(9, 11)])
    assert at == kemeny_snell.value
    assert banker_best_value(grid, [Fraction(9, 11) - eps]) > at
    assert banker_best_value(grid, [Fraction(9, 11) + eps]) > at


def test_kemeny_snell_banker_strategy(kemeny_snell: CheminSolution) -> None:
    """The Banker mixes only with 6 when the Player stood; its choice depends on the Player's
    play on 5 only at (3, 9), (4, 1), (5, 4) and (6, stood). (The brief guessed a mix at (3, 9):
    the exact solution draws there.)"""
    mixed = {k: p for k, p in kemeny_snell.banker.items() if 0 < p < 1}
    assert mixed == {("banker", 6, None): Fraction(859, 2288)}
    assert kemeny_snell.contested == (
        ("banker", 3, 9),
        ("banker", 4, 1),
        ("banker", 5, 4),
        ("banker", 6, None),
    )
    b = kemeny_snell.banker
    assert b[("banker", 3, 9)] == 1 and b[("banker", 3, 8)] == 0
    assert b[("banker", 4, 1)] == 0 and b[("banker", 5, 4)] == 1
    assert b[("banker", 7, None)] == 0 and b[("banker", 0, 8)] == 1


def test_kemeny_snell_mix_by_hand(kemeny_snell: CheminSolution) -> None:
    """By hand: with replacement a two-card total is 5, 6 or 7 with probability 16/169 each.
    Banker 6 against a Player who stood gains by drawing -11/13 against 5, -3/13 against 6 and
    +5/13 against 7, so the gain per coup is 256/13^5 (2 - 11 (1 - x)): zero at x = 9/11,
    which is why the Banker mixes at (6, stood)."""
    grid = kemeny_snell.grid()
    index = list(kemeny_snell.banker).index(("banker", 6, None))
    for x in (Fraction(0), Fraction(9, 11), Fraction(1), Fraction(1, 3)):
        assert banker_gains(grid, [x])[index] == Fraction(256, 13**5) * (2 - 11 * (1 - x))


def test_information_sets_match_the_published_game_sizes() -> None:
    """Ethier and Gamez (2013): 2 x 2^88 (totals), 2 x 2^484 (Banker's hand), 2^5 x 2^484 (both hands)."""
    sizes = {}
    for info in ("totals", "banker-hands", "hands"):
        form = game_form(Shoe.infinite(), STANDARD, info)
        sizes[info] = (len(form.player_sets), len(form.banker_sets))
    assert sizes == {"totals": (1, 88), "banker-hands": (1, 484), "hands": (5, 484)}


def test_game_graph_structure() -> None:
    g = chemin_graph(STANDARD)
    assert nx.is_directed_acyclic_graph(g)
    assert sum(1 for n in g if n[0] == "dealt") == len(HANDS) ** 2
    for node, data in g.nodes(data=True):
        if data["kind"] != "decision":
            continue
        actions = sorted(edge["action"] for edge in g.succ[node].values())
        if data["actor"] == "banker" or data["free"]:
            assert actions == ["draw", "stand"], node
        else:
            total = sum(node[1]) % 10
            assert actions == (["draw"] if total <= 4 else ["stand"]), node
        assert data["hand_info"][0] == data["total_info"][0] == data["actor"]
    for node in g:
        if g.out_degree(node) == 0:
            assert node[0] == "settle"


@pytest.mark.parametrize("name", ["kemeny_snell", "six_decks"])
def test_value_against_every_pure_reply(name: str, request: pytest.FixtureRequest) -> None:
    """The value is the payoff of the two strategies; no pure reply of either side does better."""
    s: CheminSolution = request.getfixturevalue(name)
    grid = s.grid()
    x, q = strategies(s)
    assert expectation(grid, x, q) == s.value
    # The Player's pure strategies on 5: all 2^n of them.
    replies = [expectation(grid, list(pure), q) for pure in itertools.product([ZERO, ONE], repeat=len(x))]
    assert min(replies) == s.value == player_best_value(grid, q)
    # The Banker's payoff is additive over its sets, so its pure replies are checked set by set
    # (the sign of the gain from drawing), then whole pure replies are priced directly: single
    # changes of action at sampled sets, and combinations of pure actions on the contested sets.
    gains = banker_gains(grid, x)
    for p, gain in zip(q, gains, strict=True):
        assert gain >= 0 if p == 1 else gain <= 0 if p == 0 else gain == 0
    rng = random.Random(1)
    for i in rng.sample(range(len(q)), 12):
        for action in (ZERO, ONE):
            changed = expectation(grid, x, [*q[:i], action, *q[i + 1 :]])
            assert changed == s.value + (action - q[i]) * gains[i] <= s.value
    keys = list(s.banker)
    contested = [keys.index(k) for k in s.contested]
    if len(contested) <= 4:
        combos = list(itertools.product([ZERO, ONE], repeat=len(contested)))
    else:
        combos = [tuple(rng.choice([ZERO, ONE]) for _ in contested) for _ in range(16)]
    for combo in combos:
        pure = [ONE if p > 0 else ZERO for p in q]
        for i, a in zip(contested, combo, strict=True):
            pure[i] = a
        assert expectation(grid, x, pure) <= s.value
    assert banker_best_value(grid, x) == s.value


@pytest.mark.parametrize("name", ["kemeny_snell", "six_decks"])
def test_mixed_strategies_leave_the_opponent_indifferent(name: str, request: pytest.FixtureRequest) -> None:
    s: CheminSolution = request.getfixturevalue(name)
    grid = s.grid()
    x, q = strategies(s)
    gains = banker_gains(grid, x)
    mixed_banker = [i for i, p in enumerate(q) if 0 < p < 1]
    assert mixed_banker
    assert all(gains[i] == 0 for i in mixed_banker)
    mixed_player = [h for h, p in enumerate(x) if 0 < p < 1]
    assert mixed_player
    assert all(player_gains(grid, q)[h] == 0 for h in mixed_player)


def test_six_decks_each_side_sees_its_hand(six_decks: CheminSolution) -> None:
    """The finite-shoe solution (both sides see their two cards), regression values."""
    by_hand = {k[1]: p for k, p in six_decks.player.items()}
    assert by_hand == {(0, 5): 1, (1, 4): Fraction(35003, 74880), (2, 3): 0, (6, 9): 1, (7, 8): 1}
    assert six_decks.value == Fraction(73356216203119, 5712649844821920)
    mixed = {k: p for k, p in six_decks.banker.items() if 0 < p < 1}
    assert mixed == {("banker", (0, 6), None): Fraction(18885571, 36781056)}
    assert sum(six_decks.five_weights.values()) == 1


@pytest.mark.parametrize("shoe", [Shoe.infinite(), Shoe.decks(6)], ids=str)
@pytest.mark.parametrize("commission", [Fraction(0), Fraction(1, 20)], ids=str)
def test_both_following_custom_is_punto_banco(shoe: Shoe, commission: Fraction) -> None:
    """Player drawing on 5 against the tableau is punto banco: the engine's Banker expectation."""
    s = solve_chemin(shoe, STANDARD, commission)
    o = odds(shoe)
    assert s.custom.both_follow_custom == (1 - commission) * o.banker - o.player
    assert s.custom.player_always_draws_on_5 >= s.value >= s.custom.banker_follows_tableau
    assert s.custom.player_always_stands_on_5 >= s.value


def test_infinite_deck_models_agree() -> None:
    """With replacement the two cards say nothing beyond the total: one value for all models."""
    values = {
        info: solve_chemin(Shoe.infinite(), STANDARD, 0, info).value for info in ("hands", "banker-hands")
    }
    assert values == {"hands": Fraction(679568, 53094899), "banker-hands": Fraction(679568, 53094899)}


def test_more_information_never_hurts_its_holder(six_decks: CheminSolution) -> None:
    totals = solve_chemin(Shoe.decks(6), STANDARD, 0, "totals").value
    banker_hands = solve_chemin(Shoe.decks(6), STANDARD, 0, "banker-hands").value
    assert banker_hands > totals  # the Banker sees more
    assert six_decks.value < banker_hands  # the Player sees more


def _brute_force(counts: list[int], draws_on_5: dict, banker_draws: dict) -> Fraction:
    """V(x, q) for pure strategies by walking every deal and third card, with card removal.

    `draws_on_5[player hand]` and `banker_draws[(banker hand, v or None)]` are 0/1.
    """
    n = sum(counts)
    sums = {4: 0, 5: 0, 6: 0}  # integer weights by cards used, over (n)_k
    left = list(counts)

    def take(v: int) -> int:
        ways = left[v]
        left[v] -= 1
        return ways

    def result(p: int, b: int) -> int:
        return (b > p) - (p > b)

    for ph in HANDS:
        for bh in HANDS:
            w = 1
            for v in ph + bh:
                w *= take(v)
            w *= (1 if ph[0] == ph[1] else 2) * (1 if bh[0] == bh[1] else 2)
            p, b = sum(ph) % 10, sum(bh) % 10
            if w and (p >= 8 or b >= 8):
                sums[4] += w * result(p, b)
            elif w:
                draw = p <= 4 or (p == 5 and draws_on_5[ph])
                thirds = range(10) if draw else [None]
                for v in thirds:
                    w3 = w if v is None else w * take(v)
                    pf = p if v is None else (p + v) % 10
                    k = 4 if v is None else 5
                    if w3 and banker_draws[(bh, v)]:
                        for c in range(10):
                            w4 = w3 * take(c)
                            sums[k + 1] += w4 * result(pf, (b + c) % 10)
                            left[c] += 1
                    elif w3:
                        sums[k] += w3 * result(pf, b)
                    if v is not None:
                        left[v] += 1
            for v in ph + bh:
                left[v] += 1
    return sum((Fraction(total, perm(n, k)) for k, total in sums.items()), Fraction(0))


def test_compiled_game_matches_brute_force_on_one_deck() -> None:
    """The graph-compiled bilinear form against a direct walk over the cards (1 deck, pure strategies)."""
    shoe = Shoe.decks(1)
    form = game_form(shoe, STANDARD, "hands")
    grid = form.payoff(Fraction(0))
    rng = random.Random(5)
    for trial in range(2):
        x = [ONE if trial == 0 else Fraction(rng.randint(0, 1)) for _ in form.player_sets]
        q = [Fraction(rng.randint(0, 1)) for _ in form.banker_sets]
        draws_on_5 = {key[1]: int(p) for key, p in zip(form.player_sets, x, strict=True)}
        banker_draws = {(key[1], key[2]): int(p) for key, p in zip(form.banker_sets, q, strict=True)}
        assert expectation(grid, x, q) == _brute_force(list(shoe.value_counts()), draws_on_5, banker_draws)


def test_commission_lowers_the_value() -> None:
    free = solve_chemin(Shoe.infinite())
    taxed = solve_chemin(Shoe.infinite(), STANDARD, Fraction(1, 20))
    assert taxed.value < free.value
    assert taxed.commission == Fraction(1, 20)


def test_bad_input() -> None:
    with pytest.raises(AnalyzerError, match="information model 'cards'"):
        solve_chemin(Shoe.infinite(), STANDARD, 0, "cards")
    only_aces_and_tens = Shoe.from_counts([4, 0, 0, 0, 0, 0, 0, 0, 0, 4, 4, 4, 4])
    with pytest.raises(AnalyzerError, match="never holds 5") as error:
        solve_chemin(only_aces_and_tens)
    assert "\n" not in str(error.value)


def test_the_models_trees_share_their_paths_from_one_walk() -> None:
    """`compile_tree` enumerates the paths once for the three information models: the same paths
    (cards, orderings, results, actions), the sets each model's own (88, 484 and 484 Banker
    sets, as above), every set on some path; the walked graph is not left in `chemin_graph`'s cache."""

    from analyzer.core.rules import BANCO_4_DRAWS_ON_0_1
    from analyzer.games import clear_caches
    from analyzer.games.chemin_graph import INFOS, compile_tree

    clear_caches()  # the walk below is a fresh one, whatever ran before
    cached = chemin_graph.cache_info().currsize
    trees = [compile_tree(BANCO_4_DRAWS_ON_0_1, info) for info in INFOS]
    assert chemin_graph.cache_info().currsize == cached
    first = trees[0]
    for tree in trees[1:]:
        for column in ("cards", "orders", "result", "player_draw", "banker_draw"):
            assert getattr(tree, column) is getattr(first, column), column  # one walk's arrays
    for tree in trees:
        for on_paths, sets in ((tree.banker_set, tree.banker_sets), (tree.player_set, tree.player_sets)):
            assert sorted(set(on_paths[on_paths >= 0].tolist())) == list(range(len(sets)))
    assert sorted(len(tree.banker_sets) for tree in trees) == [88, 484, 484]


def _graph_paths(g: nx.DiGraph) -> list[tuple[object, ...]]:
    """Every root-to-settle path of the game graph `g`, walked depth first in edge order, as
    (cards by point value, orderings, the Player's decision node or None and draw, the
    Banker's decision node or None and draw, the result: +1 Banker wins, -1 Player wins)."""
    paths: list[tuple[object, ...]] = []
    results = {"banker": 1, "player": -1, "tie": 0}

    def walk(node: tuple[object, ...], cards: tuple[int, ...], orders: int, player: tuple[object, ...],
             banker: tuple[object, ...]) -> None:  # fmt: skip
        data = g.nodes[node]
        if data["kind"] == "settle":
            counts = tuple(cards.count(v) for v in range(10))
            paths.append((counts, orders, *player, *banker, results[data["winner"]]))
            return
        for succ, edge in g.succ[node].items():
            if data["kind"] == "decision":
                draw = int(edge["action"] == "draw")
                if data["actor"] == "banker":
                    walk(succ, cards, orders, player, (node, draw))
                else:
                    walk(succ, cards, orders, (node, draw) if data["free"] else (None, 0), banker)
            elif "cards" in edge:
                walk(succ, tuple(edge["cards"]), edge["orders"], player, banker)
            else:
                walk(succ, (*cards, edge["card"]) if "card" in edge else cards, orders, player, banker)

    walk(("deal",), (), 1, (None, 0), (None, 0))
    return paths


def test_compiled_trees_are_the_walks_of_the_graph() -> None:
    """`compile_tree` enumerates the paths without building the graph: row by row, in order,
    the paths a walk of `chemin_graph` meets, each decision in each information model's set
    of the key the model reads on its node (under a tableau whose Player draws on other
    totals than the standard one's; the standard trees give the reports' values)."""
    from analyzer.core.rules import BANCO_4_DRAWS_ON_0_1 as rules
    from analyzer.games.chemin_graph import INFOS, compile_tree

    graph = chemin_graph(rules)
    paths = _graph_paths(graph)
    trees = {info: compile_tree(rules, info) for info in INFOS}
    tree = trees[INFOS[0]]
    columns = [
        tree.cards.tolist(),
        tree.orders.tolist(),
        tree.player_draw.tolist(),
        tree.banker_draw.tolist(),
    ]
    columns.append(tree.result.tolist())
    assert [(tuple(cards), *rest) for cards, *rest in zip(*columns, strict=True)] == [
        (cards, orders, pdraw, bdraw, result) for cards, orders, _, pdraw, _, bdraw, result in paths
    ]
    for info, tree in trees.items():
        player = "hand_info" if info == "hands" else "total_info"
        banker = "total_info" if info == "totals" else "hand_info"
        keys = [
            (
                None if pnode is None else graph.nodes[pnode][player],
                None if bnode is None else graph.nodes[bnode][banker],
            )
            for _, _, pnode, _, bnode, _, _ in paths
        ]
        sets = [
            (None if p < 0 else tree.player_sets[p], None if b < 0 else tree.banker_sets[b])
            for p, b in zip(tree.player_set.tolist(), tree.banker_set.tolist(), strict=True)
        ]
        assert sets == keys, info


def test_bilinear_sums_match_plain_fraction_sums() -> None:
    """The bilinear form's sums (integers over a common denominator inside) equal the plain
    Fraction sums on a grid and strategies with unrelated denominators, negatives and zeros."""
    rng = random.Random(28)

    def frac() -> Fraction:
        return Fraction(rng.randint(-50, 50), rng.choice([1, 3, 7, 12, 97, 1000]))

    grid = [[frac() for _ in range(6)] for _ in range(4)]  # 3 Player sets, 5 Banker sets
    x = [frac() / 50 for _ in range(3)]
    q = [Fraction(0), Fraction(1), frac() / 50, frac() / 50, Fraction(1, 3)]
    xs, qs = [*x, Fraction(1)], [*q, Fraction(1)]
    plain = sum(grid[a][b] * xs[a] * qs[b] for a in range(4) for b in range(6))
    b_gains = [sum(grid[a][i] * xs[a] for a in range(4)) for i in range(5)]
    p_gains = [sum(grid[h][b] * qs[b] for b in range(6)) for h in range(3)]
    b_base = sum(grid[a][5] * xs[a] for a in range(4))
    p_base = sum(grid[3][b] * qs[b] for b in range(6))
    assert expectation(grid, x, q) == plain
    assert banker_gains(grid, x) == b_gains
    assert player_gains(grid, q) == p_gains
    assert banker_best_value(grid, x) == b_base + sum(g for g in b_gains if g > 0)
    assert player_best_value(grid, q) == p_base + sum(g for g in p_gains if g < 0)
